package planner

import (
	"fmt"
	"strings"

	"github.com/flussql/flussql/engine"
	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/parser"
)

// A FROM with joins, subqueries, UNION ALL or aliases is planned item by
// item into a relation: an engine subtree with the scope of its columns.
// Each table becomes the plan of SELECT <the columns the statement may
// name> FROM t (with the WHERE conjuncts
// that concern only it, for partition pruning and key lookups), whose
// server read is one of the query's inputs; the query's own clauses then
// run over the FROM's rows as they do over one table's.

// relation is a planned FROM item.
type relation struct {
	node    engine.Node
	scope   *scope
	bounded bool // every scan below is bounded
}

// fromPlan collects the server reads of a query's FROM.
type fromPlan struct {
	inputs  []QueryPlan
	lookups []*LookupTable
	where   []parser.Expr // the WHERE's conjuncts, for pushdown
	// fullWhere is the WHERE as written, before the conjuncts a table's plan applies whole
	// left it: the magic sets of correlated subqueries filter by those conjuncts too.
	fullWhere parser.Expr
	// refs are the statement's column references and star whether it has
	// SELECT *: a table's plan reads only the columns they may name.
	refs  []*parser.ColumnRef
	star  bool
	stars map[string]bool // the t of every t.*
	// owner is the WHERE or ON conjunct each of refs is in (none for the
	// others); tables are the FROM's tables and derived whether it has
	// another item (a subquery). With track, a table's plan that applies a
	// conjunct whole reads no column only that conjunct names, and the
	// conjunct is not evaluated again (see applyWhole).
	owner   map[*parser.ColumnRef]parser.Expr
	tables  []*parser.TableRef
	derived bool
	track   bool
}

// collectRefs records the column references of a SELECT with its FROM's
// ON conditions (not those inside subqueries, which name their own
// tables).
func (fp *fromPlan) collectRefs(s *parser.Select) {
	visit := func(e parser.Expr) bool {
		switch n := e.(type) {
		case *parser.ColumnRef:
			fp.refs = append(fp.refs, n)
		case *parser.Star:
			if n.Table == "" {
				fp.star = true
			} else {
				if fp.stars == nil {
					fp.stars = map[string]bool{}
				}
				fp.stars[n.Table] = true
			}
		}
		return true
	}
	owned := func(e parser.Expr) {
		for _, c := range conjuncts(e) {
			from := len(fp.refs)
			parser.Walk(c, visit)
			for _, r := range fp.refs[from:] {
				if fp.owner == nil {
					fp.owner = map[*parser.ColumnRef]parser.Expr{}
				}
				fp.owner[r] = c
			}
		}
	}
	for _, it := range s.Items {
		parser.Walk(it.Expr, visit)
	}
	owned(s.Where)
	for _, g := range s.GroupBy {
		parser.Walk(g, visit)
	}
	parser.Walk(s.Having, visit)
	for _, o := range s.OrderBy {
		parser.Walk(o.Expr, visit)
	}
	var on func(f parser.FromItem)
	on = func(f parser.FromItem) {
		switch j := f.(type) {
		case *parser.Join:
			on(j.Left)
			on(j.Right)
			owned(j.On)
		case *parser.TableRef:
			fp.tables = append(fp.tables, j)
		case nil:
		default:
			fp.derived = true
		}
	}
	on(s.From)
	fp.refs = append(fp.refs, nestedRefs(s)...) // correlated references of subqueries
}

// columnsOf lists the columns of t the statement may name, in table order
// (all with SELECT *, at least one), but for the references in the
// conjuncts of whole, which t's plan applies.
func (fp *fromPlan) columnsOf(t *parser.TableRef, info *fluss.TableInfo, whole map[parser.Expr]bool) []parser.SelectItem {
	var items []parser.SelectItem
	for _, c := range info.Schema().Columns {
		use := fp.star || fp.stars[t.Name()]
		for _, r := range fp.refs {
			if whole[fp.owner[r]] {
				continue
			}
			if (r.Table.Name == "" || r.Table.Name == t.Name()) && strings.EqualFold(r.Name, c.Name) {
				use = true
			}
		}
		if use {
			items = append(items, parser.SelectItem{Expr: &parser.ColumnRef{Name: c.Name}})
		}
	}
	if len(items) == 0 {
		items = append(items, parser.SelectItem{Expr: &parser.ColumnRef{Name: info.Schema().Columns[0].Name}})
	}
	return items
}

