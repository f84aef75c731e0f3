package planner

import (
	"strings"

	"github.com/flussql/flussql/engine"
	"github.com/flussql/flussql/parser"
)

// Comma joins: FROM a, b, c WHERE … is planned as inner joins on the
// equalities of WHERE. The order starts from the table with the most
// buckets — the largest, as Fluss tables are given buckets by size: the one
// the joins stream, each other item being held in memory as a build side —
// and goes on so that each item shares an equality with those joined
// before it: the written order while that holds, else the next item that
// does (FROM lineitem, customer, orders joins orders before customer when
// only orders names lineitem's key); an item that shares none is a cross
// join. A primary-key table whose whole key
// WHERE equates with columns of other items waits until those are joined
// (and never starts the order), so that it is looked up rather than read. The conjuncts of WHERE that name
// two sides become the ON of the join that brings them together (so that
// equalities are join keys and a primary-key table may be looked up);
// the rest stay in WHERE, whose single-table conjuncts filter each table's
// read. A conjunct common to every branch of an OR (TPC-H Q19: (p_partkey =
// l_partkey AND …) OR (p_partkey = l_partkey AND …)) is a conjunct too.

// commaJoins returns s with its comma joins ordered and given ON
// conditions (s itself when its FROM has none), and, when that changed the
// order of the items, the items in written order (see writtenOrder).
func (b *builder) commaJoins(s *parser.Select) (*parser.Select, []parser.FromItem, error) {
	j, ok := s.From.(*parser.Join)
	if !ok || j.Kind != parser.JoinComma || hasAggregate(s.Where) {
		return s, nil, nil
	}
	var conj []parser.Expr
	for _, c := range conjuncts(s.Where) {
		conj = append(conj, c)
		if _, ok := c.(*parser.Or); ok {
			conj = append(conj, commonOfOr(c)...)
		}
	}
	items := commaItems(s.From)
	tree, used, reordered, err := b.orderComma(items, conj)
	if err != nil {
		return nil, nil, err
	}
	var rest []parser.Expr
	for i, c := range conj {
		if !used[i] {
			rest = append(rest, c)
		}
	}
	out := *s
	out.From, out.Where = tree, andAll(rest)
	if !reordered {
		items = nil
	}
	return &out, items, nil
}

// planComma plans a comma list nested in a JOIN ((a, b) JOIN c ON …) as
// commaJoins does a FROM list, with the conjuncts that may filter it (they
// stay where they are, evaluated again).
func (b *builder) planComma(fp *fromPlan, j *parser.Join, pushable bool) (*relation, error) {
	items := commaItems(j)
	tree, _, reordered, err := b.orderComma(items, fp.where)
	if err != nil {
		return nil, err
	}
	rel, err := b.planFrom(fp, tree, pushable)
	if err != nil || !reordered {
		return rel, err
	}
	return writtenOrder(rel, items), nil
}

// orderComma joins the items of a comma list in the order described above,
// moving the conjuncts that name two sides into the ON of their join; used
// tells which conjuncts moved, reordered whether the order changed.
func (b *builder) orderComma(items []parser.FromItem, conj []parser.Expr) (parser.FromItem, []bool, bool, error) {
	scopes := make([]*scope, len(items))
	for i, it := range items {
		sc, err := b.itemScope(it)
		if err != nil {
			return nil, nil, false, err
		}
		scopes[i] = sc
	}
	used := make([]bool, len(conj))
	keys, err := b.lookupKeys(items, scopes, conj)
	if err != nil {
		return nil, nil, false, err
	}
	start := b.largestItem(items, keys)
	joined, tree := scopes[start], items[start]
	reordered := start > 0
	remaining := make([]int, 0, len(items)-1)
	for i := range items {
		if i != start {
			remaining = append(remaining, i)
		}
	}
	for len(remaining) > 0 {
		pick, later := -1, -1
		for k, r := range remaining {
			if !connects(conj, used, joined, scopes[r]) {
				continue
			}
			if keys[r] != nil && !keyCovered(conj, used, joined, scopes[r], keys[r]) {
				if later < 0 {
					later = k // a primary-key table is better looked up once its key is known
				}
				continue
			}
			pick = k
			break
		}
		if pick < 0 {
			pick = max(later, 0)
		}
		r := remaining[pick]
		reordered = reordered || pick > 0
		remaining = append(remaining[:pick:pick], remaining[pick+1:]...)
		right, rsc := items[r], scopes[r]
		if keys[r] == nil {
			a := &armer{items: items, scopes: scopes, keys: keys, conj: conj, joined: joined}
			var armed bool
			right, rsc, remaining, armed = a.arm(r, used, remaining)
			reordered = reordered || armed
		}
		tree = &parser.Join{Kind: parser.JoinInner, Left: tree, Right: right, On: andAll(onBetween(conj, used, joined, rsc))}
		joined = concat(joined, rsc, false)
	}
	return tree, used, reordered, nil
}

