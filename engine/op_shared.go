package engine

import (
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
)

// Shared is a result that several parts of a tree read and that is computed once: a WITH
// referred to twice (TPC-H Q15's revenue view, joined with supplier and aggregated again
// for its maximum), or any two identical subtrees. The node with Input computes it; the
// others with the same ID, whose Input is nil, read the same batches. Whichever reader
// asks first pulls the next batch from Input; the batches are held, within the budget,
// until every reader of the tree is closed.
type Shared struct {
	ID    int
	Input Node     // the computation; nil in the other readers
	Cols  []Column // the result's columns
}

// Columns implements Node.
func (n *Shared) Columns() []Column { return n.Cols }

// Inputs implements Node.
func (n *Shared) Inputs() []Node {
	if n.Input == nil {
		return nil
	}
	return []Node{n.Input}
}

// Describe implements Node.
func (n *Shared) Describe() string {
	if n.Input == nil {
		return fmt.Sprintf("Shared result %d (computed once where it is described, its batches read again here)", n.ID)
	}
	return fmt.Sprintf("Shared result %d (computed once, its batches held for its other readers, in memory)", n.ID)
}

// Streaming implements Node.
func (n *Shared) Streaming() bool { return false }

// sharedState is the computation of one Shared result and the batches read so far.
type sharedState struct {
	id      int
	src     Operator
	budget  *Budget
	batches []arrow.RecordBatch
	held    int64
	done    bool
	err     error
	readers int // built and not closed
}

// sharedFor returns the state of the Shared result id of the tree being built.
func (r *runner) sharedFor(id int) *sharedState {
	if r.shared == nil {
		r.shared = map[int]*sharedState{}
	}
	st := r.shared[id]
	if st == nil {
		st = &sharedState{id: id, budget: r.budget}
		r.shared[id] = st
	}
	return st
}

// batch returns the batch at pos, pulling it from the computation when no reader has yet.
func (s *sharedState) batch(pos int) (arrow.RecordBatch, error) {
	if pos < len(s.batches) {
		b := s.batches[pos]
		b.Retain()
		return b, nil
	}
	switch {
	case s.err != nil:
		return nil, s.err
	case s.done:
		return nil, io.EOF
	case s.src == nil:
		return nil, fmt.Errorf("engine: shared result %d is read but not computed anywhere in the plan", s.id)
	}
	b, err := s.src.Next()
	if err == io.EOF {
		s.done = true
		s.src.Close()
		return nil, io.EOF
	}
	if err != nil {
		s.err = err
		return nil, err
	}
	sz := batchBytes(b)
	if err := s.budget.Grow(sz, "a result read twice (WITH)"); err != nil {
		b.Release()
		s.err = err
		return nil, err
	}
	s.held += sz
	s.batches = append(s.batches, b)
	b.Retain()
	return b, nil
}

// close ends one reader; the last one frees the batches and the computation.
func (s *sharedState) close() {
	s.readers--
	if s.readers > 0 {
		return
	}
	for _, b := range s.batches {
		b.Release()
	}
	s.batches = nil
	s.budget.Shrink(s.held)
	s.held = 0
	if s.src != nil && !s.done {
		s.src.Close()
	}
	s.done = true
}

// sharedReader is one reader of a Shared result.
type sharedReader struct {
	st     *sharedState
	pos    int
	closed bool
}

func (r *sharedReader) Next() (arrow.RecordBatch, error) {
	if r.closed {
		return nil, io.EOF
	}
	b, err := r.st.batch(r.pos)
	if err == nil {
		r.pos++
	}
	return b, err
}

func (r *sharedReader) Close() {
	if !r.closed {
		r.closed = true
		r.st.close()
	}
}

// WithInputs returns a copy of n with the child nodes kids (as many as n.Inputs()).
func WithInputs(n Node, kids []Node) Node {
	switch x := n.(type) {
	case *Filter:
		c := *x
		c.Input = kids[0]
		return &c
	case *Project:
		c := *x
		c.Input = kids[0]
		return &c
	case *Aggregate:
		c := *x
		c.Input = kids[0]
		return &c
	case *Sort:
		c := *x
		c.Input = kids[0]
		return &c
	case *Limit:
		c := *x
		c.Input = kids[0]
		return &c
	case *Distinct:
		c := *x
		c.Input = kids[0]
		return &c
	case *Window:
		c := *x
		c.Input = kids[0]
		return &c
	case *Shared:
		c := *x
		if len(kids) > 0 {
			c.Input = kids[0]
		}
		return &c
	case *LookupJoin:
		c := *x
		c.Left = kids[0]
		return &c
	case *HashJoin:
		c := *x
		c.Left, c.Right = kids[0], kids[1]
		return &c
	case *NestedLoopJoin:
		c := *x
		c.Left, c.Right = kids[0], kids[1]
		return &c
	case *SetOp:
		c := *x
		c.Left, c.Right = kids[0], kids[1]
		return &c
	case *SingleRowJoin:
		c := *x
		c.Left, c.Right = kids[0], kids[1]
		return &c
	case *Union:
		return &Union{Ins: kids}
	}
	return n
}
