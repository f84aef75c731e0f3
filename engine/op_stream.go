package engine

import (
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// The streaming operators: each batch in gives at most one batch out, and
// nothing is kept between batches.

func arrowRecord(schema *arrow.Schema, cols []arrow.Array, n int64) arrow.RecordBatch {
	return array.NewRecordBatch(schema, cols, n)
}

type filterOp struct {
	ec    *evalCtx
	in    Operator
	cond  Expr
	conds []Expr // cond's AND-ed conjuncts, in order
}

// andConjuncts splits e at its ANDs, left to right.
func andConjuncts(e Expr) []Expr {
	if l, ok := e.(*Logic); ok && l.And {
		return append(andConjuncts(l.L), andConjuncts(l.R)...)
	}
	return []Expr{e}
}

// Next keeps the rows where the condition is TRUE (a NULL condition drops
// the row): its conjuncts are evaluated one after another over the rows
// the ones before kept, so that a costly conjunct after a selective one
// sees few rows.
func (f *filterOp) Next() (arrow.RecordBatch, error) {
	if f.conds == nil {
		f.conds = andConjuncts(f.cond)
	}
	for {
		b, err := f.in.Next()
		if err != nil {
			return nil, err
		}
		for _, c := range f.conds {
			mask, err := c.eval(f.ec, b)
			if err != nil {
				b.Release()
				return nil, err
			}
			out, err := filterBatch(f.ec, b, mask)
			mask.Release()
			b.Release()
			if err != nil {
				return nil, err
			}
			b = out
			if b.NumRows() == 0 {
				break
			}
		}
		if b.NumRows() == 0 {
			b.Release()
			continue
		}
		return b, nil
	}
}

func (f *filterOp) Close() { f.in.Close() }

type projectOp struct {
	ec     *evalCtx
	in     Operator
	exprs  []Expr
	schema *arrow.Schema
}

func newProject(ec *evalCtx, in Operator, n *Project) (Operator, error) {
	fields := make([]arrow.Field, len(n.Exprs))
	for i, e := range n.Exprs {
		at, err := arrowType(e.Type())
		if err != nil {
			in.Close()
			return nil, err
		}
		fields[i] = arrow.Field{Name: n.Names[i], Type: at, Nullable: !e.Type().NotNull}
	}
	return &projectOp{ec: ec, in: in, exprs: n.Exprs, schema: arrow.NewSchema(fields, nil)}, nil
}

func (p *projectOp) Next() (arrow.RecordBatch, error) {
	b, err := p.in.Next()
	if err != nil {
		return nil, err
	}
	defer b.Release()
	cols, err := evalAll(p.ec, p.exprs, b)
	if err != nil {
		return nil, err
	}
	defer releaseAll(cols)
	for i, c := range cols {
		if want := p.schema.Field(i).Type; !arrow.TypeEqual(c.DataType(), want) {
			return nil, errTypeMismatch(p.exprs[i], c.DataType(), want)
		}
	}
	return arrowRecord(p.schema, cols, b.NumRows()), nil
}

func (p *projectOp) Close() { p.in.Close() }

type limitOp struct {
	in            Operator
	limit, offset int64
	seen, emitted int64
	done          bool
}

// Next slices batches; once the limit is reached it closes its input, so
// a scan below stops at once.
func (l *limitOp) Next() (arrow.RecordBatch, error) {
	for {
		if l.done || l.limit >= 0 && l.emitted >= l.limit {
			l.Close()
			return nil, io.EOF
		}
		b, err := l.in.Next()
		if err != nil {
			return nil, err
		}
		n := b.NumRows()
		from := max(0, min(n, l.offset-l.seen))
		l.seen += n
		to := n
		if l.limit >= 0 {
			to = min(n, from+l.limit-l.emitted)
		}
		if from >= to {
			b.Release()
			continue
		}
		out := b.NewSlice(from, to)
		b.Release()
		l.emitted += to - from
		return out, nil
	}
}

func (l *limitOp) Close() {
	if !l.done {
		l.done = true
		l.in.Close()
	}
}
