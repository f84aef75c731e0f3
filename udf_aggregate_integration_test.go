package flussql_test

import (
	"database/sql"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql"
	"github.com/flussql/flussql/fluss/flusstest/realcluster"
	"github.com/flussql/flussql/fluss/types"
)

// sortedSet is the state of a test aggregate: the distinct strings of a group, sorted.
type sortedSet map[string]bool

func (s sortedSet) Add(args []any) error { s[args[0].(string)] = true; return nil }
func (s sortedSet) Result() (any, error) {
	if len(s) == 0 {
		return nil, nil
	}
	keys := make([]string, 0, len(s))
	for k := range s {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return strings.Join(keys, ","), nil
}

// TestRegisterAggregateFlussTable groups a Fluss log table by region with two aggregates
// written in Go: WAVG(price, qty) equals SUM(price * qty) / SUM(qty) computed by the built-ins
// and by the test from the rows it wrote, HAVING filters on it, and TAGS(DISTINCT tag) the
// sorted distinct tags of each region.
func TestRegisterAggregateFlussTable(t *testing.T) {
	db, dbName := openTestDB(t)
	tbl := dbName + "." + createTable(t, db, dbName, "sales", `region STRING, price DOUBLE, qty INT, tag STRING`, `'bucket.num' = '2'`)
	regions := []string{"emea", "apac", "amer", "none"}
	tags := []string{"a", "b", "c", "d", "e"}
	rng := rand.New(rand.NewPCG(31, 1))
	type sums struct{ pq, q float64 }
	want := map[string]*sums{}
	wantTags := map[string]map[string]bool{}
	tx, err := db.Begin()
	require.NoError(t, err)
	ins, err := tx.Prepare(`INSERT INTO ` + tbl + ` VALUES (?, ?, ?, ?)`)
	require.NoError(t, err)
	for i := range 2000 {
		r := regions[rng.IntN(3)]
		price := float64(rng.IntN(10000)) / 100
		var qty any = int64(1 + rng.IntN(20))
		if i%50 == 0 {
			qty = nil // skipped by WAVG, as by SUM
		}
		tag := tags[rng.IntN(len(tags))]
		if r == "amer" {
			tag = tags[rng.IntN(2)]
		}
		_, err := ins.Exec(r, price, qty, tag)
		require.NoError(t, err)
		if want[r] == nil {
			want[r], wantTags[r] = &sums{}, map[string]bool{}
		}
		if qty != nil {
			want[r].pq += price * float64(qty.(int64))
			want[r].q += float64(qty.(int64))
		}
		wantTags[r][tag] = true
	}
	require.NoError(t, tx.Commit())

	cfg, err := flussql.ParseDSN("fluss://" + realcluster.Addr(t) + "/fluss")
	require.NoError(t, err)
	c, err := flussql.NewConnector(cfg)
	require.NoError(t, err)
	require.NoError(t, c.RegisterAggregate(flussql.AggregateFunction{Name: "WAVG", Args: []types.DataType{types.NewDouble(), types.NewDouble()},
		Result: types.NewDouble(), New: func() flussql.AggregateState { return &weightedAvg{} }}))
	require.NoError(t, c.RegisterAggregate(flussql.AggregateFunction{Name: "TAGS", Args: []types.DataType{types.NewString()},
		Result: types.NewString(), New: func() flussql.AggregateState { return sortedSet{} }}))
	udb := sql.OpenDB(c)
	defer udb.Close()

	rows, err := udb.Query(`SELECT region, WAVG(price, qty), SUM(price * qty) / SUM(qty), TAGS(DISTINCT tag), COUNT(*)
		FROM ` + tbl + ` GROUP BY region HAVING WAVG(price, qty) > 0 ORDER BY region`)
	require.NoError(t, err)
	defer rows.Close()
	var got []string
	for rows.Next() {
		var region, tagList string
		var wavg, builtin float64
		var n int64
		require.NoError(t, rows.Scan(&region, &wavg, &builtin, &tagList, &n))
		got = append(got, region)
		w := want[region]
		require.NotNil(t, w, region)
		assert.InDelta(t, w.pq/w.q, wavg, 1e-9*math.Abs(wavg), region)
		assert.InDelta(t, builtin, wavg, 1e-9*math.Abs(wavg), region)
		tagsWant, _ := sortedSet(wantTags[region]).Result()
		assert.Equal(t, tagsWant, tagList, region)
	}
	require.NoError(t, rows.Err())
	assert.Equal(t, []string{"amer", "apac", "emea"}, got)

	var wavgNone sql.NullFloat64
	require.NoError(t, udb.QueryRow(`SELECT WAVG(price, qty) FROM `+tbl+` WHERE region = 'none'`).Scan(&wavgNone))
	assert.False(t, wavgNone.Valid, "over no rows WAVG is NULL: %v", wavgNone)
	_, err = udb.Query(`SELECT WAVG(price) FROM ` + tbl)
	assert.ErrorContains(t, err, "WAVG takes 2 argument(s) (DOUBLE, DOUBLE), not 1")
}
