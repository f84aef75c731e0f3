package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/types"
)

// listState is a user aggregate state that keeps every value and says so.
type listState struct{ vals []int64 }

func (s *listState) Add(args []any) error {
	s.vals = append(s.vals, args[0].(int64))
	return nil
}
func (s *listState) Result() (any, error) { return int64(len(s.vals)), nil }
func (s *listState) Size() int64          { return int64(cap(s.vals)) * 8 }

// TestAggregateSizedStates checks that the states that grow with their values
// are counted in the budget: 100 APPROX_COUNT_DISTINCT sketches of 16 KiB
// registers, 100 user lists of 2 000 values, over a 1 MiB budget.
func TestAggregateSizedStates(t *testing.T) {
	cols := []Column{{"k", types.NewBigInt()}, {"v", types.NewBigInt()}}
	in := &Input{Cols: cols}
	rows := make([][]any, 200_000)
	for i := range rows {
		rows[i] = []any{int64(i % 100), int64(i)}
	}
	user := &AggregateUDF{Name: "LIST_COUNT", Args: []types.DataType{types.NewBigInt()}, Result: types.NewBigInt(),
		New: func() AggregateState { return &listState{} }}
	for name, agg := range map[string]*Agg{
		"APPROX_COUNT_DISTINCT": must(NewAgg("APPROX_COUNT_DISTINCT", col(1, "v", types.NewBigInt()), false)),
		"user":                  must(NewUserAgg(user, []Expr{col(1, "v", types.NewBigInt())}, false)),
	} {
		n := &Aggregate{Input: in, Keys: []Expr{col(0, "k", types.NewBigInt())}, Names: []string{"k"}, Aggs: []*Agg{agg}}
		budget := &Budget{Limit: 1 << 20, Setting: "query_memory"}
		_, err := run(t, n, rows, 4096, budget)
		var me *MemoryError
		require.ErrorAs(t, err, &me, "%s: 100 states of 16 KiB do not fit 1 MiB", name)
		assert.Zero(t, budget.Used())

		budget = &Budget{Limit: 64 << 20}
		got, err := run(t, n, rows, 4096, budget)
		require.NoError(t, err, name)
		require.Len(t, got, 100)
		assert.InDelta(t, 2000, got[0][1], 40, name)
		assert.Zero(t, budget.Used())
	}
}
