package engine

import (
	"container/heap"
	"io"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
)

// newSort makes a full sort (Limit < 0) or a bounded top-N.
func newSort(ec *evalCtx, budget *Budget, in Operator, n *Sort) (Operator, error) {
	schema, err := schemaOf(n.Columns())
	if err != nil {
		in.Close()
		return nil, err
	}
	if n.Limit >= 0 {
		t := &topNOp{ec: ec, budget: budget, in: in, node: n, schema: schema, keep: n.Limit + n.Offset, refs: map[arrow.RecordBatch]int{}}
		for _, c := range n.Columns() {
			t.byRef = t.byRef || c.Type.Kind.Nested()
		}
		return t, nil
	}
	return &sortOp{ec: ec, budget: budget, in: in, node: n, schema: schema}, nil
}

// compareRows orders two rows by keys, with NULLs placed as each key says.
func compareRows(keys []SortKey, a, b []any) int {
	for _, k := range keys {
		x, y := a[k.Col], b[k.Col]
		var c int
		switch {
		case x == nil && y == nil:
			continue
		case x == nil:
			c = 1
			if k.NullsFirst {
				c = -1
			}
			return c
		case y == nil:
			c = -1
			if k.NullsFirst {
				c = 1
			}
			return c
		}
		c = compareValues(x, y)
		if k.Desc {
			c = -c
		}
		if c != 0 {
			return c
		}
	}
	return 0
}

// sortOp buffers every batch (under the budget), then sorts them at once
// with Arrow's sort_indices and take kernels.
type sortOp struct {
	ec      *evalCtx
	budget  *Budget
	in      Operator
	node    *Sort
	schema  *arrow.Schema
	batches []arrow.RecordBatch
	held    int64
	done    bool
}

func batchSize(b arrow.RecordBatch) int64 {
	var n int64
	for _, c := range b.Columns() {
		for _, buf := range c.Data().Buffers() {
			if buf != nil {
				n += int64(buf.Len())
			}
		}
	}
	return n
}

func (s *sortOp) Next() (arrow.RecordBatch, error) {
	if s.done {
		return nil, io.EOF
	}
	for {
		b, err := s.in.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if err := s.ec.ctx.Err(); err != nil {
			b.Release()
			return nil, err
		}
		// Concatenation and take each copy the input once more.
		size := 3 * batchSize(b)
		s.held += size
		s.batches = append(s.batches, b)
		if err := s.budget.Grow(size, "sort"); err != nil {
			return nil, err
		}
	}
	s.done = true
	s.in.Close()
	defer s.release()
	if len(s.batches) == 0 {
		return nil, io.EOF
	}
	cols := make([]arrow.Array, s.schema.NumFields())
	var rows int64
	for _, b := range s.batches {
		rows += b.NumRows()
	}
	for i := range cols {
		parts := make([]arrow.Array, len(s.batches))
		for j, b := range s.batches {
			parts[j] = b.Column(i)
		}
		c, err := array.Concatenate(parts, s.ec.mem)
		if err != nil {
			releaseAll(cols)
			return nil, err
		}
		cols[i] = c
	}
	all := arrowRecord(s.schema, cols, rows)
	releaseAll(cols)
	defer all.Release()
	keys := make([]compute.SortKey, len(s.node.Keys))
	for i, k := range s.node.Keys {
		keys[i] = compute.SortKey{ColumnIndex: k.Col, Order: compute.SortOrderAscending, NullPlacement: compute.SortNullsAtEnd}
		if k.Desc {
			keys[i].Order = compute.SortOrderDescending
		}
		if k.NullsFirst {
			keys[i].NullPlacement = compute.SortNullsAtStart
		}
	}
	idx, err := compute.SortIndicesRecordBatch(s.ec.ctx, all, keys)
	if err != nil {
		return nil, err
	}
	if s.node.Offset > 0 {
		from := min(s.node.Offset, int64(idx.Len()))
		sl := array.NewSlice(idx, from, int64(idx.Len()))
		idx.Release()
		idx = sl
	}
	defer idx.Release()
	if idx.Len() == 0 {
		return nil, io.EOF
	}
	out, err := compute.Take(s.ec.ctx, *compute.DefaultTakeOptions(), compute.NewDatumWithoutOwning(all), compute.NewDatumWithoutOwning(idx))
	if err != nil {
		return nil, err
	}
	return out.(*compute.RecordDatum).Value, nil
}

