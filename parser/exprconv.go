package parser

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/flussql/flussql/fluss/types"

	"github.com/xwb1989/sqlparser"
)

// This file converts sqlparser expressions into the dialect's Expr tree.
// Conditions (WHERE) are AND/OR/NOT over predicates; predicate operands and
// the values of VALUES, SET and LIMIT are literals, placeholders and (in
// predicates only) column references.

var compareOps = map[string]CompareOp{
	sqlparser.EqualStr: OpEq, sqlparser.NotEqualStr: OpNe, sqlparser.LessThanStr: OpLt,
	sqlparser.LessEqualStr: OpLe, sqlparser.GreaterThanStr: OpGt, sqlparser.GreaterEqualStr: OpGe,
}

// condition converts a boolean expression (WHERE, HAVING): any
// expression; the planner checks that it is BOOLEAN.
func (c *converter) condition(e sqlparser.Expr) (Expr, error) { return c.expr(e) }

// expr converts an expression of a query: predicates, AND/OR/NOT,
// arithmetic, function calls, CASE, CAST, columns, literals, placeholders.
func (c *converter) expr(e sqlparser.Expr) (Expr, error) {
	if x, ok, err := c.subqueryExpr(e); ok {
		return x, err
	}
	switch n := e.(type) {
	case *sqlparser.ParenExpr:
		return c.expr(n.Expr)
	case *sqlparser.AndExpr:
		l, r, err := c.pair(n.Left, n.Right, c.expr)
		if err != nil {
			return nil, err
		}
		return &And{Left: l, Right: r}, nil
	case *sqlparser.OrExpr:
		l, r, err := c.pair(n.Left, n.Right, c.expr)
		if err != nil {
			return nil, err
		}
		return &Or{Left: l, Right: r}, nil
	case *sqlparser.NotExpr:
		x, err := c.expr(n.Expr)
		if err != nil {
			return nil, err
		}
		return &Not{Expr: x}, nil
	case *sqlparser.ComparisonExpr:
		return c.comparison(n)
	case *sqlparser.RangeCond:
		x, err := c.expr(n.Left)
		if err != nil {
			return nil, err
		}
		low, high, err := c.pair(n.From, n.To, c.expr)
		if err != nil {
			return nil, err
		}
		return &Between{Expr: x, Low: low, High: high, Not: n.Operator == sqlparser.NotBetweenStr}, nil
	case *sqlparser.IsExpr:
		if n.Operator != sqlparser.IsNullStr && n.Operator != sqlparser.IsNotNullStr {
			return nil, c.unsupported(strings.ToUpper(n.Operator), "is")
		}
		x, err := c.expr(n.Expr)
		if err != nil {
			return nil, err
		}
		return &IsNull{Expr: x, Not: n.Operator == sqlparser.IsNotNullStr}, nil
	case *sqlparser.ColName:
		return c.column(n)
	case *sqlparser.BinaryExpr:
		return c.binary(n)
	case *sqlparser.UnaryExpr:
		if n.Operator == sqlparser.UMinusStr || n.Operator == sqlparser.UPlusStr {
			if v, err := c.valueOnly(n, "a value"); err == nil {
				return v, nil
			}
			x, err := c.expr(n.Expr)
			if err != nil {
				return nil, err
			}
			if n.Operator == sqlparser.UPlusStr {
				return x, nil
			}
			return &Neg{Expr: x}, nil
		}
	case *sqlparser.FuncExpr:
		return c.funcCall(n)
	case *sqlparser.CaseExpr:
		return c.caseExpr(n)
	case *sqlparser.SubstrExpr:
		args := []sqlparser.Expr{n.Name, n.From}
		if n.To != nil {
			args = append(args, n.To)
		}
		f := &FuncCall{Name: "SUBSTRING"}
		for _, a := range args {
			x, err := c.expr(a)
			if err != nil {
				return nil, err
			}
			f.Args = append(f.Args, x)
		}
		return f, nil
	case *sqlparser.ConvertExpr:
		return nil, c.unsupportedUse("CONVERT", "write CAST(x AS type)", "convert", "cast")
	case *sqlparser.IntervalExpr:
		return c.interval(n)
	}
	return c.valueOnly(e, "a value")
}

var arithOps = map[string]ArithOp{
	sqlparser.PlusStr: OpAdd, sqlparser.MinusStr: OpSub, sqlparser.MultStr: OpMul,
	sqlparser.DivStr: OpDiv, sqlparser.ModStr: OpMod, sqlparser.BitXorStr: OpConcat,
}

