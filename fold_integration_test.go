package flussql_test

import (
	"database/sql"
	"fmt"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// q6Row is one lineitem row of TestConstantFoldingQ6: money in cents.
type q6Row struct {
	quantity, priceCents, discCents int64
	ship                            time.Time
	mode                            string
}

// TestConstantFoldingQ6 runs TPC-H Q6 with its bounds written as
// expressions (DATE '1994-01-01' + INTERVAL '1' YEAR, 0.06 - 0.01, …) and as
// literals: both give the sum computed here exactly, and EXPLAIN shows the
// folded literals in the filter. A Q6 of the same shape over columns a Fluss
// 1.0 server keeps statistics for (INT, STRING) shows them in the server
// filter too, and gives the same sum as the unfolded query (bounds given
// through placeholders, which are not folded before the server filter is
// decided). DECIMAL arguments are given as strings (the bulk-load path).
func TestConstantFoldingQ6(t *testing.T) {
	db, dbName := openTestDB(t)
	v := testServerVersion(t)
	with := `'bucket.num' = '2'`
	if v.AtLeast(1, 0) {
		with += `, 'table.statistics.columns' = '*'`
	}
	tbl := dbName + "." + createTable(t, db, dbName, "lineitem",
		`l_orderkey BIGINT NOT NULL, l_quantity INT, l_extendedprice DECIMAL(15, 2), l_discount DECIMAL(15, 2), l_shipdate DATE, l_shipday INT, l_discount_pct INT, l_shipmode STRING`, with)
	rng := rand.New(rand.NewPCG(26, 6))
	modes := []string{"AIR", "MAIL", "SHIP", "TRUCK"}
	epoch := time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC)
	rows := make([]q6Row, 3000)
	tx, err := db.Begin()
	require.NoError(t, err)
	ins, err := tx.Prepare(`INSERT INTO ` + tbl + ` VALUES (?, ?, ?, ?, ?, ?, ?, ?)`)
	require.NoError(t, err)
	for i := range rows {
		r := q6Row{quantity: 1 + rng.Int64N(50), priceCents: 90000 + rng.Int64N(10000000), discCents: rng.Int64N(11),
			ship: time.Date(1993, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, rng.IntN(3*365)), mode: modes[rng.IntN(len(modes))]}
		rows[i] = r
		_, err := ins.Exec(int64(i), r.quantity, cents(r.priceCents), cents(r.discCents), r.ship.Format(time.DateOnly),
			int64(r.ship.Sub(epoch).Hours()/24), r.discCents, r.mode)
		require.NoError(t, err)
	}
	require.NoError(t, tx.Commit())

	from, to := time.Date(1994, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(1995, 1, 1, 0, 0, 0, 0, time.UTC)
	want := new(big.Int)
	wantShape := new(big.Int)
	for _, r := range rows {
		if !r.ship.Before(from) && r.ship.Before(to) && r.discCents >= 5 && r.discCents <= 7 && r.quantity < 24 {
			want.Add(want, big.NewInt(r.priceCents*r.discCents))
			if r.mode == "AIR" || r.mode == "MAIL" {
				wantShape.Add(wantShape, big.NewInt(r.priceCents*r.discCents))
			}
		}
	}
	scale4 := func(n *big.Int) string { // cents × cents: scale 4
		s := fmt.Sprintf("%05s", n.String())
		return s[:len(s)-4] + "." + s[len(s)-4:]
	}

	folded := `SELECT SUM(l_extendedprice * l_discount) AS revenue FROM ` + tbl + ` WHERE l_shipdate >= DATE '1994-01-01' AND l_shipdate < DATE '1994-01-01' + INTERVAL '1' YEAR AND l_discount BETWEEN 0.06 - 0.01 AND 0.06 + 0.01 AND l_quantity < 24`
	literal := `SELECT SUM(l_extendedprice * l_discount) AS revenue FROM ` + tbl + ` WHERE l_shipdate >= DATE '1994-01-01' AND l_shipdate < DATE '1995-01-01' AND l_discount BETWEEN 0.05 AND 0.07 AND l_quantity < 24`
	for _, q := range []string{folded, literal} {
		assert.Equal(t, [][]string{{scale4(want)}}, queryStrings(t, db, q), q)
		plan := explain(t, db, q)
		assert.Contains(t, plan, "l_shipdate < DATE '1995-01-01'", plan)
		assert.Contains(t, plan, "l_discount >= 0.05 AND l_discount <= 0.07", plan)
	}

	shape := `SELECT SUM(l_extendedprice * l_discount) FROM ` + tbl + ` WHERE l_shipday >= 8766 AND l_shipday < 8766 + 365 AND l_discount_pct BETWEEN 6 - 1 AND 6 + 1 AND l_quantity < 20 + 4 AND l_shipmode IN ('AI' || 'R', 'MAIL')`
	unfolded := `SELECT SUM(l_extendedprice * l_discount) FROM ` + tbl + ` WHERE l_shipday >= ? AND l_shipday < ? + 365 AND l_discount_pct BETWEEN ? - 1 AND ? + 1 AND l_quantity < ? + 4 AND l_shipmode IN (? || 'R', 'MAIL')`
	assert.Equal(t, [][]string{{scale4(wantShape)}}, queryStrings(t, db, shape))
	assert.Equal(t, [][]string{{scale4(wantShape)}}, queryStrings(t, db, unfolded, 8766, 8766, 6, 6, 20, "AI"))
	plan := explain(t, db, shape)
	if v.AtLeast(1, 0) {
		assert.Contains(t, plan, "server filter: (l_shipday >= 8766 AND l_shipday < 9131 AND l_discount_pct >= 5 AND l_discount_pct <= 7 AND l_quantity < 24 AND l_shipmode IN ('AIR', 'MAIL'))", plan)
	} else {
		assert.NotContains(t, plan, "server filter:", plan)
		assert.Contains(t, plan, "l_shipday < 9131", plan)
	}
}

// cents renders n hundredths as decimal text, e.g. -7 as "-0.07".
func cents(n int64) string {
	sign := ""
	if n < 0 {
		sign, n = "-", -n
	}
	return fmt.Sprintf("%s%d.%02d", sign, n/100, n%100)
}

func explain(t *testing.T, db *sql.DB, q string) string {
	t.Helper()
	return strings.Join(flatten(queryStrings(t, db, `EXPLAIN `+q)), "\n")
}