// fromQuery plans a SELECT whose FROM has joins, subqueries, UNION ALL or
// aliases.
func (b *builder) fromQuery(s *parser.Select) (Plan, error) {
	s, written, err := b.commaJoins(s)
	if err != nil {
		return nil, err
	}
	b.noteTopN(s)
	fp := &fromPlan{}
	fp.collectRefs(s)
	if s.Where != nil && !hasAggregate(s.Where) {
		fp.where = plainConjuncts(s.Where)
	}
	ph := Placeholders{Params: parser.Placeholders(s), Location: b.sess.Location} // before WHERE loses the conjuncts applied below
	fp.track = true
	rel, err := b.fromRel(fp, s)
	if err != nil {
		return nil, err
	}
	fp.track = false
	fp.fullWhere = s.Where
	if w := b.notApplied(s.Where); w != s.Where {
		t := *s
		t.Where = w
		if lim, ok := b.topN[s]; ok {
			b.topN[&t] = lim
		}
		s = &t
	}
	rel, ds, post, err := b.decorrelate(fp, rel, s)
	if err != nil {
		return nil, err
	}
	rel = writtenOrder(rel, written)
	q := &Query{Limit: -1, Placeholders: ph, Inputs: fp.inputs, Lookups: fp.lookups}
	if s.Limit != nil {
		if q.LimitValue, err = countValue("LIMIT", s.Limit); err != nil {
			return nil, err
		}
	}
	if s.Offset != nil {
		if q.OffsetValue, err = countValue("OFFSET", s.Offset); err != nil {
			return nil, err
		}
	}
	info := rel.scope.info()
	qb := &queryBuilder{b: b, s: ds, info: info, ph: ph, scope: rel.scope, post: post}
	if err := qb.checkColumns(); err != nil {
		return nil, err
	}
	conv := &exprConv{info: info, slot: identity, sess: b.sess, scope: rel.scope}
	if q.Root, err = qb.tree(rel.node, conv, q); err != nil {
		return nil, err
	}
	if !rel.bounded && !engine.Streaming(q.Root) {
		return nil, needsStreaming("aggregates, ORDER BY, DISTINCT, set operations other than UNION ALL, hash and nested-loop joins need bounded inputs; over an unbounded scan ('%s' = 'false') a query only takes filters, expressions, LIMIT and lookup joins", HintBounded)
	}
	return q, nil
}

// planFrom plans one FROM item; pushable tells whether WHERE conjuncts may
// be pushed into its tables (not into the NULL-filled side of a LEFT join).
func (b *builder) planFrom(fp *fromPlan, f parser.FromItem, pushable bool) (*relation, error) {
	switch n := f.(type) {
	case *parser.TableRef:
		return b.planTable(fp, n, pushable)
	case *parser.SubqueryRef:
		return b.planSubquery(fp, n)
	case *parser.Join:
		if n.Kind == parser.JoinComma {
			return b.planComma(fp, n, pushable)
		}
		return b.planJoin(fp, n, pushable)
	}
	return nil, notSupported("planner: FROM item %T is not supported", f)
}

// planTable plans SELECT * FROM t WHERE <the conjuncts about t alone>.
func (b *builder) planTable(fp *fromPlan, t *parser.TableRef, pushable bool) (*relation, error) {
	if t.AsOf != nil {
		return nil, fmt.Errorf("FOR SYSTEM_TIME AS OF %s: %s is not the right side of a lookup join; write it after the primary-key table of [LEFT] JOIN t FOR SYSTEM_TIME AS OF x.proc_time AS c ON c.key = x.col", t.AsOf, t.Table)
	}
	info, _, err := b.readTable(t.Table) // a table or a virtual table (t$changelog AS c)
	if err != nil {
		return nil, err
	}
	sel := &parser.Select{Table: t.Table, Hints: t.Hints}
	var whole map[parser.Expr]bool
	if pushable {
		var mine []parser.Expr
		for _, c := range fp.where {
			if onlyTable(c, t, info) {
				mine = append(mine, c)
				if fp.track && b.onlyThere(fp, c, t) {
					if whole == nil {
						whole = map[parser.Expr]bool{}
					}
					whole[c] = true
				}
			} else if r := orRestriction(c, t, info); r != nil {
				mine = append(mine, r)
			}
		}
		sel.Where = andAll(mine)
	}
	sel.Items = fp.columnsOf(t, info, whole)
	p, err := b.query(sel)
	if err != nil {
		return nil, inLargerQuery(err)
	}
	for c := range whole {
		b.applyWhole(c)
	}
	q := p.(*Query)
	bounded := true
	if sc, ok := q.Source.(*Scan); ok {
		bounded = sc.Bounded
	}
	return &relation{node: embed(fp, q), scope: requalify(q.Root.Columns(), t.Name()), bounded: bounded}, nil
}

