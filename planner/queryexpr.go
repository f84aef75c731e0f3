package planner

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/flussql/flussql/engine"
	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/types"
	"github.com/flussql/flussql/internal/sqlkind"
	"github.com/flussql/flussql/parser"
)

// exprConv converts parser expressions into engine expressions over one
// input layout. With agg set it converts expressions evaluated after
// grouping: group keys and aggregate calls become columns of the
// aggregation's output, and other column references are errors.
type exprConv struct {
	info  *fluss.TableInfo // nil without FROM
	slot  func(col int) int
	sess  Session
	agg   *aggConv
	scope *scope // resolves qualified names over a FROM with joins (nil: info's names)

	win *windowPlan // resolves window calls (nil: none allowed here)
}

// colIndex resolves a column reference to a column of info.
func (c *exprConv) colIndex(ref *parser.ColumnRef) (int, error) {
	if c.scope != nil {
		return c.scope.resolve(ref)
	}
	return column(c.info, ref.Name)
}

// aggConv collects the group keys and aggregate calls of a query.
type aggConv struct {
	inner  *exprConv // converts arguments and keys (before grouping)
	keyIDs []string
	keys   []engine.Expr
	names  []string
	aggIDs []string
	aggs   []*engine.Agg
	// aliases are the select list's aliases, which HAVING may use (for names that
	// are not columns); resolving marks those being resolved.
	aliases   map[string]parser.Expr
	resolving map[string]bool
	// post are the columns of uncorrelated scalar subqueries joined after the
	// aggregate, by their qualifier.
	post map[string]*engine.Col
}

func isAggregate(e parser.Expr) bool {
	switch n := e.(type) {
	case *parser.CountStar:
		return true
	case *parser.FuncCall:
		return engine.IsAggregateFunction(n.Name)
	}
	return false
}

// hasAggregate reports whether e calls an aggregate function.
func hasAggregate(e parser.Expr) bool {
	found := false
	parser.Walk(e, func(x parser.Expr) bool {
		if isAggregate(x) {
			found = true
		}
		return !found
	})
	return found
}

// exprID identifies an expression for matching GROUP BY keys: a column by
// its resolved index, anything else by its canonical SQL.
func (c *exprConv) exprID(e parser.Expr) string {
	if ref, ok := e.(*parser.ColumnRef); ok && c.info != nil {
		if idx, err := c.colIndex(ref); err == nil {
			return fmt.Sprintf("column #%d", idx)
		}
	}
	return e.String()
}

