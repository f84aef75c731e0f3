package engine

import (
	"cmp"
	"container/heap"
	"io"
	"slices"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"
)

// windowTopNOp keeps the first PerPartition rows of every partition in the
// window's order, one bounded max-heap per partition (its root the worst
// row kept; ties keep the row read first), so that its memory is bounded by
// partitions × PerPartition rows. At the end it sorts each partition's rows
// and computes the functions over them.
type windowTopNOp struct {
	ec     *evalCtx
	budget *Budget
	in     Operator
	node   *Window
	lay    *winLayout
	schema *arrow.Schema
	parts  map[string]*topPart
	order  []*topPart // partitions in the order first seen
	seq    int64
	held   int64
	done   bool
	out    [][]any
	pos    int
}

func (t *windowTopNOp) Next() (arrow.RecordBatch, error) {
	if !t.done {
		if err := t.load(); err != nil {
			return nil, err
		}
	}
	if t.pos >= len(t.out) {
		return nil, io.EOF
	}
	end := min(t.pos+windowOutChunk, len(t.out))
	b, err := buildRows(t.ec, t.schema, t.node, t.lay, t.out[t.pos:end])
	t.pos = end
	return b, err
}

func (t *windowTopNOp) load() error {
	t.done = true
	if err := forEachBatch(t.ec, t.in, t.consume); err != nil {
		return err
	}
	for _, p := range t.order {
		if err := t.ec.ctx.Err(); err != nil {
			return err
		}
		h := &p.h
		rows := h.rows
		sort.Slice(rows, func(i, j int) bool { return h.less(rows[j], rows[i]) })
		part := make([][]any, len(rows))
		for i, r := range rows {
			part[i] = r.vals
		}
		if err := computePartition(t.node, t.lay, part); err != nil {
			return err
		}
		t.out = append(t.out, part...)
	}
	return nil
}

func (t *windowTopNOp) consume(b arrow.RecordBatch) error {
	if err := t.ec.ctx.Err(); err != nil {
		return err
	}
	r, err := t.lay.reader(t.ec, b)
	if err != nil {
		return err
	}
	defer r.release()
	enc := make([]func([]byte, int) []byte, t.lay.nPart)
	for i := range enc {
		if enc[i], err = keyAppender(r.cols[t.lay.nIn+i]); err != nil {
			return err
		}
	}
	keep := int(t.node.PerPartition)
	by := t.node.PerPartitionBy
	fast := intProbe(t.lay.ordKeys, r.cols)
	probe := make([]any, t.lay.width)
	var key []byte
	for i := range int(b.NumRows()) {
		key = key[:0]
		for _, e := range enc {
			key = e(key, i)
		}
		p := t.parts[string(key)]
		if p == nil {
			p = &topPart{h: rowHeap{keys: t.lay.ordKeys}}
			t.parts[string(key)] = p
			t.order = append(t.order, p)
			sz := int64(len(key) + 96)
			t.held += sz
			if err := t.budget.Grow(sz, "window top-N"); err != nil {
				return err
			}
		}
		h := &p.h
		t.seq++
		full := len(h.rows) >= keep
		if by == "DENSE_RANK" {
			full = len(p.dense) >= keep
		}
		if full {
			c, ok := 0, false
			if fast != nil {
				c, ok = fast(i, h.rows[0].vals) // without boxing the key
			}
			if !ok {
				for _, k := range t.lay.ordKeys {
					probe[k.Col] = nil
					if r.cols[k.Col].IsValid(i) {
						probe[k.Col] = r.gets[k.Col](i)
					}
				}
				c = compareRows(t.lay.ordKeys, probe, h.rows[0].vals)
			}
			if c > 0 || c == 0 && by == "ROW_NUMBER" {
				continue // after the last row kept (for ROW_NUMBER, a tie loses to the row read first)
			}
		}
		var vals []any
		if full && by == "ROW_NUMBER" {
			// The row replaces the worst kept and takes its values' slice.
			old := h.rows[0]
			sz := rowSize(old.vals)
			t.held -= sz
			t.budget.Shrink(sz)
			vals = old.vals
		} else {
			vals = make([]any, t.lay.width)
		}
		r.read(i, vals)
		row := heapRow{vals: vals, seq: t.seq}
		sz := rowSize(vals)
		t.held += sz
		if full && by == "ROW_NUMBER" {
			h.rows[0] = row
			heap.Fix(h, 0)
		} else {
			heap.Push(h, row)
		}
		if err := t.budget.Grow(sz, "window top-N"); err != nil {
			return err
		}
		switch by {
		case "RANK":
			t.evictRank(p, keep)
		case "DENSE_RANK":
			t.evictDense(p, vals, keep)
		}
	}
	return nil
}

