package parser

// Expr is a node of the small expression language used in WHERE, SET,
// VALUES, LIMIT and partition specs. The planner works on these types only;
// no sqlparser type escapes this package.
type Expr interface {
	String() string
	expr()
}

// LiteralKind tells what kind of literal a Literal is.
type LiteralKind int

// Literal kinds.
const (
	// LitInt is an integer written in decimal, e.g. 42 or -7; Value holds the digits.
	LitInt LiteralKind = iota
	// LitNumber is an exact or approximate number with a fraction or
	// exponent, e.g. 1.25 or 1e3; Value holds the text as written.
	LitNumber
	// LitString is a character string; Value holds the unescaped text.
	LitString
	// LitBool is TRUE or FALSE; Value is "true" or "false".
	LitBool
	// LitNull is NULL; Value is empty.
	LitNull
	// LitBytes is a hex string X'0a1b'; Value holds the hex digits.
	LitBytes
	// LitDate is DATE 'yyyy-mm-dd'; Value holds the quoted text.
	LitDate
	// LitTime is TIME 'hh:mm:ss[.fff]'; Value holds the quoted text.
	LitTime
	// LitTimestamp is TIMESTAMP 'yyyy-mm-dd hh:mm:ss[.fff]' (the separator
	// may also be 'T'); Value holds the quoted text.
	LitTimestamp
)

var literalKindNames = [...]string{
	LitInt: "int", LitNumber: "number", LitString: "string", LitBool: "bool", LitNull: "null",
	LitBytes: "bytes", LitDate: "date", LitTime: "time", LitTimestamp: "timestamp",
}

// String names the kind, e.g. "timestamp".
func (k LiteralKind) String() string {
	if k >= 0 && int(k) < len(literalKindNames) {
		return literalKindNames[k]
	}
	return "invalid"
}

// Literal is a constant. Its Value is kept as text so that no precision is
// lost before the planner knows the column type.
type Literal struct {
	Kind  LiteralKind
	Value string
}

// Placeholder is a bind parameter: '?' with its 1-based Ordinal (Name
// empty), or ':name' with its Name (Ordinal 0).
type Placeholder struct {
	Ordinal int
	Name    string
}

// ColumnRef names a column, optionally qualified by a table name (which
// must then be the statement's table).
type ColumnRef struct {
	Table TableName
	Name  string
}

// CompareOp is a comparison operator.
type CompareOp string

// Comparison operators.
const (
	OpEq CompareOp = "="
	OpNe CompareOp = "<>"
	OpLt CompareOp = "<"
	OpLe CompareOp = "<="
	OpGt CompareOp = ">"
	OpGe CompareOp = ">="
)

// Comparison is Left Op Right.
type Comparison struct {
	Op          CompareOp
	Left, Right Expr
}

// In is Expr [NOT] IN (List…).
type In struct {
	Expr Expr
	List []Expr
	Not  bool
}

// Between is Expr [NOT] BETWEEN Low AND High.
type Between struct {
	Expr, Low, High Expr
	Not             bool
}

// IsNull is Expr IS [NOT] NULL.
type IsNull struct {
	Expr Expr
	Not  bool
}

// Like is Expr [NOT] LIKE Pattern [ESCAPE Escape]; Escape is nil without
// ESCAPE.
type Like struct {
	Expr, Pattern Expr
	Escape        Expr
	Not           bool
}

// And is Left AND Right.
type And struct{ Left, Right Expr }

// Or is Left OR Right.
type Or struct{ Left, Right Expr }

// Not is NOT Expr.
type Not struct{ Expr Expr }

// CountStar is COUNT(*), allowed only as a select item.
type CountStar struct{}

// Star is * or, with Table, t.* (the columns of one table of a join),
// allowed only as a select item.
type Star struct {
	Table string
}

func (*Literal) expr()     {}
func (*Placeholder) expr() {}
func (*ColumnRef) expr()   {}
func (*Comparison) expr()  {}
func (*In) expr()          {}
func (*Between) expr()     {}
func (*IsNull) expr()      {}
func (*Like) expr()        {}
func (*And) expr()         {}
func (*Or) expr()          {}
func (*Not) expr()         {}
func (*CountStar) expr()   {}
func (*Star) expr()        {}

// Walk calls fn for e and, while fn returns true, for its children in
// pre-order. A nil e is skipped.
func Walk(e Expr, fn func(Expr) bool) {
	if e == nil || !fn(e) {
		return
	}
	switch n := e.(type) {
	case *Comparison:
		Walk(n.Left, fn)
		Walk(n.Right, fn)
	case *In:
		Walk(n.Expr, fn)
		for _, x := range n.List {
			Walk(x, fn)
		}
	case *InSubquery:
		Walk(n.Expr, fn) // not the subquery: it has its own columns
		for _, x := range n.Row {
			Walk(x, fn)
		}
	case *Between:
		Walk(n.Expr, fn)
		Walk(n.Low, fn)
		Walk(n.High, fn)
	case *IsNull:
		Walk(n.Expr, fn)
	case *Like:
		Walk(n.Expr, fn)
		Walk(n.Pattern, fn)
		Walk(n.Escape, fn)
	case *And:
		Walk(n.Left, fn)
		Walk(n.Right, fn)
	case *Or:
		Walk(n.Left, fn)
		Walk(n.Right, fn)
	case *Not:
		Walk(n.Expr, fn)
	case *Arith:
		Walk(n.Left, fn)
		Walk(n.Right, fn)
	case *Neg:
		Walk(n.Expr, fn)
	case *FuncCall:
		for _, x := range n.Args {
			Walk(x, fn)
		}
	case *Case:
		Walk(n.Operand, fn)
		for _, w := range n.Whens {
			Walk(w.Cond, fn)
			Walk(w.Result, fn)
		}
		Walk(n.Else, fn)
	case *Cast:
		Walk(n.Expr, fn)
	case *TimeUnitCall:
		Walk(n.Expr, fn)
	case *FieldAccess:
		Walk(n.Base, fn)
	case *Subscript:
		Walk(n.Base, fn)
		Walk(n.Index, fn)
	case *Constructor:
		for _, x := range n.Elems {
			Walk(x, fn)
		}
	case *TimestampFunc:
		for _, x := range n.Args {
			Walk(x, fn)
		}
	case *WindowCall:
		walkWindow(n, fn)
	}
}
