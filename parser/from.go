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
// is a *Select or a *Union.
type SubqueryRef struct {
	Query Statement
	Alias string
}

// JoinKind is the kind of a join.
type JoinKind string

// The join kinds the grammar reads; the planner runs Inner and Left.
const (
	JoinInner JoinKind = "JOIN"
	JoinLeft  JoinKind = "LEFT JOIN"
	JoinRight JoinKind = "RIGHT JOIN"
)

// Join is Left kind Right ON On (On nil for a join without condition).
type Join struct {
	Kind        JoinKind
	Left, Right FromItem
	On          Expr
}

// Union is a UNION ALL of two or more SELECTs (UNION without ALL is not
// supported). A statement a UNION ALL b [ORDER BY …] [LIMIT …] is read as
// SELECT * FROM (a UNION ALL b) [ORDER BY …] [LIMIT …].
type Union struct {
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
	return out
}

func (j *Join) String() string {
	right := j.Right.String()
	if _, ok := j.Right.(*Join); ok {
		right = "(" + right + ")"
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
		if len(s.OrderBy) > 0 || s.Limit != nil || s.Offset != nil {
			parts[i] = "(" + parts[i] + ")" // its own, not the union's
		}
	}
	return strings.Join(parts, " UNION ALL ")
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
