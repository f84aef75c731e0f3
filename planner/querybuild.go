package planner

import (
	"context"
	"fmt"
	"slices"
	"strconv"

	"github.com/flussql/flussql/engine"
	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/types"
	"github.com/flussql/flussql/parser"
)

// simpleSelect reports whether the statement has the shape the row plans
// run by themselves: columns, * or COUNT(*) alone, WHERE and LIMIT.
func simpleSelect(s *parser.Select) bool {
	if s.Distinct || len(s.GroupBy) > 0 || s.Having != nil || len(s.OrderBy) > 0 || s.Offset != nil || !s.HasFrom() || s.From != nil || parser.HasWindow(s.Where) || hasSubqueries(s) {
		return false
	}
	count := false
	for _, it := range s.Items {
		switch it.Expr.(type) {
		case *parser.Star, *parser.ColumnRef:
		case *parser.CountStar:
			count = true
		default:
			return false
		}
	}
	return !count || len(s.Items) == 1
}

// BuildQuery plans a SELECT as a Query, which the engine finishes, even where a row
// plan could run it: for callers that want the engine's output batches (QueryArrow).
// Other statements are planned as Build plans them.
func BuildQuery(ctx context.Context, stmt parser.Statement, cat Catalog, sess Session) (Plan, error) {
	s, ok := stmt.(*parser.Select)
	if !ok {
		return Build(ctx, stmt, cat, sess)
	}
	b := &builder{ctx: ctx, cat: cat, sess: sess}
	p, err := b.query(s)
	if err != nil {
		return nil, err
	}
	if q, ok := p.(*Query); ok {
		shareSubtrees(q)
	}
	if pr := parser.Placeholders(stmt); pr.Positional == 0 && len(pr.Names) == 0 {
		return Bind(p, nil)
	}
	return p, nil
}

// queryBuilder plans a Query.
type queryBuilder struct {
	b     *builder
	s     *parser.Select
	info  *fluss.TableInfo
	ph    Placeholders
	scope *scope // the FROM's columns when it has joins, subqueries or aliases
	// virtual is the table under a virtual table (info then describes
	// the virtual table); nil for a plain table.
	virtual *virtualTable
	// post are the subqueries joined after the aggregate (nil: none).
	post *postAgg
}

func (b *builder) query(s *parser.Select) (Plan, error) {
	if s.From != nil || hasSubqueries(s) {
		return b.fromQuery(s)
	}
	qb := &queryBuilder{b: b, s: s, ph: Placeholders{Params: parser.Placeholders(s), Location: b.sess.Location}}
	q := &Query{Limit: -1, Placeholders: qb.ph}
	var err error
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
	conv := &exprConv{sess: b.sess, slot: identity}
	var leaf engine.Node = &engine.OneRow{}
	if s.HasFrom() {
		if qb.info, qb.virtual, err = b.readTable(s.Table); err != nil {
			return nil, err
		}
		conv.info = qb.info
		if err := qb.checkColumns(); err != nil {
			return nil, err
		}
	} else if s.Hints != nil {
		return nil, fmt.Errorf("OPTIONS hints need a table")
	}
	// The source is chosen after the operator tree is known (a primary-key
	// table can only feed streaming operators from a limit scan), but the
	// tree's column indexes depend on it: a Scan feeds its projection, the
	// others full rows. Plan the projection first.
	var proj []int
	if qb.virtual != nil {
		proj = qb.virtualProjection()
		conv.slot = func(col int) int { return slices.Index(proj, col) }
	} else if qb.info != nil && (!qb.info.HasPrimaryKey() || qb.usesKvScan() || isLake(qb.s.Table.Name)) {
		proj = qb.projection()
		conv.slot = func(col int) int { return slices.Index(proj, col) }
	} else if qb.usesLakeMerge() {
		proj = withPrimaryKey(qb.info, qb.projection())
		conv.slot = func(col int) int { return slices.Index(proj, col) }
	}
	if qb.info != nil {
		in := &engine.Input{}
		if proj != nil {
			for _, c := range proj {
				col := qb.info.Schema().Columns[c]
				in.Cols = append(in.Cols, engine.Column{Name: col.Name, Type: col.Type})
			}
		} else {
			for _, col := range qb.info.Schema().Columns {
				in.Cols = append(in.Cols, engine.Column{Name: col.Name, Type: col.Type})
			}
		}
		leaf = in
	}
	root, err := qb.tree(leaf, conv, q)
	if err != nil {
		return nil, err
	}
	q.Root = root
	if qb.info != nil {
		src, from, err := qb.source(proj, engine.Streaming(root), q)
		if err != nil {
			return nil, err
		}
		leaf.(*engine.Input).From = from
		q.Source = src
	}
	return q, nil
}

