package engine

import (
	"context"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/types"
)

// TestSortTypes sorts every orderable kind with the full sort and the top-N and
// expects the same order.
func TestSortTypes(t *testing.T) {
	for _, tc := range []struct {
		t    types.DataType
		vals []any
	}{
		{types.NewBoolean(), []any{true, nil, false, true}},
		{types.NewTinyInt(), []any{int64(3), nil, int64(-1), int64(2)}},
		{types.NewDecimal(10, 2), []any{num(300), nil, num(-5), num(120)}},
		{types.NewDate(), []any{int32(19000), nil, int32(-3), int32(20000)}},
		{types.NewTimestamp(3), []any{int64(5000), nil, int64(-1), int64(7)}},
		{types.NewTimestampLTZ(6), []any{int64(5000), nil, int64(-1), int64(7)}},
		{types.NewTime(0), []any{int64(50), nil, int64(1), int64(7)}},
		{types.NewString(), []any{"b", nil, "a", "ab"}},
		{types.NewBytes(), []any{[]byte("b"), nil, []byte("a"), []byte{}}},
		{types.NewBinary(2), []any{[]byte("bb"), nil, []byte("ab"), []byte("ba")}},
		{types.NewFloat(), []any{1.5, nil, -2.0, 0.0}},
	} {
		t.Run(tc.t.String(), func(t *testing.T) {
			cols := []Column{{"x", tc.t}}
			var rows [][]any
			for _, v := range tc.vals {
				rows = append(rows, []any{v})
			}
			in := &Input{Cols: cols}
			for _, desc := range []bool{false, true} {
				keys := []SortKey{{Col: 0, Desc: desc, NullsFirst: !desc}}
				full, err := run(t, &Sort{Input: in, Keys: keys, Limit: -1}, rows, 2, nil)
				require.NoError(t, err)
				top, err := run(t, &Sort{Input: in, Keys: keys, Limit: 10}, rows, 2, nil)
				require.NoError(t, err)
				assert.Equal(t, full, top)
				require.Len(t, full, 4)
				assert.Nil(t, full[map[bool]int{false: 0, true: 3}[desc]][0], "NULL first for ASC, last for DESC")
				for i := 1; i < len(full); i++ {
					assert.LessOrEqual(t, compareRows(keys, full[i-1], full[i]), 0)
				}
				agg, err := run(t, &Aggregate{Input: in, Keys: []Expr{col(0, "x", tc.t)}, Names: []string{"x"},
					Aggs: []*Agg{must(NewAgg("MIN", col(0, "x", tc.t), false)), must(NewAgg("COUNT", nil, false))}}, rows, 2, nil)
				require.NoError(t, err)
				distinct := map[string]bool{}
				for _, v := range tc.vals {
					distinct[fmt.Sprint(v)] = true
				}
				assert.Len(t, agg, len(distinct))
			}
		})
	}
}

// TestTopNNested keeps rows with ARRAY columns by reference into their batches.
func TestTopNNested(t *testing.T) {
	arrT := types.NewArray(types.NewInt())
	cols := []Column{{"k", types.NewInt()}, {"arr", arrT}}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	b := array.NewRecordBuilder(mem, must(schemaOf(cols)))
	defer b.Release()
	lb := b.Field(1).(*array.ListBuilder)
	vb := lb.ValueBuilder().(*array.Int32Builder)
	for i := range 5 {
		b.Field(0).(*array.Int32Builder).Append(int32(i * 7 % 5))
		lb.Append(true)
		vb.Append(int32(i))
		vb.Append(int32(i * 10))
	}
	in := &sliceInput{batches: []arrow.RecordBatch{b.NewRecordBatch()}}
	b.Field(0).(*array.Int32Builder).Append(9)
	lb.AppendNull()
	in.batches = append(in.batches, b.NewRecordBatch())
	budget := &Budget{Limit: 1 << 20}
	op, err := Build(context.Background(), &Sort{Input: &Input{Cols: cols}, Keys: []SortKey{{Col: 0, Desc: true}}, Limit: 3}, in, Options{Mem: mem, Budget: budget})
	require.NoError(t, err)
	var got []string
	require.NoError(t, Drain(op, func(rec arrow.RecordBatch) error {
		for i := range int(rec.NumRows()) {
			got = append(got, fmt.Sprint(rec.Column(0).(*array.Int32).Value(i), " ", rec.Column(1).ValueStr(i)))
		}
		return nil
	}))
	in.Close()
	// k = 0, 2, 4, 1, 3 for i = 0..4, then 9 with a NULL array.
	assert.Equal(t, []string{"9 (null)", "4 [2,20]", "3 [4,40]"}, got)
	assert.Zero(t, budget.Used())
}
