package planner

import (
	"fmt"
	"strings"

	"github.com/flussql/flussql/parser"
)

// A correlated scalar subquery with an aggregate is grouped by its
// correlation columns over all of its FROM's rows, then LEFT joined to
// the enclosing query's rows (subqueryscalar.go). When the enclosing query
// keeps only a few values of a correlation column — TPC-H Q17's parts of
// one brand and container, Q20's parts named 'forest%', Q2's parts of one
// size and type — most of those groups are computed for nothing. The
// aggregate's input is therefore reduced first by the values the enclosing
// query can keep (a magic set): when a correlation's outer side is a
// column of one table of the enclosing FROM, and WHERE filters that table
// by conditions of its own, the subquery's FROM gets
//
//	EXISTS (SELECT 1 FROM t AS $magicN WHERE <those conditions>
//	        AND $magicN.col = <the subquery's side> …)
//
// a SEMI join over the filtered table, before it is grouped. Every row of
// the enclosing query has its column's value among that table's filtered
// rows (or NULL, which no group matches), so the groups the LEFT join
// finds are the same.

// magicQual starts the alias of a magic set's table (a name no alias
// written in SQL can take unquoted).
const magicQual = "$magic"

// magicSet gives the condition that restricts the rows of a correlated
// aggregate subquery (its scope inner) to those whose correlation values
// the enclosing query can keep, given its correlations' subquery sides in
// and enclosing sides out; nil when no table of the enclosing query
// filters them.
func (d *decorr) magicSet(inner *scope, in, out []parser.Expr) parser.Expr {
	if len(d.where) == 0 {
		return nil
	}
	var table *parser.TableRef
	for _, o := range out {
		ref, ok := o.(*parser.ColumnRef)
		if !ok {
			continue
		}
		idx, err := d.rel.scope.resolve(ref)
		if err != nil {
			continue
		}
		c := d.rel.scope.cols[idx]
		t := findTable(d.from, c.qual)
		if t == nil || table != nil && t != table {
			continue
		}
		table = t
	}
	if table == nil {
		return nil
	}
	qual := table.Name()
	filters := d.tableFilters(qual)
	if len(filters) == 0 {
		return nil // every value of the table's column: nothing to reduce by
	}
	d.b.subqueries++
	alias := fmt.Sprintf("%s%d", magicQual, d.b.subqueries)
	var where []parser.Expr
	for _, f := range filters {
		where = append(where, d.requalifyRefs(f, qual, alias))
	}
	for i, o := range out {
		ref, ok := o.(*parser.ColumnRef)
		if !ok {
			continue
		}
		idx, err := d.rel.scope.resolve(ref)
		if err != nil || d.rel.scope.cols[idx].qual != qual {
			continue
		}
		where = append(where, &parser.Comparison{Op: parser.OpEq,
			Left:  &parser.ColumnRef{Table: parser.TableName{Name: alias}, Name: d.rel.scope.cols[idx].name},
			Right: qualifyRefs(in[i], inner)})
	}
	q := &parser.Select{
		Items: []parser.SelectItem{{Expr: &parser.Literal{Kind: parser.LitInt, Value: "1"}}},
		From:  &parser.TableRef{Table: table.Table, Alias: alias, Hints: table.Hints},
		Where: andAll(where),
	}
	return &parser.Exists{Query: q}
}

// tableFilters are the conjuncts of the enclosing query's WHERE that name
// only columns of the table qual: without subqueries, or an IN over an
// uncorrelated subquery without nested ones.
func (d *decorr) tableFilters(qual string) []parser.Expr {
	var out []parser.Expr
	for _, c := range d.where {
		if in, ok := c.(*parser.InSubquery); ok && !in.Not {
			if !d.ownRefs(in.Expr, qual) || in.Row != nil || !d.selfContained(in.Query) {
				continue
			}
			out = append(out, c)
			continue
		}
		if parser.HasSubquery(c) || !d.ownRefs(c, qual) {
			continue
		}
		out = append(out, c)
	}
	return out
}

