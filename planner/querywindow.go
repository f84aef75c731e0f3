package planner

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/flussql/flussql/engine"
	"github.com/flussql/flussql/parser"
)

// Window functions run after WHERE, GROUP BY and HAVING and before the
// select list's projection, DISTINCT, ORDER BY and LIMIT: tree calls
// planWindows before it converts the select list, and attach just before
// the projection. The calls of one window specification (PARTITION BY and
// ORDER BY) share one engine.Window node; each adds one column after the
// columns below the windows, which the select list and ORDER BY read.

// windowPlan is the window part of one SELECT.
type windowPlan struct {
	groups []*windowGroup
	cols   map[string]engine.Column // call text → its output column (Name, Type)
	index  map[string]int           // call text → its column index
	dry    bool                     // resolving calls before the indexes are known
	limit  *topNLimit               // the outer query's bound on a ROW_NUMBER alias
}

// windowGroup is the calls of one window specification.
type windowGroup struct {
	key   string
	node  engine.Window
	calls []string
}

// topNLimit is an outer WHERE's bound on a ROW_NUMBER() column of a
// subquery in FROM: SELECT * FROM (SELECT …, ROW_NUMBER() OVER (…) AS rn
// FROM t) WHERE rn <= n.
type topNLimit struct {
	alias string
	n     int64
	fn    string // ROW_NUMBER, RANK or DENSE_RANK
}

// errWindowPlace is the error of a window function outside the select list
// and ORDER BY.
func errWindowPlace(where string, w *parser.WindowCall) error {
	return fmt.Errorf("window functions are allowed in the select list and ORDER BY only, not in %s (%s); compute it in a subquery and filter in an outer query: SELECT * FROM (SELECT …, ROW_NUMBER() OVER (…) AS rn FROM t) WHERE rn <= 3", where, w)
}

// windowColumn resolves a window call to its column (an error where no
// windows are planned: WHERE, GROUP BY, a function's argument).
func (c *exprConv) windowColumn(w *parser.WindowCall) (engine.Expr, error) {
	if c.win == nil {
		return nil, errWindowPlace("WHERE, GROUP BY or an aggregate's argument", w)
	}
	id := w.String()
	col := c.win.cols[id]
	return &engine.Col{Index: c.win.index[id], Name: col.Name, T: col.Type}, nil
}

// windowCalls lists the distinct window calls of the select list and ORDER
// BY, in order of appearance.
func (qb *queryBuilder) windowCalls() ([]*parser.WindowCall, map[string]string, error) {
	var calls []*parser.WindowCall
	names := map[string]string{}
	seen := map[string]bool{}
	add := func(e parser.Expr, alias string) {
		if w, ok := e.(*parser.WindowCall); ok && alias != "" && names[w.String()] == "" {
			names[w.String()] = alias
		}
		parser.Walk(e, func(x parser.Expr) bool {
			if w, ok := x.(*parser.WindowCall); ok && !seen[w.String()] {
				seen[w.String()] = true
				calls = append(calls, w)
			}
			return true
		})
	}
	for _, it := range qb.s.Items {
		add(it.Expr, it.Alias)
	}
	for _, o := range qb.s.OrderBy {
		add(o.Expr, "")
	}
	if qb.s.Having != nil && parser.HasWindow(qb.s.Having) {
		var w *parser.WindowCall
		parser.Walk(qb.s.Having, func(x parser.Expr) bool {
			if y, ok := x.(*parser.WindowCall); ok && w == nil {
				w = y
			}
			return w == nil
		})
		return nil, nil, errWindowPlace("HAVING", w)
	}
	return calls, names, nil
}

