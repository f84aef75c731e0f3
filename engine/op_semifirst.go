package engine

import (
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// A SEMI or ANTI join whose left side is small, and smaller than its right side, reads it
// first and indexes it, then streams its right side through that index, marking the left rows a right row matches: it holds
// the few left rows instead of the whole right side (TPC-H Q21's EXISTS and NOT EXISTS over
// lineitem, after the joins and filters have left a few thousand rows of l1, held all of
// lineitem twice as build sides). The left side is read up to semiFirstBytes (an eighth of
// the budget when that is less); a left side that goes on past it is joined the usual way,
// the batches read so far probed first. A NULL-aware ANTI join (NOT IN) and a MARK join
// always take the usual way, and so does one whose planner knows its right side is the
// smaller (HashJoin.BuildRight).

// semiFirstBytes bounds the left side a SEMI or ANTI join reads before its right side (a
// variable for the tests of the usual way).
var semiFirstBytes int64 = 32 << 20

// semiFirst reports whether h may read its left side first.
func (h *hashJoinOp) semiFirst() bool {
	return h.semi != nil && (h.n.Kind == SemiJoin || h.n.Kind == AntiJoin) && !h.n.NullAware && !h.n.SingleMatch && !h.n.BuildRight
}

// startSemi reads the left side up to the bound, then joins it from a left index when it
// ended before, the usual way otherwise.
func (h *hashJoinOp) startSemi() error {
	h.built = true
	limit := semiFirstBytes
	if h.budget != nil && h.budget.Limit > 0 {
		limit = min(limit, h.budget.Limit/8)
	}
	var held []arrow.RecordBatch
	defer func() {
		for _, b := range held {
			b.Release()
		}
	}()
	var size int64
	for size <= limit {
		if err := h.ec.ctx.Err(); err != nil {
			return err
		}
		b, err := h.left.Next()
		if err == io.EOF {
			return h.fromLeft(held)
		}
		if err != nil {
			return err
		}
		if b.NumRows() == 0 {
			b.Release()
			continue
		}
		held = append(held, b)
		sz := batchBytes(b)
		size += sz
		h.held += sz
		if err := h.budget.Grow(sz, hashJoinState); err != nil {
			return err
		}
	}
	if err := h.readBuild(); err != nil {
		return err
	}
	for _, b := range held {
		out, err := h.semi.probe(h, b)
		if err != nil {
			return err
		}
		h.pending = append(h.pending, out...)
	}
	return nil
}

// fromLeft joins the whole left side, held: it indexes it by the left keys, streams the
// right side through the index and passes the left rows matched (SEMI) or not (ANTI).
func (h *hashJoinOp) fromLeft(held []arrow.RecordBatch) error {
	h.leftEnded = true
	if len(held) == 0 {
		return nil // no left row: nothing to pass, and the right side is not read
	}
	// The smaller side is indexed: the right side is read up to as many rows as the left
	// has; when it ends by then, it is the build side as usual (Q20's partsupp semi-joined
	// with a few parts).
	var leftRows int64
	for _, b := range held {
		leftRows += b.NumRows()
	}
	right := &heldThen{in: h.right}
	h.right = right
	var rightRows int64
	for rightRows <= leftRows {
		if err := h.ec.ctx.Err(); err != nil {
			return err
		}
		b, err := right.in.Next()
		if err == io.EOF {
			right.ended = true
			break
		}
		if err != nil {
			return err
		}
		right.held = append(right.held, b)
		rightRows += b.NumRows()
		sz := batchBytes(b)
		h.held += sz
		if err := h.budget.Grow(sz, hashJoinState); err != nil {
			return err
		}
	}
	if right.ended {
		if err := h.readBuild(); err != nil {
			return err
		}
		for _, b := range held {
			out, err := h.semi.probe(h, b)
			if err != nil {
				return err
			}
			h.pending = append(h.pending, out...)
		}
		return nil
	}
	schema, err := schemaOf(h.n.Left.Columns())
	if err != nil {
		return err
	}
	left, err := concatBatches(h.ec.mem, schema, held)
	if err != nil {
		return err
	}
	defer left.Release()
	rows := int(left.NumRows())
	keys, err := evalAll(h.ec, h.n.LeftKeys, left)
	if err != nil {
		return err
	}
	grow := func(n int64) error {
		h.held += n
		return h.budget.Grow(n, hashJoinState)
	}
	index, err := buildJoinIndex(h.keyMode(), keys, rows, grow)
	releaseAll(keys)
	if err != nil {
		return err
	}
	matched := make([]bool, rows)
	found := 0
	mark := func(l int) {
		if !matched[l] {
			matched[l] = true
			found++
		}
	}
	heads := make([]int32, 0)
	var li, ri []int64
	for h.n.Kind == AntiJoin || found < rows { // a SEMI join whose rows all matched reads no further
		if err := h.ec.ctx.Err(); err != nil {
			return err
		}
		b, err := h.right.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		n := int(b.NumRows())
		arrs, err := evalAll(h.ec, h.n.RightKeys, b)
		if err != nil {
			b.Release()
			return err
		}
		heads = grown(heads[:0], n)[:n]
		err = index.probe(arrs, n, heads)
		releaseAll(arrs)
		if err != nil {
			b.Release()
			return err
		}
		li, ri = li[:0], ri[:0]
		for r, x := range heads {
			for ; x > 0; x = index.next[x-1] {
				if h.semi.pairs == nil {
					mark(int(x - 1))
					continue
				}
				li, ri = append(li, int64(x-1)), append(ri, int64(r))
			}
		}
		for from := 0; from < len(li) && err == nil; from += maxJoinChunk {
			to := min(len(li), from+maxJoinChunk)
			err = h.pairsHold(left, b, li[from:to], ri[from:to], mark)
		}
		b.Release()
		if err != nil {
			return err
		}
	}
	var keep []int64
	for l, m := range matched {
		if m == (h.n.Kind == SemiJoin) {
			keep = append(keep, int64(l))
		}
	}
	switch len(keep) {
	case 0:
	case rows:
		left.Retain()
		h.pending = []arrow.RecordBatch{left}
	default:
		out, err := takeRows(h.ec, left, keep)
		if err != nil {
			return err
		}
		h.pending = []arrow.RecordBatch{out}
	}
	return nil
}

// pairsHold evaluates the residual on the pairs (left row li[k], right row ri[k]) and marks
// the left rows it holds for.
func (h *hashJoinOp) pairsHold(left, right arrow.RecordBatch, li, ri []int64, mark func(int)) error {
	joined, err := h.semi.pairs.take(left, right, li, ri)
	if err != nil {
		return err
	}
	defer joined.Release()
	mask, err := h.n.Residual.eval(h.ec, joined)
	if err != nil {
		return err
	}
	defer mask.Release()
	m := mask.(*array.Boolean)
	for k, l := range li {
		if m.IsValid(k) && m.Value(k) {
			mark(int(l))
		}
	}
	return nil
}

// heldThen is an input whose first batches were read ahead: it returns them, then the
// rest of in.
type heldThen struct {
	in    Operator
	held  []arrow.RecordBatch
	ended bool // in returned io.EOF
}

func (r *heldThen) Next() (arrow.RecordBatch, error) {
	if len(r.held) > 0 {
		b := r.held[0]
		r.held[0] = nil
		r.held = r.held[1:]
		return b, nil
	}
	if r.ended {
		return nil, io.EOF
	}
	return r.in.Next()
}

func (r *heldThen) Close() {
	for _, b := range r.held {
		b.Release()
	}
	r.held = nil
	r.in.Close()
}