// ownRefs reports whether e names columns, all of them of the table qual
// in the enclosing query.
func (d *decorr) ownRefs(e parser.Expr, qual string) bool {
	any, ok := false, true
	parser.Walk(e, func(x parser.Expr) bool {
		ref, isRef := x.(*parser.ColumnRef)
		if !isRef {
			return ok
		}
		if q, _, found := d.columnOf(ref); !found || q != qual {
			ok = false
		}
		any = true
		return ok
	})
	return ok && any
}

// columnOf names the table (qualifier) and column a reference of the
// enclosing query's WHERE denotes. A conjunct a table's plan applies whole
// may name columns the joined rows no longer carry (applied.go): those are
// found in the FROM's tables themselves.
func (d *decorr) columnOf(ref *parser.ColumnRef) (qual, name string, ok bool) {
	if idx, err := d.rel.scope.resolve(ref); err == nil {
		return d.rel.scope.cols[idx].qual, d.rel.scope.cols[idx].name, true
	}
	var owner *parser.TableRef
	for _, t := range fromTables(d.from) {
		if ref.Table.Name != "" && ref.Table.Name != t.Name() {
			continue
		}
		info, _, err := d.b.readTable(t.Table)
		if err != nil || info.Schema().Index(ref.Name) < 0 {
			continue
		}
		if owner != nil {
			return "", "", false // ambiguous
		}
		owner = t
	}
	if owner == nil {
		return "", "", false
	}
	return owner.Name(), ref.Name, true
}

// fromTables lists the tables of a FROM (not those of derived tables).
func fromTables(f parser.FromItem) []*parser.TableRef {
	switch n := f.(type) {
	case *parser.TableRef:
		return []*parser.TableRef{n}
	case *parser.Join:
		return append(fromTables(n.Left), fromTables(n.Right)...)
	}
	return nil
}

// selfContained reports whether a subquery names only its own FROM's
// columns and has no subqueries of its own.
func (d *decorr) selfContained(q *parser.Select) bool {
	if hasSubqueries(q) || !q.HasFrom() {
		return false
	}
	sc, err := d.b.fromScope(q)
	if err != nil {
		return false
	}
	ok := true
	for _, e := range parser.SelectExprs(q) {
		parser.Walk(e, func(x parser.Expr) bool {
			if ref, isRef := x.(*parser.ColumnRef); isRef {
				if _, err := sc.resolve(ref); err != nil {
					ok = false
				}
			}
			return ok
		})
	}
	return ok
}

// findTable finds the table of a FROM whose name (alias) is qual.
func findTable(f parser.FromItem, qual string) *parser.TableRef {
	switch n := f.(type) {
	case *parser.TableRef:
		if n.Name() == qual {
			return n
		}
	case *parser.Join:
		if t := findTable(n.Left, qual); t != nil {
			return t
		}
		return findTable(n.Right, qual)
	}
	return nil
}

// requalifyRefs qualifies the column references of e (outside nested
// subqueries) that name columns of the table qual with alias.
func (d *decorr) requalifyRefs(e parser.Expr, qual, alias string) parser.Expr {
	out, _ := mapExpr(e, false, func(x parser.Expr, _ bool) (parser.Expr, error) {
		ref, ok := x.(*parser.ColumnRef)
		if !ok {
			return x, nil
		}
		q, name, found := d.columnOf(ref)
		if !found || q != qual {
			return x, nil
		}
		return &parser.ColumnRef{Table: parser.TableName{Name: alias}, Name: name}, nil
	})
	return out
}

// isMagic reports whether a subquery is a magic set's (magicSet).
func isMagic(q *parser.Select) bool {
	t, ok := q.From.(*parser.TableRef)
	return ok && strings.HasPrefix(t.Alias, magicQual)
}
