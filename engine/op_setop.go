package engine

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
)

// SetOpKind is INTERSECT or EXCEPT, with or without ALL.
type SetOpKind int

// The set operations SetOp runs (UNION is Union, with Distinct over it).
const (
	IntersectDistinct SetOpKind = iota
	IntersectAll
	ExceptDistinct
	ExceptAll
)

// String names the operation as EXPLAIN shows it.
func (k SetOpKind) String() string {
	return [...]string{"Intersect", "IntersectAll", "Except", "ExceptAll"}[k]
}

// SetOp passes the rows of Left that are (INTERSECT) or are not (EXCEPT)
// among the rows of Right, NULLs equal to each other. Without ALL every
// row passes at most once; INTERSECT ALL passes a row min(m, n) times and
// EXCEPT ALL max(m - n, 0) times, for m copies on the left and n on the
// right. It counts Right's rows in a hash table under the budget, then
// streams Left. The inputs have the same column types; the names are
// Left's.
type SetOp struct {
	Kind        SetOpKind
	Left, Right Node
}

// Columns implements Node.
func (n *SetOp) Columns() []Column {
	cols := append([]Column(nil), n.Left.Columns()...)
	if n.Kind == IntersectDistinct || n.Kind == IntersectAll {
		for i, c := range n.Right.Columns() { // a row of both: NOT NULL when either side is
			if c.Type.NotNull {
				cols[i].Type = nullable(cols[i].Type, true)
			}
		}
	}
	return cols
}

// Inputs implements Node.
func (n *SetOp) Inputs() []Node { return []Node{n.Left, n.Right} }

// Streaming implements Node: the right side's rows are counted whole.
func (n *SetOp) Streaming() bool { return false }

// Describe implements Node.
func (n *SetOp) Describe() string {
	return fmt.Sprintf("%s (hash counts of the second input's rows, in memory)", n.Kind)
}

const setOpState = "INTERSECT/EXCEPT (the second input's rows)"

type setOpOp struct {
	ec          *evalCtx
	budget      *Budget
	left, right Operator
	kind        SetOpKind
	schema      *arrow.Schema
	counted     bool
	counts      map[string]int64
	held        int64
}

func newSetOp(ec *evalCtx, budget *Budget, left, right Operator, n *SetOp) (Operator, error) {
	schema, err := schemaOf(n.Columns())
	if err != nil {
		return nil, err
	}
	return &setOpOp{ec: ec, budget: budget, left: left, right: right, kind: n.Kind, schema: schema, counts: map[string]int64{}}, nil
}

// rowKeys encodes each row of b (NULL is a value of its own).
func rowKeys(b arrow.RecordBatch, each func(key []byte, row int) error) error {
	enc := make([]func([]byte, int) []byte, b.NumCols())
	for i, c := range b.Columns() {
		var err error
		if enc[i], err = keyAppender(c); err != nil {
			return err
		}
	}
	var key []byte
	for r := range int(b.NumRows()) {
		key = key[:0]
		for i := range enc {
			key = enc[i](key, r)
		}
		if err := each(key, r); err != nil {
			return err
		}
	}
	return nil
}

func (s *setOpOp) grow(key []byte) error {
	sz := int64(len(key) + 56)
	s.held += sz
	return s.budget.Grow(sz, setOpState)
}

func (s *setOpOp) countRight() error {
	s.counted = true
	return forEachBatch(s.ec, s.right, func(b arrow.RecordBatch) error {
		return rowKeys(b, func(key []byte, _ int) error {
			n, seen := s.counts[string(key)]
			if !seen {
				if err := s.grow(key); err != nil {
					return err
				}
			}
			s.counts[string(key)] = n + 1
			return nil
		})
	})
}

func (s *setOpOp) Next() (arrow.RecordBatch, error) {
	if !s.counted {
		if err := s.countRight(); err != nil {
			return nil, err
		}
	}
	for {
		if err := s.ec.ctx.Err(); err != nil {
			return nil, err
		}
		b, err := s.left.Next()
		if err != nil {
			return nil, err
		}
		out, err := s.filter(b)
		b.Release()
		if err != nil {
			return nil, err
		}
		if out.NumRows() == 0 {
			out.Release()
			continue
		}
		return out, nil
	}
}

// filter keeps the rows of a left batch the operation passes.
func (s *setOpOp) filter(b arrow.RecordBatch) (arrow.RecordBatch, error) {
	mb := array.NewBooleanBuilder(s.ec.mem)
	defer mb.Release()
	err := rowKeys(b, func(key []byte, _ int) error {
		n, seen := s.counts[string(key)]
		keep := false
		switch s.kind {
		case IntersectDistinct: // pass once: the count drops to 0 after
			keep = n > 0
			if keep {
				s.counts[string(key)] = 0
			}
		case IntersectAll:
			keep = n > 0
			if keep {
				s.counts[string(key)] = n - 1
			}
		case ExceptDistinct: // pass once: the row then counts as on the right
			keep = !seen
			if keep {
				if err := s.grow(key); err != nil {
					return err
				}
				s.counts[string(key)] = 1
			}
		case ExceptAll:
			keep = n == 0
			if !keep {
				s.counts[string(key)] = n - 1
			}
		}
		mb.Append(keep)
		return nil
	})
	if err != nil {
		return nil, err
	}
	mask := mb.NewArray()
	defer mask.Release()
	in := arrowRecord(s.schema, b.Columns(), b.NumRows())
	defer in.Release()
	return compute.FilterRecordBatch(s.ec.ctx, in, mask, compute.DefaultFilterOptions())
}

func (s *setOpOp) Close() {
	s.left.Close()
	s.right.Close()
	s.counts = nil
	s.budget.Shrink(s.held)
	s.held = 0
}
