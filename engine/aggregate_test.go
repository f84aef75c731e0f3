package engine

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/types"
)

// referenceAggregate groups rows as the boxed states do, in order of first
// appearance: the model the typed accumulators must match.
func referenceAggregate(t *testing.T, keys []int, aggs []*Agg, argCol []int, rows [][]any) [][]any {
	index := map[string]int{}
	var out [][]any
	var states [][]aggState
	var seen [][]map[string]bool
	for _, row := range rows {
		var key []byte
		for _, k := range keys {
			key = appendKey(key, row[k])
		}
		g, ok := index[string(key)]
		if !ok {
			g = len(out)
			index[string(key)] = g
			var kv []any
			for _, k := range keys {
				kv = append(kv, row[k])
			}
			out = append(out, kv)
			var st []aggState
			var sn []map[string]bool
			for _, a := range aggs {
				st = append(st, a.newState())
				sn = append(sn, map[string]bool{})
			}
			states, seen = append(states, st), append(seen, sn)
		}
		for i, a := range aggs {
			if a.Arg == nil {
				_ = states[g][i].add(true)
				continue
			}
			v := row[argCol[i]]
			if v == nil {
				continue
			}
			if a.Distinct {
				k := string(appendKey(nil, v))
				if seen[g][i][k] {
					continue
				}
				seen[g][i][k] = true
			}
			require.NoError(t, states[g][i].add(v))
		}
	}
	if len(keys) == 0 && len(out) == 0 {
		out = append(out, nil)
		var st []aggState
		for _, a := range aggs {
			st = append(st, a.newState())
		}
		states = append(states, st)
	}
	for g := range out {
		for i := range aggs {
			v, err := states[g][i].result()
			require.NoError(t, err)
			out[g] = append(out[g], v)
		}
	}
	return out
}

// TestAggregateMatchesStates runs the typed hash aggregation over random
// data (NULLs, integer keys dense and sparse, string keys, several keys,
// every integer and float width) against the boxed states.
func TestAggregateMatchesStates(t *testing.T) {
	cols := []Column{{"i8", types.NewTinyInt()}, {"i16", types.NewSmallInt()}, {"i32", types.NewInt()},
		{"i64", types.NewBigInt()}, {"f", types.NewFloat()}, {"d", types.NewDouble()}, {"s", types.NewString()}}
	in := &Input{Cols: cols}
	c := func(i int) *Col { return col(i, cols[i].Name, cols[i].Type) }
	var aggList []*Agg
	var argCol []int
	aggList = append(aggList, must(NewAgg("COUNT", nil, false)))
	argCol = append(argCol, -1)
	for i := range 6 {
		for _, fn := range []string{"COUNT", "SUM", "AVG", "MIN", "MAX"} {
			aggList = append(aggList, must(NewAgg(fn, c(i), false)))
			argCol = append(argCol, i)
		}
	}
	for _, i := range []int{0, 1, 2, 3, 6} { // COUNT(DISTINCT) of every integer width, and of strings
		aggList = append(aggList, must(NewAgg("COUNT", c(i), true)))
		argCol = append(argCol, i)
	}
	aggList = append(aggList, must(NewAgg("MIN", c(6), false)), must(NewAgg("MAX", c(6), false)))
	argCol = append(argCol, 6, 6)

	rng := rand.New(rand.NewPCG(7, 8))
	gen := func(n int, spread int64) [][]any {
		rows := make([][]any, n)
		for r := range rows {
			k := rng.Int64N(50)
			row := []any{int64(int8(rng.IntN(256))), int64(rng.IntN(600) - 300), int64(rng.IntN(40) - 20),
				k * spread, float64(float32(rng.Float64()*10 - 5)), float64(rng.IntN(9)) / 4, "s" + strconv.Itoa(int(k%13))}
			if rng.IntN(30) == 0 {
				row[3] = -int64(1)<<56 + int64(rng.IntN(3)) // far below the others: a wide range
			}
			for i := range row {
				if rng.IntN(8) == 0 {
					row[i] = nil
				}
			}
			rows[r] = row
		}
		return rows
	}
	for _, tc := range []struct {
		name   string
		keys   []int
		spread int64
	}{
		{"global", nil, 1},
		{"tinyint key", []int{0}, 1},
		{"int key", []int{2}, 1},
		{"bigint key, dense", []int{3}, 1},
		{"bigint key, sparse", []int{3}, 1 << 40},
		{"string key", []int{6}, 1},
		{"two keys", []int{2, 6}, 1},
		{"double key", []int{5}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, n := range []int{0, 1, 7, 300, 3000} {
				rows := gen(n, tc.spread)
				var keys []Expr
				var names []string
				for _, k := range tc.keys {
					keys, names = append(keys, c(k)), append(names, cols[k].Name)
				}
				got, err := run(t, &Aggregate{Input: in, Keys: keys, Names: names, Aggs: aggList}, rows, 16, &Budget{Limit: 1 << 30})
				require.NoError(t, err)
				want := referenceAggregate(t, tc.keys, aggList, argCol, rows)
				if len(want) == 0 {
					want = nil
				}
				assert.Equal(t, want, got, "%d rows", n)
			}
		})
	}
}