// planWindows plans the window calls of the statement over node (the rows
// after WHERE, or the groups when aggregating) and returns the converter
// for the select list, HAVING and ORDER BY, which resolves the calls to
// their columns. post converts the calls' arguments and keys.
func (qb *queryBuilder) planWindows(node engine.Node, post *exprConv) (*windowPlan, *exprConv, error) {
	calls, names, err := qb.windowCalls()
	if err != nil || len(calls) == 0 {
		return nil, post, err
	}
	if qb.s.Hints != nil {
		if h, err := parseHints(qb.s.Hints, qb.b.sess.Location); err == nil && !h.bounded {
			return nil, nil, needsStreaming("window functions need a bounded scan; an unbounded scan ('%s' = 'false') only takes filters, expressions and LIMIT", HintBounded)
		}
	}
	wp := &windowPlan{cols: map[string]engine.Column{}, index: map[string]int{}, limit: qb.b.topN[qb.s]}
	for i, w := range calls {
		name := names[w.String()]
		if name == "" {
			name = "w" + strconv.Itoa(i+1)
		}
		if err := wp.add(w, name, post); err != nil {
			return nil, nil, err
		}
	}
	for i, g := range wp.groups {
		if wp.topN(&g.node, qb.s) {
			// The bounded window goes last: the others must see every row.
			wp.groups = append(append(wp.groups[:i:i], wp.groups[i+1:]...), g)
			break
		}
	}
	width := len(node.Columns())
	if ac := post.agg; ac != nil {
		// Register every aggregate of the statement first, so that the
		// aggregation's width, below the window columns, is final.
		dry := *post
		dry.win = &windowPlan{cols: wp.cols, index: map[string]int{}, dry: true}
		for _, it := range qb.s.Items {
			if _, star := it.Expr.(*parser.Star); !star {
				_, _ = dry.conv(it.Expr) // errors are reported by the real conversion
			}
		}
		if qb.s.Having != nil {
			_, _ = dry.conv(qb.s.Having)
		}
		for _, o := range qb.s.OrderBy {
			_, _ = dry.conv(o.Expr)
		}
		width = len(ac.keys) + len(ac.aggs)
	}
	for _, g := range wp.groups {
		for _, id := range g.calls {
			wp.index[id] = width
			width++
		}
	}
	out := *post
	out.win = wp
	return wp, &out, nil
}

// add plans one window call into the group of its specification.
func (wp *windowPlan) add(w *parser.WindowCall, name string, conv *exprConv) error {
	var part []engine.Expr
	var order []engine.WindowOrder
	var keyParts []string
	for _, p := range w.PartitionBy {
		e, err := conv.conv(p)
		if err != nil {
			return err
		}
		if e.Type().Kind.Nested() {
			return fmt.Errorf("PARTITION BY %s: %s values cannot be compared", p, engine.TypeName(e.Type()))
		}
		part = append(part, e)
		keyParts = append(keyParts, e.String())
	}
	keyParts = append(keyParts, "|")
	for _, o := range w.OrderBy {
		e, err := conv.conv(o.Expr)
		if err != nil {
			return err
		}
		if e.Type().Kind.Nested() {
			return fmt.Errorf("ORDER BY %s: %s values cannot be ordered", o.Expr, engine.TypeName(e.Type()))
		}
		nullsFirst := !o.Desc // Flink's default: NULLs are the smallest values
		switch o.Nulls {
		case parser.NullsFirst:
			nullsFirst = true
		case parser.NullsLast:
			nullsFirst = false
		}
		order = append(order, engine.WindowOrder{Expr: e, Desc: o.Desc, NullsFirst: nullsFirst})
		keyParts = append(keyParts, fmt.Sprint(e, o.Desc, nullsFirst))
	}
	fn, err := windowFunc(w, conv)
	if err != nil {
		return err
	}
	key := strings.Join(keyParts, ",")
	var g *windowGroup
	for _, x := range wp.groups {
		if x.key == key {
			g = x
		}
	}
	if g == nil {
		g = &windowGroup{key: key, node: engine.Window{Partition: part, Order: order}}
		wp.groups = append(wp.groups, g)
	}
	g.node.Funcs = append(g.node.Funcs, fn)
	g.node.Names = append(g.node.Names, name)
	g.calls = append(g.calls, w.String())
	wp.cols[w.String()] = engine.Column{Name: name, Type: fn.T}
	return nil
}

