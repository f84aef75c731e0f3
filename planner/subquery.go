package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/flussql/flussql/engine"
	"github.com/flussql/flussql/parser"
)

// Subqueries in expressions are decorrelated into joins over the query's
// FROM, so that each runs once, never once per outer row:
//
//   - x [NOT] IN (SELECT y …) and [NOT] EXISTS (SELECT …), conditions of
//     WHERE joined with AND, become a SEMI (ANTI) join: on x = y and on the
//     subquery's equalities with the outer query's columns, its other
//     correlated conditions the join's residual; a lookup join over a
//     primary-key table's key, else a hash join. NOT IN is a null-aware
//     ANTI join (uncorrelated only). An uncorrelated EXISTS reads one row
//     of the subquery. In HAVING they join the aggregate's rows
//     (subqueryhaving.go); anywhere else they are values, the column of a
//     MARK join.
//   - an uncorrelated scalar subquery is computed once and attached to
//     every row by a SingleRowJoin (in an aggregating query, outside an
//     aggregate's argument, to the aggregate's rows);
//   - a correlated scalar subquery with an aggregate is grouped by its
//     correlation columns and LEFT joined on them (a missing group is the
//     aggregate over no rows: COUNT 0, the others NULL); without one it is
//     LEFT joined, at most one row per outer row.
//
// The subquery's value becomes a column of the FROM's rows, qualified
// $subqueryN ($value, $mark), which the query's clauses then refer to.

// subqueryColumn reports whether a column of a scope is one a subquery's
// join added (which SELECT * does not show).
func subqueryColumn(c scopeCol) bool { return strings.HasPrefix(c.qual, subqueryQual) }

// subqueryQual starts the qualifier of a subquery's columns.
const subqueryQual = "$subquery"

// valueCol names the column of a subquery's value (a name no column
// reference written in SQL can take unquoted).
const valueCol = "$value"

// decorr decorrelates the subqueries of one query over its FROM.
type decorr struct {
	b       *builder
	fp      *fromPlan
	rel     *relation
	groupBy []parser.Expr // the query's GROUP BY
	where   []parser.Expr // the conjuncts of the query's WHERE
	from    parser.FromItem
	post    []*postScalar // uncorrelated scalars read after the aggregate
}

// fromRel plans the FROM of a query routed through fromQuery: its FROM
// item, its one table, or one row without columns.
func (b *builder) fromRel(fp *fromPlan, s *parser.Select) (*relation, error) {
	if on := subqueryOn(s.From); on != nil {
		return nil, notSupported("ON %s: a subquery is not supported in ON; move the condition to WHERE", on)
	}
	switch {
	case s.From != nil:
		return b.planFrom(fp, s.From, true)
	case s.Table.Name != "":
		return b.planFrom(fp, &parser.TableRef{Table: s.Table, Hints: s.Hints}, true)
	}
	return &relation{node: &engine.OneRow{}, scope: &scope{}, bounded: true}, nil
}

// fromScope is the scope of a query's FROM, its columns' names and types,
// without planning its reads (a primary-key table's plan depends on its
// filters).
func (b *builder) fromScope(q *parser.Select) (*scope, error) {
	var walk func(f parser.FromItem) (*scope, error)
	walk = func(f parser.FromItem) (*scope, error) {
		switch n := f.(type) {
		case *parser.TableRef:
			info, _, err := b.readTable(n.Table)
			if err != nil {
				return nil, err
			}
			s := &scope{}
			for _, c := range info.Schema().Columns {
				s.cols = append(s.cols, scopeCol{qual: n.Name(), name: c.Name, typ: c.Type})
			}
			return s, nil
		case *parser.Join:
			l, err := walk(n.Left)
			if err != nil {
				return nil, err
			}
			r, err := walk(n.Right)
			if err != nil {
				return nil, err
			}
			return concat(l, r, n.Kind == parser.JoinLeft), nil
		}
		rel, err := b.planFrom(&fromPlan{star: true}, f, false)
		if err != nil {
			return nil, err
		}
		return rel.scope, nil
	}
	switch {
	case q.From != nil:
		return walk(q.From)
	case q.Table.Name != "":
		return walk(&parser.TableRef{Table: q.Table, Hints: q.Hints})
	}
	return &scope{}, nil
}

// subqueryOn finds a join condition of f with a subquery (nil: none).
func subqueryOn(f parser.FromItem) parser.Expr {
	j, ok := f.(*parser.Join)
	if !ok {
		return nil
	}
	if parser.HasSubquery(j.On) {
		return j.On
	}
	if on := subqueryOn(j.Left); on != nil {
		return on
	}
	return subqueryOn(j.Right)
}

