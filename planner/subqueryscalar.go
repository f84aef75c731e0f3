package planner

import (
	"fmt"

	"github.com/flussql/flussql/engine"
	"github.com/flussql/flussql/parser"
)

// Scalar subqueries as single-row joins (uncorrelated) and grouped LEFT
// joins (correlated with an aggregate); a correlated one without an
// aggregate is a LEFT join that fails when an outer row gets two rows.

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
			return nil, nil, needsStreaming("scalar subquery (%s) reads an unbounded scan; it must be bounded", q)
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
	aggregate := simpleAggregate(q)
	if !aggregate && !simple(q) {
		return nil, nil, notSupported("this correlated scalar subquery is not supported (%s): write SELECT <aggregate> FROM … WHERE … or SELECT <value> FROM … WHERE … (no GROUP BY, HAVING, DISTINCT or LIMIT)", q)
	}
	grouped := &parser.Select{Table: q.Table, Hints: q.Hints, From: q.From, Where: andAll(local)}
	var on, outers, ins []parser.Expr
	for i, c := range corr {
		in, out, ok := correlation(c, inner, d.rel.scope)
		if !ok {
			return nil, nil, notSupported("correlated scalar subquery: %s: it may be correlated only by equalities of one of its columns (or expressions) with one of the enclosing query's", c)
		}
		outers, ins = append(outers, out), append(ins, in)
		key := fmt.Sprintf("$key%d", i+1)
		grouped.Items = append(grouped.Items, parser.SelectItem{Expr: in, Alias: key})
		if aggregate {
			grouped.GroupBy = append(grouped.GroupBy, in)
		}
		on = append(on, &parser.Comparison{Op: parser.OpEq, Left: qualifyRefs(out, d.rel.scope), Right: &parser.ColumnRef{Table: parser.TableName{Name: qual}, Name: key}})
	}
	grouped.Items = append(grouped.Items, parser.SelectItem{Expr: item, Alias: valueCol})
	r, err := d.groupedRel(grouped, aggregate, inner, ins, outers)
	if err != nil {
		return nil, nil, err
	}
	right := &relation{node: r.node, scope: requalify(r.node.Columns(), qual), bounded: r.bounded}
	joined, err := d.b.hashJoin(engine.LeftJoin, d.rel, right, andAll(on))
	if err != nil {
		return nil, nil, fmt.Errorf("correlated scalar subquery (%s): %w", q, err)
	}
	if hj, ok := joined.node.(*engine.HashJoin); ok && !aggregate {
		hj.SingleMatch = true // without an aggregate, more than one row per outer row is an error
	}
	d.rel = joined
	if hasCount(item) {
		// A missing group is the subquery over no rows: COUNT gives 0 there.
		key := &parser.ColumnRef{Table: parser.TableName{Name: qual}, Name: "$key1"}
		return &parser.Case{Whens: []parser.When{{Cond: &parser.IsNull{Expr: key}, Result: emptyValue(item)}}, Else: value}, outers, nil
	}
	return value, outers, nil
}

// groupedRel plans the grouped subquery of a correlated scalar one, its
// input reduced by a magic set when it has an aggregate and the enclosing
// query filters the table of its correlation (subquerymagic.go); planned
// without it when that cannot be planned or reads an unbounded scan.
func (d *decorr) groupedRel(grouped *parser.Select, aggregate bool, inner *scope, ins, outers []parser.Expr) (*relation, error) {
	if aggregate {
		if m := d.magicSet(inner, ins, outers); m != nil {
			reduced := *grouped
			reduced.Where = andAll(append(conjuncts(grouped.Where), m))
			inputs, lookups := len(d.fp.inputs), len(d.fp.lookups)
			if r, err := d.b.subSelect(d.fp, &reduced); err == nil && r.bounded {
				return r, nil
			}
			d.fp.inputs, d.fp.lookups = d.fp.inputs[:inputs], d.fp.lookups[:lookups]
		}
	}
	return d.b.subSelect(d.fp, grouped)
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