// windowFunc types the function of a window call.
func windowFunc(w *parser.WindowCall, conv *exprConv) (*engine.WindowFunc, error) {
	frame := engine.DefaultFrame
	if f := w.Frame; f != nil {
		frame = engine.WindowFrame{Rows: !f.Range,
			Start: engine.WindowBound{Kind: engine.WindowBoundKind(f.Start.Kind), Offset: f.Start.Offset},
			End:   engine.WindowBound{Kind: engine.WindowBoundKind(f.End.Kind), Offset: f.End.Offset}}
	}
	if _, ok := w.Func.(*parser.CountStar); ok {
		return engine.NewWindowFunc("COUNT", nil, 0, nil, frame)
	}
	f, ok := w.Func.(*parser.FuncCall)
	if ok && f.Distinct {
		return nil, notSupported("%s: DISTINCT is not supported in a window function", w)
	}
	if ok && !slices.Contains(engine.WindowFunctions, f.Name) {
		return windowAggregate(w, f, conv, frame)
	}
	if !ok {
		return nil, fmt.Errorf("%s is not a window function; OVER takes %s and the aggregate functions", w.Func, strings.Join(engine.WindowFunctions, ", "))
	}
	args := make([]engine.Expr, len(f.Args))
	for i, a := range f.Args {
		e, err := conv.conv(a)
		if err != nil {
			return nil, err
		}
		args[i] = e
	}
	switch f.Name {
	case "ROW_NUMBER", "RANK", "DENSE_RANK":
		if len(args) != 0 {
			return nil, fmt.Errorf("%s takes no arguments", f.Name)
		}
		return engine.NewWindowFunc(f.Name, nil, 0, nil, frame)
	case "LAG", "LEAD":
		if len(args) < 1 || len(args) > 3 {
			return nil, fmt.Errorf("write %s(x [, offset [, default]])", f.Name)
		}
		off := int64(1)
		if len(args) > 1 {
			lit, ok := f.Args[1].(*parser.Literal)
			n, err := strconv.ParseInt(litValue(lit), 10, 64)
			if !ok || lit.Kind != parser.LitInt || err != nil || n < 0 {
				return nil, fmt.Errorf("%s: the offset %s must be a non-negative integer literal", f.Name, f.Args[1])
			}
			off = n
		}
		var def engine.Expr
		if len(args) > 2 {
			def = args[2]
			if want := args[0].Type().AsNullable(); !def.Type().AsNullable().Equal(want) {
				c, err := engine.NewCast(def, want)
				if err != nil {
					return nil, fmt.Errorf("%s: the default %s does not convert to %s: %w", f.Name, f.Args[2], engine.TypeName(want), err)
				}
				def = c
			}
		}
		return engine.NewWindowFunc(f.Name, args[0], off, def, frame)
	case "COUNT", "SUM", "AVG", "MIN", "MAX", "FIRST_VALUE", "LAST_VALUE":
		if len(args) != 1 {
			return nil, fmt.Errorf("%s takes one argument", f.Name)
		}
		return engine.NewWindowFunc(f.Name, args[0], 0, nil, frame)
	}
	return nil, fmt.Errorf("%s is not a window function", f.Name)
}

func litValue(l *parser.Literal) string {
	if l == nil {
		return ""
	}
	return l.Value
}

// attach puts the Window nodes over node (nil-safe), in the order of
// their columns.
func (wp *windowPlan) attach(node engine.Node) engine.Node {
	if wp == nil {
		return node
	}
	for _, g := range wp.groups {
		w := g.node
		w.Input = node
		node = &w
	}
	return node
}

// topN sets the outer query's bound on w when it applies to it: w computes
// the ranking column the outer query bounds (ROW_NUMBER, RANK or
// DENSE_RANK, see noteTopN), and only functions that a prefix of each
// partition decides; w then keeps only the first rows (ranks) of each
// partition.
func (wp *windowPlan) topN(w *engine.Window, s *parser.Select) bool {
	if wp.limit == nil || s.Limit != nil || s.Offset != nil || len(w.Order) == 0 {
		return false
	}
	k := slices.IndexFunc(w.Names, func(n string) bool { return strings.EqualFold(n, wp.limit.alias) })
	if k < 0 || w.Funcs[k].Func != wp.limit.fn {
		return false
	}
	for _, f := range w.Funcs {
		if !f.TopNSafe() {
			return false
		}
	}
	w.PerPartition, w.PerPartitionBy = wp.limit.n, wp.limit.fn
	return true
}