func (s *sortOp) release() {
	for _, b := range s.batches {
		b.Release()
	}
	s.batches = nil
	s.budget.Shrink(s.held)
	s.held = 0
}

func (s *sortOp) Close() {
	s.done = true
	s.in.Close()
	s.release()
}

// topNOp keeps the first Limit+Offset rows of the order in a max-heap (its
// root the worst row kept): memory is bounded by the LIMIT, not the input.
type topNOp struct {
	ec     *evalCtx
	budget *Budget
	in     Operator
	node   *Sort
	schema *arrow.Schema
	keep   int64
	h      rowHeap
	seq    int64
	held   int64
	done   bool
	// byRef keeps rows as references into their (retained) batches; refs
	// counts the heap rows per batch, whose memory is accounted once.
	byRef bool
	refs  map[arrow.RecordBatch]int
}

type heapRow struct {
	vals []any
	seq  int64
	// rec and row hold the row in its batch when the payload cannot be read
	// as values (ARRAY, MAP, ROW columns); vals then holds the keys only.
	rec arrow.RecordBatch
	row int
}

type rowHeap struct {
	keys []SortKey
	rows []heapRow
}

// less orders the heap worst first: a later row in the order, or of two
// equal rows the later one read.
func (h *rowHeap) less(a, b heapRow) bool {
	if c := compareRows(h.keys, a.vals, b.vals); c != 0 {
		return c > 0
	}
	return a.seq > b.seq
}

func (h *rowHeap) Len() int           { return len(h.rows) }
func (h *rowHeap) Less(i, j int) bool { return h.less(h.rows[i], h.rows[j]) }
func (h *rowHeap) Swap(i, j int)      { h.rows[i], h.rows[j] = h.rows[j], h.rows[i] }
func (h *rowHeap) Push(x any)         { h.rows = append(h.rows, x.(heapRow)) }
func (h *rowHeap) Pop() any {
	r := h.rows[len(h.rows)-1]
	h.rows = h.rows[:len(h.rows)-1]
	return r
}

func rowSize(vals []any) int64 {
	n := int64(48)
	for _, v := range vals {
		n += valueSize(v)
	}
	return n
}

func (t *topNOp) Next() (arrow.RecordBatch, error) {
	if t.done {
		return nil, io.EOF
	}
	t.h.keys = t.node.Keys
	for t.keep > 0 {
		b, err := t.in.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		err = t.consume(b)
		b.Release()
		if err != nil {
			return nil, err
		}
	}
	t.done = true
	t.in.Close()
	rows := t.h.rows
	sort.Slice(rows, func(i, j int) bool { return t.h.less(rows[j], rows[i]) })
	if int64(len(rows)) > t.node.Offset {
		rows = rows[t.node.Offset:]
	} else {
		rows = nil
	}
	defer t.release()
	if len(rows) == 0 {
		return nil, io.EOF
	}
	cols := make([]arrow.Array, t.schema.NumFields())
	colTypes := t.node.Columns()
	for i := range cols {
		var c arrow.Array
		var err error
		if t.byRef {
			c, err = t.gather(rows, i)
		} else {
			vals := make([]any, len(rows))
			for r, row := range rows {
				vals[r] = row.vals[i]
			}
			c, err = buildArray(t.ec.mem, colTypes[i].Type, vals)
		}
		if err != nil {
			releaseAll(cols)
			return nil, err
		}
		cols[i] = c
	}
	defer releaseAll(cols)
	return arrowRecord(t.schema, cols, int64(len(rows))), nil
}

