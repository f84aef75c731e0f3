package parser

import "strings"

// Rendering of the query expressions (see format.go for the precedence
// scheme). Arithmetic binds tighter than predicates: * / % tighter than
// + -, and || (which sqlparser reads as its ^) tightest of them.

const (
	precAdd    = precPredicate + 1
	precMul    = precPredicate + 2
	precConcat = precPredicate + 3
)

func arithPrec(op ArithOp) int {
	switch op {
	case OpAdd, OpSub:
		return precAdd
	case OpConcat:
		return precConcat
	}
	return precMul
}

// String renders the operation; operands that are operations themselves
// are parenthesized unless they bind tighter.
func (a *Arith) String() string {
	p := arithPrec(a.Op)
	return arithOperand(a.Left, p) + " " + string(a.Op) + " " + arithOperand(a.Right, p+1)
}

func arithOperand(e Expr, min int) string {
	if x, ok := e.(*Arith); ok {
		if arithPrec(x.Op) >= min {
			return x.String()
		}
		return "(" + x.String() + ")"
	}
	return paren(e, precPrimary)
}

// String renders the negation as -(x), or -x for a column or call.
func (n *Neg) String() string {
	switch n.Expr.(type) {
	case *ColumnRef, *FuncCall, *FieldAccess:
		return "-" + n.Expr.String()
	}
	return "-(" + n.Expr.String() + ")"
}

// String renders the field access as r.f.
func (f *FieldAccess) String() string { return f.Base.String() + "." + QuoteIdent(f.Field) }

// String renders the call.
func (f *FuncCall) String() string {
	if s, ok := trimString(f); ok {
		return s
	}
	d := ""
	if f.Distinct {
		d = "DISTINCT "
	}
	name := f.Name
	if !isIdentWord(name) {
		// A quoted name that is no word (`a b`(x)) stays quoted, so that the text parses back.
		name = "`" + strings.ReplaceAll(name, "`", "``") + "`"
	}
	// Trailing clauses (NULL ON NULL, RETURNING INT, …) follow the arguments without commas.
	n := len(f.Args)
	for n > 0 && isClauseArg(f.Args[n-1]) {
		n--
	}
	if n < len(f.Args) {
		args := exprList(f.Args[:n])
		for _, c := range f.Args[n:] {
			if args != "" {
				args += " "
			}
			args += c.String()
		}
		return name + "(" + d + args + ")"
	}
	return name + "(" + d + exprList(f.Args) + ")"
}

// String renders the CASE expression.
func (c *Case) String() string {
	var b strings.Builder
	b.WriteString("CASE")
	if c.Operand != nil {
		b.WriteString(" " + c.Operand.String())
	}
	for _, w := range c.Whens {
		b.WriteString(" WHEN " + w.Cond.String() + " THEN " + w.Result.String())
	}
	if c.Else != nil {
		b.WriteString(" ELSE " + c.Else.String())
	}
	b.WriteString(" END")
	return b.String()
}

// String renders the cast.
func (c *Cast) String() string {
	name := "CAST("
	if c.Try {
		name = "TRY_CAST("
	}
	return name + c.Expr.String() + " AS " + FormatType(c.Type) + ")"
}

// String renders the ORDER BY key.
func (o OrderItem) String() string {
	s := o.Expr.String()
	if o.Desc {
		s += " DESC"
	}
	return s + o.Nulls.String()
}

// String renders x[i].
func (s *Subscript) String() string {
	switch s.Base.(type) {
	case *ColumnRef, *FuncCall, *FieldAccess, *Subscript, *Constructor, *TimestampFunc, *TimeUnitCall, *Cast:
		return s.Base.String() + "[" + s.Index.String() + "]"
	}
	return "(" + s.Base.String() + ")[" + s.Index.String() + "]"
}

// String renders the interval literal, e.g. INTERVAL '1' DAY.
func (i *Interval) String() string { return "INTERVAL " + QuoteString(i.Value) + " " + i.Unit }

// String renders the call, e.g. TIMESTAMPDIFF(DAY, a, b).
func (f *TimestampFunc) String() string { return f.Func + "(" + f.Unit + ", " + exprList(f.Args) + ")" }

// String renders the call.
func (c *TimeUnitCall) String() string {
	if c.Func == "EXTRACT" {
		return "EXTRACT(" + c.Unit + " FROM " + c.Expr.String() + ")"
	}
	return c.Func + "(" + c.Expr.String() + " TO " + c.Unit + ")"
}

// isClauseArg reports whether e is a clause kept as a function's trailing argument.
func isClauseArg(e Expr) bool {
	switch e.(type) {
	case *OnNull, *JSONClause:
		return true
	}
	return false
}