func countValue(what string, e parser.Expr) (*Value, error) {
	v, err := newValue(what, types.NewBigInt(), e, nil)
	if err != nil {
		return nil, fmt.Errorf("%s must be a non-negative integer: %w", what, err)
	}
	return &v, nil
}

// checkColumns resolves every column the statement names, so that unknown
// columns are reported first.
func (qb *queryBuilder) checkColumns() error {
	var err error
	qb.walk(func(e parser.Expr) {
		if fa, ok := e.(*parser.FieldAccess); ok && err == nil {
			if ref, ok := fa.Base.(*parser.ColumnRef); ok && ref.Table.Name == "" {
				if _, cerr := qb.colIndex(ref); cerr != nil && !qb.isAlias(ref.Name) {
					err = fmt.Errorf("%s: %s names no table of the statement and no ROW column: %w", fa, parser.QuoteIdent(ref.Name), cerr)
				}
			}
		}
		if ref, ok := e.(*parser.ColumnRef); ok && err == nil {
			if _, cerr := qb.colIndex(ref); cerr != nil && (ref.Table.Name != "" || !qb.isAlias(ref.Name)) && qb.post.columns()[ref.Table.Name] == nil {
				err = cerr
			}
		}
	})
	return err
}

func (qb *queryBuilder) isAlias(name string) bool {
	for _, it := range qb.s.Items {
		if it.Alias == name {
			return true
		}
	}
	return false
}

func (qb *queryBuilder) walk(f func(parser.Expr)) {
	visit := func(e parser.Expr) bool { f(e); return true }
	for _, it := range qb.s.Items {
		parser.Walk(it.Expr, visit)
	}
	parser.Walk(qb.s.Where, visit)
	for _, g := range qb.s.GroupBy {
		parser.Walk(g, visit)
	}
	parser.Walk(qb.s.Having, visit)
	for _, o := range qb.s.OrderBy {
		parser.Walk(o.Expr, visit)
	}
}

// projection lists the table columns the statement reads, ascending (at
// least one: a fetch needs a column).
func (qb *queryBuilder) projection() []int {
	var proj []int
	qb.walk(func(e parser.Expr) {
		switch n := e.(type) {
		case *parser.Star:
			for i := range qb.info.Schema().Columns {
				proj = append(proj, i)
			}
		case *parser.ColumnRef:
			if idx, err := column(qb.info, n.Name); err == nil {
				proj = append(proj, idx)
			}
		}
	})
	slices.Sort(proj)
	proj = slices.Compact(proj)
	if len(proj) == 0 {
		proj = []int{0}
	}
	return proj
}

