package engine

import (
	"container/heap"
	"io"
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
	parts  map[string]*rowHeap
	order  []*rowHeap // partitions in the order first seen
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
	for {
		b, err := t.in.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		err = t.consume(b)
		b.Release()
		if err != nil {
			return err
		}
	}
	t.in.Close()
	for _, h := range t.order {
		if err := t.ec.ctx.Err(); err != nil {
			return err
		}
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
	fast := intProbe(t.lay.ordKeys, r.cols)
	probe := make([]any, t.lay.width)
	var key []byte
	for i := range int(b.NumRows()) {
		key = key[:0]
		for _, e := range enc {
			key = e(key, i)
		}
		h := t.parts[string(key)]
		if h == nil {
			h = &rowHeap{keys: t.lay.ordKeys}
			t.parts[string(key)] = h
			t.order = append(t.order, h)
			sz := int64(len(key) + 64)
			t.held += sz
			if err := t.budget.Grow(sz, "window top-N"); err != nil {
				return err
			}
		}
		t.seq++
		var reuse []any
		if len(h.rows) >= keep {
			if fast != nil {
				if beats, ok := fast(i, h.rows[0].vals); ok && !beats {
					continue // not better than the worst row kept, known without boxing the key
				}
			}
			for _, k := range t.lay.ordKeys {
				probe[k.Col] = nil
				if r.cols[k.Col].IsValid(i) {
					probe[k.Col] = r.gets[k.Col](i)
				}
			}
			if compareRows(t.lay.ordKeys, probe, h.rows[0].vals) >= 0 {
				continue // not better than the worst row kept
			}
			old := h.rows[0]
			sz := rowSize(old.vals)
			t.held -= sz
			t.budget.Shrink(sz)
			reuse = old.vals
		}
		if reuse == nil {
			reuse = make([]any, t.lay.width)
		}
		r.read(i, reuse)
		row := heapRow{vals: reuse, seq: t.seq}
		sz := rowSize(row.vals)
		t.held += sz
		if len(h.rows) < keep {
			h.rows = append(h.rows, row)
			heap.Fix(h, len(h.rows)-1)
		} else {
			h.rows[0] = row
			heap.Fix(h, 0)
		}
		if err := t.budget.Grow(sz, "window top-N"); err != nil {
			return err
		}
	}
	return nil
}

func (t *windowTopNOp) Close() {
	t.done = true
	t.in.Close()
	t.parts, t.order, t.out = nil, nil, nil
	t.budget.Shrink(t.held)
	t.held = 0
}

// intProbe decides, without boxing the value, whether row r's order key
// beats the worst row kept when the order is one integer key; ok is false
// when it cannot tell (a NULL), and intProbe nil for other orders.
func intProbe(keys []SortKey, cols []arrow.Array) func(r int, worst []any) (beats, ok bool) {
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

func probeInts[T int8 | int16 | int32 | int64](vals []T, col arrow.Array, k SortKey) func(int, []any) (bool, bool) {
	return func(r int, worst []any) (bool, bool) {
		w, ok := worst[k.Col].(int64)
		if !ok || col.IsNull(r) {
			return false, false
		}
		if v := int64(vals[r]); k.Desc {
			return v > w, true
		} else {
			return v < w, true
		}
	}
}
