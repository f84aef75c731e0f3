package parser

import "github.com/flussql/flussql/fluss/types"

// ArithOp is a binary arithmetic or string operator.
type ArithOp string

// Arithmetic and string operators.
const (
	OpAdd    ArithOp = "+"
	OpSub    ArithOp = "-"
	OpMul    ArithOp = "*"
	OpDiv    ArithOp = "/"
	OpMod    ArithOp = "%"
	OpConcat ArithOp = "||"
)

// Arith is Left Op Right for the arithmetic operators and || (string
// concatenation).
type Arith struct {
	Op          ArithOp
	Left, Right Expr
}

// Neg is -Expr for an Expr that is not a numeric literal (a negative
// literal is a *Literal).
type Neg struct{ Expr Expr }

// FuncCall is a function call NAME(args…); Name is upper-case. Aggregates
// (COUNT, SUM, AVG, MIN, MAX) are FuncCalls too, with Distinct for
// COUNT(DISTINCT x); COUNT(*) is a *CountStar. Which names exist is the
// planner's business.
type FuncCall struct {
	Name     string
	Args     []Expr
	Distinct bool
}

// When is one WHEN Cond THEN Result branch of a CASE.
type When struct {
	Cond, Result Expr
}

// Case is CASE [Operand] WHEN … THEN … [ELSE Else] END. With an Operand,
// each When.Cond is a value compared with it; without, a condition.
type Case struct {
	Operand Expr
	Whens   []When
	Else    Expr
}

// Cast is CAST(Expr AS Type).
type Cast struct {
	Expr Expr
	Type types.DataType
	// Try is TRY_CAST: NULL instead of an error for a value that does not convert.
	Try bool
}

// TimeUnitCall is EXTRACT(Unit FROM Expr), FLOOR(Expr TO Unit) or
// CEIL(Expr TO Unit); Func is "EXTRACT", "FLOOR" or "CEIL", Unit upper-case
// (YEAR, MONTH, DAY, HOUR, …).
type TimeUnitCall struct {
	Func string
	Unit string
	Expr Expr
}

// NullsOrder says where ORDER BY puts NULLs.
type NullsOrder int

// Null orders. NullsDefault is Flink's: first for ASC, last for DESC.
const (
	NullsDefault NullsOrder = iota
	NullsFirst
	NullsLast
)

// String renders the order as SQL, e.g. " NULLS FIRST" ("" for the default).
func (n NullsOrder) String() string {
	switch n {
	case NullsFirst:
		return " NULLS FIRST"
	case NullsLast:
		return " NULLS LAST"
	}
	return ""
}

// OrderItem is one ORDER BY key: an expression, a select-list alias (a
// *ColumnRef) or a 1-based position (an integer *Literal).
type OrderItem struct {
	Expr  Expr
	Desc  bool
	Nulls NullsOrder
}

func (*Arith) expr()        {}
func (*Neg) expr()          {}
func (*FuncCall) expr()     {}
func (*Case) expr()         {}
func (*Cast) expr()         {}
func (*TimeUnitCall) expr() {}
func (*FieldAccess) expr()  {}
func (*Interval) expr()     {}
func (*Subscript) expr()    {}
func (*OnNull) expr()       {}

// OnNull is the NULL ON NULL or ABSENT ON NULL clause of JSON_OBJECT, JSON_ARRAY,
// JSON_OBJECTAGG and JSON_ARRAYAGG, kept as their last argument.
type OnNull struct{ Absent bool }

// String renders the clause.
func (o *OnNull) String() string {
	if o.Absent {
		return "ABSENT ON NULL"
	}
	return "NULL ON NULL"
}

// Subscript is Base[Index]: element Index (from 1) of an ARRAY or the value
// of key Index of a MAP (Flink's syntax).
type Subscript struct {
	Base, Index Expr
}

func (*TimestampFunc) expr() {}

// IntervalUnits are the units of INTERVAL '…' unit, TIMESTAMPADD and
// TIMESTAMPDIFF (Flink's).
var IntervalUnits = []string{"YEAR", "QUARTER", "MONTH", "WEEK", "DAY", "HOUR", "MINUTE", "SECOND"}

// Interval is Flink's interval literal INTERVAL 'Value' Unit: Value a
// signed integer (with up to 3 fraction digits for SECOND), Unit one of
// IntervalUnits. The planner takes it only added to or subtracted from a
// DATE, TIMESTAMP or TIMESTAMP_LTZ.
type Interval struct {
	Value string
	Unit  string
}

// TimestampFunc is TIMESTAMPADD(Unit, N, Ts) or TIMESTAMPDIFF(Unit, A, B)
// (Func upper-case); Unit is one of IntervalUnits.
type TimestampFunc struct {
	Func string
	Unit string
	Args []Expr
}

// FieldAccess is r.f: field Field of Base, a ROW value (Flink's syntax).
// The parser reads x.y as one when x names no table of the statement, and
// t.x.y when t does; the planner checks that Base is a ROW with Field.
type FieldAccess struct {
	Base  Expr
	Field string
}