func (c *exprConv) conv(e parser.Expr) (engine.Expr, error) {
	if w, ok := e.(*parser.WindowCall); ok {
		return c.windowColumn(w)
	}
	if c.agg != nil {
		a := c.agg
		id := a.inner.exprID(e)
		if k := slices.Index(a.keyIDs, id); k >= 0 {
			return &engine.Col{Index: k, Name: a.names[k], T: a.keys[k].Type()}, nil
		}
		if isAggregate(e) {
			return a.aggregate(e)
		}
		if ref, ok := e.(*parser.ColumnRef); ok {
			if col, ok := a.post[ref.Table.Name]; ok && ref.Name == valueCol {
				return col, nil
			}
			if x, ok := a.aliases[ref.Name]; ok && !a.resolving[ref.Name] && !c.isColumn(ref.Name) {
				a.resolving[ref.Name] = true
				defer delete(a.resolving, ref.Name)
				return c.conv(x)
			}
			return nil, fmt.Errorf("column %s must be in GROUP BY or inside an aggregate function", parser.QuoteIdent(ref.Name))
		}
	}
	switch n := e.(type) {
	case *parser.Literal:
		return literalConst(n, c.sess)
	case *parser.Placeholder:
		return engine.NewParam(n.Ordinal, n.Name), nil
	case *parser.ColumnRef:
		if c.info == nil {
			return nil, fmt.Errorf("unknown column %s: the query has no FROM", parser.QuoteIdent(n.Name))
		}
		idx, err := c.colIndex(n)
		if err != nil {
			return nil, err
		}
		col := c.info.Schema().Columns[idx]
		return &engine.Col{Index: c.slot(idx), Name: col.Name, T: col.Type}, nil
	case *parser.FieldAccess:
		base, err := c.conv(n.Base)
		if err != nil {
			return nil, err
		}
		return engine.NewField(base, n.Field)
	case *parser.Comparison:
		l, r, err := c.pair(n.Left, n.Right)
		if err != nil {
			return nil, err
		}
		if l, r, err = c.literalAs(n.Left, l, r); err != nil {
			return nil, err
		}
		if r, l, err = c.literalAs(n.Right, r, l); err != nil {
			return nil, err
		}
		return engine.NewCompare(string(n.Op), l, r)
	case *parser.In:
		x, err := c.conv(n.Expr)
		if err != nil {
			return nil, err
		}
		list, err := c.list(n.List)
		if err != nil {
			return nil, err
		}
		for i, v := range n.List {
			if list[i], _, err = c.literalAs(v, list[i], x); err != nil {
				return nil, err
			}
		}
		return engine.NewIn(x, list, n.Not)
	case *parser.Between:
		x, err := c.conv(n.Expr)
		if err != nil {
			return nil, err
		}
		lo, hi, err := c.pair(n.Low, n.High)
		if err != nil {
			return nil, err
		}
		if lo, _, err = c.literalAs(n.Low, lo, x); err != nil {
			return nil, err
		}
		if hi, _, err = c.literalAs(n.High, hi, x); err != nil {
			return nil, err
		}
		ge, err := engine.NewCompare(">=", x, lo)
		if err != nil {
			return nil, err
		}
		le, err := engine.NewCompare("<=", x, hi)
		if err != nil {
			return nil, err
		}
		in, err := engine.NewLogic(true, ge, le)
		if err != nil || !n.Not {
			return in, err
		}
		return engine.NewNot(in)
	case *parser.IsNull:
		x, err := c.conv(n.Expr)
		if err != nil {
			return nil, err
		}
		return &engine.IsNull{X: x, Not: n.Not}, nil
	case *parser.Like:
		x, p, err := c.pair(n.Expr, n.Pattern)
		if err != nil {
			return nil, err
		}
		if n.Escape == nil {
			return engine.NewLike(x, p, n.Not)
		}
		esc, err := c.conv(n.Escape)
		if err != nil {
			return nil, err
		}
		return engine.NewLikeEscape(x, p, esc, n.Not)
	case *parser.And:
		l, r, err := c.pair(n.Left, n.Right)
		if err != nil {
			return nil, err
		}
		return engine.NewLogic(true, l, r)
	case *parser.Or:
		l, r, err := c.pair(n.Left, n.Right)
		if err != nil {
			return nil, err
		}
		return engine.NewLogic(false, l, r)
	case *parser.Not:
		x, err := c.conv(n.Expr)
		if err != nil {
			return nil, err
		}
		return engine.NewNot(x)
	case *parser.Arith:
		if iv, ok := n.Right.(*parser.Interval); ok && (n.Op == parser.OpAdd || n.Op == parser.OpSub) {
			x, err := c.conv(n.Left)
			if err != nil {
				return nil, err
			}
			return intervalAdd(x, iv, n.Op == parser.OpSub)
		}
		if iv, ok := n.Left.(*parser.Interval); ok && n.Op == parser.OpAdd {
			x, err := c.conv(n.Right)
			if err != nil {
				return nil, err
			}
			return intervalAdd(x, iv, false)
		}
		l, r, err := c.pair(n.Left, n.Right)
		if err != nil {
			return nil, err
		}
		return engine.NewBinary(string(n.Op), l, r)
	case *parser.Neg:
		x, err := c.conv(n.Expr)
		if err != nil {
			return nil, err
		}
		return engine.NewNeg(x)
	case *parser.Cast:
		x, err := c.conv(n.Expr)
		if err != nil {
			return nil, err
		}
		var cast engine.Expr
		if n.Try {
			cast, err = engine.NewTryCast(x, n.Type)
		} else {
			cast, err = engine.NewCast(x, n.Type)
		}
		if errors.Is(err, engine.ErrUnsupported) {
			return nil, notSupported("%s", err)
		}
		return cast, err
	case *parser.Case:
		return c.caseExpr(n)
	case *parser.TimeUnitCall:
		x, err := c.conv(n.Expr)
		if err != nil {
			return nil, err
		}
		if n.Func == "EXTRACT" {
			return engine.NewExtract(n.Unit, x)
		}
		return engine.NewFloorTo(n.Unit, x, n.Func == "CEIL")
	case *parser.FuncCall:
		return c.call(n)
	case *parser.Constructor:
		return c.constructor(n)
	case *parser.Subscript:
		x, i, err := c.pair(n.Base, n.Index)
		if err != nil {
			return nil, err
		}
		return engine.NewSubscript(x, i)
	case *parser.OnNull:
		return &engine.OnNull{Absent: n.Absent}, nil
	case *parser.JSONClause:
		out := &engine.JSONClause{Text: n.Text}
		if n.Default != nil {
			d, err := c.conv(n.Default)
			if err != nil {
				return nil, err
			}
			out.Default = d
		}
		return out, nil
	case *parser.Interval:
		return nil, fmt.Errorf("%s: an INTERVAL is only added to or subtracted from a DATE, TIMESTAMP or TIMESTAMP_LTZ, e.g. ts + %s or ts - %s", n, n, n)
	case *parser.TimestampFunc:
		args, err := c.list(n.Args)
		if err != nil {
			return nil, err
		}
		if n.Func == "TIMESTAMPADD" {
			return engine.NewTimestampAdd(n.Unit, args[0], args[1])
		}
		return engine.NewTimeDiff(n.Unit, args[0], args[1])
	case *parser.CountStar:
		return nil, fmt.Errorf("COUNT(*) is not allowed here (only in the select list, HAVING and ORDER BY)")
	case *parser.Star:
		return nil, fmt.Errorf("* is only allowed alone in the select list")
	}
	return nil, fmt.Errorf("%s cannot be used in a query expression", e)
}

