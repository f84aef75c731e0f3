package engine

import (
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
)

// ErrScalarSubqueryRows is the error of a scalar subquery that returned
// more than one row.
var ErrScalarSubqueryRows = errors.New("a scalar subquery returned more than one row")

// SingleRowJoin appends to every row of Left the columns of the one row of
// Right: an uncorrelated scalar subquery, computed once. Right gives at
// most one row; none makes its columns NULL, more than one is
// ErrScalarSubqueryRows. The output columns are Left's, then Right's
// (nullable).
type SingleRowJoin struct {
	Left, Right Node
}

// Columns implements Node.
func (n *SingleRowJoin) Columns() []Column {
	return joinColumns(LeftJoin, n.Left.Columns(), n.Right.Columns())
}

// Inputs implements Node.
func (n *SingleRowJoin) Inputs() []Node { return []Node{n.Left, n.Right} }

// Streaming implements Node: the right side is read first, then Left
// streams.
func (n *SingleRowJoin) Streaming() bool { return true }

// Describe implements Node.
func (n *SingleRowJoin) Describe() string {
	return "SingleRowJoin (scalar subquery: the second input, at most one row, computed once)"
}

const singleRowState = "scalar subquery"

type singleRowOp struct {
	ec          *evalCtx
	budget      *Budget
	left, right Operator
	n           *SingleRowJoin
	j           *joiner
	row         arrow.RecordBatch // the right row; nil before it is read or when there is none
	read        bool
	held        int64
}

func newSingleRowJoin(ec *evalCtx, budget *Budget, left, right Operator, n *SingleRowJoin) (Operator, error) {
	j, err := newJoiner(ec, LeftJoin, n.Columns(), len(n.Left.Columns()), nil)
	if err != nil {
		return nil, err
	}
	return &singleRowOp{ec: ec, budget: budget, left: left, right: right, n: n, j: j}, nil
}

// readRight reads the right side: at most one row.
func (s *singleRowOp) readRight() error {
	s.read = true
	defer s.right.Close()
	for {
		if err := s.ec.ctx.Err(); err != nil {
			return err
		}
		b, err := s.right.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		rows := b.NumRows()
		if rows == 0 {
			b.Release()
			continue
		}
		if rows > 1 || s.row != nil {
			b.Release()
			return fmt.Errorf("%w; make it return one (an aggregate, a key equality, LIMIT 1)", ErrScalarSubqueryRows)
		}
		sz := batchBytes(b)
		s.held += sz
		if err := s.budget.Grow(sz, singleRowState); err != nil {
			b.Release()
			return err
		}
		s.row = b
	}
}

func (s *singleRowOp) Next() (arrow.RecordBatch, error) {
	if !s.read {
		if err := s.readRight(); err != nil {
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
		out, err := s.attach(b)
		b.Release()
		if err != nil || out.NumRows() > 0 {
			return out, err
		}
		out.Release()
	}
}

// attach appends the right row (or NULLs) to every row of b.
func (s *singleRowOp) attach(b arrow.RecordBatch) (arrow.RecordBatch, error) {
	n := int(b.NumRows())
	li := make([]int64, n)
	for i := range li {
		li[i] = int64(i)
	}
	if s.row == nil {
		return s.j.take(b, nil, li, nil)
	}
	ri := make([]int64, n) // all row 0
	cols := make([]arrow.Array, 0, len(s.j.schema.Fields()))
	defer func() { releaseAll(cols) }()
	for _, c := range b.Columns() {
		c.Retain()
		cols = append(cols, c)
	}
	ridx := indexArray(ri)
	defer ridx.Release()
	for _, c := range s.row.Columns() {
		a, err := compute.TakeArray(s.ec.ctx, c, ridx)
		if err != nil {
			return nil, err
		}
		cols = append(cols, a)
	}
	return array.NewRecordBatch(s.j.schema, cols, int64(n)), nil
}

func (s *singleRowOp) Close() {
	s.left.Close()
	s.right.Close()
	if s.row != nil {
		s.row.Release()
		s.row = nil
	}
	s.budget.Shrink(s.held)
	s.held = 0
}
