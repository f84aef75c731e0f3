package engine

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/types"
)

// TestJoinIndex checks every way the hash join indexes its build side
// against the definition: a probe row's matches are exactly the build rows
// whose keys all equal its own (none when a key is NULL), in row order.
func TestJoinIndex(t *testing.T) {
	day := func(d int) any { return int32(9131 + d) } // DATE is days in the value model
	cases := []struct {
		name  string
		types []types.DataType
		mode  joinKeyMode
		value func(r *rand.Rand) []any // one row's keys
	}{
		{"INT ids: dense", []types.DataType{types.NewInt()}, joinKeyInt, func(r *rand.Rand) []any {
			return []any{int64(r.IntN(300))}
		}},
		{"BIGINT spread wide: open addressing", []types.DataType{types.NewBigInt()}, joinKeyInt, func(r *rand.Rand) []any {
			return []any{[]int64{math.MinInt64, math.MaxInt64, -1, 0, 1 << 40}[r.IntN(5)] + int64(r.IntN(40))*(1<<50)}
		}},
		{"DATE", []types.DataType{types.NewDate()}, joinKeyInt, func(r *rand.Rand) []any { return []any{day(r.IntN(50))} }},
		{"two INTs, negative too: packed", []types.DataType{types.NewInt(), types.NewInt()}, joinKeyPacked, func(r *rand.Rand) []any {
			return []any{int64(r.IntN(20) - 10), int64([]int{math.MinInt32, -1, 0, 7, math.MaxInt32}[r.IntN(5)])}
		}},
		{"SMALLINT and DATE: packed", []types.DataType{types.NewSmallInt(), types.NewDate()}, joinKeyPacked, func(r *rand.Rand) []any {
			return []any{int64(r.IntN(5)), day(r.IntN(5))}
		}},
		{"STRING: encoded", []types.DataType{types.NewString()}, joinKeyBytes, func(r *rand.Rand) []any {
			return []any{[]string{"", "a", "ab", "b", "Brand#12"}[r.IntN(5)]}
		}},
		{"BIGINT and STRING: encoded", []types.DataType{types.NewBigInt(), types.NewString()}, joinKeyBytes, func(r *rand.Rand) []any {
			return []any{int64(r.IntN(4)), []string{"x", "y"}[r.IntN(2)]}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			require.Equal(t, c.mode, joinKeyModeOf(c.types, c.types))
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			rng := rand.New(rand.NewPCG(1, uint64(len(c.name))))
			rows := func(n int) [][]any {
				out := make([][]any, n)
				for i := range out {
					out[i] = c.value(rng)
					if rng.IntN(10) == 0 {
						out[i][rng.IntN(len(c.types))] = nil
					}
				}
				return out
			}
			build, probe := rows(500), rows(400)
			bk, pk := keyArrays(t, mem, c.types, build), keyArrays(t, mem, c.types, probe)
			defer releaseAll(bk)
			defer releaseAll(pk)
			var held int64
			x, err := buildJoinIndex(c.mode, bk, len(build), func(n int64) error { held += n; return nil })
			require.NoError(t, err)
			assert.Positive(t, held)
			heads := make([]int32, len(probe))
			require.NoError(t, x.probe(pk, len(probe), heads))
			anyNull := false
			for r, p := range probe {
				var want, got []int
				null := hasNil(p)
				anyNull = anyNull || null
				for b, row := range build {
					if !null && !hasNil(row) && reflect.DeepEqual(p, row) {
						want = append(want, b)
					}
				}
				for h := heads[r]; h > 0; h = x.next[h-1] {
					got = append(got, int(h-1))
				}
				assert.Equal(t, want, got, "probe row %d %v", r, p)
				assert.Equal(t, null, heads[r] < 0, "probe row %d %v: a NULL key is told apart", r, p)
			}
			assert.True(t, anyNull)
			assert.True(t, x.nullKey, "the build side has NULL keys")
		})
	}
}

func hasNil(row []any) bool {
	for _, v := range row {
		if v == nil {
			return true
		}
	}
	return false
}

func keyArrays(t *testing.T, mem memory.Allocator, ts []types.DataType, rows [][]any) []arrow.Array {
	arrs := make([]arrow.Array, len(ts))
	for i, typ := range ts {
		vals := make([]any, len(rows))
		for r, row := range rows {
			vals[r] = row[i]
		}
		a, err := buildArray(mem, typ, vals)
		require.NoError(t, err, fmt.Sprint(typ))
		arrs[i] = a
	}
	return arrs
}

// TestJoinIndexEdges: a build side of NULL keys only, and keys of
// different types on the two sides, which the index compares encoded.
func TestJoinIndexEdges(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ints := []types.DataType{types.NewInt()}
	nulls := keyArrays(t, mem, ints, [][]any{{nil}, {nil}})
	defer releaseAll(nulls)
	x, err := buildJoinIndex(joinKeyInt, nulls, 2, func(int64) error { return nil })
	require.NoError(t, err)
	assert.True(t, x.nullKey)
	probe := keyArrays(t, mem, ints, [][]any{{int64(1)}, {nil}})
	defer releaseAll(probe)
	heads := make([]int32, 2)
	require.NoError(t, x.probe(probe, 2, heads))
	assert.Equal(t, []int32{0, -1}, heads)

	assert.Equal(t, joinKeyBytes, joinKeyModeOf([]types.DataType{types.NewInt()}, []types.DataType{types.NewBigInt()}))
	assert.Equal(t, joinKeyBytes, joinKeyModeOf([]types.DataType{types.NewBigInt(), types.NewInt()}, []types.DataType{types.NewBigInt(), types.NewInt()}),
		"a BIGINT does not fit 32 bits")
	wide := keyArrays(t, mem, []types.DataType{types.NewBigInt()}, [][]any{{int64(1)}, {int64(7)}})
	defer releaseAll(wide)
	x, err = buildJoinIndex(joinKeyBytes, wide, 2, func(int64) error { return nil })
	require.NoError(t, err)
	require.NoError(t, x.probe(probe, 2, heads))
	assert.Equal(t, []int32{1, -1}, heads, "an INT 1 finds a BIGINT 1")
}

// TestJoinIndexBudget: the index is charged to the budget.
func TestJoinIndexBudget(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	var rows [][]any
	for i := range 1000 {
		rows = append(rows, []any{int64(i) << 40})
	}
	keys := keyArrays(t, mem, []types.DataType{types.NewBigInt()}, rows)
	defer releaseAll(keys)
	b := &Budget{Limit: 8 << 10}
	_, err := buildJoinIndex(joinKeyInt, keys, len(rows), func(n int64) error { return b.Grow(n, hashJoinState) })
	var me *MemoryError
	require.ErrorAs(t, err, &me)
	assert.Equal(t, hashJoinState, me.Operator)
}