func (c *converter) binary(n *sqlparser.BinaryExpr) (Expr, error) {
	op, ok := arithOps[n.Operator]
	if !ok {
		t := c.locate(n.Operator)
		return nil, unsupportedError(c.l.src, t.start, t.text(c.l.src), "the operator "+n.Operator+" is not supported")
	}
	l, r, err := c.pair(n.Left, n.Right, c.expr)
	if err != nil {
		return nil, err
	}
	return &Arith{Op: op, Left: l, Right: r}, nil
}

func (c *converter) funcCall(n *sqlparser.FuncExpr) (Expr, error) {
	if con, err := c.constructor(n, c.expr); con != nil || err != nil {
		return con, err
	}
	name := strings.ToLower(n.Name.String())
	if strings.HasPrefix(name, overFunc) {
		return c.windowCall(n, name)
	}
	if strings.HasPrefix(name, litFunc) {
		return c.valueOnly(n, "a value")
	}
	if mode, ok := strings.CutPrefix(name, onNullFunc); ok {
		return &OnNull{Absent: mode == "absent"}, nil
	}
	if x, ok, err := c.jsonClause(name, n); ok {
		return x, err
	}
	if !n.Qualifier.IsEmpty() {
		return nil, c.nodeUnsupported(n, "qualified function names are not supported")
	}
	var cast *types.DataType
	try := false
	if k, ok := strings.CutPrefix(name, castFunc); ok {
		i, err := strconv.Atoi(k)
		if err != nil || i < 0 || i >= len(c.q.casts) || len(n.Exprs) != 1 {
			return nil, c.nodeUnsupported(n, "function "+n.Name.String()+" is not supported")
		}
		cast, try = &c.q.casts[i], c.q.tries[i]
	}
	if name == substringFunc {
		name = "substring"
	}
	if name == regexpFunc {
		name = "regexp"
	}
	if x, ok, err := c.trimCall(name, n); ok {
		return x, err
	}
	if name == fieldFunc {
		return c.fieldAccess(n)
	}
	if name == elemFunc {
		if len(n.Exprs) != 2 {
			return nil, c.nodeErr(n, "write x[i] with one index")
		}
		var args [2]Expr
		for i, se := range n.Exprs {
			ae, ok := se.(*sqlparser.AliasedExpr)
			if !ok || !ae.As.IsEmpty() {
				return nil, c.nodeErr(n, "write x[i] with one index")
			}
			x, err := c.expr(ae.Expr)
			if err != nil {
				return nil, err
			}
			args[i] = x
		}
		return &Subscript{Base: args[0], Index: args[1]}, nil
	}
	if name == "timestampadd" || name == "timestampdiff" {
		return c.timestampFunc(n, strings.ToUpper(name))
	}
	if rest, ok := strings.CutPrefix(name, timeUnitFunc); ok {
		fn, unit, _ := strings.Cut(rest, "_")
		if len(n.Exprs) != 1 {
			return nil, c.nodeErr(n, strings.ToUpper(fn)+" takes one argument")
		}
		ae, ok := n.Exprs[0].(*sqlparser.AliasedExpr)
		if !ok {
			return nil, c.nodeErr(n, strings.ToUpper(fn)+" takes one argument")
		}
		x, err := c.expr(ae.Expr)
		if err != nil {
			return nil, err
		}
		return &TimeUnitCall{Func: strings.ToUpper(fn), Unit: strings.ToUpper(unit), Expr: x}, nil
	}
	f := &FuncCall{Name: strings.ToUpper(name), Distinct: n.Distinct}
	for _, se := range n.Exprs {
		ae, ok := se.(*sqlparser.AliasedExpr)
		if !ok {
			if _, star := se.(*sqlparser.StarExpr); star && name == "count" && len(n.Exprs) == 1 && !n.Distinct {
				return &CountStar{}, nil
			}
			return nil, c.nodeErr(n, "* is only allowed in COUNT(*)")
		}
		if !ae.As.IsEmpty() {
			return nil, c.nodeErr(n, "an alias is not allowed in a function argument")
		}
		x, err := c.expr(ae.Expr)
		if err != nil {
			return nil, err
		}
		f.Args = append(f.Args, x)
	}
	if cast != nil {
		return &Cast{Expr: f.Args[0], Type: *cast, Try: try}, nil
	}
	return f, nil
}

