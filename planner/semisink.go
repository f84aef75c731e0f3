package planner

import "github.com/flussql/flussql/engine"

// sinkSemi moves a SEMI or ANTI hash join down a tree of inner hash joins to the build
// side whose columns its keys and residual name, on its left: Semi(Inner(L, R), S) becomes
// Inner(L, Semi(R, S)) when they name R's columns only, and Inner(Semi(L, S), R) when they
// name L's only and L is itself an inner hash join it goes further down into. It keeps the
// same rows, since whether a row of an inner join is kept depends on those columns only,
// and the inner join's output is the same columns in the same order. It pays because the
// inner joins multiply or keep the build side's rows: TPC-H Q18's IN (SELECT l_orderkey …
// HAVING SUM(l_quantity) > 300) keeps a few orders before lineitem is joined with them,
// instead of checking every joined lineitem row. A join that would end on the probe side
// (the stream the joins start from) stays where it is: there it would check the rows
// before the joins above drop them (Q21's EXISTS over lineitem after the nation filter).
func sinkSemi(n engine.Node) engine.Node {
	hj, ok := n.(*engine.HashJoin)
	if !ok || (hj.Kind != engine.SemiJoin && hj.Kind != engine.AntiJoin) || hj.SingleMatch || len(hj.LeftKeys) == 0 {
		return n
	}
	if out, ok := sinkInto(hj, hj.Left); ok {
		return out
	}
	return n
}

// sinkInto moves hj, whose left is left, onto the build side of left's inner joins that
// holds the columns hj names; ok is false when there is none.
func sinkInto(hj *engine.HashJoin, left engine.Node) (engine.Node, bool) {
	inner, ok := left.(*engine.HashJoin)
	if !ok || inner.Kind != engine.InnerJoin || inner.SingleMatch {
		return nil, false
	}
	nl, nr := len(inner.Left.Columns()), len(inner.Right.Columns())
	lo, hi := nl+nr, -1 // the lowest and highest left column hj names
	see := func(e engine.Expr) {
		engine.Walk(e, func(x engine.Expr) {
			if c, ok := x.(*engine.Col); ok && c.Index < nl+nr {
				lo, hi = min(lo, c.Index), max(hi, c.Index)
			}
		})
	}
	for _, k := range hj.LeftKeys {
		see(k)
	}
	see(hj.Residual) // its columns are the left's, then S's
	switch {
	case lo >= nl: // R's columns only
		semi := renumber(hj, func(i int) int { return i - nl }) // R's, then S's
		semi.Left = inner.Right
		out := *inner
		out.Right = sinkSemi(semi)
		return &out, true
	case hi < nl: // L's columns only
		semi := renumber(hj, func(i int) int { // L's stay, S's follow them
			if i >= nl+nr {
				return i - nr
			}
			return i
		})
		semi.Left = inner.Left
		deeper, ok := sinkInto(semi, inner.Left)
		if !ok {
			return nil, false
		}
		out := *inner
		out.Left = deeper
		return &out, true
	}
	return nil, false
}

// renumber returns a copy of hj with its left keys' and residual's column numbers mapped
// by f.
func renumber(hj *engine.HashJoin, f func(int) int) *engine.HashJoin {
	move := func(e engine.Expr) engine.Expr {
		return engine.MapCols(e, func(c *engine.Col) engine.Expr {
			s := *c
			s.Index = f(c.Index)
			return &s
		})
	}
	out := *hj
	out.LeftKeys = make([]engine.Expr, len(hj.LeftKeys))
	for i, k := range hj.LeftKeys {
		out.LeftKeys[i] = move(k)
	}
	out.Residual = move(hj.Residual)
	return &out
}
