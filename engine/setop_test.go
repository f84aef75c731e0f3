package engine

import (
	"context"
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/types"
)

func TestSetOp(t *testing.T) {
	cols := []Column{{"v", types.NewInt()}, {"s", types.NewString()}}
	left := [][]any{{int64(1), "a"}, {int64(1), "a"}, {int64(1), "a"}, {nil, "n"}, {nil, "n"}, {int64(2), nil}, {int64(4), "d"}}
	right := [][]any{{int64(1), "a"}, {int64(1), "a"}, {nil, "n"}, {int64(2), nil}, {int64(2), nil}, {int64(5), "e"}}
	for _, c := range []struct {
		kind SetOpKind
		want [][]any
	}{
		{IntersectDistinct, [][]any{{int64(1), "a"}, {nil, "n"}, {int64(2), nil}}},
		{IntersectAll, [][]any{{int64(1), "a"}, {int64(1), "a"}, {nil, "n"}, {int64(2), nil}}},
		{ExceptDistinct, [][]any{{int64(4), "d"}}},
		{ExceptAll, [][]any{{int64(1), "a"}, {nil, "n"}, {int64(4), "d"}}},
	} {
		t.Run(c.kind.String(), func(t *testing.T) {
			n := &SetOp{Kind: c.kind, Left: &Input{Cols: cols}, Right: &Input{Cols: cols, ID: 1}}
			for _, per := range []int{1, 3, 100} {
				rows, err := runMany(t, n, [][][]any{left, right}, per, nil, nil)
				require.NoError(t, err)
				assert.Equal(t, c.want, rows, "batches of %d rows", per)
			}
		})
	}
	n := &SetOp{Kind: IntersectDistinct, Left: &Input{Cols: cols}, Right: &Input{Cols: cols, ID: 1}}
	_, err := runMany(t, n, [][][]any{left, right}, 2, nil, &Budget{Limit: 64, Setting: "query_memory"})
	var me *MemoryError
	require.True(t, errors.As(err, &me), "%v", err)
	assert.Contains(t, err.Error(), "query_memory")
}

func TestNestedLoopJoin(t *testing.T) {
	l := &Input{Cols: []Column{{"a", types.NewInt()}}}
	r := &Input{Cols: []Column{{"b", types.NewInt()}}, ID: 1}
	left := [][]any{{int64(1)}, {int64(2)}, {nil}}
	right := [][]any{{int64(1)}, {int64(3)}}
	cross := &NestedLoopJoin{Kind: InnerJoin, Left: l, Right: r}
	rows, err := runMany(t, cross, [][][]any{left, right}, 2, nil, nil)
	require.NoError(t, err)
	assert.Equal(t, [][]any{{int64(1), int64(1)}, {int64(1), int64(3)}, {int64(2), int64(1)}, {int64(2), int64(3)}, {nil, int64(1)}, {nil, int64(3)}}, rows)

	lt, err := NewCompare("<", &Col{Index: 0, Name: "a", T: types.NewInt()}, &Col{Index: 1, Name: "b", T: types.NewInt()})
	require.NoError(t, err)
	leftJoin := &NestedLoopJoin{Kind: LeftJoin, Left: l, Right: r, Residual: lt}
	rows, err = runMany(t, leftJoin, [][][]any{left, right}, 1, nil, nil)
	require.NoError(t, err)
	assert.Equal(t, [][]any{{int64(1), int64(3)}, {int64(2), int64(3)}, {nil, nil}}, rows)

	rows, err = runMany(t, leftJoin, [][][]any{left, nil}, 1, nil, nil)
	require.NoError(t, err)
	assert.Equal(t, [][]any{{int64(1), nil}, {int64(2), nil}, {nil, nil}}, rows, "an empty right side")

	_, err = runMany(t, cross, [][][]any{left, right}, 1, nil, &Budget{Limit: 8, Setting: "query_memory"})
	var me *MemoryError
	require.True(t, errors.As(err, &me), "%v", err)
	assert.Contains(t, err.Error(), "nested-loop join")
}

// An aggregate over an empty batch (which another aggregate over no rows
// emits, e.g. TPC-H Q13's GROUP BY of a GROUP BY) returns no groups.
func TestAggregateEmptyBatch(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	cols := []Column{{"k", types.NewBigInt().AsNotNull()}}
	in := &sliceInput{batches: []arrow.RecordBatch{batchOf(t, mem, cols, nil)}}
	n := &Aggregate{Input: &Input{Cols: cols}, Keys: []Expr{col(0, "k", cols[0].Type)}, Names: []string{"k"},
		Aggs: []*Agg{must(NewAgg("COUNT", nil, false))}}
	op, err := Build(context.Background(), n, in, Options{Mem: mem})
	require.NoError(t, err)
	rows, err := drainRows(op)
	in.Close()
	require.NoError(t, err)
	assert.Empty(t, rows)
}