// intervalAdd is x ± INTERVAL 'v' unit; a fraction of a second is counted
// in milliseconds.
func intervalAdd(x engine.Expr, iv *parser.Interval, neg bool) (engine.Expr, error) {
	unit, text := iv.Unit, iv.Value
	whole, frac, _ := strings.Cut(text, ".")
	if frac != "" {
		// SECOND with up to 3 fraction digits (the parser checks).
		frac += strings.Repeat("0", 3-len(frac))
		whole, unit = strings.TrimPrefix(whole, "+")+frac, "MILLISECOND"
	}
	n, err := strconv.ParseInt(whole, 10, 64)
	if err != nil {
		return nil, fmt.Errorf("%s: the value is out of range", iv)
	}
	return engine.NewIntervalAdd(x, unit, n, neg, iv.String())
}

func (c *exprConv) isColumn(name string) bool {
	if c.info == nil {
		return false
	}
	_, err := c.colIndex(&parser.ColumnRef{Name: name})
	return err == nil
}

// literalAs converts a string, DATE or TIMESTAMP literal compared with a
// DATE, TIME, TIMESTAMP or TIMESTAMP_LTZ operand to that operand's type, as
// the row filter does (ts > '2024-01-01 10:00:00', ltz >= TIMESTAMP '…' read
// in the session's zone): lit is the literal's parser form, e its engine
// form, other the operand it is compared with. Other operands are returned
// as they are.
func (c *exprConv) literalAs(lit parser.Expr, e, other engine.Expr) (engine.Expr, engine.Expr, error) {
	l, ok := lit.(*parser.Literal)
	if !ok {
		return e, other, nil
	}
	t := other.Type()
	switch {
	case !sqlkind.Is(t.Kind, sqlkind.Temporal):
		return e, other, nil
	case l.Kind != parser.LitString && l.Kind != parser.LitDate && l.Kind != parser.LitTimestamp && l.Kind != parser.LitTime:
		return e, other, nil
	case e.Type().Kind == t.Kind && l.Kind != parser.LitString:
		return e, other, nil
	}
	v, err := filterValue(other.String(), t, l, c.sess.Location)
	if err != nil {
		return nil, nil, err
	}
	ev, err := engineValue(v.Type, v.Const)
	if err != nil {
		return nil, nil, err
	}
	return &engine.Const{Value: ev, T: v.Type.AsNotNull(), Text: l.String()}, other, nil
}

