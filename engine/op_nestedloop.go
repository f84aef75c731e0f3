package engine

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
)

// NestedLoopJoin joins every row of Left with every row of Right (a cross
// join) and keeps the pairs for which Residual (nil: all) is TRUE; a LEFT
// join adds the left rows without a match. It reads Right whole into
// memory, under the budget, then streams Left. Its output columns are
// Left's, then Right's (nullable for a LEFT join).
type NestedLoopJoin struct {
	Kind        JoinKind
	Left, Right Node
	Residual    Expr
}

// Columns implements Node.
func (n *NestedLoopJoin) Columns() []Column {
	return joinColumns(n.Kind, n.Left.Columns(), n.Right.Columns())
}

// Inputs implements Node.
func (n *NestedLoopJoin) Inputs() []Node { return []Node{n.Left, n.Right} }

// Streaming implements Node: the right side is held whole.
func (n *NestedLoopJoin) Streaming() bool { return false }

// Describe implements Node.
func (n *NestedLoopJoin) Describe() string {
	on := "every pair (cross join)"
	if n.Residual != nil {
		on = "ON " + n.Residual.String()
	}
	return fmt.Sprintf("NestedLoopJoin %s %s (the second input in memory)", n.Kind, on)
}

const nestedLoopState = "nested-loop join (the second input)"

// nestedLoopOp holds the right side in one batch and pairs every left
// batch with it, a slice of left rows at a time so that no joined batch
// exceeds maxJoinChunk rows.
type nestedLoopOp struct {
	ec          *evalCtx
	budget      *Budget
	left, right Operator
	n           *NestedLoopJoin
	j           *joiner
	built       bool
	build       arrow.RecordBatch
	held        int64
	pending     []arrow.RecordBatch
}

func newNestedLoop(ec *evalCtx, budget *Budget, left, right Operator, n *NestedLoopJoin) (Operator, error) {
	j, err := newJoiner(ec, n.Kind, n.Columns(), len(n.Left.Columns()), n.Residual)
	if err != nil {
		return nil, err
	}
	return &nestedLoopOp{ec: ec, budget: budget, left: left, right: right, n: n, j: j}, nil
}

func (o *nestedLoopOp) readRight() error {
	o.built = true
	var err error
	o.build, err = holdAll(o.ec, o.budget, o.right, o.n.Right.Columns(), nestedLoopState, &o.held)
	return err
}

func (o *nestedLoopOp) Next() (arrow.RecordBatch, error) {
	if !o.built {
		if err := o.readRight(); err != nil {
			return nil, err
		}
	}
	for len(o.pending) == 0 {
		if err := o.ec.ctx.Err(); err != nil {
			return nil, err
		}
		b, err := o.left.Next()
		if err != nil {
			return nil, err
		}
		o.pending, err = o.pair(b)
		b.Release()
		if err != nil {
			return nil, err
		}
	}
	out := o.pending[0]
	o.pending = o.pending[1:]
	return out, nil
}

// pair joins a left batch with the right rows.
func (o *nestedLoopOp) pair(b arrow.RecordBatch) ([]arrow.RecordBatch, error) {
	var m int64
	if o.build != nil {
		m = o.build.NumRows()
	}
	if m == 0 {
		return o.j.join(b, nil, nil, nil)
	}
	step := max(1, maxJoinChunk/m)
	var out []arrow.RecordBatch
	for from := int64(0); from < b.NumRows(); from += step {
		if err := o.ec.ctx.Err(); err != nil {
			releaseBatches(out)
			return nil, err
		}
		to := min(b.NumRows(), from+step)
		slice := b.NewSlice(from, to)
		li := make([]int64, 0, (to-from)*m)
		ri := make([]int64, 0, (to-from)*m)
		for l := range to - from {
			for r := range m {
				li, ri = append(li, l), append(ri, r)
			}
		}
		got, err := o.j.join(slice, o.build, li, ri)
		slice.Release()
		if err != nil {
			releaseBatches(out)
			return nil, err
		}
		out = append(out, got...)
	}
	return out, nil
}

func releaseBatches(bs []arrow.RecordBatch) {
	for _, b := range bs {
		b.Release()
	}
}

func (o *nestedLoopOp) Close() {
	o.left.Close()
	o.right.Close()
	releaseBatches(o.pending)
	o.pending = nil
	if o.build != nil {
		o.build.Release()
		o.build = nil
	}
	o.budget.Shrink(o.held)
	o.held = 0
}
