package engine

import (
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/flussql/flussql/fluss/types"
)

// hashJoinOp reads the right (build) side whole into one batch and indexes
// its rows by key (joinIndex), under the budget, then probes the index with
// every batch of the left side.
type hashJoinOp struct {
	ec          *evalCtx
	budget      *Budget
	left, right Operator
	n           *HashJoin
	j           *joiner
	built       bool
	leftEnded   bool // the left side was read whole first (op_semifirst.go)
	build       arrow.RecordBatch
	index       *joinIndex // nil when the build side has no rows
	held        int64
	pending     []arrow.RecordBatch
	semi        *semiProbe // SEMI and ANTI joins
	heads       []int32    // scratch: a probe batch's first matches
	li, ri      []int64    // scratch: a probe batch's pairs
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
	keys, err := evalAll(h.ec, h.n.RightKeys, h.build)
	if err != nil {
		return err
	}
	defer releaseAll(keys)
	grow := func(n int64) error {
		h.held += n
		return h.budget.Grow(n, hashJoinState)
	}
	h.index, err = buildJoinIndex(h.keyMode(), keys, int(h.build.NumRows()), grow)
	if err != nil {
		return err
	}
	if err := h.clusterBuild(); err != nil {
		return err
	}
	if h.semi != nil {
		h.semi.rightNull = h.index.nullKey
	}
	return nil
}

func (h *hashJoinOp) keyMode() joinKeyMode {
	l, r := make([]types.DataType, len(h.n.LeftKeys)), make([]types.DataType, len(h.n.RightKeys))
	for i := range l {
		l[i], r[i] = h.n.LeftKeys[i].Type(), h.n.RightKeys[i].Type()
	}
	return joinKeyModeOf(l, r)
}

// probeHeads evaluates the left keys over b and returns, per row of b, its
// first matching build row + 1 (0: none, -1: a NULL key). It is scratch
// space, valid until the next call.
func (h *hashJoinOp) probeHeads(b arrow.RecordBatch, keys []Expr) ([]int32, error) {
	n := int(b.NumRows())
	arrs, err := evalAll(h.ec, keys, b)
	if err != nil {
		return nil, err
	}
	defer releaseAll(arrs)
	h.heads = grown(h.heads[:0], n)
	heads := h.heads[:n]
	if err := h.index.probe(arrs, n, heads); err != nil {
		return nil, err
	}
	return heads, nil
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
		read := h.readBuild
		if h.semiFirst() {
			read = h.startSemi
		} else if err := prepareProbe(h.left); err != nil {
			return nil, err
		}
		if err := read(); err != nil {
			return nil, err
		}
	}
	for len(h.pending) == 0 {
		if h.leftEnded {
			return nil, io.EOF
		}
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
	li, ri := h.li[:0], h.ri[:0]
	if h.index != nil {
		heads, err := h.probeHeads(b, h.n.LeftKeys)
		if err != nil {
			return nil, err
		}
		next := h.index.next
		for r, x := range heads {
			if x <= 0 {
				continue
			}
			if h.n.SingleMatch && next[x-1] != 0 {
				return nil, fmt.Errorf("%w; a correlated one gives one row per outer row only with an aggregate or a key equality", ErrScalarSubqueryRows)
			}
			for ; x != 0; x = next[x-1] {
				li, ri = append(li, int64(r)), append(ri, int64(x-1))
			}
		}
	}
	h.li, h.ri = li, ri // the joined batches are copies: the pairs are scratch space
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
	h.index = nil
	h.budget.Shrink(h.held)
	h.held = 0
}