// topPart is the rows kept of one partition: a max-heap (the worst row at
// its root) and, for DENSE_RANK, the distinct order keys kept, best first.
type topPart struct {
	h     rowHeap
	dense [][]any
}

// evictRank drops the worst rows' peer group while the rows better than
// it are enough to push its rank past keep.
func (t *windowTopNOp) evictRank(p *topPart, keep int) {
	h := &p.h
	for len(h.rows) > keep {
		worst := h.rows[0].vals
		var group []heapRow
		for len(h.rows) > 0 && compareRows(h.keys, h.rows[0].vals, worst) == 0 {
			group = append(group, heap.Pop(h).(heapRow))
		}
		if len(h.rows) < keep {
			for _, g := range group {
				heap.Push(h, g)
			}
			return
		}
		t.drop(group)
	}
}

// evictDense notes the order key of a row kept and drops the rows of the
// worst key once more than keep distinct keys are kept.
func (t *windowTopNOp) evictDense(p *topPart, vals []any, keep int) {
	keys := p.h.keys
	j := sort.Search(len(p.dense), func(j int) bool { return compareRows(keys, p.dense[j], vals) >= 0 })
	if j < len(p.dense) && compareRows(keys, p.dense[j], vals) == 0 {
		return
	}
	p.dense = slices.Insert(p.dense, j, vals)
	if len(p.dense) <= keep {
		return
	}
	worst := p.dense[keep]
	p.dense = p.dense[:keep]
	h := &p.h
	var group []heapRow
	for len(h.rows) > 0 && compareRows(keys, h.rows[0].vals, worst) == 0 {
		group = append(group, heap.Pop(h).(heapRow))
	}
	t.drop(group)
}

// drop gives the memory of evicted rows back.
func (t *windowTopNOp) drop(rows []heapRow) {
	for _, r := range rows {
		sz := rowSize(r.vals)
		t.held -= sz
		t.budget.Shrink(sz)
	}
}

func (t *windowTopNOp) Close() {
	t.done = true
	t.in.Close()
	t.parts, t.order, t.out = nil, nil, nil
	t.budget.Shrink(t.held)
	t.held = 0
}

// intProbe compares, without boxing the value, row r's order key with the
// worst row kept's (-1: r comes first) when the order is one integer key;
// ok is false when it cannot tell (a NULL), and intProbe nil for other
// orders.
func intProbe(keys []SortKey, cols []arrow.Array) func(r int, worst []any) (cmp int, ok bool) {
	if len(keys) != 1 {
		return nil
	}
	k := keys[0]
	col := cols[k.Col]
	switch i8, i16, i32, i64 := ints(col); {
	case i64 != nil:
		return probeInts(i64, col, k)
	case i32 != nil:
		return probeInts(i32, col, k)
	case i16 != nil:
		return probeInts(i16, col, k)
	case i8 != nil:
		return probeInts(i8, col, k)
	}
	return nil
}

func probeInts[T int8 | int16 | int32 | int64](vals []T, col arrow.Array, k SortKey) func(int, []any) (int, bool) {
	return func(r int, worst []any) (int, bool) {
		w, ok := worst[k.Col].(int64)
		if !ok || col.IsNull(r) {
			return 0, false
		}
		c := cmp.Compare(int64(vals[r]), w)
		if k.Desc {
			c = -c
		}
		return c, true
	}
}
