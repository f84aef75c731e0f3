package tpch

import (
	"context"
	"database/sql"
	"encoding/binary"
	"hash/fnv"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	_ "modernc.org/sqlite"
)

func count(g *Generator, table string) int64 {
	var n int64
	for range g.Rows(table) {
		n++
	}
	return n
}

func TestCardinalitiesAndKeys(t *testing.T) {
	g := NewGenerator(0.01, 1)
	for _, tc := range []struct {
		table string
		want  int64
	}{{"region", 5}, {"nation", 25}, {"supplier", 100}, {"customer", 1500}, {"part", 2000}, {"partsupp", 8000}, {"orders", 15000}} {
		assert.Equal(t, tc.want, count(g, tc.table), tc.table)
	}
	lines := count(g, "lineitem")
	assert.InDelta(t, 60000, lines, 2000, "lineitem: 1 to 7 lines per order, 4 on average")

	var keys []int64
	for r := range g.Rows("orders") {
		keys = append(keys, r[0].I)
		assert.NotZero(t, r[1].I%3, "no orders of customers whose key divides by 3")
	}
	assert.Equal(t, []int64{1, 2, 3, 4, 5, 6, 7, 8, 33, 34}, keys[:10], "8 of every 32 order keys")
}

func TestDeterministic(t *testing.T) {
	a, b := NewGenerator(0.01, 7), NewGenerator(0.01, 7)
	other := NewGenerator(0.01, 8)
	dump := func(g *Generator) uint64 {
		h := fnv.New64a()
		for r := range g.Rows("lineitem") {
			for _, v := range r {
				binary.Write(h, binary.LittleEndian, v.I)
				h.Write([]byte(v.S))
			}
		}
		return h.Sum64()
	}
	require.Equal(t, dump(a), dump(b))
	require.NotEqual(t, dump(a), dump(other))
}

func TestLineitemRules(t *testing.T) {
	g := NewGenerator(0.01, 1)
	for r := range g.Rows("lineitem") {
		ship, commit, receipt := r[10].I, r[11].I, r[12].I
		require.Greater(t, receipt, ship)
		require.LessOrEqual(t, ship, endDate)
		require.LessOrEqual(t, receipt, endDate+30)
		if receipt > currentDate {
			require.Equal(t, "N", r[8].S)
		} else {
			require.Contains(t, []string{"R", "A"}, r[8].S)
		}
		require.Equal(t, map[bool]string{true: "O", false: "F"}[ship > currentDate], r[9].S)
		require.Equal(t, r[4].I/100*retailPrice(r[1].I), r[5].I, "extendedprice = quantity × retailprice")
		_ = commit
	}
}

// TestQueriesOnSQLite runs the SQLite spelling of the 22 queries over scale 0.01: every
// one returns rows, as the specification's validation parameters do on dbgen's data.
func TestQueriesOnSQLite(t *testing.T) {
	db, err := sql.Open("sqlite", ":memory:")
	require.NoError(t, err)
	defer db.Close()
	db.SetMaxOpenConns(1)
	_, err = db.Exec(`PRAGMA case_sensitive_like = ON`)
	require.NoError(t, err)
	require.NoError(t, NewGenerator(0.01, DefaultSeed).LoadSQL(context.Background(), db))
	for n := 1; n <= QueryCount; n++ {
		q, err := ReadQuery("../../testdata/tpch/sqlite", n)
		require.NoError(t, err)
		start := time.Now()
		rows, err := db.Query(q)
		require.NoError(t, err, "q%d", n)
		cols, err := rows.Columns()
		require.NoError(t, err)
		k := 0 // rows with a value: an aggregate over no rows is one row of NULL
		share := 0.0
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			require.NoError(t, rows.Scan(ptrs...))
			if slices.ContainsFunc(vals, func(v any) bool { return v != nil }) {
				k++
			}
			if n == 8 {
				share += vals[1].(float64)
			}
		}
		require.NoError(t, rows.Err())
		rows.Close()
		t.Logf("q%d: %d rows in %v", n, k, time.Since(start))
		assert.Positive(t, k, "q%d returns rows", n)
		if n == 8 {
			assert.Positive(t, share, "q8: BRAZIL has a market share")
		}
	}
}

func TestTablesOf(t *testing.T) {
	q, err := ReadQuery("../../testdata/tpch/queries", 14)
	require.NoError(t, err)
	assert.Equal(t, map[string][]string{
		"part":     {"p_partkey", "p_type"},
		"lineitem": {"l_partkey", "l_extendedprice", "l_discount", "l_shipdate"},
	}, TablesOf(q))
	assert.NotContains(t, q, "--", "comments are dropped")
}
