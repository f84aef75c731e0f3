package planner

import (
	"fmt"

	"github.com/flussql/flussql/engine"
	"github.com/flussql/flussql/parser"
)

// IN and EXISTS subqueries in HAVING filter the groups: they are planned
// whole (they must be uncorrelated) and SEMI / ANTI joined to the
// aggregate's rows, the compared values computed from the group's keys and
// aggregates.

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
		return nil, fmt.Errorf("HAVING %s: a correlated IN or EXISTS is not supported in HAVING; move it to WHERE, or make it uncorrelated", c)
	}
	if len(xs) > 1 && anti {
		return nil, fmt.Errorf("HAVING %s: NOT IN with a row of values is not supported", c)
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
		return nil, fmt.Errorf("HAVING %s: the subquery reads an unbounded scan; it must be bounded", c)
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
	type join struct {
		hs     *havingSemi
		lk, rk []engine.Expr
	}
	var joins []join
	for _, hs := range qb.havingSemis {
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
	return func(n engine.Node) engine.Node {
		for _, j := range joins {
			n = &engine.HashJoin{Kind: j.hs.kind, NullAware: j.hs.nullAware, Left: n, Right: j.hs.right, LeftKeys: j.lk, RightKeys: j.rk}
		}
		return n
	}, nil
}