// source plans the server's part: the same strategies and pushdowns as a
// plain SELECT, with no filter, projection or limit of its own (the engine
// applies them), except that a limit scan reads LIMIT + OFFSET rows per
// bucket.
func (qb *queryBuilder) source(proj []int, streaming bool, q *Query) (QueryPlan, string, error) {
	if qb.virtual != nil {
		return qb.virtualSource(proj, streaming)
	}
	if _, lake := splitLake(qb.s.Table.Name); lake {
		return qb.lakeScan(proj)
	}
	info, s, sess := qb.info, qb.s, qb.b.sess
	eq := equalities(info, s.Where, sess)
	sb := &selectBuilder{b: qb.b, info: info, stmt: s, ph: qb.ph}
	full := func(o *Output) {
		o.Limit = -1
		for i, c := range info.Schema().Columns {
			o.Columns = append(o.Columns, OutputColumn{Name: c.Name, Type: c.Type, Slot: i})
		}
	}
	if info.HasPrimaryKey() {
		if s.Hints != nil {
			return nil, "", fmt.Errorf("OPTIONS hints apply to log-table scans; %s is a primary-key table", info.Path)
		}
		if ks, ok := keySet(info, info.Schema().PrimaryKey, eq); ok {
			p := &Lookup{Table: info, KeySet: ks, Placeholders: qb.ph}
			full(&p.Output)
			return p, "Lookup", nil
		}
		bucket, phys := info.BucketKeys(), info.PhysicalPrimaryKey()
		prefix := len(bucket) > 0 && len(bucket) < len(phys) && slices.Equal(bucket, phys[:len(bucket)])
		if prefix {
			if ks, ok := keySet(info, append(slices.Clone(bucket), info.PartitionKeys()...), eq); ok {
				p := &PrefixLookup{Table: info, KeySet: ks, Placeholders: qb.ph}
				full(&p.Output)
				return p, "PrefixLookup", nil
			}
		}
		hint := "filter with = or IN on the whole primary key " + keyList(info.Schema().PrimaryKey) + " for a lookup"
		if prefix {
			hint += ", on " + keyList(append(slices.Clone(bucket), info.PartitionKeys()...)) + " for a prefix lookup"
		}
		if qb.usesKvScan() {
			return qb.kvScan(proj, streaming, q)
		}
		if qb.usesLakeMerge() {
			return qb.lakeMergeScan(proj)
		}
		if !streaming {
			return nil, "", &fullScanError{msg: fmt.Sprintf("aggregates, ORDER BY and DISTINCT over a whole primary-key table need a full scan, which needs Fluss 1.0+ (ScanKv); %s", hint)}
		}
		if q.LimitValue == nil || !limitScanExact(info, s.Where) {
			return nil, "", fullScanNeeded(info, s.Where, hint)
		}
		ps, err := sb.partitionSet(eq)
		if err != nil {
			return nil, "", err
		}
		p := &LimitScan{Table: info, PartitionSet: ps, Buckets: info.NumBuckets(), Placeholders: qb.ph}
		full(&p.Output)
		p.LimitValue = q.LimitValue
		return p, "LimitScan", nil
	}
	h, err := parseHints(s.Hints, sess.Location)
	if err != nil {
		return nil, "", err
	}
	if !h.bounded && !streaming {
		return nil, "", needsStreaming("aggregates, ORDER BY and DISTINCT need a bounded scan; an unbounded scan ('%s' = 'false') only takes filters, expressions and LIMIT", HintBounded)
	}
	ps, err := sb.partitionSet(eq)
	if err != nil {
		return nil, "", err
	}
	p := &Scan{Table: info, PartitionSet: ps, Buckets: info.NumBuckets(), Projection: proj,
		Start: h.start, StartTimestamp: h.timestamp, Bounded: h.bounded, Placeholders: qb.ph,
		Pushdown: pushdownFilter(info, s.Where, sess.Location),
		Lake:     lakeMode(info, s.Table.Name, h), LakePushdown: lakePushdown(info, s.Where, sess)}
	p.Limit = -1
	for i, c := range proj {
		col := info.Schema().Columns[c]
		p.Columns = append(p.Columns, OutputColumn{Name: col.Name, Type: col.Type, Slot: i})
	}
	return p, "Scan", nil
}

