package engine

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// hashJoinOp reads the right (build) side whole into one batch and a hash
// table from key encodings to its rows, under the budget, then probes the
// table with every batch of the left side.
type hashJoinOp struct {
	ec          *evalCtx
	budget      *Budget
	left, right Operator
	n           *HashJoin
	j           *joiner
	built       bool
	build       arrow.RecordBatch
	table       map[string][]int64
	held        int64
	pending     []arrow.RecordBatch
	semi        *semiProbe // SEMI and ANTI joins
}

func newHashJoin(ec *evalCtx, budget *Budget, left, right Operator, n *HashJoin) (Operator, error) {
	if n.Kind == SemiJoin || n.Kind == AntiJoin || n.Kind == MarkJoin {
		sp, err := newSemiProbe(ec, n)
		if err != nil {
			return nil, err
		}
		return &hashJoinOp{ec: ec, budget: budget, left: left, right: right, n: n, semi: sp}, nil
	}
	j, err := newJoiner(ec, n.Kind, n.Columns(), len(n.Left.Columns()), n.Residual)
	if err != nil {
		return nil, err
	}
	return &hashJoinOp{ec: ec, budget: budget, left: left, right: right, n: n, j: j}, nil
}

// keyEncoder evaluates key expressions over a batch and encodes each row's
// key; ok is false for a row with a NULL key, which matches nothing.
type keyEncoder struct {
	arrs []arrow.Array
	enc  []func([]byte, int) []byte
}

func newKeyEncoder(ec *evalCtx, keys []Expr, b arrow.RecordBatch) (*keyEncoder, error) {
	arrs, err := evalAll(ec, keys, b)
	if err != nil {
		return nil, err
	}
	k := &keyEncoder{arrs: arrs}
	for _, a := range arrs {
		e, err := keyAppender(a)
		if err != nil {
			releaseAll(arrs)
			return nil, err
		}
		k.enc = append(k.enc, e)
	}
	return k, nil
}

func (k *keyEncoder) key(buf []byte, row int) ([]byte, bool) {
	buf = buf[:0]
	for i, a := range k.arrs {
		if a.IsNull(row) {
			return buf, false
		}
		buf = k.enc[i](buf, row)
	}
	return buf, true
}

func (k *keyEncoder) release() { releaseAll(k.arrs) }

func batchBytes(b arrow.RecordBatch) int64 {
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

const hashJoinState = "hash join (build side)"

// readBuild reads the right side and indexes it.
func (h *hashJoinOp) readBuild() error {
	h.built = true
	var err error
	if h.build, err = holdAll(h.ec, h.budget, h.right, h.n.Right.Columns(), hashJoinState, &h.held); err != nil || h.build == nil {
		return err
	}
	k, err := newKeyEncoder(h.ec, h.n.RightKeys, h.build)
	if err != nil {
		return err
	}
	defer k.release()
	h.table = map[string][]int64{}
	var buf []byte
	for r := range int(h.build.NumRows()) {
		var ok bool
		if buf, ok = k.key(buf, r); !ok {
			if h.semi != nil {
				h.semi.rightNull = true
			}
			continue
		}
		rows, seen := h.table[string(buf)]
		sz := int64(8)
		if !seen {
			sz += int64(len(buf)) + 64
		}
		h.held += sz
		if err := h.budget.Grow(sz, hashJoinState); err != nil {
			return err
		}
		h.table[string(buf)] = append(rows, int64(r))
	}
	return nil
}

// concatBatches concatenates batches column by column into one batch of
// schema.
func concatBatches(mem memory.Allocator, schema *arrow.Schema, batches []arrow.RecordBatch) (arrow.RecordBatch, error) {
	cols := make([]arrow.Array, schema.NumFields())
	defer func() { releaseAll(cols) }()
	var n int64
	for _, b := range batches {
		n += b.NumRows()
	}
	for i := range cols {
		parts := make([]arrow.Array, len(batches))
		for k, b := range batches {
			parts[k] = b.Column(i)
		}
		c, err := array.Concatenate(parts, mem)
		if err != nil {
			return nil, err
		}
		cols[i] = c
	}
	return array.NewRecordBatch(schema, cols, n), nil
}

func (h *hashJoinOp) Next() (arrow.RecordBatch, error) {
	if !h.built {
		if err := h.readBuild(); err != nil {
			return nil, err
		}
	}
	for len(h.pending) == 0 {
		if err := h.ec.ctx.Err(); err != nil {
			return nil, err
		}
		b, err := h.left.Next()
		if err != nil {
			return nil, err
		}
		if h.semi != nil {
			h.pending, err = h.semi.probe(h, b)
		} else {
			h.pending, err = h.probe(b)
		}
		b.Release()
		if err != nil {
			return nil, err
		}
	}
	out := h.pending[0]
	h.pending = h.pending[1:]
	return out, nil
}

func (h *hashJoinOp) probe(b arrow.RecordBatch) ([]arrow.RecordBatch, error) {
	var li, ri []int64
	if h.table != nil {
		k, err := newKeyEncoder(h.ec, h.n.LeftKeys, b)
		if err != nil {
			return nil, err
		}
		defer k.release()
		var buf []byte
		for r := range int(b.NumRows()) {
			var ok bool
			if buf, ok = k.key(buf, r); !ok {
				continue
			}
			rows := h.table[string(buf)]
			if h.n.SingleMatch && len(rows) > 1 {
				return nil, fmt.Errorf("%w; a correlated one gives one row per outer row only with an aggregate or a key equality", ErrScalarSubqueryRows)
			}
			for _, x := range rows {
				li, ri = append(li, int64(r)), append(ri, x)
			}
		}
	}
	return h.j.join(b, h.build, li, ri)
}

func (h *hashJoinOp) Close() {
	h.left.Close()
	h.right.Close()
	for _, b := range h.pending {
		b.Release()
	}
	h.pending = nil
	if h.build != nil {
		h.build.Release()
		h.build = nil
	}
	h.table = nil
	h.budget.Shrink(h.held)
	h.held = 0
}