// interval converts Flink's INTERVAL '1' DAY (INTERVAL 1 DAY, MySQL's
// spelling, is taken too).
func (c *converter) interval(n *sqlparser.IntervalExpr) (Expr, error) {
	unit := strings.ToUpper(n.Unit)
	if !slices.Contains(IntervalUnits, unit) {
		return nil, c.nodeErr(n, "INTERVAL takes a single unit: "+strings.Join(IntervalUnits, ", ")+", not "+n.Unit)
	}
	v, err := c.valueOnly(n.Expr, "the quoted number of an INTERVAL, e.g. INTERVAL '1' DAY")
	if err != nil {
		return nil, err
	}
	lit, ok := v.(*Literal)
	if _, ph := v.(*Placeholder); ph {
		return nil, c.nodeErr(n, "INTERVAL takes a quoted number, not a placeholder; write TIMESTAMPADD("+unit+", ?, ts) for a count bound at run time")
	}
	if !ok || lit.Kind != LitString && lit.Kind != LitInt && lit.Kind != LitNumber {
		return nil, c.nodeErr(n, "INTERVAL takes a quoted number, e.g. INTERVAL '1' DAY, not "+v.String())
	}
	val := strings.TrimSpace(lit.Value)
	pattern := intervalInt
	if unit == "SECOND" {
		pattern = intervalSecond
	}
	if !pattern.MatchString(val) {
		want := "an integer"
		if unit == "SECOND" {
			want = "a number with at most 3 fraction digits"
		}
		return nil, c.nodeErr(n, "INTERVAL "+QuoteString(lit.Value)+" "+unit+": the value must be "+want+" (one unit per INTERVAL; add intervals for more: ts + INTERVAL '1' DAY + INTERVAL '2' HOUR)")
	}
	return &Interval{Value: strings.TrimPrefix(val, "+"), Unit: unit}, nil
}

var (
	intervalInt    = regexp.MustCompile(`^[+-]?[0-9]{1,18}$`)
	intervalSecond = regexp.MustCompile(`^[+-]?[0-9]{1,15}(\.[0-9]{1,3})?$`)
)

// timestampFunc converts TIMESTAMPADD(unit, n, ts) and TIMESTAMPDIFF(unit, a, b).
func (c *converter) timestampFunc(n *sqlparser.FuncExpr, fn string) (Expr, error) {
	usage := fn + "(unit, a, b)"
	if fn == "TIMESTAMPADD" {
		usage = fn + "(unit, n, ts)"
	}
	if len(n.Exprs) != 3 {
		return nil, c.nodeErr(n, "write "+usage+" with a unit of "+strings.Join(IntervalUnits, ", "))
	}
	out := &TimestampFunc{Func: fn}
	for i, se := range n.Exprs {
		ae, ok := se.(*sqlparser.AliasedExpr)
		if !ok || !ae.As.IsEmpty() {
			return nil, c.nodeErr(n, "write "+usage)
		}
		if i == 0 {
			col, ok := ae.Expr.(*sqlparser.ColName)
			unit := ""
			if ok && col.Qualifier.IsEmpty() {
				unit = strings.ToUpper(col.Name.String())
				unit = strings.TrimPrefix(unit, "SQL_TSI_")
			}
			if !slices.Contains(IntervalUnits, unit) {
				return nil, c.nodeErr(n, fn+" takes a unit first: "+strings.Join(IntervalUnits, ", ")+" (write "+usage+")")
			}
			out.Unit = unit
			continue
		}
		x, err := c.expr(ae.Expr)
		if err != nil {
			return nil, err
		}
		out.Args = append(out.Args, x)
	}
	return out, nil
}

