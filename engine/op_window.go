package engine

import (
	"fmt"
	"io"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
)

// windowOutChunk is the number of rows per output batch of a window.
const windowOutChunk = 4096

// winLayout places a window's values in a row's slice: the input columns,
// the partition keys, the order keys, each function's argument and default,
// then each function's result.
type winLayout struct {
	nIn, nPart, nOrder int
	arg, def           []int // per function, -1 without
	res                int   // first result slot
	width              int
	exprs              []Expr // evaluated per batch into slots nIn…
	partKeys, ordKeys  []SortKey
}

func newWinLayout(n *Window) *winLayout {
	l := &winLayout{nIn: len(n.Input.Columns()), nPart: len(n.Partition), nOrder: len(n.Order)}
	l.exprs = append(l.exprs, n.Partition...)
	for i := range n.Partition {
		l.partKeys = append(l.partKeys, SortKey{Col: l.nIn + i, NullsFirst: true})
	}
	for i, o := range n.Order {
		l.exprs = append(l.exprs, o.Expr)
		l.ordKeys = append(l.ordKeys, SortKey{Col: l.nIn + l.nPart + i, Desc: o.Desc, NullsFirst: o.NullsFirst})
	}
	for _, f := range n.Funcs {
		slot := func(e Expr) int {
			if e == nil {
				return -1
			}
			l.exprs = append(l.exprs, e)
			return l.nIn + len(l.exprs) - 1
		}
		l.arg = append(l.arg, slot(f.Arg))
		l.def = append(l.def, slot(f.Default))
	}
	l.res = l.nIn + len(l.exprs)
	l.width = l.res + len(n.Funcs)
	return l
}

// rowReader reads the rows of a batch into slices of the layout's width.
type rowReader struct {
	gets  []func(int) any
	cols  []arrow.Array
	extra []arrow.Array
}

func (l *winLayout) reader(ec *evalCtx, b arrow.RecordBatch) (*rowReader, error) {
	extra, err := evalAll(ec, l.exprs, b)
	if err != nil {
		return nil, err
	}
	r := &rowReader{cols: append(append([]arrow.Array(nil), b.Columns()...), extra...), extra: extra}
	for _, c := range r.cols {
		g, err := nestedGetter(c)
		if err != nil {
			releaseAll(extra)
			return nil, fmt.Errorf("a window cannot hold %s values yet: leave such columns out of the query that computes the window (join them back by key): %w", c.DataType(), err)
		}
		r.gets = append(r.gets, g)
	}
	return r, nil
}

// read fills vals (of the layout's width) with row i.
func (r *rowReader) read(i int, vals []any) {
	for c, col := range r.cols {
		vals[c] = nil
		if col.IsValid(i) {
			vals[c] = r.gets[c](i)
		}
	}
}

func (r *rowReader) release() { releaseAll(r.extra) }

// windowOp is the full window: it holds every row, sorts them and computes
// the functions partition by partition.
type windowOp struct {
	ec     *evalCtx
	budget *Budget
	in     Operator
	node   *Window
	lay    *winLayout
	schema *arrow.Schema
	rows   [][]any
	held   int64
	done   bool
	pos    int
}

func newWindow(ec *evalCtx, budget *Budget, in Operator, n *Window) (Operator, error) {
	schema, err := schemaOf(n.Columns())
	if err != nil {
		in.Close()
		return nil, err
	}
	if n.PerPartition > 0 {
		if n.PerPartitionBy == "" {
			c := *n
			c.PerPartitionBy = "ROW_NUMBER"
			n = &c
		}
		return &windowTopNOp{ec: ec, budget: budget, in: in, node: n, lay: newWinLayout(n), schema: schema, parts: map[string]*topPart{}}, nil
	}
	return &windowOp{ec: ec, budget: budget, in: in, node: n, lay: newWinLayout(n), schema: schema}, nil
}

func (w *windowOp) Next() (arrow.RecordBatch, error) {
	if !w.done {
		if err := w.load(); err != nil {
			return nil, err
		}
	}
	if w.pos >= len(w.rows) {
		return nil, io.EOF
	}
	end := min(w.pos+windowOutChunk, len(w.rows))
	b, err := buildRows(w.ec, w.schema, w.node, w.lay, w.rows[w.pos:end])
	w.pos = end
	return b, err
}

// load reads the input, sorts it and computes the functions.
func (w *windowOp) load() error {
	w.done = true
	if err := forEachBatch(w.ec, w.in, w.consume); err != nil {
		return err
	}
	keys := append(append([]SortKey(nil), w.lay.partKeys...), w.lay.ordKeys...)
	slices.SortStableFunc(w.rows, func(a, b []any) int { return compareRows(keys, a, b) })
	for start := 0; start < len(w.rows); {
		if err := w.ec.ctx.Err(); err != nil {
			return err
		}
		end := start + 1
		for end < len(w.rows) && compareRows(w.lay.partKeys, w.rows[start], w.rows[end]) == 0 {
			end++
		}
		if err := computePartition(w.node, w.lay, w.rows[start:end]); err != nil {
			return err
		}
		start = end
	}
	return nil
}

func (w *windowOp) consume(b arrow.RecordBatch) error {
	if err := w.ec.ctx.Err(); err != nil {
		return err
	}
	r, err := w.lay.reader(w.ec, b)
	if err != nil {
		return err
	}
	defer r.release()
	for i := range int(b.NumRows()) {
		vals := make([]any, w.lay.width)
		r.read(i, vals)
		sz := rowSize(vals)
		w.held += sz
		w.rows = append(w.rows, vals)
		if err := w.budget.Grow(sz, "window"); err != nil {
			return err
		}
	}
	return nil
}

func (w *windowOp) Close() {
	w.done = true
	w.in.Close()
	w.rows = nil
	w.budget.Shrink(w.held)
	w.held = 0
}

// buildRows makes a batch of the input columns and function results of rows.
func buildRows(ec *evalCtx, schema *arrow.Schema, n *Window, lay *winLayout, rows [][]any) (arrow.RecordBatch, error) {
	cols := n.Columns()
	arrs := make([]arrow.Array, len(cols))
	vals := make([]any, len(rows))
	for c := range cols {
		slot := c
		if c >= lay.nIn {
			slot = lay.res + c - lay.nIn
		}
		for r, row := range rows {
			vals[r] = row[slot]
		}
		a, err := buildArray(ec.mem, cols[c].Type, vals)
		if err != nil {
			releaseAll(arrs)
			return nil, err
		}
		arrs[c] = a
	}
	defer releaseAll(arrs)
	return arrowRecord(schema, arrs, int64(len(rows))), nil
}
