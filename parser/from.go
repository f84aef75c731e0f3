package parser

import (
	"strings"
)

// FromItem is one source of rows in a FROM clause: a *TableRef, a
// *SubqueryRef or a *Join. Select.From holds it for everything but a plain
// table without alias (which stays in Select.Table).
type FromItem interface {
	fromItem()
	String() string
}

// TableRef is a table in FROM, with its alias ("" without one), the OPTIONS
// hint written after it (nil without one) and, for Flink's lookup-join form
// t FOR SYSTEM_TIME AS OF x, the time attribute x (nil without it).
type TableRef struct {
	Table TableName
	Alias string
	Hints map[string]string
	AsOf  *ColumnRef
}

// SubqueryRef is (SELECT …) alias in FROM, or (a UNION ALL b) alias. Query
// is a *Select or a *Union. Columns, when set, renames its columns (a
// derived column list: (SELECT …) AS t (x, y), or a WITH t (x, y) AS …).
type SubqueryRef struct {
	Query   Statement
	Alias   string
	Columns []string
}

// JoinKind is the kind of a join.
type JoinKind string

// The join kinds the grammar reads; the planner runs Inner and Left.
const (
	JoinInner JoinKind = "JOIN"
	JoinLeft  JoinKind = "LEFT JOIN"
	JoinRight JoinKind = "RIGHT JOIN"
	// JoinComma is a comma in a FROM list (a, b): an inner join whose
	// condition is in WHERE; the planner orders such joins itself.
	JoinComma JoinKind = ","
)

// Join is Left kind Right ON On (On nil for a join without condition).
type Join struct {
	Kind        JoinKind
	Left, Right FromItem
	On          Expr
}

// Union is a set operation over two or more SELECTs, folded from the left:
// ((s1 op s2) op s3) …; Kind is the operator ("" is UNION ALL). A statement
// a UNION b [ORDER BY …] [LIMIT …] is read as SELECT * FROM (a UNION b)
// [ORDER BY …] [LIMIT …]; an operand that is itself a set operation of
// another kind is SELECT * FROM (it).
type Union struct {
	Kind    SetKind
	Selects []*Select
}

func (*TableRef) fromItem()    {}
func (*SubqueryRef) fromItem() {}
func (*Join) fromItem()        {}
func (*Union) statement()      {}

// Name is what the item's columns are qualified with: the alias, or else
// the table's name.
func (t *TableRef) Name() string {
	if t.Alias != "" {
		return t.Alias
	}
	return t.Table.Name
}

func (t *TableRef) String() string {
	s := t.Table.String()
	if t.Hints != nil {
		s += " " + hintsString(t.Hints)
	}
	if t.AsOf != nil {
		s += " FOR SYSTEM_TIME AS OF " + t.AsOf.String()
	}
	if t.Alias != "" {
		s += " AS " + QuoteIdent(t.Alias)
	}
	return s
}

func (s *SubqueryRef) String() string {
	out := "(" + s.Query.(interface{ String() string }).String() + ")"
	if s.Alias != "" {
		out += " AS " + QuoteIdent(s.Alias)
	}
	if len(s.Columns) > 0 {
		out += " (" + identList(s.Columns) + ")"
	}
	return out
}

func (j *Join) String() string {
	right := j.Right.String()
	if _, ok := j.Right.(*Join); ok {
		right = "(" + right + ")"
	}
	if j.Kind == JoinComma {
		return j.Left.String() + ", " + right
	}
	s := j.Left.String() + " " + string(j.Kind) + " " + right
	if j.On != nil {
		s += " ON " + j.On.String()
	}
	return s
}

func (u *Union) String() string {
	parts := make([]string, len(u.Selects))
	for i, s := range u.Selects {
		parts[i] = s.String()
		if _, set := unionStatement(s); set || len(s.OrderBy) > 0 || s.Limit != nil || s.Offset != nil {
			parts[i] = "(" + parts[i] + ")" // its own, not the union's
		}
	}
	return strings.Join(parts, " "+string(u.Op())+" ")
}

// fromExprs lists the expressions inside a FROM item (ON conditions and
// those of subqueries), in source order.
func fromExprs(f FromItem) []Expr {
	switch n := f.(type) {
	case *Join:
		return append(append(fromExprs(n.Left), fromExprs(n.Right)...), n.On)
	case *SubqueryRef:
		return statementExprs(n.Query)
	}
	return nil
}