// orRestriction is what an OR of conjunctions says about table t alone: the
// OR over its branches of each branch's conjuncts about t (TPC-H Q19's
// (p_brand = 'Brand#12' AND l_quantity >= 1 AND …) OR (p_brand = 'Brand#23'
// AND …) filters part's read by p_brand = 'Brand#12' AND … OR p_brand =
// 'Brand#23' AND …); nil when c is no OR or a branch says nothing about t.
// A row of t it rejects can make no joined row pass c, which is still
// evaluated whole after the joins.
func orRestriction(c parser.Expr, t *parser.TableRef, info *fluss.TableInfo) parser.Expr {
	if _, ok := c.(*parser.Or); !ok {
		return nil
	}
	var out parser.Expr
	var walk func(e parser.Expr) bool
	walk = func(e parser.Expr) bool {
		if o, ok := e.(*parser.Or); ok {
			return walk(o.Left) && walk(o.Right)
		}
		var mine []parser.Expr
		for _, d := range conjuncts(e) {
			if onlyTable(d, t, info) {
				mine = append(mine, d)
			}
		}
		if len(mine) == 0 {
			return false
		}
		if out == nil {
			out = andAll(mine)
		} else {
			out = &parser.Or{Left: out, Right: andAll(mine)}
		}
		return true
	}
	if !walk(c) {
		return nil
	}
	return out
}

// onlyTable reports whether every column a condition names is one of t's
// (qualified with its name, or unqualified and one of its columns) and it
// has no aggregate: then the table's own plan may filter on it.
func onlyTable(e parser.Expr, t *parser.TableRef, info *fluss.TableInfo) bool {
	ok, any := true, false
	parser.Walk(e, func(x parser.Expr) bool {
		switch n := x.(type) {
		case *parser.ColumnRef:
			any = true
			if n.Table.Name != "" && n.Table.Name != t.Name() {
				ok = false
			}
			if info.Schema().Index(n.Name) < 0 {
				ok = false
			}
		case *parser.Star, *parser.CountStar:
			ok = false
		case *parser.FuncCall:
			if isAggregate(n) {
				ok = false
			}
		}
		return ok
	})
	return ok && any
}

func andAll(es []parser.Expr) parser.Expr {
	if len(es) == 0 {
		return nil
	}
	out := es[0]
	for _, e := range es[1:] {
		out = &parser.And{Left: out, Right: e}
	}
	return out
}

// embed adds a planned query's reads to fp, renumbering its inputs and
// lookups, and returns its operator tree.
func embed(fp *fromPlan, q *Query) engine.Node {
	srcs := q.Inputs
	if q.Source != nil {
		srcs = []QueryPlan{q.Source}
	}
	inBase, lkBase := len(fp.inputs), len(fp.lookups)
	fp.inputs = append(fp.inputs, srcs...)
	fp.lookups = append(fp.lookups, q.Lookups...)
	var walk func(n engine.Node)
	walk = func(n engine.Node) {
		switch x := n.(type) {
		case *engine.Input:
			x.ID += inBase
		case *engine.LookupJoin:
			x.ID += lkBase
		}
		for _, c := range n.Inputs() {
			walk(c)
		}
	}
	walk(q.Root)
	return q.Root
}

// planSubquery plans (SELECT …) alias or (a UNION ALL b) alias. LIMIT and
// OFFSET inside must be numbers (the outer statement's placeholders bind
// only its own).
func (b *builder) planSubquery(fp *fromPlan, sq *parser.SubqueryRef) (*relation, error) {
	var node engine.Node
	bounded := true
	switch q := sq.Query.(type) {
	case *parser.Select:
		r, err := b.subSelect(fp, q)
		if err != nil {
			return nil, err
		}
		node, bounded = r.node, r.bounded
	case *parser.Union:
		var ins []*relation
		for _, sel := range q.Selects {
			r, err := b.subSelect(fp, sel)
			if err != nil {
				return nil, err
			}
			ins = append(ins, r)
			bounded = bounded && r.bounded
		}
		var err error
		if node, err = setOperation(q.Op(), ins); err != nil {
			return nil, err
		}
	}
	node, err := renameColumns(node, sq)
	if err != nil {
		return nil, err
	}
	return &relation{node: node, scope: requalify(node.Columns(), sq.Alias), bounded: bounded}, nil
}

