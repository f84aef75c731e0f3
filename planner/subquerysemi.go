package planner

import (
	"errors"
	"fmt"
	"slices"

	"github.com/flussql/flussql/engine"
	"github.com/flussql/flussql/fluss/types"
	"github.com/flussql/flussql/parser"
)

// IN and EXISTS subqueries of WHERE as SEMI and ANTI joins.

// semi joins x IN (q) (x nil: EXISTS (q)) as a SEMI join, with anti as
// an ANTI join; with mark (then anti is false) as a MARK join whose column
// is the predicate's value, qualified mark.
// an ANTI join.
func (d *decorr) semi(xs []parser.Expr, q *parser.Select, anti bool, mark string, pred parser.Expr) error {
	_, corr, local, err := d.split(q)
	if err != nil {
		return err
	}
	kind := engine.SemiJoin
	switch {
	case anti:
		kind = engine.AntiJoin
	case mark != "":
		kind = engine.MarkJoin
	}
	if xs != nil && (len(q.Items) != len(xs) || slices.ContainsFunc(q.Items, func(it parser.SelectItem) bool { return isStar(it.Expr) })) {
		return fmt.Errorf("%s: the subquery of IN must select %d column(s), one per compared value", pred, len(xs))
	}
	if len(xs) > 1 && kind != engine.SemiJoin {
		return notSupported("%s: NOT IN with a row of values is not supported; write NOT EXISTS (SELECT … WHERE y1 = x1 AND y2 = x2 …), which differs only for NULLs", pred)
	}
	if len(corr) == 0 {
		err := d.uncorrelatedSemi(xs, q, kind, mark, pred)
		if errors.Is(err, ErrNeedsFullScan) && kind == engine.SemiJoin && xs != nil && simple(q) {
			// A primary-key table that cannot be read whole: look its key up instead.
			if done, lerr := d.lookupSemi(xs, q, nil, conjuncts(q.Where), kind, pred); done || lerr != nil {
				return lerr
			}
		}
		return err
	}
	if !simple(q) {
		return notSupported("%s: a correlated subquery of IN or EXISTS must be SELECT … FROM … WHERE … (no GROUP BY, HAVING, DISTINCT, LIMIT or aggregates)", pred)
	}
	if xs != nil && kind == engine.MarkJoin {
		return notSupported("%s: a correlated IN is supported as a condition of WHERE joined with AND only; elsewhere write EXISTS (SELECT … WHERE … AND y = x), which differs only for NULLs", pred)
	}
	if xs != nil && anti {
		return notSupported("%s: a correlated NOT IN is not supported; write NOT EXISTS (SELECT … WHERE … AND y = x), which differs only for NULLs", pred)
	}
	if kind != engine.MarkJoin {
		if done, err := d.lookupSemi(xs, q, corr, local, kind, pred); done || err != nil {
			return err
		}
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
	if hj, ok := joined.node.(*engine.HashJoin); ok && isMagic(q) {
		hj.BuildRight = true // a filtered table's few values (subquerymagic.go)
	}
	d.semiJoined(joined.node, mark)
	return nil
}

// semiJoined makes node, a SEMI, ANTI or MARK join over d.rel, the query's
// relation: the same columns, and a MARK join's.
func (d *decorr) semiJoined(node engine.Node, mark string) {
	sc := d.rel.scope
	if mark != "" {
		sc = concat(sc, &scope{cols: []scopeCol{{qual: mark, name: engine.MarkColumn, typ: types.NewBoolean()}}}, false)
	} else {
		node = sinkSemi(node)
	}
	d.rel = &relation{node: node, scope: sc, bounded: d.rel.bounded}
}

func isStar(e parser.Expr) bool {
	_, ok := e.(*parser.Star)
	return ok
}

// uncorrelatedSemi joins an uncorrelated IN or EXISTS: the subquery is
// planned whole; EXISTS reads one row of it.
func (d *decorr) uncorrelatedSemi(xs []parser.Expr, q *parser.Select, kind engine.JoinKind, mark string, pred parser.Expr) error {
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
		return needsStreaming("%s: the subquery reads an unbounded scan; it must be bounded", pred)
	}
	if xs == nil {
		d.semiJoined(&engine.HashJoin{Kind: kind, Left: d.rel.node, Right: &engine.Limit{Input: r.node, Limit: 1}}, mark)
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
	if hj, ok := joined.node.(*engine.HashJoin); ok && kind != engine.SemiJoin {
		hj.NullAware = true // NOT IN, or IN's value: NULL where SQL says so
	}
	d.semiJoined(joined.node, mark)
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
		return nil, nil, needsStreaming("subquery (%s) reads an unbounded scan; it must be bounded", q)
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

// lookupSemi joins a correlated IN or EXISTS over one primary-key table
// whose key its equalities cover as a SEMI / ANTI lookup join (which
// streams and needs no scan of the table); done is false when it does not
// apply.
func (d *decorr) lookupSemi(xs []parser.Expr, q *parser.Select, corr, local []parser.Expr, kind engine.JoinKind, pred parser.Expr) (bool, error) {
	ref, ok := q.From.(*parser.TableRef)
	if q.From == nil && q.Table.Name != "" {
		ref, ok = &parser.TableRef{Table: q.Table, Hints: q.Hints}, true
	}
	if !ok || ref.Hints != nil || ref.AsOf != nil || slices.ContainsFunc(local, parser.HasSubquery) {
		return false, nil
	}
	for _, c := range d.rel.scope.cols {
		if c.qual == ref.Name() {
			return false, nil // the same name outside: its columns could not be told apart
		}
	}
	info, vt, err := d.b.readTable(ref.Table)
	if err != nil || vt != nil || !info.HasPrimaryKey() {
		return false, nil
	}
	inner := &scope{}
	for _, c := range info.Schema().Columns {
		inner.cols = append(inner.cols, scopeCol{qual: ref.Name(), name: c.Name, typ: c.Type})
	}
	qualify := func(e parser.Expr) parser.Expr { // the subquery's columns, qualified
		out, _ := mapExpr(e, false, func(x parser.Expr, _ bool) (parser.Expr, error) {
			if r, ok := x.(*parser.ColumnRef); ok {
				if i, err := inner.resolve(r); err == nil {
					return &parser.ColumnRef{Table: parser.TableName{Name: ref.Name()}, Name: inner.cols[i].name}, nil
				}
			}
			return x, nil
		})
		return out
	}
	var on []parser.Expr
	for i, x := range xs {
		on = append(on, &parser.Comparison{Op: parser.OpEq, Left: qualifyRefs(x, d.rel.scope), Right: qualify(q.Items[i].Expr)})
	}
	for _, c := range append(slices.Clone(corr), local...) {
		on = append(on, qualify(c))
	}
	rel, _, err := d.b.lookupJoin(d.fp, kind, d.rel, &parser.TableRef{Table: ref.Table, Alias: ref.Alias}, info, andAll(on))
	if err != nil {
		return false, fmt.Errorf("%s: %w", pred, err)
	}
	if rel == nil {
		return false, nil // the equalities do not cover the key: a hash join
	}
	d.semiJoined(rel.node, "")
	return true, nil
}
