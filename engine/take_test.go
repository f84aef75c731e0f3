package engine

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/types"
)

// TestTakeArray checks the join's take against Arrow's take kernel for
// every column type it copies itself and one it leaves to the kernel,
// with NULLs, over a slice of a column (an offset into its buffers),
// with repeated and out-of-order indexes.
func TestTakeArray(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ec := &evalCtx{ctx: context.Background(), mem: mem}
	cases := []struct {
		typ  types.DataType
		vals []any
	}{
		{types.NewTinyInt(), []any{int64(1), nil, int64(-3), int64(4), int64(5), nil}},
		{types.NewSmallInt(), []any{int64(1), int64(2), nil, int64(4), int64(-5), int64(6)}},
		{types.NewInt(), []any{int64(1), nil, int64(3), int64(4), int64(5), int64(6)}},
		{types.NewBigInt(), []any{int64(1) << 40, int64(2), int64(3), nil, int64(5), int64(6)}},
		{types.NewDouble(), []any{1.5, 2.5, nil, 4.5, 5.5, 6.5}},
		{types.NewDate(), []any{int32(1), int32(2), int32(3), int32(4), nil, int32(6)}},
		{types.NewDecimal(15, 2), nil},
		{types.NewString(), []any{"a", "", nil, "dddd", "é", "ffffff"}},
		{types.NewBoolean(), []any{true, false, nil, true, true, false}},
	}
	for _, c := range cases {
		t.Run(TypeName(c.typ), func(t *testing.T) {
			vals := c.vals
			if vals == nil {
				for i := range 6 {
					vals = append(vals, dec("12.3"+string(rune('0'+i)), 15, 2).Value)
				}
				vals[2] = nil
			}
			var many []any // runs of consecutive rows, as a filter keeps them, are copied at once
			for range 7 {
				many = append(many, vals...)
			}
			full, err := buildArray(mem, c.typ, many)
			require.NoError(t, err)
			defer full.Release()
			var runs []int64
			for _, r := range [][2]int64{{2, 20}, {30, 31}, {21, 40}, {5, 6}, {5, 14}} {
				for x := r[0]; x < r[1]; x++ {
					runs = append(runs, x)
				}
			}
			for _, a := range []arrow.Array{full, array.NewSlice(full, 1, 42)} {
				for _, idx := range [][]int64{{0, 1, 2, 3, 4}, {4, 4, 0, 2, 1, 1, 3}, {1}, {}, runs} {
					got, err := takeArray(ec, a, idx)
					require.NoError(t, err)
					ia := indexArray(idx)
					want, err := compute.TakeArray(ec.ctx, a, ia)
					ia.Release()
					require.NoError(t, err)
					assert.True(t, array.Equal(want, got), "take %v of %v: got %v, want %v", idx, a, got, want)
					assert.Equal(t, want.NullN(), got.NullN())
					got.Release()
					want.Release()
				}
				if a != full {
					a.Release()
				}
			}
		})
	}
}

// TestFilterBatch: the rows whose mask is TRUE stay (NULL drops a row), as
// with Arrow's filter kernel; an all-TRUE mask passes the batch itself.
func TestFilterBatch(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ec := &evalCtx{ctx: context.Background(), mem: mem}
	cols := []Column{{"i", types.NewInt()}, {"s", types.NewString()}}
	b := batchOf(t, mem, cols, [][]any{{int64(1), "a"}, {nil, "b"}, {int64(3), nil}, {int64(4), "d"}})
	defer b.Release()
	for _, m := range [][]any{{true, nil, false, true}, {false, false, false, false}, {nil, true, true, nil}, {true, true, true, true}} {
		mask, err := buildArray(mem, types.NewBoolean(), m)
		require.NoError(t, err)
		got, err := filterBatch(ec, b, mask)
		require.NoError(t, err)
		want, err := compute.FilterRecordBatch(ec.ctx, b, mask, compute.DefaultFilterOptions())
		require.NoError(t, err)
		assert.True(t, array.RecordEqual(want, got), "mask %v: got %v, want %v", m, got, want)
		got.Release()
		want.Release()
		mask.Release()
	}
}