// subSelect plans a SELECT of a subquery with fixed LIMIT and OFFSET.
func (b *builder) subSelect(fp *fromPlan, s *parser.Select) (*relation, error) {
	p, err := b.query(s)
	if err != nil {
		return nil, inLargerQuery(err)
	}
	q := p.(*Query)
	if q.LimitValue != nil && q.LimitValue.Param != nil || q.OffsetValue != nil && q.OffsetValue.Param != nil {
		// A placeholder: the outer statement's Bind fills it in (bindPending).
		setPending(q.Root, &pendingBounds{limit: q.LimitValue, offset: q.OffsetValue})
		if ls, ok := q.Source.(*LimitScan); ok && q.LimitValue != nil {
			c := *ls // LIMIT + OFFSET rows of each bucket, once bound
			c.LimitValue, c.OffsetValue = q.LimitValue, q.OffsetValue
			q.Source = &c
		}
	} else if err := fixBounds(q); err != nil {
		return nil, err
	}
	bounded := true
	if sc, ok := q.Source.(*Scan); ok {
		bounded = sc.Bounded
	}
	// A subquery's Input leaf is the one of its own plan.
	node := embed(fp, q)
	return &relation{node: node, bounded: bounded && !unboundedBelow(q)}, nil
}

// fixBounds puts a subquery's constant LIMIT and OFFSET into its plan.
func fixBounds(q *Query) error {
	limit, offset := int64(-1), int64(0)
	var err error
	if q.LimitValue != nil {
		if limit, err = bindCount(nil, "LIMIT", q.LimitValue); err != nil {
			return fmt.Errorf("LIMIT of a subquery: %w", err)
		}
	}
	if q.OffsetValue != nil {
		if offset, err = bindCount(nil, "OFFSET", q.OffsetValue); err != nil {
			return fmt.Errorf("OFFSET of a subquery: %w", err)
		}
	}
	if q.LimitValue != nil || q.OffsetValue != nil {
		setBounds(q.Root, limit, offset)
		if ls, ok := q.Source.(*LimitScan); ok && q.LimitValue != nil {
			c := *ls
			c.Limit = limit + offset
			q.Source = &c
		}
	}
	return nil
}

// unboundedBelow reports whether a query over a FROM reads an unbounded
// scan.
func unboundedBelow(q *Query) bool {
	for _, in := range q.Inputs {
		if sc, ok := in.(*Scan); ok && !sc.Bounded {
			return true
		}
	}
	return false
}

// unionAll makes the UNION ALL of the inputs: the column counts must
// agree, and each column is brought to the common type of its inputs
// (Flink's widening: the wider integer, DECIMAL that holds both, DOUBLE for
// floating point, STRING for strings, the finer TIMESTAMP; NULL-able when
// any input is).
func unionAll(what string, ins []*relation) (engine.Node, error) {
	cols := ins[0].node.Columns()
	types := make([]engine.Column, len(cols))
	copy(types, cols)
	for k, in := range ins[1:] {
		c := in.node.Columns()
		if len(c) != len(cols) {
			return nil, fmt.Errorf(what+": SELECT %d has %d columns, the first has %d", k+2, len(c), len(cols))
		}
		for i := range c {
			t, err := engine.CommonType(types[i].Type, c[i].Type)
			if err != nil {
				return nil, fmt.Errorf(what+": column %d (%s): %w", i+1, cols[i].Name, err)
			}
			types[i].Type = t
		}
	}
	u := &engine.Union{}
	for _, in := range ins {
		c := in.node.Columns()
		node := in.node
		var exprs []engine.Expr
		var names []string
		cast := false
		for i := range c {
			var e engine.Expr = &engine.Col{Index: i, Name: c[i].Name, T: c[i].Type}
			want := types[i].Type
			if c[i].Type.Kind != want.Kind || c[i].Type.Precision != want.Precision || c[i].Type.Scale != want.Scale || c[i].Type.Length != want.Length {
				x, err := engine.NewCast(e, want.AsNullable())
				if err != nil {
					return nil, fmt.Errorf(what+": column %d (%s): %w", i+1, cols[i].Name, err)
				}
				e, cast = x, true
			}
			exprs, names = append(exprs, e), append(names, c[i].Name)
		}
		if cast {
			node = &engine.Project{Input: node, Exprs: exprs, Names: names}
		}
		u.Ins = append(u.Ins, node)
	}
	return u, nil
}
