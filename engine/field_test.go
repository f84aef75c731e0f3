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

// TestField reads fields of a ROW column: NULL where the ROW is NULL or the field is,
// also on a slice of the batch, and refuses a non-ROW or an unknown field.
func TestField(t *testing.T) {
	rowT := types.NewRow(types.Field{Name: "amount", Type: types.NewBigInt()}, types.Field{Name: "Name", Type: types.NewString()})
	want, err := types.ArrowType(rowT)
	require.NoError(t, err)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	// The fields hold values under the NULL row (7, "x"), as a producer may write them.
	ab := array.NewInt64Builder(mem)
	defer ab.Release()
	ab.AppendValues([]int64{5, 7, 0, 9}, []bool{true, true, false, true})
	amounts := ab.NewArray()
	defer amounts.Release()
	nb := array.NewStringBuilder(mem)
	defer nb.Release()
	nb.AppendValues([]string{"a", "x", "c", "d"}, nil)
	names := nb.NewArray()
	defer names.Release()
	valid := memory.NewBufferBytes([]byte{0b1101})
	arr, err := array.NewStructArrayWithNulls([]arrow.Array{amounts, names}, []string{"amount", "Name"}, valid, 1, 0)
	require.NoError(t, err)
	defer arr.Release()
	at := arr.DataType()
	require.True(t, arrow.TypeEqual(want, at), "the struct array has the ROW type's Arrow type: %s, %s", want, at)
	schema := arrow.NewSchema([]arrow.Field{{Name: "after", Type: at, Nullable: true}}, nil)
	rec := array.NewRecordBatch(schema, []arrow.Array{arr}, int64(arr.Len()))
	defer rec.Release()

	base := col(0, "after", rowT)
	amount := must(NewField(base, "amount"))
	name := must(NewField(base, "name")) // case-insensitive when unique
	assert.Equal(t, "after.amount", amount.String())
	assert.Equal(t, "Name", name.Name)
	assert.False(t, amount.Type().NotNull)

	ec := &evalCtx{ctx: context.Background(), mem: mem}
	for _, tc := range []struct {
		rec  arrow.RecordBatch
		want [][]any
	}{
		{rec, [][]any{{int64(5), "a"}, {nil, nil}, {nil, "c"}, {int64(9), "d"}}},
		{rec.NewSlice(1, 4), [][]any{{nil, nil}, {nil, "c"}, {int64(9), "d"}}},
	} {
		var got [][]any
		a, err := amount.eval(ec, tc.rec)
		require.NoError(t, err)
		n, err := name.eval(ec, tc.rec)
		require.NoError(t, err)
		av, err := values(a)
		require.NoError(t, err)
		nv, err := values(n)
		require.NoError(t, err)
		for i := range av {
			got = append(got, []any{av[i], nv[i]})
		}
		a.Release()
		n.Release()
		if tc.rec != rec {
			tc.rec.Release()
		}
		assert.Equal(t, tc.want, got)
	}

	_, err = NewField(base, "nope")
	require.ErrorContains(t, err, "after has no field nope; its fields: amount, Name")
	_, err = NewField(col(0, "k", types.NewInt()), "x")
	require.ErrorContains(t, err, "not a ROW")
}