// plainConjuncts are the conjuncts of a WHERE without subqueries (those
// pushed to the tables).
func plainConjuncts(e parser.Expr) []parser.Expr {
	var out []parser.Expr
	for _, c := range conjuncts(e) {
		if !parser.HasSubquery(c) {
			out = append(out, c)
		}
	}
	return out
}

// decorrelate joins the subqueries of s to rel and returns the joined
// relation and s with the subqueries replaced by the joins' columns (and
// the IN / EXISTS conditions removed).
func (b *builder) decorrelate(fp *fromPlan, rel *relation, s *parser.Select) (*relation, *parser.Select, *postAgg, error) {
	if !hasSubqueries(s) {
		return rel, s, nil, nil
	}
	for _, g := range s.GroupBy {
		if parser.HasSubquery(g) {
			return nil, nil, nil, fmt.Errorf("GROUP BY %s: a subquery is not allowed in GROUP BY", g)
		}
	}
	d := &decorr{b: b, fp: fp, rel: unnamed(rel), groupBy: s.GroupBy, where: conjuncts(s.Where), from: s.From}
	if fp.fullWhere != nil {
		d.where = conjuncts(fp.fullWhere)
	}
	if s.From == nil && s.Table.Name != "" {
		d.from = &parser.TableRef{Table: s.Table, Hints: s.Hints}
	}
	out := *s
	var keep []parser.Expr
	for _, c := range conjuncts(s.Where) {
		if !parser.HasSubquery(c) {
			keep = append(keep, c)
			continue
		}
		done, err := d.predicate(c)
		if err != nil {
			return nil, nil, nil, err
		}
		if done {
			continue
		}
		x, err := d.scalars(c, false, "WHERE")
		if err != nil {
			return nil, nil, nil, err
		}
		keep = append(keep, x)
	}
	out.Where = andAll(keep)
	aggregating := len(s.GroupBy) > 0 || s.Having != nil
	for _, it := range s.Items {
		aggregating = aggregating || hasAggregate(it.Expr)
	}
	for _, o := range s.OrderBy {
		aggregating = aggregating || hasAggregate(o.Expr)
	}
	out.Items = slices.Clone(s.Items)
	for i, it := range s.Items {
		x, err := d.scalars(it.Expr, aggregating, "the select list")
		if err != nil {
			return nil, nil, nil, err
		}
		out.Items[i].Expr = x
		if it.Alias == "" && parser.HasSubquery(it.Expr) {
			out.Items[i].Alias = itemName(it) // the column keeps its name as written
		}
	}
	var having []parser.Expr
	var semis []*havingSemi
	for _, c := range conjuncts(s.Having) {
		hs, err := d.havingPredicate(c)
		if err != nil {
			return nil, nil, nil, err
		}
		if hs != nil {
			semis = append(semis, hs)
			continue
		}
		x, err := d.scalars(c, true, "HAVING")
		if err != nil {
			return nil, nil, nil, err
		}
		having = append(having, x)
	}
	out.Having = andAll(having)
	if len(semis) > 0 && out.Having == nil && len(s.GroupBy) == 0 && !slices.ContainsFunc(s.Items, func(it parser.SelectItem) bool { return hasAggregate(it.Expr) }) {
		out.Having = &parser.Literal{Kind: parser.LitBool, Value: "true"} // still an aggregating query
	}
	var err error
	out.OrderBy = slices.Clone(s.OrderBy)
	for i, o := range s.OrderBy {
		if out.OrderBy[i].Expr, err = d.scalars(o.Expr, aggregating, "ORDER BY"); err != nil {
			return nil, nil, nil, err
		}
	}
	if len(semis) == 0 && len(d.post) == 0 {
		return d.rel, &out, nil, nil
	}
	return d.rel, &out, &postAgg{semis: semis, scalars: d.post}, nil
}

// unnamed gives the columns of rel without a qualifier (of a FROM
// subquery without alias) the qualifier $from, so that the references of
// the joins to subqueries can be qualified.
func unnamed(rel *relation) *relation {
	if !slices.ContainsFunc(rel.scope.cols, func(c scopeCol) bool { return c.qual == "" }) {
		return rel
	}
	sc := &scope{cols: slices.Clone(rel.scope.cols)}
	for i := range sc.cols {
		if sc.cols[i].qual == "" {
			sc.cols[i].qual = "$from"
		}
	}
	return &relation{node: rel.node, scope: sc, bounded: rel.bounded}
}

// predicate joins a WHERE conjunct that is [NOT] IN (SELECT …) or [NOT]
// EXISTS; done is false for any other conjunct.
func (d *decorr) predicate(c parser.Expr) (done bool, err error) {
	not := false
	if n, ok := c.(*parser.Not); ok {
		not, c = true, n.Expr
	}
	switch n := c.(type) {
	case *parser.InSubquery:
		return true, d.semi(n.Left(), n.Query, not != n.Not, "", c)
	case *parser.Exists:
		return true, d.semi(nil, n.Query, not, "", c)
	}
	return false, nil
}

