package flussql_test

import (
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/planner"
)

// TestDifferentialLimit checks the class of plans where a LIMIT, an OFFSET or a top-N
// could be pushed below something that drops rows (a filter, a join, a DISTINCT, a
// HAVING): random conditions over a log table and a primary-key table of 2 buckets, the
// same rows in SQLite. A LIMIT n over m matching rows must give min(n, m) rows, each one a
// matching row; ORDER BY … LIMIT must give exactly SQLite's rows. On a server without
// ScanKv a primary-key table's filtered scan may be refused (planner.ErrNeedsFullScan),
// never answered short. FLUSSQL_DIFF_QUERIES sets the number of queries (default 300).
func TestDifferentialLimit(t *testing.T) {
	db, dbName := openTestDB(t)
	n := 150
	if v := envInt(t, "FLUSSQL_DIFF_QUERIES"); v > 0 {
		n = v / 2
	}
	rng := rand.New(rand.NewPCG(3, 11))
	ref, err := sql.Open("sqlite", ":memory:")
	require.NoError(t, err)
	defer ref.Close()
	ref.SetMaxOpenConns(1)
	_, err = ref.Exec(`PRAGMA case_sensitive_like = ON`)
	require.NoError(t, err)

	tables := map[string]string{"t": dbName + ".lt", "tp": dbName + ".lp"}
	_, err = db.Exec(`CREATE TABLE ` + tables["t"] + ` (k INT, a INT, b INT, s STRING, d DOUBLE, m DECIMAL(8, 2)) WITH ('bucket.num' = '2')`)
	require.NoError(t, err)
	_, err = db.Exec(`CREATE TABLE ` + tables["tp"] + ` (k INT, a INT, b INT, s STRING, d DOUBLE, m DECIMAL(8, 2),
		PRIMARY KEY (k) NOT ENFORCED) WITH ('bucket.num' = '2')`)
	require.NoError(t, err)
	rows := 200
	vals := diffTableRows(rng, rows)
	for short, full := range tables {
		_, err = db.Exec(`INSERT INTO ` + full + ` VALUES ` + strings.Join(vals, ", "))
		require.NoError(t, err)
		_, err = ref.Exec(`CREATE TABLE ` + short + ` (k INTEGER, a INTEGER, b INTEGER, s TEXT, d REAL, m REAL)`)
		require.NoError(t, err)
		_, err = ref.Exec(`INSERT INTO ` + short + ` VALUES ` + strings.Join(vals, ", "))
		require.NoError(t, err)
	}

	g := &queryGen{rng: rng, keys: rows}
	refused, ran := 0, 0
	for i := range n {
		for _, short := range []string{"t", "tp"} {
			cond := g.boolExpr(g.pick(3))
			limit, offset := 1+g.pick(8), g.pick(3)
			// count is the number of rows the inner query has in SQLite; the LIMIT/OFFSET
			// over it must leave max(0, min(limit, count-offset)).
			var inner gexpr
			switch g.pick(5) {
			case 0: // a filter
				inner = wrap("SELECT k FROM {T} WHERE %s", cond)
			case 1: // a join on the key, filtered on the left side
				inner = wrap("SELECT x.k FROM (SELECT k, a FROM {T} WHERE %s) x JOIN {T} y ON y.k = x.k", cond)
			case 2: // DISTINCT
				inner = wrap("SELECT DISTINCT b FROM {T} WHERE %s", cond)
			case 3: // HAVING
				inner = same(fmt.Sprintf("SELECT b, COUNT(*) AS c FROM {T} GROUP BY b HAVING COUNT(*) > %d", 5+g.pick(20)))
			default: // a filter over a subquery
				inner = wrap("SELECT z.k FROM (SELECT k, a, b, s, d, m FROM {T}) z WHERE %s", cond)
			}
			fl := strings.ReplaceAll(inner.fl, "{T}", tables[short])
			sq := strings.ReplaceAll(inner.sq, "{T}", short)
			var want int
			require.NoError(t, ref.QueryRow(`SELECT COUNT(*) FROM (`+sq+`)`).Scan(&want), sq)
			want = max(0, min(limit, want-offset))
			q := fmt.Sprintf("SELECT COUNT(*) FROM (%s LIMIT %d OFFSET %d) w", fl, limit, offset)
			var got int
			err := db.QueryRow(q).Scan(&got)
			if short == "tp" && errors.Is(err, planner.ErrNeedsFullScan) && !testServerVersion(t).AtLeast(1, 0) {
				require.NotContains(t, err.Error(), "add LIMIT", "query %d: %s", i, q)
				refused++
				continue
			}
			require.NoError(t, err, "query %d: %s", i, q)
			ran++
			if got != want {
				t.Errorf("query %d: %s: %d rows, want %d (SQLite: %s)", i, q, got, want, sq)
			}
			// Ordered by the key, the rows themselves are SQLite's.
			if strings.HasPrefix(inner.fl, "SELECT k FROM") {
				ordered := fmt.Sprintf("%s ORDER BY k LIMIT %d OFFSET %d", fl, limit, offset)
				gotRows, gerr := diffRows(db, ordered)
				wantRows, werr := diffRows(ref, fmt.Sprintf("%s ORDER BY k LIMIT %d OFFSET %d", sq, limit, offset))
				require.NoError(t, werr)
				if errors.Is(gerr, planner.ErrNeedsFullScan) && !testServerVersion(t).AtLeast(1, 0) {
					continue
				}
				require.NoError(t, gerr, ordered)
				if msg := compareResults(gotRows, wantRows, true); msg != "" {
					t.Errorf("query %d: %s: %s", i, ordered, msg)
				}
			}
		}
	}
	t.Logf("%d limit queries ran, %d refused (primary-key table without ScanKv)", ran, refused)
	require.Greater(t, ran, n, "the log table's queries all run")
}

func envInt(t *testing.T, name string) int {
	t.Helper()
	v := strings.TrimSpace(os.Getenv(name))
	if v == "" {
		return 0
	}
	n, err := strconv.Atoi(v)
	require.NoError(t, err, name)
	return n
}
