package engine

import (
	"context"
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/types"
)

func TestShared(t *testing.T) {
	cols := []Column{{"k", types.NewInt()}}
	rows := [][]any{{int64(1)}, {int64(2)}, {int64(1)}, {int64(3)}, {int64(2)}}
	distinct := [][]any{{int64(1)}, {int64(2)}, {int64(3)}}
	def := func() *Shared { return &Shared{ID: 1, Input: &Distinct{Input: &Input{Cols: cols}}, Cols: cols} }
	ref := &Shared{ID: 1, Cols: cols}
	for _, c := range []struct {
		name string
		n    Node
		want [][]any
	}{
		{"the computing reader first", &Union{Ins: []Node{def(), ref}}, append(append([][]any{}, distinct...), distinct...)},
		{"the other reader first", &Union{Ins: []Node{ref, def()}}, append(append([][]any{}, distinct...), distinct...)},
		{"both sides of a join, read in turns", &HashJoin{Kind: InnerJoin, Left: def(), Right: ref,
			LeftKeys: []Expr{col(0, "k", types.NewInt())}, RightKeys: []Expr{col(0, "k", types.NewInt())}},
			[][]any{{int64(1), int64(1)}, {int64(2), int64(2)}, {int64(3), int64(3)}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, per := range []int{1, 2, 100} {
				budget := &Budget{Limit: 1 << 20}
				got, err := run(t, c.n, rows, per, budget)
				require.NoError(t, err)
				assert.ElementsMatch(t, c.want, got, "batches of %d rows", per)
				assert.Zero(t, budget.Used(), "the held batches are given back")
			}
		})
	}
	t.Run("the held batches over the budget", func(t *testing.T) {
		held := &Shared{ID: 1, Input: &Input{Cols: cols}, Cols: cols} // no other state
		_, err := run(t, &Union{Ins: []Node{held, ref}}, rows, 1, &Budget{Limit: 8, Setting: "query_memory"})
		var me *MemoryError
		require.True(t, errors.As(err, &me), "%v", err)
		assert.Contains(t, err.Error(), "WITH")
	})
	t.Run("read but not computed", func(t *testing.T) {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		op, err := Build(context.Background(), &Shared{ID: 2, Cols: cols}, nil, Options{Mem: mem})
		require.NoError(t, err)
		_, err = drainRows(op)
		assert.ErrorContains(t, err, "not computed")
	})
}
