package fluss_test

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/datum"
	"github.com/flussql/flussql/fluss/types"
)

// nestedColumns has an INT NOT NULL id and one nullable column per nested
// shape the Arrow path supports.
func nestedColumns() []types.Column {
	point := types.NewRow(
		types.Field{Name: "x", Type: types.NewInt().AsNotNull()},
		types.Field{Name: "label", Type: types.NewString()},
	)
	return []types.Column{
		{Name: "id", Type: types.NewInt().AsNotNull()},
		{Name: "ints", Type: types.NewArray(types.NewInt())},
		{Name: "strs", Type: types.NewArray(types.NewString())},
		{Name: "matrix", Type: types.NewArray(types.NewArray(types.NewInt()))},
		{Name: "points", Type: types.NewArray(point)},
		{Name: "counts", Type: types.NewMap(types.NewString(), types.NewInt())},
		{Name: "tags", Type: types.NewMap(types.NewInt(), types.NewArray(types.NewString()))},
		{Name: "info", Type: types.NewRow(
			types.Field{Name: "n", Type: types.NewBigInt()},
			types.Field{Name: "attrs", Type: types.NewMap(types.NewString(), types.NewString())},
			types.Field{Name: "when", Type: types.NewArray(types.NewTimestampLTZ(6))},
		)},
		{Name: "decs", Type: types.NewArray(types.NewDecimal(20, 2))},
	}
}

// nestedRow returns row i: row 0 holds empty arrays/maps, every fourth row
// NULL in every nullable column, the others values that vary with i,
// including NULL elements, NULL map values and multi-byte strings.
func nestedRow(i int) []any {
	switch {
	case i == 0:
		return []any{int32(0), []any{}, []any{}, []any{}, []any{}, []datum.MapEntry{}, []datum.MapEntry{},
			[]any{nil, []datum.MapEntry{}, []any{}}, []any{}}
	case i%4 == 3:
		return []any{int32(i), nil, nil, nil, nil, nil, nil, nil, nil}
	}
	n := int32(i)
	return []any{
		n,
		[]any{n, -n, int32(1 << 30)},
		[]any{"a", nil, "héllo ✓", ""},
		[]any{[]any{n}, []any{}, nil, []any{nil, int32(7)}},
		[]any{[]any{n, "p"}, nil, []any{int32(-1), nil}},
		[]datum.MapEntry{{Key: "b", Value: n}, {Key: "a", Value: nil}, {Key: "ü", Value: int32(-5)}},
		[]datum.MapEntry{{Key: n, Value: []any{"x", nil}}, {Key: int32(-1), Value: nil}, {Key: n + 1000, Value: []any{}}},
		[]any{int64(i) << 40, []datum.MapEntry{{Key: "k", Value: nil}}, []any{datum.TimestampLTZ{EpochMillis: 1700000000000, NanoOfMilli: int32(i) * 1000}, nil}},
		[]any{datum.NewDecimal(int64(i)*100+1, 2), nil},
	}
}