// tree builds the client's operators over leaf:
// Filter (WHERE) → Aggregate → Filter (HAVING) → Project (select list and
// hidden ORDER BY keys) → Distinct → Sort/TopN or Limit → Project (drops the
// hidden keys).
func (qb *queryBuilder) tree(leaf engine.Node, conv *exprConv, q *Query) (engine.Node, error) {
	s := qb.s
	node := leaf
	if s.Where != nil {
		if hasAggregate(s.Where) {
			return nil, fmt.Errorf("aggregate functions are not allowed in WHERE; use HAVING")
		}
		cond, err := conv.conv(s.Where)
		if err != nil {
			return nil, err
		}
		if cond, err = condition("WHERE", cond); err != nil {
			return nil, err
		}
		node = &engine.Filter{Input: node, Cond: cond}
	}
	aggregating := len(s.GroupBy) > 0 || s.Having != nil
	for _, it := range s.Items {
		aggregating = aggregating || hasAggregate(it.Expr)
	}
	for _, o := range s.OrderBy {
		aggregating = aggregating || hasAggregate(o.Expr)
	}
	post := conv
	if aggregating {
		ac := &aggConv{inner: conv, aliases: map[string]parser.Expr{}, resolving: map[string]bool{}, post: qb.post.columns()}
		for _, it := range s.Items {
			if it.Alias != "" {
				ac.aliases[it.Alias] = it.Expr
			}
		}
		for _, g := range s.GroupBy {
			g = qb.groupExpr(g)
			if hasAggregate(g) {
				return nil, fmt.Errorf("aggregate functions are not allowed in GROUP BY")
			}
			k, err := conv.conv(g)
			if err != nil {
				return nil, err
			}
			if k.Type().Kind.Nested() {
				return nil, fmt.Errorf("GROUP BY %s: %s values cannot be grouped", g, engine.TypeName(k.Type()))
			}
			ac.keyIDs = append(ac.keyIDs, conv.exprID(g))
			ac.keys = append(ac.keys, k)
			ac.names = append(ac.names, itemName(parser.SelectItem{Expr: g}))
		}
		post = &exprConv{info: conv.info, slot: conv.slot, sess: conv.sess, agg: ac, scope: conv.scope}
	}
	wp, post, err := qb.planWindows(node, post)
	if err != nil {
		return nil, err
	}
	// Select list.
	var exprs []engine.Expr
	var names []string
	for _, it := range s.Items {
		if st, ok := it.Expr.(*parser.Star); ok {
			if aggregating {
				return nil, fmt.Errorf("SELECT * cannot be used with GROUP BY or aggregates")
			}
			cols := conv.info.Schema().Columns
			for _, i := range qb.starColumns(st) {
				exprs = append(exprs, &engine.Col{Index: conv.slot(i), Name: cols[i].Name, T: cols[i].Type})
				names = append(names, cols[i].Name)
			}
			continue
		}
		e, err := post.conv(it.Expr)
		if err != nil {
			return nil, err
		}
		exprs = append(exprs, e)
		names = append(names, itemName(it))
	}
	var having engine.Expr
	if s.Having != nil {
		h, err := post.conv(s.Having)
		if err != nil {
			return nil, err
		}
		if having, err = condition("HAVING", h); err != nil {
			return nil, err
		}
	}
	// ORDER BY keys: a position, a select-list name, an item's expression,
	// or else a hidden column.
	visible := len(exprs)
	var keys []engine.SortKey
	for _, o := range s.OrderBy {
		k := qb.orderColumn(o.Expr, names)
		if k < 0 {
			if s.Distinct {
				return nil, fmt.Errorf("with SELECT DISTINCT, ORDER BY %s must name a column of the select list", o.Expr)
			}
			e, err := post.conv(o.Expr)
			if err != nil {
				return nil, err
			}
			k = len(exprs)
			exprs = append(exprs, e)
			names = append(names, "order "+strconv.Itoa(k))
		}
		if t := exprs[k].Type(); t.Kind.Nested() {
			return nil, fmt.Errorf("ORDER BY %s: %s values cannot be ordered", o.Expr, engine.TypeName(t))
		}
		nullsFirst := !o.Desc // Flink's default: NULLs are the smallest values
		switch o.Nulls {
		case parser.NullsFirst:
			nullsFirst = true
		case parser.NullsLast:
			nullsFirst = false
		}
		keys = append(keys, engine.SortKey{Col: k, Desc: o.Desc, NullsFirst: nullsFirst})
	}
	if aggregating {
		ac := post.agg
		joinHaving, err := qb.havingJoins(post) // before the Aggregate: its keys may add aggregates
		if err != nil {
			return nil, err
		}
		node = joinHaving(&engine.Aggregate{Input: node, Keys: ac.keys, Names: ac.names, Aggs: ac.aggs})
		if having != nil {
			node = &engine.Filter{Input: node, Cond: having}
		}
	}
	node = wp.attach(node)
	node = &engine.Project{Input: node, Exprs: exprs, Names: names}
	if s.Distinct {
		for _, e := range exprs {
			if e.Type().Kind.Nested() {
				return nil, fmt.Errorf("SELECT DISTINCT %s: %s values cannot be compared", e, engine.TypeName(e.Type()))
			}
		}
		node = &engine.Distinct{Input: node}
	}
	switch {
	case len(keys) > 0:
		node = &engine.Sort{Input: node, Keys: keys, Limit: -1}
	case q.LimitValue != nil || q.OffsetValue != nil:
		node = &engine.Limit{Input: node, Limit: -1}
	}
	if len(exprs) > visible {
		cols := node.Columns()
		var drop []engine.Expr
		for i := range visible {
			drop = append(drop, &engine.Col{Index: i, Name: cols[i].Name, T: cols[i].Type})
		}
		node = &engine.Project{Input: node, Exprs: drop, Names: names[:visible]}
	}
	return node, nil
}