// TestIntIndex checks the integer index through its dense and hash forms:
// keys near the ends of int64, a range that grows down and up, and one too
// wide to stay dense.
func TestIntIndex(t *testing.T) {
	for _, keys := range [][]int64{
		{5, 3, 9, 1 << 20, -7, 5, 3},
		{math.MaxInt64, math.MaxInt64 - 3, math.MaxInt64, math.MinInt64, 0},
		{math.MinInt64, math.MinInt64 + 1000, math.MinInt64},
		{100, 99, 98, 5000, -5000, 100},
	} {
		var x intIndex
		var groups []int64
		want := map[int64]int32{}
		for _, k := range keys {
			var g int32
			var added bool
			if x.widen(k, k, len(groups)+1, groups, -1, math.MaxInt64) {
				d := &x.dense[k-x.lo]
				if added = *d == 0; added {
					*d = int32(len(groups)) + 1
				}
				g = *d - 1
			} else {
				g, added = x.find(k, int32(len(groups)))
			}
			if w, ok := want[k]; ok {
				assert.False(t, added, "key %d", k)
				assert.Equal(t, w, g, "key %d", k)
				continue
			}
			assert.True(t, added, "key %d", k)
			want[k] = g
			groups = append(groups, k)
		}
	}
}

// TestAggregateBudget checks that the budget follows the typed state: held
// while the groups grow, all given back after the result, and an error
// when a million groups do not fit.
func TestAggregateBudget(t *testing.T) {
	cols := []Column{{"k", types.NewBigInt()}, {"v", types.NewBigInt()}}
	in := &Input{Cols: cols}
	n := &Aggregate{Input: in, Keys: []Expr{col(0, "k", types.NewBigInt())}, Names: []string{"k"},
		Aggs: []*Agg{must(NewAgg("SUM", col(1, "v", types.NewBigInt()), false))}}
	rows := make([][]any, 100_000)
	for i := range rows {
		rows[i] = []any{int64(i) * 1_000_003, int64(i)} // sparse: the hash table
	}
	budget := &Budget{Limit: 1 << 20, Setting: "query_memory"}
	_, err := run(t, n, rows, 4096, budget)
	var me *MemoryError
	require.ErrorAs(t, err, &me)
	assert.Equal(t, "aggregation", me.Operator)
	assert.Zero(t, budget.Used())

	budget = &Budget{Limit: 64 << 20}
	got, err := run(t, n, rows, 4096, budget)
	require.NoError(t, err)
	assert.Len(t, got, len(rows))
	assert.Zero(t, budget.Used())

	// Two keys 900,000 apart: a dense index would take 3.6 MB, more than half of a 1 MiB
	// budget, so the groups go to the hash table and the query fits.
	budget = &Budget{Limit: 1 << 20}
	got, err = run(t, n, [][]any{{int64(0), int64(1)}, {int64(900_000), int64(2)}, {int64(0), int64(3)}}, 2, budget)
	require.NoError(t, err)
	assert.Equal(t, [][]any{{int64(0), int64(4)}, {int64(900_000), int64(2)}}, got)
}

// TestAggregateTemporalKeys groups by one DATE, TIME, TIMESTAMP or
// TIMESTAMP_LTZ key, which the integer index takes unboxed (dense for days
// near each other, the hash table for instants far apart), and by a
// temporal key with another; DISTINCT over the same columns.
func TestAggregateTemporalKeys(t *testing.T) {
	cols := []Column{{"d", types.NewDate()}, {"tm", types.NewTime(3)}, {"ts", types.NewTimestamp(3)},
		{"ltz", types.NewTimestampLTZ(6)}, {"v", types.NewBigInt()}}
	in := &Input{Cols: cols}
	c := func(i int) *Col { return col(i, cols[i].Name, cols[i].Type) }
	aggList := []*Agg{must(NewAgg("COUNT", nil, false)), must(NewAgg("SUM", c(4), false)), must(NewAgg("MIN", c(2), false))}
	argCol := []int{-1, 4, 2}
	rng := rand.New(rand.NewPCG(3, 4))
	rows := make([][]any, 500)
	for r := range rows {
		day := int32(19700 + rng.IntN(40))
		rows[r] = []any{day, int64(rng.IntN(5) * 3600000), int64(day)*86400000 + int64(rng.IntN(3))*1000,
			int64(rng.IntN(6)) * 1_000_000_000_000_000, int64(rng.IntN(100))}
		for i := range 4 {
			if rng.IntN(10) == 0 {
				rows[r][i] = nil
			}
		}
	}
	for _, keys := range [][]int{{0}, {1}, {2}, {3}, {0, 2}} {
		var ks []Expr
		var names []string
		for _, k := range keys {
			ks, names = append(ks, c(k)), append(names, cols[k].Name)
		}
		n := &Aggregate{Input: in, Keys: ks, Names: names, Aggs: aggList}
		got, err := run(t, n, rows, 64, &Budget{Limit: 1 << 30})
		require.NoError(t, err)
		assert.Equal(t, referenceAggregate(t, keys, aggList, argCol, rows), got, "GROUP BY %v", names)
		op, err := newAggregate(&evalCtx{}, nil, &sliceInput{}, n)
		require.NoError(t, err)
		want := keyInt
		if len(keys) > 1 {
			want = keysMulti
		}
		assert.Equal(t, want, op.(*aggregateOp).mode, "GROUP BY %v", names)
	}
	for k := range 4 {
		got, err := run(t, &Distinct{Input: &Project{Input: in, Exprs: []Expr{c(k)}, Names: []string{cols[k].Name}}}, rows, 64, &Budget{Limit: 1 << 30})
		require.NoError(t, err)
		var want [][]any
		seen := map[any]bool{}
		for _, r := range rows {
			if !seen[r[k]] {
				seen[r[k]] = true
				want = append(want, []any{r[k]})
			}
		}
		assert.Equal(t, want, got, "DISTINCT %s", cols[k].Name)
	}
}