func (c *exprConv) pair(a, b parser.Expr) (engine.Expr, engine.Expr, error) {
	x, err := c.conv(a)
	if err != nil {
		return nil, nil, err
	}
	y, err := c.conv(b)
	return x, y, err
}

func (c *exprConv) list(es []parser.Expr) ([]engine.Expr, error) {
	out := make([]engine.Expr, len(es))
	for i, e := range es {
		x, err := c.conv(e)
		if err != nil {
			return nil, err
		}
		out[i] = x
	}
	return out, nil
}

func (c *exprConv) caseExpr(n *parser.Case) (engine.Expr, error) {
	var op engine.Expr
	if n.Operand != nil {
		var err error
		if op, err = c.conv(n.Operand); err != nil {
			return nil, err
		}
	}
	var whens []engine.When
	for _, w := range n.Whens {
		cond, res, err := c.pair(w.Cond, w.Result)
		if err != nil {
			return nil, err
		}
		if op != nil {
			if cond, err = engine.NewCompare("=", op, cond); err != nil {
				return nil, err
			}
		}
		whens = append(whens, engine.When{Cond: cond, Result: res})
	}
	var els engine.Expr
	if n.Else != nil {
		var err error
		if els, err = c.conv(n.Else); err != nil {
			return nil, err
		}
	}
	return engine.NewCase(whens, els)
}

// Version is what SELECT VERSION() answers.
const Version = "flussql (Apache Fluss client)"

func (c *exprConv) call(n *parser.FuncCall) (engine.Expr, error) {
	if engine.IsAggregateFunction(n.Name) {
		return nil, fmt.Errorf("aggregate function %s is not allowed here (only in the select list, HAVING and ORDER BY)", n.Name)
	}
	switch n.Name {
	case "VERSION":
		if len(n.Args) > 0 {
			return nil, fmt.Errorf("VERSION takes no arguments")
		}
		return &engine.Const{Value: Version, T: stringNotNull, Text: "VERSION()"}, nil
	case "CURRENT_DATE", "CURRENT_TIMESTAMP", "NOW", "LOCALTIMESTAMP", "CURRENT_TIME", "LOCALTIME":
		if len(n.Args) > 0 {
			return nil, fmt.Errorf("%s takes no arguments", n.Name)
		}
		return engine.NewCurrent(n.Name)
	case "CURRENT_DATABASE", "DATABASE":
		if len(n.Args) > 0 {
			return nil, fmt.Errorf("%s takes no arguments", n.Name)
		}
		var v any
		t := stringNotNull
		if c.sess.Database != "" {
			v = c.sess.Database
		} else {
			t = t.AsNullable()
		}
		return &engine.Const{Value: v, T: t, Text: n.Name + "()"}, nil
	}
	if n.Distinct {
		return nil, fmt.Errorf("DISTINCT is only allowed in aggregate functions, not in %s", n.Name)
	}
	args, err := c.list(n.Args)
	if err != nil {
		return nil, err
	}
	if n.Name == "IF" {
		// Flink's IF(cond, a, b): CASE WHEN cond THEN a ELSE b END, typed as CASE.
		if len(args) != 3 {
			return nil, fmt.Errorf("IF takes 3 arguments (a condition, its value when TRUE, and otherwise), not %d", len(args))
		}
		e, err := engine.NewCase([]engine.When{{Cond: args[0], Result: args[1]}}, args[2])
		if err != nil {
			msg := strings.TrimPrefix(err.Error(), "CASE branches: ")
			if strings.HasPrefix(msg, "WHEN ") {
				msg = "the first argument must be a condition (BOOLEAN), not " + engine.TypeName(args[0].Type())
			}
			return nil, fmt.Errorf("IF(%s, %s, %s): %s", args[0], args[1], args[2], msg)
		}
		return e, nil
	}
	if d := c.sess.Functions.Lookup(n.Name); d != nil {
		return engine.NewCallOf(d, args)
	}
	e, err := engine.NewCall(n.Name, args)
	if err != nil && (engine.LookupFunction(n.Name) == nil || errors.Is(err, engine.ErrUnsupported)) {
		return nil, notSupported("%s", err) // a function the engine does not have
	}
	return e, err
}