// gather concatenates column i of the referenced rows.
func (t *topNOp) gather(rows []heapRow, i int) (arrow.Array, error) {
	parts := make([]arrow.Array, len(rows))
	for r, row := range rows {
		parts[r] = array.NewSlice(row.rec.Column(i), int64(row.row), int64(row.row+1))
	}
	defer releaseAll(parts)
	return array.Concatenate(parts, t.ec.mem)
}

// hold and drop keep a batch alive for a heap row that references it.
func (t *topNOp) hold(b arrow.RecordBatch) error {
	b.Retain()
	t.refs[b]++
	if t.refs[b] == 1 {
		sz := batchSize(b)
		t.held += sz
		return t.budget.Grow(sz, "top-N")
	}
	return nil
}

func (t *topNOp) drop(b arrow.RecordBatch) {
	if t.refs[b]--; t.refs[b] == 0 {
		delete(t.refs, b)
		sz := batchSize(b)
		t.held -= sz
		t.budget.Shrink(sz)
	}
	b.Release()
}

func (t *topNOp) consume(b arrow.RecordBatch) error {
	if err := t.ec.ctx.Err(); err != nil {
		return err
	}
	cols := b.Columns()
	gets := make([]func(int) any, len(cols))
	read := func(r int, vals []any) []any {
		if vals == nil {
			vals = make([]any, len(cols))
		}
		for i, c := range cols {
			vals[i] = nil
			if gets[i] != nil && c.IsValid(r) {
				vals[i] = gets[i](r)
			}
		}
		return vals
	}
	for i, c := range cols {
		key := false
		for _, k := range t.node.Keys {
			key = key || k.Col == i
		}
		if t.byRef && !key {
			continue // read from the batch at the end
		}
		g, err := getter(c)
		if err != nil {
			return err
		}
		gets[i] = g
	}
	// Key values alone decide whether a row enters a full heap: read them
	// first, the whole row only for rows that enter. A row that enters a
	// full heap replaces its root (the worst row) and takes its values'
	// slice; heap.Fix moves rows without boxing them.
	probe := make([]any, len(cols))
	skip := intSkipper(t.node.Keys, cols)
	n := int(b.NumRows())
	for r := 0; r < n; r++ {
		var reuse []any
		full := int64(t.h.Len()) >= t.keep
		if full && skip != nil {
			next := skip(r, t.h.rows[0].vals)
			t.seq += int64(next - r)
			if r = next; r == n {
				break
			}
		}
		t.seq++
		if full {
			for _, k := range t.node.Keys {
				probe[k.Col] = nil
				if cols[k.Col].IsValid(r) {
					probe[k.Col] = gets[k.Col](r)
				}
			}
			if compareRows(t.node.Keys, probe, t.h.rows[0].vals) >= 0 {
				continue // not better than the worst row kept (ties keep the earlier)
			}
			old := t.h.rows[0]
			sz := rowSize(old.vals)
			t.held -= sz
			t.budget.Shrink(sz)
			if old.rec != nil {
				t.drop(old.rec)
			}
			reuse = old.vals
		}
		row := heapRow{vals: read(r, reuse), seq: t.seq}
		sz := rowSize(row.vals)
		t.held += sz
		err := t.budget.Grow(sz, "top-N")
		if err == nil && t.byRef {
			row.rec, row.row = b, r
			err = t.hold(b)
		}
		if !full {
			t.h.rows = append(t.h.rows, row)
			heap.Fix(&t.h, len(t.h.rows)-1)
		} else {
			t.h.rows[0] = row
			heap.Fix(&t.h, 0)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (t *topNOp) release() {
	for _, r := range t.h.rows {
		if r.rec != nil {
			t.drop(r.rec)
		}
	}
	t.h.rows = nil
	t.budget.Shrink(t.held)
	t.held = 0
}

func (t *topNOp) Close() {
	t.done = true
	t.in.Close()
	t.release()
}
