package planner

import (
	"fmt"

	"github.com/flussql/flussql/engine"
	"github.com/flussql/flussql/parser"
)

// IN and EXISTS subqueries in HAVING filter the groups: they are planned
// whole (they must be uncorrelated) and SEMI / ANTI joined to the
// aggregate's rows, the compared values computed from the group's keys and
// aggregates. An uncorrelated scalar subquery of an aggregating query,
// outside an aggregate's argument, is joined to the aggregate's rows too (a
// SingleRowJoin), so that it has its value even over no rows.

// postAgg are the subqueries joined after a query's aggregate.
type postAgg struct {
	semis   []*havingSemi
	scalars []*postScalar
}

// postScalar is an uncorrelated scalar subquery read after the aggregate:
// col, shared by every expression that reads it, gets its index once the
// aggregate's columns are known.
type postScalar struct {
	qual string
	node engine.Node
	col  *engine.Col
}

// columns maps the qualifiers of the scalars to their columns.
func (p *postAgg) columns() map[string]*engine.Col {
	if p == nil {
		return nil
	}
	out := map[string]*engine.Col{}
	for _, s := range p.scalars {
		out[s.qual] = s.col
	}
	return out
}

// havingSemi is one IN or EXISTS of HAVING.
type havingSemi struct {
	kind      engine.JoinKind
	nullAware bool
	left      []parser.Expr // the compared values; nil for EXISTS
	right     engine.Node   // the subquery's rows (one for EXISTS)
	pred      parser.Expr
}

// havingPredicate plans a HAVING conjunct that is [NOT] IN (SELECT …) or
// [NOT] EXISTS; nil for any other conjunct.
func (d *decorr) havingPredicate(c parser.Expr) (*havingSemi, error) {
	not := false
	e := c
	if n, ok := e.(*parser.Not); ok {
		not, e = true, n.Expr
	}
	var xs []parser.Expr
	var q *parser.Select
	anti := not
	switch n := e.(type) {
	case *parser.InSubquery:
		xs, q, anti = n.Left(), n.Query, not != n.Not
	case *parser.Exists:
		q = n.Query
	default:
		return nil, nil
	}
	_, corr, _, err := d.split(q)
	if err != nil {
		return nil, err
	}
	if len(corr) > 0 {
		return nil, notSupported("HAVING %s: a correlated IN or EXISTS is not supported in HAVING; move it to WHERE, or make it uncorrelated", c)
	}
	if len(xs) > 1 && anti {
		return nil, notSupported("HAVING %s: NOT IN with a row of values is not supported", c)
	}
	if xs == nil && simple(q) {
		one := *q
		one.Items = []parser.SelectItem{{Expr: &parser.Literal{Kind: parser.LitInt, Value: "1"}}}
		q = &one
	}
	r, err := d.b.subSelect(d.fp, q)
	if err != nil {
		return nil, err
	}
	if !r.bounded {
		return nil, needsStreaming("HAVING %s: the subquery reads an unbounded scan; it must be bounded", c)
	}
	hs := &havingSemi{kind: engine.SemiJoin, left: xs, right: r.node, pred: c}
	if anti {
		hs.kind = engine.AntiJoin
		hs.nullAware = xs != nil
	}
	if xs == nil {
		hs.right = &engine.Limit{Input: r.node, Limit: 1}
	} else if n := len(r.node.Columns()); n != len(xs) {
		return nil, fmt.Errorf("HAVING %s: the subquery of IN must select %d column(s), it selects %d", c, len(xs), n)
	}
	return hs, nil
}

// havingJoins converts the compared values of HAVING's IN subqueries over
// the aggregate (registering the aggregates they need) and returns what
// joins the subqueries to the aggregate's rows.
func (qb *queryBuilder) havingJoins(post *exprConv) (func(engine.Node) engine.Node, error) {
	if qb.post == nil {
		return func(n engine.Node) engine.Node { return n }, nil
	}
	type join struct {
		hs     *havingSemi
		lk, rk []engine.Expr
	}
	var joins []join
	for _, hs := range qb.post.semis {
		j := join{hs: hs}
		cols := hs.right.Columns()
		for i, x := range hs.left {
			l, err := post.conv(x)
			if err != nil {
				return nil, fmt.Errorf("HAVING %s: %w", hs.pred, err)
			}
			var r engine.Expr = &engine.Col{Index: i, Name: cols[i].Name, T: cols[i].Type}
			t, err := engine.CommonType(l.Type(), r.Type())
			if err != nil {
				return nil, fmt.Errorf("HAVING %s: %w", hs.pred, err)
			}
			if l, err = castTo(l, t); err != nil {
				return nil, err
			}
			if r, err = castTo(r, t); err != nil {
				return nil, err
			}
			j.lk, j.rk = append(j.lk, l), append(j.rk, r)
		}
		joins = append(joins, j)
	}
	ac := post.agg
	return func(n engine.Node) engine.Node {
		for _, j := range joins {
			n = &engine.HashJoin{Kind: j.hs.kind, NullAware: j.hs.nullAware, Left: n, Right: j.hs.right, LeftKeys: j.lk, RightKeys: j.rk}
		}
		for i, sc := range qb.post.scalars {
			sc.col.Index = len(ac.keys) + len(ac.aggs) + i // after the aggregate's columns
			n = &engine.SingleRowJoin{Left: n, Right: sc.node}
		}
		return n
	}, nil
}