// aggregate registers an aggregate call (once per distinct call) and
// returns the column of the aggregation's output holding it.
func (a *aggConv) aggregate(e parser.Expr) (engine.Expr, error) {
	id := e.String()
	if k := slices.Index(a.aggIDs, id); k >= 0 {
		return &engine.Col{Index: len(a.keys) + k, Name: id, T: a.aggs[k].T}, nil
	}
	var agg *engine.Agg
	var err error
	switch n := e.(type) {
	case *parser.CountStar:
		agg, err = engine.NewAgg("COUNT", nil, false)
	case *parser.FuncCall:
		if f := a.inner.sess.Functions.LookupAggregate(n.Name); f != nil {
			agg, err = a.userAggregate(f, n)
			break
		}
		if engine.LookupFunction(n.Name) == nil {
			return nil, notSupported("function %s is not supported; SHOW FUNCTIONS lists the functions of this connection", n.Name)
		}
		if len(n.Args) != 1 && (n.Name != "LISTAGG" && n.Name != "ARRAY_AGG" || len(n.Args) != 2) && !strings.HasPrefix(n.Name, "JSON_") { // ARRAY_AGG's: IGNORE NULLS; JSON_OBJECTAGG's key and value
			return nil, fmt.Errorf("%s takes one argument", n.Name)
		}
		var args []engine.Expr
		for _, x := range n.Args {
			if hasAggregate(x) {
				return nil, fmt.Errorf("aggregate functions cannot be nested: %s", e)
			}
			arg, err := a.inner.conv(x)
			if err != nil {
				return nil, err
			}
			args = append(args, arg)
		}
		if agg, err = engine.NewAggArgs(n.Name, args, n.Distinct); err != nil {
			return nil, err
		}
	}
	if err != nil {
		return nil, err
	}
	a.aggIDs = append(a.aggIDs, id)
	a.aggs = append(a.aggs, agg)
	return &engine.Col{Index: len(a.keys) + len(a.aggs) - 1, Name: id, T: agg.T}, nil
}

var stringNotNull = types.NewString().AsNotNull()

// itemName is the result column name of a select item: its alias, a
// column's name as written, a ROW field's name (r.f is f, as in Flink), or
// the item's SQL.
func itemName(it parser.SelectItem) string {
	if it.Alias != "" {
		return it.Alias
	}
	if ref, ok := it.Expr.(*parser.ColumnRef); ok {
		return ref.Name
	}
	if fa, ok := it.Expr.(*parser.FieldAccess); ok {
		return fa.Field
	}
	return strings.TrimSpace(it.Expr.String())
}
