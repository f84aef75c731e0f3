package parser

import (
	"slices"

	"github.com/xwb1989/sqlparser"
)

// Subqueries in expressions: x [NOT] IN (SELECT …), [NOT] EXISTS (SELECT …)
// and a scalar (SELECT …) wherever a value goes. Inside one, the tables and
// aliases of the enclosing queries may qualify columns too (a correlated
// subquery); the planner decides which references are correlated.
// Walk does not descend into a subquery (its columns are of its own
// FROM); SubqueryOf gives the nested query.

// InSubquery is Expr [NOT] IN (Query), or with Row (Expr nil) the row
// value (a, b, …) [NOT] IN (Query).
type InSubquery struct {
	Expr  Expr
	Row   []Expr
	Query *Select
	Not   bool
}

// Left lists the compared values: Expr, or Row's.
func (n *InSubquery) Left() []Expr {
	if n.Row != nil {
		return n.Row
	}
	return []Expr{n.Expr}
}

// Exists is EXISTS (Query); NOT EXISTS is a *Not over it.
type Exists struct {
	Query *Select
}

// ScalarSubquery is (Query) as a value: one column, at most one row.
type ScalarSubquery struct {
	Query *Select
}

func (*InSubquery) expr()     {}
func (*Exists) expr()         {}
func (*ScalarSubquery) expr() {}

// String renders the predicate.
func (n *InSubquery) String() string {
	left := ""
	if n.Row != nil {
		left = "(" + exprList(n.Row) + ")"
	} else {
		left = paren(n.Expr, precPrimary)
	}
	return left + notClause(n.Not) + " IN (" + n.Query.String() + ")"
}

// rowIn converts (a, b, …) [NOT] IN (SELECT …).
func (c *converter) rowIn(n *sqlparser.ComparisonExpr) (Expr, bool, error) {
	row, ok := n.Left.(sqlparser.ValTuple)
	sq, isSub := n.Right.(*sqlparser.Subquery)
	if !ok || !isSub || n.Operator != sqlparser.InStr && n.Operator != sqlparser.NotInStr {
		return nil, false, nil
	}
	in := &InSubquery{Not: n.Operator == sqlparser.NotInStr}
	for _, x := range row {
		v, err := c.expr(x)
		if err != nil {
			return nil, true, err
		}
		in.Row = append(in.Row, v)
	}
	q, err := c.exprSubquery(sq.Select)
	if err != nil {
		return nil, true, err
	}
	in.Query = q
	return in, true, nil
}

// String renders the predicate.
func (n *Exists) String() string { return "EXISTS (" + n.Query.String() + ")" }

// String renders the subquery.
func (n *ScalarSubquery) String() string { return "(" + n.Query.String() + ")" }

// SubqueryOf returns the query of an *InSubquery, *Exists or
// *ScalarSubquery, nil for any other expression.
func SubqueryOf(e Expr) *Select {
	switch n := e.(type) {
	case *InSubquery:
		return n.Query
	case *Exists:
		return n.Query
	case *ScalarSubquery:
		return n.Query
	}
	return nil
}

// HasSubquery reports whether e has a subquery (outside those of nested
// FROM items).
func HasSubquery(e Expr) bool {
	found := false
	Walk(e, func(x Expr) bool {
		if SubqueryOf(x) != nil {
			found = true
		}
		return !found
	})
	return found
}

// SelectExprs lists the expressions of a SELECT's clauses: the select
// list, WHERE, GROUP BY, HAVING and ORDER BY (nil entries skipped).
func SelectExprs(s *Select) []Expr {
	var out []Expr
	add := func(e Expr) {
		if e != nil {
			out = append(out, e)
		}
	}
	for _, it := range s.Items {
		add(it.Expr)
	}
	add(s.Where)
	for _, g := range s.GroupBy {
		add(g)
	}
	add(s.Having)
	for _, o := range s.OrderBy {
		add(o.Expr)
	}
	return out
}

// exprSubquery converts a subquery of an expression; the qualifiers of the
// enclosing query stay visible inside it.
func (c *converter) exprSubquery(st sqlparser.SelectStatement) (*Select, error) {
	saved := c.outer
	defer func() { c.outer = saved }()
	c.outer = slices.Clone(c.outer)
	if c.scope != nil {
		c.outer = append(c.outer, c.scope...)
	} else if c.table.Name != "" {
		c.outer = append(c.outer, c.table.Name)
	}
	q, err := c.subquery(st)
	if err != nil {
		return nil, err
	}
	switch n := q.(type) {
	case *Select:
		return n, nil
	case *Union:
		return &Select{Items: []SelectItem{{Expr: &Star{}}}, From: &SubqueryRef{Query: n}}, nil
	}
	return nil, c.unsupported("this subquery", "select")
}

// outerOK reports whether a qualifier names a table of an enclosing query.
func (c *converter) outerOK(q TableName) bool {
	return q.Database == "" && slices.Contains(c.outer, q.Name)
}

// subqueryExpr converts (SELECT …) and EXISTS (SELECT …).
func (c *converter) subqueryExpr(e sqlparser.Expr) (Expr, bool, error) {
	switch n := e.(type) {
	case *sqlparser.Subquery:
		q, err := c.exprSubquery(n.Select)
		if err != nil {
			return nil, true, err
		}
		return &ScalarSubquery{Query: q}, true, nil
	case *sqlparser.ExistsExpr:
		q, err := c.exprSubquery(n.Subquery.Select)
		if err != nil {
			return nil, true, err
		}
		return &Exists{Query: q}, true, nil
	}
	return nil, false, nil
}
