package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Operator produces record batches. Next returns the next batch, which the
// caller releases, or io.EOF after the last one; Close releases what the
// operator holds (also its inputs) and may be called at any time, more
// than once.
type Operator interface {
	Next() (arrow.RecordBatch, error)
	Close()
}

// Options configure Build.
type Options struct {
	// Mem allocates result arrays; nil is Go memory.
	Mem memory.Allocator
	// Budget bounds the state of aggregation, sort and DISTINCT; nil is no
	// bound.
	Budget *Budget
	// Now is what CURRENT_TIMESTAMP and CURRENT_DATE answer; zero means the
	// time Build is called.
	Now time.Time
	// Inputs feed the Input leaves with ID ≥ 1 (Inputs[ID-1]); the input
	// argument of Build feeds ID 0.
	Inputs []Operator
	// Lookers serve the tree's LookupJoin nodes (Lookers[ID]).
	Lookers []Looker
}

// Build makes the operators of the tree. input produces the batches of the
// tree's Input leaf (nil when it has none); ctx cancels the operators:
// Next returns ctx's error once it ends.
func Build(ctx context.Context, n Node, input Operator, opts Options) (Operator, error) {
	if opts.Mem == nil {
		opts.Mem = memory.DefaultAllocator
	}
	if opts.Now.IsZero() {
		opts.Now = time.Now()
	}
	n = foldTree(n)
	r := &runner{ec: &evalCtx{ctx: ctx, mem: opts.Mem, now: opts.Now, consts: map[*Const]arrow.Array{}}, budget: opts.Budget,
		inputs: append([]Operator{input}, opts.Inputs...), lookers: opts.Lookers}
	op, err := r.build(n)
	if err != nil {
		r.ec.release()
		return nil, err
	}
	return &root{Operator: op, ec: r.ec}, nil
}

// root closes the tree and frees what evaluation cached, and turns a panic
// inside it (arrow-go's compute kernels panic on some inputs they do not
// support, instead of returning an error) into an error of the query
// rather than a crash of the program that runs it.
type root struct {
	Operator
	ec     *evalCtx
	failed error
}

// ErrInternal is matched (errors.Is) by the error of a query whose
// evaluation panicked: a bug in flussql or in arrow-go, worth a report with
// the query.
var ErrInternal = errors.New("flussql engine: internal error")

func (r *root) Next() (b arrow.RecordBatch, err error) {
	if r.failed != nil {
		return nil, r.failed
	}
	defer func() {
		if p := recover(); p != nil {
			b, err = nil, fmt.Errorf("%w while evaluating the query: %v (please report it with the query)", ErrInternal, p)
			r.failed = err
		}
	}()
	return r.Operator.Next()
}

func (r *root) Close() {
	r.Operator.Close()
	r.ec.release()
}

type runner struct {
	ec      *evalCtx
	budget  *Budget
	inputs  []Operator
	lookers []Looker
	shared  map[int]*sharedState // the Shared results by ID (op_shared.go)
}

func (r *runner) build(n Node) (Operator, error) {
	if s, ok := n.(*Sort); ok && s.Pending != nil {
		return nil, errPending
	}
	if l, ok := n.(*Limit); ok && l.Pending != nil {
		return nil, errPending
	}
	var kids []Operator
	closeKids := func() {
		for _, k := range kids {
			k.Close()
		}
	}
	for _, c := range n.Inputs() {
		k, err := r.build(c)
		if err != nil {
			closeKids()
			return nil, err
		}
		kids = append(kids, k)
	}
	var in Operator
	if len(kids) > 0 {
		in = kids[0]
	}
	var op Operator
	var err error
	switch x := n.(type) {
	case *Input:
		if x.ID < 0 || x.ID >= len(r.inputs) || r.inputs[x.ID] == nil {
			return nil, fmt.Errorf("engine: the plan reads input %d, and none was given", x.ID)
		}
		op = &checked{ctx: r.ec.ctx, in: r.inputs[x.ID]}
	case *OneRow:
		op = &oneRow{}
	case *Filter:
		op = &filterOp{ec: r.ec, in: in, cond: x.Cond}
	case *Project:
		op, err = newProject(r.ec, in, x)
	case *Aggregate:
		op, err = newAggregate(r.ec, r.budget, in, x)
	case *Sort:
		op, err = newSort(r.ec, r.budget, in, x)
	case *Limit:
		op = &limitOp{in: in, limit: x.Limit, offset: x.Offset}
	case *Distinct:
		op = &distinctOp{ec: r.ec, budget: r.budget, in: in, seen: map[string]struct{}{}}
	case *HashJoin:
		op, err = newHashJoin(r.ec, r.budget, kids[0], kids[1], x)
	case *LookupJoin:
		op, err = newLookupJoin(r.ec, in, x, r.lookers)
	case *SingleRowJoin:
		op, err = newSingleRowJoin(r.ec, r.budget, kids[0], kids[1], x)
	case *Union:
		op, err = newUnion(kids, x)
	case *Window:
		op, err = newWindow(r.ec, r.budget, in, x)
	case *NestedLoopJoin:
		op, err = newNestedLoop(r.ec, r.budget, kids[0], kids[1], x)
	case *SetOp:
		op, err = newSetOp(r.ec, r.budget, kids[0], kids[1], x)
	case *Shared:
		st := r.sharedFor(x.ID)
		if x.Input != nil {
			st.src = kids[0]
		}
		st.readers++
		op = &sharedReader{st: st}
	default:
		err = fmt.Errorf("engine: cannot run %T", n)
	}
	if err != nil {
		closeKids()
	}
	return op, err
}

var errPending = errors.New("engine: a LIMIT or OFFSET placeholder was not bound (bind the plan's arguments first)")

// checked stops an input once the context ends.
type checked struct {
	ctx context.Context
	in  Operator
}

func (c *checked) Next() (arrow.RecordBatch, error) {
	if err := c.ctx.Err(); err != nil {
		return nil, err
	}
	return c.in.Next()
}

func (c *checked) Close() { c.in.Close() }

type oneRow struct{ done bool }

func (o *oneRow) Next() (arrow.RecordBatch, error) {
	if o.done {
		return nil, io.EOF
	}
	o.done = true
	return emptyRow(), nil
}

func (o *oneRow) Close() { o.done = true }

// emptyRow is a batch of one row and no columns.
func emptyRow() arrow.RecordBatch {
	return arrowRecord(arrow.NewSchema(nil, nil), nil, 1)
}

// Drain reads every batch of op, calls f for each and closes op.
func Drain(op Operator, f func(arrow.RecordBatch) error) error {
	defer op.Close()
	for {
		b, err := op.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		err = f(b)
		b.Release()
		if err != nil {
			return err
		}
	}
}