// TestArrowNestedRoundTrip builds a record of ARRAY, MAP and ROW columns and
// reads every row back unchanged; the record carries Fluss's Arrow schema.
func TestArrowNestedRoundTrip(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	cols := nestedColumns()
	b, err := fluss.NewArrowRowBuilder(mem, cols)
	require.NoError(t, err)
	defer b.Release()
	const rows = 12
	for i := 0; i < rows; i++ {
		require.NoError(t, b.Append(nestedRow(i)), "row %d", i)
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	want, err := types.ToArrowSchema(types.Schema{Columns: cols})
	require.NoError(t, err)
	assert.True(t, rec.Schema().Equal(want), "records carry Fluss's Arrow schema: %s", rec.Schema())
	require.NoError(t, rec.Column(1).(*array.List).ValidateFull())
	for i := 0; i < rows; i++ {
		got, err := fluss.RowValues(rec, columnTypes(cols), i)
		require.NoError(t, err)
		assert.Equal(t, nestedRow(i), got, "row %d", i)
	}

	// A slice of the record (non-zero array offsets) reads the same rows.
	sl := rec.NewSlice(5, 9)
	defer sl.Release()
	for i := 0; i < 4; i++ {
		got, err := fluss.RowValues(sl, columnTypes(cols), i)
		require.NoError(t, err)
		assert.Equal(t, nestedRow(5+i), got, "sliced row %d", 5+i)
	}
}

// TestArrowNestedLayout checks the Arrow shapes Fluss's Java writers produce:
// the child names and nullability, NULL vs empty, entry order kept.
func TestArrowNestedLayout(t *testing.T) {
	cols := []types.Column{
		{Name: "a", Type: types.NewArray(types.NewInt().AsNotNull())},
		{Name: "m", Type: types.NewMap(types.NewString(), types.NewBigInt())},
	}
	b, err := fluss.NewArrowRowBuilder(nil, cols)
	require.NoError(t, err)
	defer b.Release()
	require.NoError(t, b.Append([]any{[]any{int32(3), int32(1)}, []datum.MapEntry{{Key: "z", Value: int64(1)}, {Key: "a", Value: nil}}}))
	require.NoError(t, b.Append([]any{nil, nil}))
	require.NoError(t, b.Append([]any{[]any{}, []datum.MapEntry{}}))
	rec := b.NewRecordBatch()
	defer rec.Release()

	lt := rec.Schema().Field(0).Type.(*arrow.ListType)
	assert.Equal(t, "element", lt.ElemField().Name)
	assert.False(t, lt.ElemField().Nullable, "ARRAY<INT NOT NULL> elements are not nullable")
	mt := rec.Schema().Field(1).Type.(*arrow.MapType)
	assert.Equal(t, "entries", mt.ElemField().Name)
	assert.False(t, mt.ElemField().Nullable)
	assert.Equal(t, "key", mt.KeyField().Name)
	assert.False(t, mt.KeyField().Nullable)
	assert.Equal(t, "value", mt.ItemField().Name)
	assert.True(t, mt.ItemField().Nullable)
	assert.False(t, mt.KeysSorted)

	l := rec.Column(0).(*array.List)
	assert.Equal(t, []int32{0, 2, 2, 2}, l.Offsets(), "NULL and empty arrays add no elements")
	assert.Equal(t, []int32{3, 1}, l.ListValues().(*array.Int32).Int32Values())
	assert.True(t, l.IsNull(1))
	assert.False(t, l.IsNull(2), "an empty array is not NULL")
	m := rec.Column(1).(*array.Map)
	assert.Equal(t, "z", m.Keys().(*array.String).Value(0), "entries keep their order")
	assert.Equal(t, "a", m.Keys().(*array.String).Value(1))
	assert.True(t, m.Items().IsNull(1))
	assert.True(t, m.IsNull(1))
	assert.False(t, m.IsNull(2))
}

// TestArrowNestedRejects checks that values outside the value model are
// errors naming the column and the position, and that a rejected row adds
// nothing (not even the valid columns before the bad one).
func TestArrowNestedRejects(t *testing.T) {
	cols := nestedColumns()
	b, err := fluss.NewArrowRowBuilder(nil, cols)
	require.NoError(t, err)
	defer b.Release()
	with := func(col int, v any) []any {
		r := nestedRow(1)
		r[col] = v
		return r
	}
	tests := []struct {
		name string
		row  []any
		msg  string
	}{
		{"array not a slice", with(1, []int32{1}), `column "ints": ARRAY<INT> takes []any, got []int32`},
		{"wrong element type", with(1, []any{int32(1), int64(2)}), `column "ints": element 1: INT takes int32, got int64`},
		{"wrong string element", with(2, []any{"a", "b", 3}), `column "strs": element 2: STRING takes string, got int`},
		{"nested array element", with(3, []any{[]any{int32(1)}, []any{int32(2), "x"}}), `column "matrix": element 1: element 1: INT takes int32, got string`},
		{"row element field", with(4, []any{[]any{"p", "q"}}), `column "points": element 0: field "x": INT NOT NULL takes int32, got string`},
		{"row element NOT NULL field", with(4, []any{[]any{nil, "q"}}), `column "points": element 0: field "x" is NULL`},
		{"row element arity", with(4, []any{[]any{int32(1)}}), `column "points": element 0: ROW<`},
		{"map as Go map", with(5, map[string]int32{"a": 1}), `column "counts": MAP<STRING, INT> takes []datum.MapEntry, got map[string]int32`},
		{"map NULL key", with(5, []datum.MapEntry{{Key: "a", Value: int32(1)}, {Key: nil, Value: int32(2)}}), `column "counts": entry 1: the key is NULL`},
		{"map wrong key", with(5, []datum.MapEntry{{Key: int32(1), Value: int32(1)}}), `column "counts": entry 0 key: STRING NOT NULL takes string, got int32`},
		{"map wrong value", with(5, []datum.MapEntry{{Key: "a", Value: "1"}}), `column "counts": entry 0 value: INT takes int32, got string`},
		{"map array value element", with(6, []datum.MapEntry{{Key: int32(1), Value: []any{"a", 2}}}), `column "tags": entry 0 value: element 1: STRING takes string, got int`},
		{"row map value", with(7, []any{nil, []datum.MapEntry{{Key: "k", Value: 1}}, nil}), `column "info": field "attrs": entry 0 value: STRING takes string, got int`},
		{"decimal element too precise", with(8, []any{datum.NewDecimal(1, 5)}), `column "decs": element 0: `},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := b.Append(tc.row)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.msg)
		})
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	assert.Zero(t, rec.NumRows(), "rejected rows add nothing")
	for c := 0; c < int(rec.NumCols()); c++ {
		assert.Zero(t, rec.Column(c).Len(), "column %d", c)
	}

	// NOT NULL element types reject NULL elements.
	nn, err := fluss.NewArrowRowBuilder(nil, []types.Column{{Name: "a", Type: types.NewArray(types.NewInt().AsNotNull())}})
	require.NoError(t, err)
	defer nn.Release()
	err = nn.Append([]any{[]any{int32(1), nil}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `column "a": element 1 is NULL but the type is INT NOT NULL`)
}