// groupExpr resolves GROUP BY 2 (a position in the select list) and GROUP
// BY alias to the item's expression.
func (qb *queryBuilder) groupExpr(g parser.Expr) parser.Expr {
	switch n := g.(type) {
	case *parser.Literal:
		if n.Kind == parser.LitInt {
			if k, err := strconv.Atoi(n.Value); err == nil && k >= 1 && k <= len(qb.s.Items) {
				return qb.s.Items[k-1].Expr
			}
		}
	case *parser.ColumnRef:
		if qb.info != nil {
			if _, err := qb.colIndex(n); err == nil {
				return g
			}
		}
		for _, it := range qb.s.Items {
			if it.Alias == n.Name {
				return it.Expr
			}
		}
	}
	return g
}

// orderColumn finds the select-list column an ORDER BY key names, -1 when
// it names none.
func (qb *queryBuilder) orderColumn(e parser.Expr, names []string) int {
	switch n := e.(type) {
	case *parser.Literal:
		if n.Kind == parser.LitInt {
			if k, err := strconv.Atoi(n.Value); err == nil && k >= 1 && k <= len(names) {
				return k - 1
			}
		}
	case *parser.ColumnRef:
		for i, it := range qb.s.Items {
			if it.Alias != "" && it.Alias == n.Name {
				return i
			}
		}
	}
	pos := 0
	for _, it := range qb.s.Items {
		if st, ok := it.Expr.(*parser.Star); ok {
			cols := qb.starColumns(st)
			if ref, ok := e.(*parser.ColumnRef); ok && qb.info != nil {
				if idx, err := qb.colIndex(ref); err == nil {
					if k := slices.Index(cols, idx); k >= 0 {
						return pos + k
					}
				}
			}
			pos += len(cols)
			continue
		}
		if it.Expr.String() == e.String() {
			return pos
		}
		pos++
	}
	return -1
}

// condition checks that a WHERE or HAVING expression is BOOLEAN.
func condition(clause string, e engine.Expr) (engine.Expr, error) {
	if c, ok := e.(*engine.Const); ok && c.Untyped {
		return &engine.Const{T: types.NewBoolean(), Text: "NULL"}, nil
	}
	if e.Type().Kind != types.Boolean {
		return nil, fmt.Errorf("%s %s is %s, not a condition (BOOLEAN)", clause, e, engine.TypeName(e.Type()))
	}
	return e, nil
}
