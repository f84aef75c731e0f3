package executor

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/types"
)

// batchColumns builds one Arrow column per tested type, with nulls, sliced so that the
// arrays do not start at offset 0.
func batchColumns(t *testing.T) map[string]struct {
	typ types.DataType
	arr arrow.Array
} {
	mem := memory.NewGoAllocator()
	const n = 300
	valid := func(i int) bool { return i%7 != 3 }
	build := func(b array.Builder, add func(i int)) arrow.Array {
		for i := range n {
			if valid(i) {
				add(i)
			} else {
				b.AppendNull()
			}
		}
		full := b.NewArray()
		t.Cleanup(full.Release)
		s := array.NewSlice(full, 5, n-2)
		t.Cleanup(s.Release)
		return s
	}
	i8 := array.NewInt8Builder(mem)
	i16 := array.NewInt16Builder(mem)
	i32 := array.NewInt32Builder(mem)
	i64 := array.NewInt64Builder(mem)
	f32 := array.NewFloat32Builder(mem)
	f64 := array.NewFloat64Builder(mem)
	str := array.NewStringBuilder(mem)
	long := array.NewStringBuilder(mem)
	out := map[string]struct {
		typ types.DataType
		arr arrow.Array
	}{
		"TINYINT":     {types.NewTinyInt(), build(i8, func(i int) { i8.Append(int8(i - 128)) })},
		"SMALLINT":    {types.NewSmallInt(), build(i16, func(i int) { i16.Append(int16(i * -97)) })},
		"INT":         {types.NewInt(), build(i32, func(i int) { i32.Append(int32(i * 1000003)) })},
		"BIGINT":      {types.NewBigInt(), build(i64, func(i int) { i64.Append(int64(i) << 40) })},
		"FLOAT":       {types.NewFloat(), build(f32, func(i int) { f32.Append(float32(i) / 3) })},
		"DOUBLE":      {types.NewDouble(), build(f64, func(i int) { f64.Append(float64(i) * 1.5) })},
		"STRING":      {types.NewString(), build(str, func(i int) { str.Append(string(rune('a'+i%26)) + "-name") })},
		"long STRING": {types.NewString(), build(long, func(i int) { long.Append(string(make([]byte, 100+i))) })},
	}
	return out
}

// batchCells hands out the same values as arrowCell (the per-value converter).
func TestBatchCellsMatchArrowCell(t *testing.T) {
	for name, c := range batchColumns(t) {
		t.Run(name, func(t *testing.T) {
			want, err := arrowCell(c.typ, c.arr)
			require.NoError(t, err)
			got, err := batchCells(c.typ, c.arr)
			require.NoError(t, err)
			for i := range c.arr.Len() {
				if c.arr.IsNull(i) {
					continue
				}
				require.Equal(t, want(i), got(i), "row %d", i)
			}
		})
	}
}

// Integer, floating-point and short string values are handed out without an
// allocation per value.
func TestBatchCellsDoNotAllocatePerValue(t *testing.T) {
	cols := batchColumns(t)
	for _, name := range []string{"TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE", "STRING"} {
		c := cols[name]
		cell, err := batchCells(c.typ, c.arr)
		require.NoError(t, err)
		var sink any
		allocs := testing.AllocsPerRun(100, func() {
			for i := range c.arr.Len() {
				sink = cell(i)
			}
		})
		_ = sink
		assert.Zero(t, allocs, "%s: allocations per batch of %d values", name, c.arr.Len())
	}
}
