package planner

import (
	"fmt"
	"slices"

	"github.com/flussql/flussql/engine"
	"github.com/flussql/flussql/parser"
)

// Subqueries in expressions are decorrelated into joins over the query's
// FROM, so that each runs once, never once per outer row:
//
//   - x [NOT] IN (SELECT y …) and [NOT] EXISTS (SELECT …), conditions of
//     WHERE joined with AND, become a SEMI (ANTI) hash join: on x = y and on
//     the subquery's equalities with the outer query's columns; its other
//     correlated conditions are the join's residual. NOT IN is a
//     null-aware ANTI join (uncorrelated only). An uncorrelated EXISTS
//     reads one row of the subquery.
//   - an uncorrelated scalar subquery is computed once and attached to
//     every row by a SingleRowJoin (in an aggregating query outside an
//     aggregate it is read as MAX of that column, one value per group);
//   - a correlated scalar subquery with an aggregate is grouped by its
//     correlation columns and LEFT joined on them; a missing group is the
//     aggregate over no rows (COUNT 0, the others NULL).
//
// The subquery's value becomes a column of the FROM's rows, named
// $subqueryN.value, which the query's clauses then refer to.

// valueCol names the column of a subquery's value (a name no column
// reference written in SQL can take unquoted).
const valueCol = "$value"

// decorr decorrelates the subqueries of one query over its FROM.
type decorr struct {
	b       *builder
	fp      *fromPlan
	rel     *relation
	groupBy []parser.Expr // the query's GROUP BY
	post    []*postScalar // uncorrelated scalars read after the aggregate
}