// onBetween moves the unused conjuncts that name both l and r (and nothing else) into
// an ON, marking them used.
func onBetween(conj []parser.Expr, used []bool, l, r *scope) []parser.Expr {
	var on []parser.Expr
	for i, c := range conj {
		if used[i] || !movable(c) {
			continue
		}
		if sd, err := sideOf(c, l, r); err == nil && sd == sideBoth {
			on = append(on, c)
			used[i] = true
		}
	}
	return on
}

// largestItem is the item the order starts from, the probe side that the
// joins stream while they hold the others: the table with the most buckets
// (Fluss tables are given buckets by their size; the first written among
// equals), but not a primary-key table to be looked up (keys), unless all
// are.
func (b *builder) largestItem(items []parser.FromItem, keys [][]string) int {
	start, most := 0, -1
	for i, it := range items {
		if keys[i] != nil {
			continue
		}
		n := 0
		if t, ok := it.(*parser.TableRef); ok {
			if info, _, err := b.readTable(t.Table); err == nil {
				n = info.NumBuckets()
			}
		}
		if n > most {
			start, most = i, n
		}
	}
	return start
}

// lookupKeys gives, for each item that is a primary-key table whose whole
// key the conjuncts equate with columns of the other items, its key
// columns (nil for the other items): such a table is joined once the
// items before it give its key, so that it is looked up, not read.
func (b *builder) lookupKeys(items []parser.FromItem, scopes []*scope, conj []parser.Expr) ([][]string, error) {
	keys := make([][]string, len(items))
	for i, it := range items {
		t, ok := it.(*parser.TableRef)
		if !ok || t.AsOf != nil || t.Hints != nil { // a hinted table is meant to be scanned
			continue
		}
		info, vt, err := b.readTable(t.Table)
		if err != nil {
			return nil, err
		}
		if vt != nil || !info.HasPrimaryKey() {
			continue
		}
		others := &scope{}
		for k, sc := range scopes {
			if k != i {
				others = concat(others, sc, false)
			}
		}
		if keyCovered(conj, make([]bool, len(conj)), others, scopes[i], info.Schema().PrimaryKey) {
			keys[i] = info.Schema().PrimaryKey
		}
	}
	return keys, nil
}

