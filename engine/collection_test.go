package engine

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/types"
)

// collectionBatch is rows of (tags ARRAY<STRING>, attrs MAP<STRING, INT>, i INT):
//
//	(['a', NULL, 'c'], {'x': 1, 'y': NULL}, 3)
//	(NULL, NULL, 1)
//	([], {}, NULL)
//	(['z'], {'y': 7}, 0)
func collectionBatch(t *testing.T, mem memory.Allocator) (arrow.RecordBatch, []Column) {
	arrT := types.NewArray(types.NewString())
	mapT := types.NewMap(types.NewString().AsNotNull(), types.NewInt())
	cols := []Column{{"tags", arrT}, {"attrs", mapT}, {"i", types.NewInt()}}
	schema, err := schemaOf(cols)
	require.NoError(t, err)
	rb := array.NewRecordBuilder(mem, schema)
	defer rb.Release()
	lb := rb.Field(0).(*array.ListBuilder)
	sb := lb.ValueBuilder().(*array.StringBuilder)
	mb := rb.Field(1).(*array.MapBuilder)
	kb, ib := mb.KeyBuilder().(*array.StringBuilder), mb.ItemBuilder().(*array.Int32Builder)
	nb := rb.Field(2).(*array.Int32Builder)
	// row 1
	lb.Append(true)
	sb.Append("a")
	sb.AppendNull()
	sb.Append("c")
	mb.Append(true)
	kb.Append("x")
	ib.Append(1)
	kb.Append("y")
	ib.AppendNull()
	nb.Append(3)
	// row 2
	lb.AppendNull()
	mb.AppendNull()
	nb.Append(1)
	// row 3
	lb.Append(true)
	mb.Append(true)
	nb.AppendNull()
	// row 4
	lb.Append(true)
	sb.Append("z")
	mb.Append(true)
	kb.Append("y")
	ib.Append(7)
	nb.Append(0)
	return rb.NewRecordBatch(), cols
}

func TestCollections(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec, cols := collectionBatch(t, mem)
	defer rec.Release()
	tags, attrs, i := col(0, "tags", cols[0].Type), col(1, "attrs", cols[1].Type), col(2, "i", cols[2].Type)
	for _, tc := range []struct {
		name string
		e    Expr
		want []any
	}{
		{"cardinality of an array", must(NewCardinality(tags)), []any{int64(3), nil, int64(0), int64(1)}},
		{"cardinality of a map", must(NewCall("CARDINALITY", []Expr{attrs})), []any{int64(2), nil, int64(0), int64(1)}},
		{"first element", must(NewSubscript(tags, intConst(1))), []any{"a", nil, nil, "z"}},
		{"a NULL element", must(NewSubscript(tags, intConst(2))), []any{nil, nil, nil, nil}},
		{"element by a column, 0 and NULL out of range", must(NewSubscript(tags, i)), []any{"c", nil, nil, nil}},
		{"third element", must(NewSubscript(tags, intConst(3))), []any{"c", nil, nil, nil}},
		{"index past the end", must(NewSubscript(tags, intConst(4))), []any{nil, nil, nil, nil}},
		{"map key", must(NewSubscript(attrs, strConst("x"))), []any{int64(1), nil, nil, nil}},
		{"map key with a NULL value, and another row's", must(NewSubscript(attrs, strConst("y"))), []any{nil, nil, nil, int64(7)}},
		{"absent key", must(NewSubscript(attrs, strConst("q"))), []any{nil, nil, nil, nil}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec.Retain()
			in := &sliceInput{batches: []arrow.RecordBatch{rec}}
			op, err := Build(context.Background(), &Project{Input: &Input{Cols: cols}, Exprs: []Expr{tc.e}, Names: []string{"x"}}, in, Options{Mem: mem})
			require.NoError(t, err)
			out, err := drainRows(op)
			in.Close()
			require.NoError(t, err)
			var got []any
			for _, r := range out {
				got = append(got, r[0])
			}
			assert.Equal(t, tc.want, got, tc.e.String())
		})
	}
	assert.Equal(t, types.String, must(NewSubscript(tags, intConst(1))).Type().Kind)
	assert.False(t, must(NewSubscript(tags, intConst(1))).Type().NotNull)
	_, err := NewSubscript(tags, strConst("a"))
	assert.ErrorContains(t, err, "index of an ARRAY is an integer")
	_, err = NewSubscript(attrs, intConst(1))
	assert.ErrorContains(t, err, "key of this MAP is STRING")
	_, err = NewSubscript(i, intConst(1))
	assert.ErrorContains(t, err, "only an ARRAY or a MAP")
	_, err = NewCardinality(i)
	assert.ErrorContains(t, err, "needs an ARRAY or a MAP")
}
