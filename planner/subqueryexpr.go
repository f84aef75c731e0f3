package planner

import (
	"fmt"
	"strings"

	"github.com/flussql/flussql/parser"
)

// Expression helpers of subquery planning: rewriting a parser expression,
// telling which query a column reference belongs to, and what an
// aggregate gives over no rows.

// mapExpr rewrites e bottom-up: f is called for every node after its
// children are rewritten, inAgg telling whether the node is inside an
// aggregate's argument; it returns the replacement (or the node). A
// subquery's own clauses are not entered.
func mapExpr(e parser.Expr, inAgg bool, f func(parser.Expr, bool) (parser.Expr, error)) (parser.Expr, error) {
	if e == nil {
		return nil, nil
	}
	m := func(x parser.Expr) (parser.Expr, error) { return mapExpr(x, inAgg, f) }
	var err error
	all := func(xs []parser.Expr, agg bool) []parser.Expr {
		out := make([]parser.Expr, len(xs))
		for i, x := range xs {
			if err == nil {
				out[i], err = mapExpr(x, agg, f)
			}
		}
		return out
	}
	two := func(a, b parser.Expr) (parser.Expr, parser.Expr) {
		xs := all([]parser.Expr{a, b}, inAgg)
		return xs[0], xs[1]
	}
	var out parser.Expr
	switch n := e.(type) {
	case *parser.Comparison:
		c := *n
		c.Left, c.Right = two(n.Left, n.Right)
		out = &c
	case *parser.Arith:
		c := *n
		c.Left, c.Right = two(n.Left, n.Right)
		out = &c
	case *parser.And:
		c := *n
		c.Left, c.Right = two(n.Left, n.Right)
		out = &c
	case *parser.Or:
		c := *n
		c.Left, c.Right = two(n.Left, n.Right)
		out = &c
	case *parser.Not:
		c := *n
		c.Expr, err = m(n.Expr)
		out = &c
	case *parser.Neg:
		c := *n
		c.Expr, err = m(n.Expr)
		out = &c
	case *parser.IsNull:
		c := *n
		c.Expr, err = m(n.Expr)
		out = &c
	case *parser.Cast:
		c := *n
		c.Expr, err = m(n.Expr)
		out = &c
	case *parser.TimeUnitCall:
		c := *n
		c.Expr, err = m(n.Expr)
		out = &c
	case *parser.FieldAccess:
		c := *n
		c.Base, err = m(n.Base)
		out = &c
	case *parser.Subscript:
		c := *n
		c.Base, c.Index = two(n.Base, n.Index)
		out = &c
	case *parser.Constructor:
		c := *n
		c.Elems = all(n.Elems, inAgg)
		out = &c
	case *parser.Between:
		c := *n
		xs := all([]parser.Expr{n.Expr, n.Low, n.High}, inAgg)
		c.Expr, c.Low, c.High = xs[0], xs[1], xs[2]
		out = &c
	case *parser.Like:
		c := *n
		c.Expr, c.Pattern = two(n.Expr, n.Pattern)
		if err == nil && n.Escape != nil {
			c.Escape, err = m(n.Escape)
		}
		out = &c
	case *parser.In:
		c := *n
		c.Expr, err = m(n.Expr)
		if err == nil {
			c.List = all(n.List, inAgg)
		}
		out = &c
	case *parser.InSubquery:
		c := *n
		c.Expr, err = m(n.Expr)
		if err == nil && n.Row != nil {
			c.Row = all(n.Row, inAgg)
		}
		out = &c
	case *parser.FuncCall:
		c := *n
		c.Args = all(n.Args, inAgg || isAggregate(n))
		out = &c
	case *parser.TimestampFunc:
		c := *n
		c.Args = all(n.Args, inAgg)
		out = &c
	case *parser.Case:
		c := *n
		c.Operand, err = m(n.Operand)
		c.Whens = make([]parser.When, len(n.Whens))
		for i, w := range n.Whens {
			if err == nil {
				c.Whens[i].Cond, c.Whens[i].Result = two(w.Cond, w.Result)
			}
		}
		if err == nil {
			c.Else, err = m(n.Else)
		}
		out = &c
	default:
		out = e
	}
	if err != nil {
		return nil, err
	}
	return f(out, inAgg)
}

// emptyValue is what an aggregating select item gives over no rows: COUNT
// is 0, the other aggregates NULL.
func emptyValue(e parser.Expr) parser.Expr {
	out, _ := mapExpr(e, false, func(x parser.Expr, inAgg bool) (parser.Expr, error) {
		if inAgg || !isAggregate(x) {
			return x, nil
		}
		if _, ok := x.(*parser.CountStar); ok {
			return &parser.Literal{Kind: parser.LitInt, Value: "0"}, nil
		}
		if strings.EqualFold(x.(*parser.FuncCall).Name, "COUNT") {
			return &parser.Literal{Kind: parser.LitInt, Value: "0"}, nil
		}
		return &parser.Literal{Kind: parser.LitNull}, nil
	})
	return out
}

// hasCount reports whether e calls COUNT.
func hasCount(e parser.Expr) bool {
	found := false
	parser.Walk(e, func(x parser.Expr) bool {
		if f, ok := x.(*parser.FuncCall); ok && strings.EqualFold(f.Name, "COUNT") {
			found = true
		}
		if _, ok := x.(*parser.CountStar); ok {
			found = true
		}
		return !found
	})
	return found
}

// hasSubqueries reports whether a SELECT's own clauses have a subquery in
// an expression.
func hasSubqueries(s *parser.Select) bool {
	for _, e := range parser.SelectExprs(s) {
		if parser.HasSubquery(e) {
			return true
		}
	}
	return false
}

// nestedRefs lists the column references inside the subqueries of a
// SELECT's expressions, at any depth: the correlated ones among them name
// columns the outer tables must read.
func nestedRefs(s *parser.Select) []*parser.ColumnRef {
	var out []*parser.ColumnRef
	var inner func(q *parser.Select)
	visit := func(e parser.Expr) bool {
		if q := parser.SubqueryOf(e); q != nil {
			inner(q)
		}
		return true
	}
	inner = func(q *parser.Select) {
		for _, e := range parser.SelectExprs(q) {
			parser.Walk(e, func(x parser.Expr) bool {
				if ref, ok := x.(*parser.ColumnRef); ok {
					out = append(out, ref)
				}
				return visit(x)
			})
		}
	}
	for _, e := range parser.SelectExprs(s) {
		parser.Walk(e, visit)
	}
	return out
}

// refSide tells whether the column references of e (outside nested
// subqueries) are all of the subquery (inner), all of the enclosing query
// (outer, a correlation), both, or none. Unqualified names resolve in
// the subquery first, as SQL says.
func refSide(e parser.Expr, inner, outer *scope) (side, error) {
	s := sideNone
	var err error
	parser.Walk(e, func(x parser.Expr) bool {
		ref, ok := x.(*parser.ColumnRef)
		if !ok || err != nil {
			return err == nil
		}
		_, ierr := inner.resolve(ref)
		switch {
		case ierr == nil:
			s |= sideRight
		case strings.Contains(ierr.Error(), "ambiguous"):
			err = ierr
		default:
			if _, oerr := outer.resolve(ref); oerr == nil {
				s |= sideLeft
			} else {
				err = fmt.Errorf("%w (in a subquery; nor is it a column of the enclosing query: %v)", ierr, oerr)
			}
		}
		return err == nil
	})
	return s, err
}