// keyCovered reports whether unused equalities equate every column of key
// (columns of r) with an expression of joined.
func keyCovered(conj []parser.Expr, used []bool, joined, r *scope, key []string) bool {
	for _, col := range key {
		found := false
		for i, c := range conj {
			cmp, ok := c.(*parser.Comparison)
			if used[i] || !ok || cmp.Op != "=" || !movable(c) {
				continue
			}
			for _, pair := range [2][2]parser.Expr{{cmp.Left, cmp.Right}, {cmp.Right, cmp.Left}} {
				ref, ok := pair[0].(*parser.ColumnRef)
				if !ok {
					continue
				}
				if sd, err := sideOf(ref, joined, r); err != nil || sd != sideRight {
					continue
				}
				if sd, err := sideOf(pair[1], joined, r); err != nil || sd != sideLeft {
					continue
				}
				if idx, err := r.resolve(ref); err == nil && strings.EqualFold(r.cols[idx].name, col) {
					found = true
				}
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// writtenOrder puts the columns of a reordered comma join back in the
// order of the FROM list (SELECT * lists them so), by their qualifiers; it
// leaves rel as it is when a column's item cannot be told.
func writtenOrder(rel *relation, items []parser.FromItem) *relation {
	if items == nil {
		return rel
	}
	var perm []int
	claimed := make([]bool, len(rel.scope.cols))
	for _, it := range items {
		for _, name := range fromNames(it) {
			for i, c := range rel.scope.cols {
				if c.qual == name {
					if claimed[i] {
						return rel
					}
					claimed[i] = true
					perm = append(perm, i)
				}
			}
		}
	}
	if len(perm) != len(rel.scope.cols) {
		return rel
	}
	cols := rel.node.Columns()
	p := &engine.Project{Input: rel.node}
	sc := &scope{}
	for _, i := range perm {
		p.Exprs = append(p.Exprs, &engine.Col{Index: i, Name: cols[i].Name, T: cols[i].Type})
		p.Names = append(p.Names, cols[i].Name)
		sc.cols = append(sc.cols, rel.scope.cols[i])
	}
	return &relation{node: p, scope: sc, bounded: rel.bounded}
}

// fromNames lists the qualifiers of a FROM item's columns.
func fromNames(f parser.FromItem) []string {
	switch n := f.(type) {
	case *parser.TableRef:
		return []string{n.Name()}
	case *parser.SubqueryRef:
		return []string{n.Alias}
	case *parser.Join:
		return append(fromNames(n.Left), fromNames(n.Right)...)
	}
	return nil
}

// commaItems lists the items of a comma-joined FROM list, in written order.
func commaItems(f parser.FromItem) []parser.FromItem {
	if j, ok := f.(*parser.Join); ok && j.Kind == parser.JoinComma {
		return append(commaItems(j.Left), commaItems(j.Right)...)
	}
	return []parser.FromItem{f}
}

// itemScope is the scope of one item of a comma list: a table's columns,
// or those of the planned subquery or join.
func (b *builder) itemScope(f parser.FromItem) (*scope, error) {
	if t, ok := f.(*parser.TableRef); ok {
		info, _, err := b.readTable(t.Table)
		if err != nil {
			return nil, err
		}
		sc := &scope{}
		for _, c := range info.Schema().Columns {
			sc.cols = append(sc.cols, scopeCol{qual: t.Name(), name: c.Name, typ: c.Type})
		}
		return sc, nil
	}
	rel, err := b.planFrom(&fromPlan{star: true}, f, false) // a plan thrown away: only its columns count
	if err != nil {
		return nil, err
	}
	return rel.scope, nil
}

// connects reports whether an unused conjunct is an equality between the
// joined items and item r.
func connects(conj []parser.Expr, used []bool, joined, r *scope) bool {
	for i, c := range conj {
		cmp, ok := c.(*parser.Comparison)
		if used[i] || !ok || cmp.Op != "=" || !movable(c) {
			continue
		}
		a, errA := sideOf(cmp.Left, joined, r)
		b, errB := sideOf(cmp.Right, joined, r)
		if errA == nil && errB == nil && (a == sideLeft && b == sideRight || a == sideRight && b == sideLeft) {
			return true
		}
	}
	return false
}

// movable reports whether a conjunct is made of plain expressions only
// (columns, values, operators and scalar functions), so that it may move
// from WHERE to a join's ON.
func movable(e parser.Expr) bool {
	ok := true
	parser.Walk(e, func(x parser.Expr) bool {
		switch n := x.(type) {
		case *parser.Literal, *parser.Placeholder, *parser.ColumnRef, *parser.Comparison, *parser.In,
			*parser.Between, *parser.IsNull, *parser.Like, *parser.And, *parser.Or, *parser.Not,
			*parser.Arith, *parser.Neg, *parser.Case, *parser.Cast:
		case *parser.FuncCall:
			ok = !isAggregate(n)
		default:
			ok = false
		}
		return ok
	})
	return ok
}

// commonOfOr lists the conjuncts present in every branch of an OR (by
// their text).
func commonOfOr(e parser.Expr) []parser.Expr {
	var branches []parser.Expr
	var split func(e parser.Expr)
	split = func(e parser.Expr) {
		if o, ok := e.(*parser.Or); ok {
			split(o.Left)
			split(o.Right)
			return
		}
		branches = append(branches, e)
	}
	split(e)
	var out []parser.Expr
	for _, c := range conjuncts(branches[0]) {
		all := true
		for _, br := range branches[1:] {
			found := false
			for _, d := range conjuncts(br) {
				if d.String() == c.String() {
					found = true
					break
				}
			}
			all = all && found
		}
		if all {
			out = append(out, c)
		}
	}
	return out
}
