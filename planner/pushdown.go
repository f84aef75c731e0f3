package planner

import (
	"time"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/parser"
)

// Server-side filters. A Fluss 1.0 server can skip whole log batches whose
// column statistics rule a predicate out (tables with
// 'table.statistics.columns'). The planner compiles the WHERE of a scan a
// second time, over table column positions, into Scan.Pushdown; at run time
// ServerFilter turns the bound conjuncts the server understands into a
// fluss.Predicate. It only thins the fetched data: the client still
// evaluates the whole WHERE on every row.

// pushdownFilter compiles the conjuncts of where that the row filter
// understands over table column positions; nil when none does. Conjuncts it
// cannot compile (expressions the engine evaluates) are left out, which only
// makes the server filter weaker.
func pushdownFilter(info *fluss.TableInfo, where parser.Expr, loc *time.Location) *Filter {
	if len(info.StatisticsColumns()) == 0 {
		return nil
	}
	return compilePushdown(info, where, Session{Location: loc})
}

// compilePushdown compiles the conjuncts of where that the row filter understands over
// table column positions; nil when none does.
func compilePushdown(info *fluss.TableInfo, where parser.Expr, sess Session) *Filter {
	if where == nil {
		return nil
	}
	loc := sess.Location
	width := len(info.Schema().Columns)
	c := &compiler{info: info, slot: func(col int) int { return col }, loc: loc, width: width}
	var root fnode
	for _, e := range conjuncts(where) {
		n, err := c.node(e)
		if err != nil {
			continue
		}
		if root == nil {
			root = n
		} else {
			root = &andNode{root, n}
		}
	}
	if root == nil {
		return nil
	}
	return &Filter{root: root, width: width}
}

// ServerFilter returns what of the scan's WHERE can be sent to a Fluss 1.0
// server, or nil: conjuncts of comparisons, IN, BETWEEN, IS [NOT] NULL and
// OR of those, on columns with statistics, with bound values. Placeholders
// not yet bound leave their conjunct out.
func (p *Scan) ServerFilter() *fluss.Predicate {
	if p.Pushdown == nil {
		return nil
	}
	schema, stats := p.Table.Schema(), p.Table.StatisticsColumns()
	pred, ok := toPredicateWith(p.Pushdown.root, p.Table, func(q fluss.Predicate) bool { return q.Pushable(schema, stats) == nil })
	if !ok {
		return nil
	}
	return &pred
}

// toPredicateWith converts n; ok is false when a leaf fails pushable (the server, or the
// lake, cannot check it). An AND keeps the children it can convert, an OR needs all of them.
func toPredicateWith(n fnode, info *fluss.TableInfo, pushable func(fluss.Predicate) bool) (fluss.Predicate, bool) {
	toPredicate := func(n fnode, info *fluss.TableInfo) (fluss.Predicate, bool) {
		return toPredicateWith(n, info, pushable)
	}
	leafOK := func(p fluss.Predicate) (fluss.Predicate, bool) {
		return p, pushable(p)
	}
	switch n := n.(type) {
	case *andNode:
		l, lok := toPredicate(n.l, info)
		r, rok := toPredicate(n.r, info)
		switch {
		case lok && rok:
			return flatten(fluss.PredAnd, l, r), true
		case lok:
			return l, true
		case rok:
			return r, true
		}
	case *orNode:
		l, lok := toPredicate(n.l, info)
		r, rok := toPredicate(n.r, info)
		if lok && rok {
			return flatten(fluss.PredOr, l, r), true
		}
	case *boolNode:
		if n.x.slot >= 0 {
			return leafOK(fluss.Predicate{Op: fluss.PredEqual, Column: n.x.slot, Values: []any{true}})
		}
	case *isNullNode:
		if n.x.slot >= 0 {
			op := fluss.PredIsNull
			if n.not {
				op = fluss.PredIsNotNull
			}
			return leafOK(fluss.Predicate{Op: op, Column: n.x.slot})
		}
	case *cmpNode:
		col, v, op, ok := columnVsValue(n.l, n.r, n.op)
		if !ok {
			break
		}
		return leafOK(fluss.Predicate{Op: op, Column: col, Values: []any{v}})
	case *inNode:
		if n.x.slot < 0 || n.not {
			break // NOT IN is rarely selective; leave it to the client
		}
		var vals []any
		for _, o := range n.list {
			if o.slot >= 0 || o.val.Param != nil {
				return fluss.Predicate{}, false
			}
			if o.val.Const != nil { // NULL never matches IN
				vals = append(vals, o.val.Const)
			}
		}
		if len(vals) == 0 {
			break
		}
		return leafOK(fluss.Predicate{Op: fluss.PredIn, Column: n.x.slot, Values: vals})
	case *betweenNode:
		if n.x.slot < 0 || n.not || !isConst(n.lo) || !isConst(n.hi) {
			break
		}
		lo, lok := leafOK(fluss.Predicate{Op: fluss.PredGreaterOrEqual, Column: n.x.slot, Values: []any{n.lo.val.Const}})
		hi, hok := leafOK(fluss.Predicate{Op: fluss.PredLessOrEqual, Column: n.x.slot, Values: []any{n.hi.val.Const}})
		if lok && hok {
			return fluss.Predicate{Op: fluss.PredAnd, Children: []fluss.Predicate{lo, hi}}, true
		}
	}
	return fluss.Predicate{}, false
}

// isConst reports whether o is a bound, non-NULL value.
func isConst(o operand) bool { return o.slot < 0 && o.val.Param == nil && o.val.Const != nil }

// columnVsValue reads a comparison as "column op value", mirroring
// "value op column".
func columnVsValue(l, r operand, op parser.CompareOp) (int, any, fluss.PredicateOp, bool) {
	ops := map[parser.CompareOp]fluss.PredicateOp{
		parser.OpEq: fluss.PredEqual, parser.OpNe: fluss.PredNotEqual, parser.OpLt: fluss.PredLess,
		parser.OpLe: fluss.PredLessOrEqual, parser.OpGt: fluss.PredGreater, parser.OpGe: fluss.PredGreaterOrEqual,
	}
	mirror := map[fluss.PredicateOp]fluss.PredicateOp{
		fluss.PredLess: fluss.PredGreater, fluss.PredLessOrEqual: fluss.PredGreaterOrEqual,
		fluss.PredGreater: fluss.PredLess, fluss.PredGreaterOrEqual: fluss.PredLessOrEqual,
	}
	pop, ok := ops[op]
	if !ok {
		return 0, nil, 0, false
	}
	switch {
	case l.slot >= 0 && isConst(r):
		return l.slot, r.val.Const, pop, true
	case r.slot >= 0 && isConst(l):
		if m, ok := mirror[pop]; ok {
			pop = m
		}
		return r.slot, l.val.Const, pop, true
	}
	return 0, nil, 0, false
}

// flatten joins l and r under op, merging children of the same op.
func flatten(op fluss.PredicateOp, l, r fluss.Predicate) fluss.Predicate {
	out := fluss.Predicate{Op: op}
	for _, p := range []fluss.Predicate{l, r} {
		if p.Op == op {
			out.Children = append(out.Children, p.Children...)
		} else {
			out.Children = append(out.Children, p)
		}
	}
	return out
}

// serverFilterLine is the EXPLAIN text of what a scan pushes, "" for nothing.
func (p *Scan) serverFilterLine() string {
	f := p.ServerFilter()
	if f == nil {
		return ""
	}
	return f.Format(p.Table.Schema()) + " (sent to Fluss 1.0+ servers, which skip batches their column statistics rule out; every row is still checked here)"
}
