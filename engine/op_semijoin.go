package engine

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// semiProbe is the probe side of a SEMI or ANTI hash join: it decides for
// every left row whether a right row matches (keys equal and, when there is
// one, the residual TRUE on the pair) and passes the left rows with a
// match (SEMI) or without one (ANTI).
type semiProbe struct {
	n         *HashJoin
	pairs     *joiner // builds the (left, right) pairs the residual is evaluated on
	rightNull bool    // the build side has a row with a NULL key
}

func newSemiProbe(ec *evalCtx, n *HashJoin) (*semiProbe, error) {
	sp := &semiProbe{n: n}
	if n.Residual != nil {
		j, err := newJoiner(ec, InnerJoin, joinColumns(InnerJoin, n.Left.Columns(), n.Right.Columns()), len(n.Left.Columns()), nil)
		if err != nil {
			return nil, err
		}
		sp.pairs = j
	}
	return sp, nil
}

// probe returns the rows of b the join passes.
func (sp *semiProbe) probe(h *hashJoinOp, b arrow.RecordBatch) ([]arrow.RecordBatch, error) {
	rows := int(b.NumRows())
	matched := make([]bool, rows)
	leftNull := make([]bool, rows)
	if h.index != nil {
		heads, err := h.probeHeads(b, sp.n.LeftKeys)
		if err != nil {
			return nil, err
		}
		next := h.index.next
		li, ri := h.li[:0], h.ri[:0]
		for r, x := range heads {
			if x < 0 {
				leftNull[r] = true
				continue
			}
			if sp.pairs == nil {
				matched[r] = x > 0
				continue
			}
			for ; x != 0; x = next[x-1] {
				li, ri = append(li, int64(r)), append(ri, int64(x-1))
			}
			if len(li) >= maxJoinChunk {
				if err := sp.residual(h, b, li, ri, matched); err != nil {
					return nil, err
				}
				li, ri = li[:0], ri[:0]
			}
		}
		if len(li) > 0 {
			if err := sp.residual(h, b, li, ri, matched); err != nil {
				return nil, err
			}
		}
		h.li, h.ri = li, ri
	}
	empty := h.index == nil // no right row at all
	if sp.n.Kind == MarkJoin {
		return sp.mark(h, b, matched, leftNull, empty)
	}
	var keep []int64
	for r := range rows {
		pass := matched[r]
		if sp.n.Kind == AntiJoin {
			pass = !matched[r]
			if sp.n.NullAware && !empty && (sp.rightNull || leftNull[r]) {
				pass = false
			}
		}
		if pass {
			keep = append(keep, int64(r))
		}
	}
	if len(keep) == 0 {
		return nil, nil
	}
	if len(keep) == rows {
		b.Retain()
		return []arrow.RecordBatch{b}, nil
	}
	out, err := takeRows(h.ec, b, keep)
	if err != nil {
		return nil, err
	}
	return []arrow.RecordBatch{out}, nil
}

// mark returns b with the MarkJoin's column.
func (sp *semiProbe) mark(h *hashJoinOp, b arrow.RecordBatch, matched, leftNull []bool, empty bool) ([]arrow.RecordBatch, error) {
	schema, err := schemaOf(sp.n.Columns())
	if err != nil {
		return nil, err
	}
	bb := array.NewBooleanBuilder(h.ec.mem)
	defer bb.Release()
	for r := range matched {
		switch {
		case matched[r]:
			bb.Append(true)
		case sp.n.NullAware && !empty && (sp.rightNull || leftNull[r]):
			bb.AppendNull()
		default:
			bb.Append(false)
		}
	}
	m := bb.NewArray()
	defer m.Release()
	cols := append(append([]arrow.Array(nil), b.Columns()...), m)
	return []arrow.RecordBatch{array.NewRecordBatch(schema, cols, b.NumRows())}, nil
}

// residual evaluates the residual on the pairs and marks the left rows it
// holds for.
func (sp *semiProbe) residual(h *hashJoinOp, b arrow.RecordBatch, li, ri []int64, matched []bool) error {
	joined, err := sp.pairs.take(b, h.build, li, ri)
	if err != nil {
		return err
	}
	defer joined.Release()
	mask, err := sp.n.Residual.eval(h.ec, joined)
	if err != nil {
		return err
	}
	defer mask.Release()
	m := mask.(*array.Boolean)
	for k, l := range li {
		if m.IsValid(k) && m.Value(k) {
			matched[l] = true
		}
	}
	return nil
}

// takeRows returns the rows idx of b.
func takeRows(ec *evalCtx, b arrow.RecordBatch, idx []int64) (arrow.RecordBatch, error) {
	cols := make([]arrow.Array, 0, b.NumCols())
	defer func() { releaseAll(cols) }()
	for _, c := range b.Columns() {
		a, err := takeArray(ec, c, idx)
		if err != nil {
			return nil, err
		}
		cols = append(cols, a)
	}
	return array.NewRecordBatch(b.Schema(), cols, int64(len(idx))), nil
}

// semi passes the rows of left with a pair (SEMI) or without one (ANTI)
// whose residual, if any, is TRUE; the joiner's schema is the pairs'.
func (j *joiner) semi(left, right arrow.RecordBatch, li, ri []int64) ([]arrow.RecordBatch, error) {
	rows := int(left.NumRows())
	matched := make([]bool, rows)
	for from := 0; from < len(li); from += maxJoinChunk {
		to := min(len(li), from+maxJoinChunk)
		if j.residual == nil {
			for _, l := range li[from:to] {
				matched[l] = true
			}
			continue
		}
		b, err := j.take(left, right, li[from:to], ri[from:to])
		if err != nil {
			return nil, err
		}
		mask, err := j.residual.eval(j.ec, b)
		b.Release()
		if err != nil {
			return nil, err
		}
		m := mask.(*array.Boolean)
		for k, l := range li[from:to] {
			if m.IsValid(k) && m.Value(k) {
				matched[l] = true
			}
		}
		mask.Release()
	}
	var keep []int64
	for r := range rows {
		if matched[r] == (j.kind == SemiJoin) {
			keep = append(keep, int64(r))
		}
	}
	switch len(keep) {
	case 0:
		return nil, nil
	case rows:
		left.Retain()
		return []arrow.RecordBatch{left}, nil
	}
	out, err := takeRows(j.ec, left, keep)
	if err != nil {
		return nil, err
	}
	return []arrow.RecordBatch{out}, nil
}
