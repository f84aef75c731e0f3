package engine

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/types"
)

// prefilterInput is a sliceInput that takes a prefilter, as a shared scan's reader does,
// and applies it to the batches it returns.
type prefilterInput struct {
	*sliceInput
	keep   func(arrow.RecordBatch) (arrow.RecordBatch, error)
	passed int // rows returned
}

func (p *prefilterInput) Prefilter(keep func(arrow.RecordBatch) (arrow.RecordBatch, error)) {
	p.keep = keep
}

func (p *prefilterInput) Next() (arrow.RecordBatch, error) {
	b, err := p.sliceInput.Next()
	if err != nil || p.keep == nil {
		return b, err
	}
	defer b.Release()
	out, err := p.keep(b)
	if err == nil {
		p.passed += int(out.NumRows())
	}
	return out, err
}

// watchInput is a sliceInput that calls first before its first batch.
type watchInput struct {
	*sliceInput
	first func()
}

func (w *watchInput) Next() (arrow.RecordBatch, error) {
	if w.first != nil {
		w.first()
		w.first = nil
	}
	return w.sliceInput.Next()
}

func TestHashJoinPrefiltersItsProbeInputBeforeTheOuterBuild(t *testing.T) {
	// LEFT JOIN (orders INNER JOIN customers ON cust = cid) with input 2 on amount: the
	// inner join builds its index before the outer join reads input 2, and tells orders
	// (Prefilterable) to keep only the rows whose cust has a customer.
	proj := &Project{Input: &Input{Cols: ordersCols}, Exprs: []Expr{col(2, "amount", types.NewBigInt()), col(1, "cust", types.NewInt())}, Names: []string{"amount", "cust"}}
	inner := &HashJoin{Kind: InnerJoin, Left: proj, Right: &Input{Cols: custCols, ID: 1},
		LeftKeys: []Expr{col(1, "cust", types.NewInt())}, RightKeys: []Expr{col(0, "cid", types.NewInt())}}
	amounts := []Column{{"amount", types.NewBigInt()}}
	outer := &HashJoin{Kind: LeftJoin, Left: inner, Right: &Input{Cols: amounts, ID: 2},
		LeftKeys: []Expr{col(0, "amount", types.NewBigInt())}, RightKeys: []Expr{col(0, "amount", types.NewBigInt())}}

	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	probe := &prefilterInput{sliceInput: input(t, mem, ordersCols, orders, 2)}
	custs := input(t, mem, custCols, customers, 10)
	var prefiltered bool
	amountsIn := &watchInput{sliceInput: input(t, mem, amounts, [][]any{{int64(100)}, {int64(400)}}, 10),
		first: func() { prefiltered = probe.keep != nil }}
	op, err := Build(context.Background(), outer, probe, Options{Mem: mem, Inputs: []Operator{custs, amountsIn}})
	require.NoError(t, err)
	rows, err := drainRows(op)
	require.NoError(t, err)
	probe.Close()
	custs.Close()
	amountsIn.Close()
	assert.True(t, prefiltered, "the probe input had its prefilter before the outer join read its build side")
	assert.Equal(t, 3, probe.passed, "orders 3 and 5 have no customer: dropped by the prefilter")
	assert.ElementsMatch(t, [][]any{
		{int64(100), int64(10), int64(10), "ann", int64(100)},
		{int64(200), int64(20), int64(20), "bob", nil},
		{int64(200), int64(20), int64(20), "bob2", nil},
		{int64(400), int64(10), int64(10), "ann", int64(400)},
	}, rows, "the rows of the join without the prefilter")
}