func (c *converter) caseExpr(n *sqlparser.CaseExpr) (Expr, error) {
	out := &Case{}
	var err error
	if n.Expr != nil {
		if out.Operand, err = c.expr(n.Expr); err != nil {
			return nil, err
		}
	}
	for _, w := range n.Whens {
		cond, res, err := c.pair(w.Cond, w.Val, c.expr)
		if err != nil {
			return nil, err
		}
		out.Whens = append(out.Whens, When{Cond: cond, Result: res})
	}
	if n.Else != nil {
		if out.Else, err = c.expr(n.Else); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// pair converts two sub-expressions with f.
func (c *converter) pair(a, b sqlparser.Expr, f func(sqlparser.Expr) (Expr, error)) (Expr, Expr, error) {
	x, err := f(a)
	if err != nil {
		return nil, nil, err
	}
	y, err := f(b)
	if err != nil {
		return nil, nil, err
	}
	return x, y, nil
}

func (c *converter) comparison(n *sqlparser.ComparisonExpr) (Expr, error) {
	if in, ok, err := c.rowIn(n); ok {
		return in, err
	}
	if x, ok, err := c.isJSONCall(n); ok {
		return x, err
	}
	if _, ok := n.Left.(sqlparser.ValTuple); ok {
		return nil, c.nodeUnsupported(n.Left, "row value comparisons are not supported")
	}
	left, err := c.expr(n.Left)
	if err != nil {
		return nil, err
	}
	switch n.Operator {
	case sqlparser.InStr, sqlparser.NotInStr:
		if sq, ok := n.Right.(*sqlparser.Subquery); ok {
			q, err := c.exprSubquery(sq.Select)
			if err != nil {
				return nil, err
			}
			return &InSubquery{Expr: left, Query: q, Not: n.Operator == sqlparser.NotInStr}, nil
		}
		tuple, ok := n.Right.(sqlparser.ValTuple)
		if !ok {
			return nil, c.nodeErr(n.Right, "IN takes a list of values or a subquery (SELECT …)")
		}
		in := &In{Expr: left, Not: n.Operator == sqlparser.NotInStr}
		for _, x := range tuple {
			v, err := c.expr(x)
			if err != nil {
				return nil, err
			}
			in.List = append(in.List, v)
		}
		return in, nil
	case sqlparser.LikeStr, sqlparser.NotLikeStr:
		pat, err := c.expr(n.Right)
		if err != nil {
			return nil, err
		}
		like := &Like{Expr: left, Pattern: pat, Not: n.Operator == sqlparser.NotLikeStr}
		if n.Escape != nil {
			if like.Escape, err = c.expr(n.Escape); err != nil {
				return nil, err
			}
		}
		return like, nil
	}
	if n.Escape != nil {
		return nil, c.unsupported("ESCAPE after "+strings.ToUpper(n.Operator)+" (only LIKE takes one)", "escape")
	}
	op, ok := compareOps[n.Operator]
	if !ok {
		return nil, c.unsupported("the operator "+strings.ToUpper(n.Operator), n.Operator, strings.Fields(n.Operator)[0])
	}
	right, err := c.expr(n.Right)
	if err != nil {
		return nil, err
	}
	return &Comparison{Op: op, Left: left, Right: right}, nil
}

// value converts a VALUES, SET or LIMIT value: a literal or placeholder.
func (c *converter) value(e sqlparser.Expr) (Expr, error) {
	if col, ok := e.(*sqlparser.ColName); ok {
		return nil, c.nodeErr(col, "a column reference is not allowed here; write a literal or a placeholder")
	}
	if p, ok := e.(*sqlparser.ParenExpr); ok {
		return c.value(p.Expr)
	}
	return c.valueOnly(e, "a value")
}

// column converts a column name, checking a qualifier against the table;
// x.y where x names no table is field y of ROW column x, and t.x.y where t
// names one field y of its column x.
func (c *converter) column(n *sqlparser.ColName) (Expr, error) {
	ref := &ColumnRef{Name: n.Name.String(), Table: tableName(n.Qualifier)}
	q := ref.Table
	if q.Name != "" {
		if ok, _ := c.qualifierOK(q); !ok && q.Database == "" && c.query {
			return &FieldAccess{Base: &ColumnRef{Name: q.Name}, Field: ref.Name}, nil
		}
		if ok, _ := c.qualifierOK(TableName{Name: q.Database}); q.Database != "" && c.query && ok {
			return &FieldAccess{Base: &ColumnRef{Table: TableName{Name: q.Database}, Name: q.Name}, Field: ref.Name}, nil
		}
		if ok, names := c.qualifierOK(q); !ok {
			if c.scope != nil {
				return nil, c.nodeErr(n, "column qualifier "+q.String()+" names none of the statement's tables ("+names+")")
			}
			return nil, c.nodeErr(n, "column qualifier "+q.String()+" does not name the statement's table "+names)
		}
	}
	return ref, nil
}

// valueOnly converts literals and placeholders; anything else is reported
// as unsupported where want was expected.
func (c *converter) valueOnly(e sqlparser.Expr, want string) (Expr, error) {
	switch n := e.(type) {
	case *sqlparser.SQLVal:
		switch n.Type {
		case sqlparser.StrVal:
			return &Literal{Kind: LitString, Value: string(n.Val)}, nil
		case sqlparser.IntVal:
			return &Literal{Kind: LitInt, Value: string(n.Val)}, nil
		case sqlparser.FloatVal:
			return &Literal{Kind: LitNumber, Value: string(n.Val)}, nil
		case sqlparser.HexVal:
			return &Literal{Kind: LitBytes, Value: string(n.Val)}, nil
		case sqlparser.ValArg:
			name := strings.TrimPrefix(string(n.Val), ":")
			if c.positional {
				if k, err := strconv.Atoi(strings.TrimPrefix(name, "v")); err == nil && strings.HasPrefix(name, "v") {
					return &Placeholder{Ordinal: k}, nil
				}
			}
			return &Placeholder{Name: name}, nil
		case sqlparser.HexNum:
			return nil, c.nodeUnsupported(n, "0x… numbers are not supported; write X'…' for bytes")
		}
		return nil, c.nodeUnsupported(n, "bit literals are not supported")
	case *sqlparser.NullVal:
		return &Literal{Kind: LitNull}, nil
	case sqlparser.BoolVal:
		return &Literal{Kind: LitBool, Value: strconv.FormatBool(bool(n))}, nil
	case *sqlparser.UnaryExpr:
		if n.Operator == sqlparser.UMinusStr || n.Operator == sqlparser.UPlusStr {
			inner := n.Expr
			for {
				p, ok := inner.(*sqlparser.ParenExpr)
				if !ok {
					break
				}
				inner = p.Expr
			}
			if v, ok := inner.(*sqlparser.SQLVal); ok && (v.Type == sqlparser.FloatVal || v.Type == sqlparser.IntVal) {
				lit := &Literal{Kind: LitNumber, Value: string(v.Val)}
				if v.Type == sqlparser.IntVal {
					lit.Kind = LitInt
				}
				if n.Operator == sqlparser.UMinusStr {
					lit.Value = negate(lit.Value)
				}
				return lit, nil
			}
			if u, ok := inner.(*sqlparser.UnaryExpr); ok {
				v, err := c.valueOnly(u, want)
				if err != nil {
					return nil, err
				}
				if lit, ok := v.(*Literal); ok && n.Operator == sqlparser.UMinusStr {
					lit.Value = negate(lit.Value)
				}
				return v, nil
			}
		}
		return nil, c.nodeUnsupported(n, "the operator "+strings.TrimSpace(n.Operator)+" is not supported")
	case *sqlparser.FuncExpr:
		if con, err := c.constructor(n, c.value); con != nil || err != nil {
			return con, err
		}
		name := n.Name.String()
		if strings.HasPrefix(name, litFunc) {
			k, err := strconv.Atoi(strings.TrimPrefix(name, litFunc))
			if err == nil && k >= 0 && k < len(c.lits) {
				return &Literal{Kind: c.lits[k].kind, Value: c.lits[k].value}, nil
			}
		}
		if strings.HasPrefix(strings.ToLower(name), castFunc) {
			return nil, c.nodeErr(n, "CAST is not allowed here; want "+want)
		}
		if strings.EqualFold(name, elemFunc) {
			return nil, c.nodeErr(n, "x[i] is not allowed here; want "+want)
		}
		if strings.EqualFold(name, substringFunc) {
			name = "SUBSTRING"
		}
		return nil, c.nodeUnsupported(n, "function "+name+" is not supported")
	case *sqlparser.BinaryExpr:
		t := c.locate(n.Operator)
		return nil, unsupportedError(c.l.src, t.start, t.text(c.l.src), "arithmetic ("+n.Operator+") is not supported")
	case *sqlparser.Subquery, *sqlparser.ExistsExpr:
		return nil, c.unsupported("a subquery", "select", "exists")
	case *sqlparser.CollateExpr:
		return nil, c.unsupported("COLLATE", "collate")
	case *sqlparser.IntervalExpr:
		return nil, c.unsupported("INTERVAL", "interval")
	case *sqlparser.MatchExpr:
		return nil, c.unsupported("MATCH … AGAINST", "match")
	case *sqlparser.ConvertExpr, *sqlparser.ConvertUsingExpr:
		return nil, c.unsupported("CAST/CONVERT", "cast", "convert")
	case *sqlparser.AndExpr, *sqlparser.OrExpr, *sqlparser.NotExpr, *sqlparser.ComparisonExpr,
		*sqlparser.RangeCond, *sqlparser.IsExpr:
		return nil, c.nodeErr(n, "a condition is not allowed here; want "+want)
	}
	return nil, c.nodeUnsupported(e, "this expression is not supported here; want "+want)
}

// negate flips the sign of a number's text.
func negate(v string) string {
	if strings.HasPrefix(v, "-") {
		return v[1:]
	}
	return "-" + v
}
