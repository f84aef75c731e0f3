package engine

import (
	"github.com/apache/arrow-go/v18/arrow"
)

// Prefilterable is an input that can drop rows before it holds them: a reader of a scan
// shared with other readers (the executor's), whose batches wait in memory while another
// reader of the same scan goes first. Prefilter gives it keep, which returns the rows of a
// batch of the input's columns that its reader does not drop anyway (a new batch, or b
// retained); the input applies it to the batches it holds from then on, so that what waits
// for a reader is what that reader keeps, not the whole scan.
type Prefilterable interface {
	Operator
	Prefilter(keep func(b arrow.RecordBatch) (arrow.RecordBatch, error))
}

// prepareProbe runs before a hash join reads its build side: the INNER and SEMI hash joins
// down its probe side (through filters and projections) whose own probe side is a
// Prefilterable input read as is build their index now, and tell that input to hold only
// the rows whose key has a match. TPC-H Q17 reads lineitem once for its correlated
// subquery (an aggregation, the build side of the join with the outer query) and for the
// outer query (joined with the few parts of one brand and container): the outer reader's
// batches wait while the subquery's aggregation reads the scan to its end, and held whole
// they were more than half the budget, so lineitem was read twice; held after the join's
// filter they are a thousandth of that.
func prepareProbe(op Operator) error {
	switch x := op.(type) {
	case *filterOp:
		return prepareProbe(x.in)
	case *projectOp:
		return prepareProbe(x.in)
	case *hashJoinOp:
		return x.buildEarly()
	}
	return nil
}

// buildEarly builds h's index before its probe side is read and prefilters its probe
// input, when that input is Prefilterable and h drops the probe rows without a match.
func (h *hashJoinOp) buildEarly() error {
	if h.built || !(h.n.Kind == InnerJoin || h.n.Kind == SemiJoin) || h.semiFirst() {
		return nil
	}
	target, keys := probeTarget(h.left, h.n.LeftKeys)
	if target == nil {
		return nil
	}
	if err := h.readBuild(); err != nil {
		return err
	}
	target.Prefilter(h.keepMatching(keys))
	return nil
}

// probeTarget follows op through filters and projections of columns down to a
// Prefilterable input, and returns it with keys (column references over op's batches)
// as references to the input's columns; nil when op is anything else or a key is not a
// plain column.
func probeTarget(op Operator, keys []Expr) (Prefilterable, []Expr) {
	cols := make([]*Col, len(keys))
	for i, k := range keys {
		c, ok := k.(*Col)
		if !ok {
			return nil, nil
		}
		cols[i] = c
	}
	for {
		switch x := op.(type) {
		case *filterOp:
			op = x.in
		case *projectOp:
			for i, c := range cols {
				if c.Index >= len(x.exprs) {
					return nil, nil
				}
				inner, ok := x.exprs[c.Index].(*Col)
				if !ok || inner.T.Kind != c.T.Kind {
					return nil, nil
				}
				cols[i] = inner
			}
			op = x.in
		case *checked:
			op = x.in
		case Prefilterable:
			out := make([]Expr, len(cols))
			for i, c := range cols {
				out[i] = &Col{Index: c.Index, Name: c.Name, T: keys[i].Type()}
			}
			return x, out
		default:
			return nil, nil
		}
	}
}

// keepMatching returns the rows of a batch whose keys have a match in h's index (none
// when the build side is empty); a NULL key matches nothing.
func (h *hashJoinOp) keepMatching(keys []Expr) func(arrow.RecordBatch) (arrow.RecordBatch, error) {
	var heads []int32
	return func(b arrow.RecordBatch) (arrow.RecordBatch, error) {
		n := int(b.NumRows())
		if h.index == nil || n == 0 {
			return b.NewSlice(0, 0), nil
		}
		arrs, err := evalAll(h.ec, keys, b)
		if err != nil {
			return nil, err
		}
		defer releaseAll(arrs)
		heads = grown(heads[:0], n)[:n]
		if err := h.index.probe(arrs, n, heads); err != nil {
			return nil, err
		}
		keep := make([]int64, 0, n/8)
		for r, x := range heads {
			if x > 0 {
				keep = append(keep, int64(r))
			}
		}
		switch len(keep) {
		case n:
			b.Retain()
			return b, nil
		case 0:
			return b.NewSlice(0, 0), nil
		}
		return takeRows(h.ec, b, keep)
	}
}