// scalars replaces the subqueries of e by the columns of their joins: a
// scalar's value, an IN's or EXISTS' mark (under OR or NOT, in the select
// list).
func (d *decorr) scalars(e parser.Expr, aggregating bool, clause string) (parser.Expr, error) {
	return mapExpr(e, false, func(x parser.Expr, inAgg bool) (parser.Expr, error) {
		switch n := x.(type) {
		case *parser.InSubquery, *parser.Exists:
			if aggregating && !inAgg {
				return nil, notSupported("%s in %s: in an aggregating query, IN (SELECT …) and EXISTS (SELECT …) are supported as conditions of WHERE, of HAVING joined with AND, or inside an aggregate's argument", n, clause)
			}
			// A value (under OR or NOT, in the select list): a MARK join's column.
			mark := d.name()
			var err error
			if in, ok := n.(*parser.InSubquery); ok {
				err = d.semi(in.Left(), in.Query, false, mark, n)
				if err == nil && in.Not {
					return &parser.Not{Expr: markRef(mark)}, nil
				}
			} else {
				err = d.semi(nil, n.(*parser.Exists).Query, false, mark, n)
			}
			return markRef(mark), err
		case *parser.ScalarSubquery:
			ref, outer, err := d.scalar(n.Query, aggregating && !inAgg)
			if err != nil {
				return nil, err
			}
			if aggregating && !inAgg && outer != nil {
				for _, o := range outer {
					if !d.grouped(o) {
						return nil, notSupported("%s in %s: outside an aggregate, a correlated subquery of an aggregating query may be correlated only on GROUP BY expressions; %s is not one", n, clause, o)
					}
				}
				// One value per group: its MAX is it.
				return &parser.FuncCall{Name: "MAX", Args: []parser.Expr{ref}}, nil
			}
			return ref, nil
		}
		return x, nil
	})
}

// markRef is the column of a MARK join.
func markRef(qual string) parser.Expr {
	return &parser.ColumnRef{Table: parser.TableName{Name: qual}, Name: engine.MarkColumn}
}

// name gives the next subquery's qualifier.
func (d *decorr) name() string {
	d.b.subqueries++
	return fmt.Sprintf("%s%d", subqueryQual, d.b.subqueries)
}

// simple reports whether a subquery is SELECT … FROM … WHERE … alone
// (what a correlated subquery may be).
func simple(q *parser.Select) bool {
	if len(q.GroupBy) > 0 || q.Having != nil || q.Distinct || q.Limit != nil || q.Offset != nil || !q.HasFrom() {
		return false
	}
	for _, it := range q.Items {
		if hasAggregate(it.Expr) {
			return false
		}
	}
	return true
}

// split parts a subquery's WHERE into the correlated conjuncts (naming
// columns of the enclosing query) and the local ones, after checking that
// no other clause is correlated; inner is the scope of its FROM.
func (d *decorr) split(q *parser.Select) (inner *scope, corr, local []parser.Expr, err error) {
	if inner, err = d.b.fromScope(q); err != nil {
		return nil, nil, nil, err
	}
	for _, c := range conjuncts(q.Where) {
		s, err := refSide(c, inner, d.rel.scope)
		if err != nil {
			return nil, nil, nil, err
		}
		if s&sideLeft != 0 {
			corr = append(corr, c)
		} else {
			local = append(local, c)
		}
	}
	others := slices.Clone(q.GroupBy)
	others = append(others, q.Having)
	for _, it := range q.Items {
		others = append(others, it.Expr)
	}
	for _, o := range q.OrderBy {
		others = append(others, o.Expr)
	}
	for _, e := range others {
		if _, ok := e.(*parser.Star); ok || e == nil {
			continue
		}
		if s, err := refSide(e, inner, d.rel.scope); err == nil && s&sideLeft != 0 {
			return nil, nil, nil, notSupported("subquery (%s): %s names a column of the enclosing query; a subquery is correlated through its WHERE only", q, e)
		}
	}
	return inner, corr, local, nil
}

// qualifyRefs qualifies the column references of e with their qualifiers
// in s, so that they stay unambiguous next to a subquery's columns.
func qualifyRefs(e parser.Expr, s *scope) parser.Expr {
	out, _ := mapExpr(e, false, func(x parser.Expr, _ bool) (parser.Expr, error) {
		ref, ok := x.(*parser.ColumnRef)
		if !ok {
			return x, nil
		}
		idx, err := s.resolve(ref)
		if err != nil || s.cols[idx].qual == "" {
			return x, nil
		}
		return &parser.ColumnRef{Table: parser.TableName{Name: s.cols[idx].qual}, Name: s.cols[idx].name}, nil
	})
	return out
}
