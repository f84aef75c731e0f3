package engine

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/compute"
)

// lookupJoinOp looks the keys of every left batch up in one batched call
// (each distinct key once) and joins the batch with what was found. It
// holds nothing between batches.
type lookupJoinOp struct {
	ec      *evalCtx
	left    Operator
	n       *LookupJoin
	look    Looker
	j       *joiner
	pending []arrow.RecordBatch
}

func newLookupJoin(ec *evalCtx, left Operator, n *LookupJoin, lookers []Looker) (Operator, error) {
	if n.ID < 0 || n.ID >= len(lookers) || lookers[n.ID] == nil {
		return nil, fmt.Errorf("engine: the plan's lookup join %d on %s has no Looker", n.ID, n.Table)
	}
	cols := n.Columns()
	if n.Kind == SemiJoin || n.Kind == AntiJoin {
		cols = joinColumns(InnerJoin, n.Left.Columns(), n.Cols) // the pairs the residual sees
	}
	j, err := newJoiner(ec, n.Kind, cols, len(n.Left.Columns()), n.Residual)
	if err != nil {
		return nil, err
	}
	return &lookupJoinOp{ec: ec, left: left, n: n, look: lookers[n.ID], j: j}, nil
}

func (l *lookupJoinOp) Next() (arrow.RecordBatch, error) {
	for len(l.pending) == 0 {
		if err := l.ec.ctx.Err(); err != nil {
			return nil, err
		}
		b, err := l.left.Next()
		if err != nil {
			return nil, err
		}
		l.pending, err = l.join(b)
		b.Release()
		if err != nil {
			return nil, err
		}
	}
	out := l.pending[0]
	l.pending = l.pending[1:]
	return out, nil
}

func (l *lookupJoinOp) join(b arrow.RecordBatch) ([]arrow.RecordBatch, error) {
	k, err := newKeyEncoder(l.ec, l.n.KeyExprs, b)
	if err != nil {
		return nil, err
	}
	defer k.release()
	for i, a := range k.arrs {
		want, err := arrowType(l.n.KeyExprs[i].Type())
		if err != nil {
			return nil, err
		}
		if !arrow.TypeEqual(a.DataType(), want) {
			return nil, fmt.Errorf("engine: lookup key %s is %s, want %s", l.n.KeyExprs[i], a.DataType(), want)
		}
	}
	// Each distinct non-NULL key once: uniq[r] is row r's key number, -1
	// for a NULL key; first lists the row of each key's first occurrence.
	uniq := make([]int, b.NumRows())
	seen := map[string]int{}
	var first []int64
	var buf []byte
	for r := range uniq {
		var ok bool
		if buf, ok = k.key(buf, r); !ok {
			uniq[r] = -1
			continue
		}
		u, dup := seen[string(buf)]
		if !dup {
			u = len(first)
			seen[string(buf)] = u
			first = append(first, int64(r))
		}
		uniq[r] = u
	}
	var found arrow.RecordBatch
	var rows [][]int
	if len(first) > 0 {
		idx := indexArray(first)
		keys := make([]arrow.Array, len(k.arrs))
		defer func() { releaseAll(keys) }()
		for i, a := range k.arrs {
			if keys[i], err = compute.TakeArray(l.ec.ctx, a, idx); err != nil {
				idx.Release()
				return nil, err
			}
		}
		idx.Release()
		found, rows, err = l.look.Lookup(l.ec.ctx, keys)
		if err != nil {
			return nil, fmt.Errorf("lookup join on %s: %w", l.n.Table, err)
		}
		if found != nil {
			defer found.Release()
		}
		if len(rows) != len(first) {
			return nil, fmt.Errorf("engine: the lookup on %s answered %d keys, want %d", l.n.Table, len(rows), len(first))
		}
	}
	var li, ri []int64
	for r, u := range uniq {
		if u < 0 {
			continue
		}
		for _, x := range rows[u] {
			li, ri = append(li, int64(r)), append(ri, int64(x))
		}
	}
	if len(li) > 0 && found == nil {
		return nil, fmt.Errorf("engine: the lookup on %s found rows and returned no batch", l.n.Table)
	}
	return l.j.join(b, found, li, ri)
}

func (l *lookupJoinOp) Close() {
	l.left.Close()
	for _, b := range l.pending {
		b.Release()
	}
	l.pending = nil
}