// fromRel plans the FROM of a query routed through fromQuery: its FROM
// item, its one table, or one row without columns.
func (b *builder) fromRel(fp *fromPlan, s *parser.Select) (*relation, error) {
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
	d := &decorr{b: b, fp: fp, rel: rel, groupBy: s.GroupBy}
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
		if it.Alias == "" && x != it.Expr {
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

// predicate joins a WHERE conjunct that is [NOT] IN (SELECT …) or [NOT]
// EXISTS; done is false for any other conjunct.
func (d *decorr) predicate(c parser.Expr) (done bool, err error) {
	not := false
	if n, ok := c.(*parser.Not); ok {
		not, c = true, n.Expr
	}
	switch n := c.(type) {
	case *parser.InSubquery:
		return true, d.semi(n.Left(), n.Query, not != n.Not, c)
	case *parser.Exists:
		return true, d.semi(nil, n.Query, not, c)
	}
	return false, nil
}

// scalars replaces the scalar subqueries of e by the columns of their
// joins; an IN or EXISTS left in e (under OR or NOT, in the select list) is
// refused.
func (d *decorr) scalars(e parser.Expr, aggregating bool, clause string) (parser.Expr, error) {
	return mapExpr(e, false, func(x parser.Expr, inAgg bool) (parser.Expr, error) {
		switch n := x.(type) {
		case *parser.InSubquery, *parser.Exists:
			return nil, fmt.Errorf("%s in %s: IN (SELECT …) and EXISTS (SELECT …) are supported as conditions of WHERE or HAVING joined to the others with AND (not under OR or in the select list); rewrite it as a join or a scalar subquery", n, clause)
		case *parser.ScalarSubquery:
			ref, outer, err := d.scalar(n.Query, aggregating && !inAgg)
			if err != nil {
				return nil, err
			}
			if aggregating && !inAgg && outer != nil {
				for _, o := range outer {
					if !d.grouped(o) {
						return nil, fmt.Errorf("%s in %s: outside an aggregate, a correlated subquery of an aggregating query may be correlated only on GROUP BY expressions; %s is not one", n, clause, o)
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

// grouped reports whether an expression of the enclosing query is one of
// its GROUP BY expressions.
func (d *decorr) grouped(e parser.Expr) bool {
	id := func(x parser.Expr) string {
		if ref, ok := x.(*parser.ColumnRef); ok {
			if i, err := d.rel.scope.resolve(ref); err == nil {
				return fmt.Sprint("column ", i)
			}
		}
		return x.String()
	}
	for _, g := range d.groupBy {
		if id(g) == id(e) {
			return true
		}
	}
	return false
}

// name gives the next subquery's qualifier.
func (d *decorr) name() string {
	d.b.subqueries++
	return fmt.Sprintf("$subquery%d", d.b.subqueries)
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
			return nil, nil, nil, fmt.Errorf("subquery (%s): %s names a column of the enclosing query; a subquery is correlated through its WHERE only", q, e)
		}
	}
	return inner, corr, local, nil
}

// semi joins x IN (q) (x nil: EXISTS (q)) as a SEMI join, or with anti as
// an ANTI join.
func (d *decorr) semi(xs []parser.Expr, q *parser.Select, anti bool, pred parser.Expr) error {
	_, corr, local, err := d.split(q)
	if err != nil {
		return err
	}
	kind := engine.SemiJoin
	if anti {
		kind = engine.AntiJoin
	}
	if xs != nil && (len(q.Items) != len(xs) || slices.ContainsFunc(q.Items, func(it parser.SelectItem) bool { return isStar(it.Expr) })) {
		return fmt.Errorf("%s: the subquery of IN must select %d column(s), one per compared value", pred, len(xs))
	}
	if len(xs) > 1 && anti {
		return fmt.Errorf("%s: NOT IN with a row of values is not supported; write NOT EXISTS (SELECT … WHERE y1 = x1 AND y2 = x2 …), which differs only for NULLs", pred)
	}
	if len(corr) == 0 {
		return d.uncorrelatedSemi(xs, q, kind, pred)
	}
	if !simple(q) {
		return fmt.Errorf("%s: a correlated subquery of IN or EXISTS must be SELECT … FROM … WHERE … (no GROUP BY, HAVING, DISTINCT, LIMIT or aggregates)", pred)
	}
	if xs != nil && anti {
		return fmt.Errorf("%s: a correlated NOT IN is not supported; write NOT EXISTS (SELECT … WHERE … AND y = x), which differs only for NULLs", pred)
	}
	irel, rename, err := d.innerRel(q, local, xs != nil)
	if err != nil {
		return err
	}
	var on []parser.Expr
	for i, x := range xs {
		on = append(on, &parser.Comparison{Op: parser.OpEq, Left: qualifyRefs(x, d.rel.scope), Right: rename(q.Items[i].Expr)})
	}
	for _, c := range corr {
		on = append(on, rename(c))
	}
	joined, err := d.b.hashJoin(kind, d.rel, irel, andAll(on))
	if err != nil {
		return fmt.Errorf("%s: %w", pred, err)
	}
	d.rel = &relation{node: joined.node, scope: d.rel.scope, bounded: d.rel.bounded}
	return nil
}

func isStar(e parser.Expr) bool {
	_, ok := e.(*parser.Star)
	return ok
}

// uncorrelatedSemi joins an uncorrelated IN or EXISTS: the subquery is
// planned whole; EXISTS reads one row of it.
func (d *decorr) uncorrelatedSemi(xs []parser.Expr, q *parser.Select, kind engine.JoinKind, pred parser.Expr) error {
	if xs == nil && simple(q) {
		one := *q // what EXISTS selects is never read
		one.Items = []parser.SelectItem{{Expr: &parser.Literal{Kind: parser.LitInt, Value: "1"}}}
		q = &one
	}
	r, err := d.b.subSelect(d.fp, q)
	if err != nil {
		return err
	}
	if !r.bounded {
		return fmt.Errorf("%s: the subquery reads an unbounded scan; it must be bounded", pred)
	}
	if xs == nil {
		node := &engine.HashJoin{Kind: kind, Left: d.rel.node, Right: &engine.Limit{Input: r.node, Limit: 1}}
		d.rel = &relation{node: node, scope: d.rel.scope, bounded: d.rel.bounded}
		return nil
	}
	cols := r.node.Columns()
	if len(cols) != len(xs) {
		return fmt.Errorf("%s: the subquery of IN must select %d column(s), it selects %d", pred, len(xs), len(cols))
	}
	qual := d.name()
	right := &relation{node: r.node, scope: requalify(cols, qual), bounded: true}
	var on []parser.Expr
	for i, x := range xs {
		on = append(on, &parser.Comparison{Op: parser.OpEq, Left: qualifyRefs(x, d.rel.scope), Right: &parser.ColumnRef{Table: parser.TableName{Name: qual}, Name: cols[i].Name}})
	}
	joined, err := d.b.hashJoin(kind, d.rel, right, andAll(on))
	if err != nil {
		return fmt.Errorf("%s: %w", pred, err)
	}
	if hj, ok := joined.node.(*engine.HashJoin); ok && kind == engine.AntiJoin {
		hj.NullAware = true
	}
	d.rel = &relation{node: joined.node, scope: d.rel.scope, bounded: d.rel.bounded}
	return nil
}

// innerRel plans the FROM of a correlated subquery with its local
// conditions (their own subqueries decorrelated over it) as a relation
// whose qualifiers differ from the enclosing query's (reading the columns
// of the select list only with items); rename rewrites the subquery's
// column references to them.
func (d *decorr) innerRel(q *parser.Select, local []parser.Expr, items bool) (*relation, func(parser.Expr) parser.Expr, error) {
	child := &fromPlan{inputs: d.fp.inputs, lookups: d.fp.lookups, where: plainConjuncts(andAll(local))}
	reads := *q
	if !items {
		reads.Items = nil // EXISTS reads the columns its conditions name, whatever it selects
	}
	child.collectRefs(&reads)
	child.refs = append(child.refs, nestedRefs(q)...)
	irel, err := d.b.fromRel(child, q)
	if err != nil {
		return nil, nil, err
	}
	irel, rest, _, err := d.b.decorrelate(child, irel, &parser.Select{Where: andAll(local)})
	if err != nil {
		return nil, nil, err
	}
	if rest.Where != nil {
		e, err := d.b.scopeConv(irel.scope).conv(rest.Where)
		if err != nil {
			return nil, nil, err
		}
		cond, err := condition("WHERE", e)
		if err != nil {
			return nil, nil, err
		}
		irel = &relation{node: &engine.Filter{Input: irel.node, Cond: cond}, scope: irel.scope, bounded: irel.bounded}
	}
	d.fp.inputs, d.fp.lookups = child.inputs, child.lookups
	if !irel.bounded {
		return nil, nil, fmt.Errorf("subquery (%s) reads an unbounded scan; it must be bounded", q)
	}
	// Qualifiers the enclosing query also has get a new one.
	outerQuals := map[string]bool{}
	for _, c := range d.rel.scope.cols {
		outerQuals[c.qual] = true
	}
	orig := irel.scope
	renamed := &scope{}
	fresh := ""
	for _, c := range orig.cols {
		if c.qual == "" || outerQuals[c.qual] {
			if fresh == "" {
				fresh = d.name()
			}
			if c.qual == "" {
				c.qual = fresh
			} else {
				c.qual = fresh + "." + c.qual
			}
		}
		renamed.cols = append(renamed.cols, c)
	}
	irel = &relation{node: irel.node, scope: renamed, bounded: true}
	rename := func(e parser.Expr) parser.Expr {
		out, _ := mapExpr(e, false, func(x parser.Expr, _ bool) (parser.Expr, error) {
			ref, ok := x.(*parser.ColumnRef)
			if !ok {
				return x, nil
			}
			idx, err := orig.resolve(ref)
			if err != nil {
				return x, nil // a column of the enclosing query
			}
			c := renamed.cols[idx]
			return &parser.ColumnRef{Table: parser.TableName{Name: c.qual}, Name: c.name}, nil
		})
		return out
	}
	return irel, rename, nil
}

// scalar joins a scalar subquery and returns the column of its value and
// the enclosing query's expressions it is correlated on. With post, an
// uncorrelated one is joined after the aggregate (d.post).
func (d *decorr) scalar(q *parser.Select, post bool) (parser.Expr, []parser.Expr, error) {
	if len(q.Items) != 1 || isStar(q.Items[0].Expr) {
		return nil, nil, fmt.Errorf("scalar subquery (%s) must select one column", q)
	}
	inner, corr, local, err := d.split(q)
	if err != nil {
		return nil, nil, err
	}
	qual := d.name()
	value := &parser.ColumnRef{Table: parser.TableName{Name: qual}, Name: valueCol}
	if len(corr) == 0 {
		sub := *q
		sub.Items = []parser.SelectItem{{Expr: q.Items[0].Expr, Alias: valueCol}}
		r, err := d.b.subSelect(d.fp, &sub)
		if err != nil {
			return nil, nil, err
		}
		if !r.bounded {
			return nil, nil, fmt.Errorf("scalar subquery (%s) reads an unbounded scan; it must be bounded", q)
		}
		if post {
			col := &engine.Col{Index: -1, Name: valueCol, T: r.node.Columns()[0].Type.AsNullable()}
			d.post = append(d.post, &postScalar{qual: qual, node: r.node, col: col})
			return value, nil, nil
		}
		node := &engine.SingleRowJoin{Left: d.rel.node, Right: r.node}
		d.rel = &relation{node: node, scope: concat(d.rel.scope, requalify(r.node.Columns(), qual), true), bounded: d.rel.bounded}
		return value, nil, nil
	}
	item := q.Items[0].Expr
	if !simpleAggregate(q) {
		return nil, nil, fmt.Errorf("correlated scalar subquery (%s): it must aggregate (SELECT MIN/MAX/SUM/AVG/COUNT(…) … FROM … WHERE …, without GROUP BY, HAVING, DISTINCT or LIMIT), so that it gives one row per outer row", q)
	}
	grouped := &parser.Select{Table: q.Table, Hints: q.Hints, From: q.From, Where: andAll(local)}
	var on, outers []parser.Expr
	for i, c := range corr {
		in, out, ok := correlation(c, inner, d.rel.scope)
		if !ok {
			return nil, nil, fmt.Errorf("correlated scalar subquery: %s: it may be correlated only by equalities of one of its columns (or expressions) with one of the enclosing query's", c)
		}
		outers = append(outers, out)
		key := fmt.Sprintf("$key%d", i+1)
		grouped.Items = append(grouped.Items, parser.SelectItem{Expr: in, Alias: key})
		grouped.GroupBy = append(grouped.GroupBy, in)
		on = append(on, &parser.Comparison{Op: parser.OpEq, Left: qualifyRefs(out, d.rel.scope), Right: &parser.ColumnRef{Table: parser.TableName{Name: qual}, Name: key}})
	}
	grouped.Items = append(grouped.Items, parser.SelectItem{Expr: item, Alias: valueCol})
	r, err := d.b.subSelect(d.fp, grouped)
	if err != nil {
		return nil, nil, err
	}
	right := &relation{node: r.node, scope: requalify(r.node.Columns(), qual), bounded: r.bounded}
	joined, err := d.b.hashJoin(engine.LeftJoin, d.rel, right, andAll(on))
	if err != nil {
		return nil, nil, fmt.Errorf("correlated scalar subquery (%s): %w", q, err)
	}
	d.rel = joined
	if hasCount(item) {
		// A missing group is the subquery over no rows: COUNT gives 0 there.
		key := &parser.ColumnRef{Table: parser.TableName{Name: qual}, Name: "$key1"}
		return &parser.Case{Whens: []parser.When{{Cond: &parser.IsNull{Expr: key}, Result: emptyValue(item)}}, Else: value}, outers, nil
	}
	return value, outers, nil
}

// correlation takes a correlated conjunct inner = outer (either way
// round) apart.
func correlation(c parser.Expr, inner, outer *scope) (in, out parser.Expr, ok bool) {
	cmp, isCmp := c.(*parser.Comparison)
	if !isCmp || cmp.Op != parser.OpEq {
		return nil, nil, false
	}
	ls, lerr := refSide(cmp.Left, inner, outer)
	rs, rerr := refSide(cmp.Right, inner, outer)
	switch {
	case lerr != nil || rerr != nil:
		return nil, nil, false
	case ls == sideRight && rs == sideLeft:
		return cmp.Left, cmp.Right, true
	case ls == sideLeft && rs == sideRight:
		return cmp.Right, cmp.Left, true
	}
	return nil, nil, false
}

// simpleAggregate reports whether a subquery is SELECT <aggregate
// expression> FROM … WHERE … .
func simpleAggregate(q *parser.Select) bool {
	return len(q.GroupBy) == 0 && q.Having == nil && !q.Distinct && q.Limit == nil && q.Offset == nil &&
		q.HasFrom() && len(q.Items) == 1 && hasAggregate(q.Items[0].Expr)
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
