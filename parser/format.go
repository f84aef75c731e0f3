package parser

import (
	"sort"
	"strings"

	"github.com/flussql/flussql/fluss/types"
	"github.com/xwb1989/sqlparser"
)

// This file renders statements and expressions as canonical SQL: keywords
// upper-case, identifiers back-quoted only when they must be, one line.
// Parsing the output yields an equal statement.

// QuoteIdent renders an identifier, in backticks when it is not a plain
// word or when it is a keyword.
func QuoteIdent(name string) string {
	if isIdentWord(name) && name[0] != '@' && !isKeyword(name) {
		return name
	}
	return "`" + strings.ReplaceAll(name, "`", "``") + "`"
}

// isKeyword reports whether the tokenizer reads name as something other
// than a plain identifier.
func isKeyword(name string) bool {
	tk := sqlparser.NewStringTokenizer(name)
	typ, val := tk.Scan()
	return typ != sqlparser.ID || string(val) != name
}

// QuoteString renders s as a single-quoted SQL string literal.
func QuoteString(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

// String renders the name as [db.]table.
func (t TableName) String() string {
	if t.Database == "" {
		return QuoteIdent(t.Name)
	}
	return QuoteIdent(t.Database) + "." + QuoteIdent(t.Name)
}

func identList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = QuoteIdent(n)
	}
	return strings.Join(q, ", ")
}

func properties(props map[string]string) string {
	keys := make([]string, 0, len(props))
	for k := range props {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = QuoteString(k) + " = " + QuoteString(props[k])
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

func partitionSpec(spec []PartitionValue) string {
	parts := make([]string, len(spec))
	for i, pv := range spec {
		parts[i] = QuoteIdent(pv.Column) + " = " + pv.Value.String()
	}
	return "PARTITION (" + strings.Join(parts, ", ") + ")"
}

func likeClause(like *string) string {
	if like == nil {
		return ""
	}
	return " LIKE " + QuoteString(*like)
}

func commentClause(c string) string {
	if c == "" {
		return ""
	}
	return " COMMENT " + QuoteString(c)
}

func ifClause(on bool, s string) string {
	if on {
		return s
	}
	return ""
}

// String renders the statement as canonical SQL.
func (s *CreateDatabase) String() string {
	out := "CREATE DATABASE " + ifClause(s.IfNotExists, "IF NOT EXISTS ") + QuoteIdent(s.Name) + commentClause(s.Comment)
	if len(s.Properties) > 0 {
		out += " WITH " + properties(s.Properties)
	}
	return out
}

// String renders the statement as canonical SQL.
func (s *DropDatabase) String() string {
	return "DROP DATABASE " + ifClause(s.IfExists, "IF EXISTS ") + QuoteIdent(s.Name) + ifClause(s.Cascade, " CASCADE")
}

// String renders the statement as canonical SQL.
func (s *Use) String() string { return "USE " + QuoteIdent(s.Database) }

// String renders the statement as canonical SQL.
func (s *ShowDatabases) String() string { return "SHOW DATABASES" + likeClause(s.Like) }

// String renders the statement as canonical SQL.
func (s *ShowTables) String() string {
	out := "SHOW TABLES"
	if s.Database != "" {
		out += " FROM " + QuoteIdent(s.Database)
	}
	return out + likeClause(s.Like)
}

// String renders the statement as canonical SQL.
func (s *CreateTable) String() string {
	var b strings.Builder
	b.WriteString("CREATE TABLE " + ifClause(s.IfNotExists, "IF NOT EXISTS ") + s.Table.String() + " (")
	for i, c := range s.Columns {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(QuoteIdent(c.Name) + " " + FormatType(c.Type) + commentClause(c.Comment))
	}
	if len(s.PrimaryKey) > 0 {
		b.WriteString(", PRIMARY KEY (" + identList(s.PrimaryKey) + ") NOT ENFORCED")
	}
	b.WriteString(")" + commentClause(s.Comment))
	if len(s.PartitionKeys) > 0 {
		b.WriteString(" PARTITIONED BY (" + identList(s.PartitionKeys) + ")")
	}
	if len(s.Properties) > 0 {
		b.WriteString(" WITH " + properties(s.Properties))
	}
	return b.String()
}

// FormatType renders a column type in the dialect's syntax, e.g.
// "DECIMAL(10, 2) NOT NULL" or "ROW<`a` INT 'desc'>". Unlike
// types.DataType.String it keeps ROW field descriptions.
func FormatType(t types.DataType) string {
	if !t.Kind.Nested() {
		return t.String() // scalar types are written as Fluss writes them
	}
	var s string
	switch t.Kind {
	case types.Array:
		s = "ARRAY<" + formatTypePtr(t.Elem) + ">"
	case types.Map:
		s = "MAP<" + formatTypePtr(t.Key) + ", " + formatTypePtr(t.Value) + ">"
	case types.Row:
		parts := make([]string, len(t.Fields))
		for i, f := range t.Fields {
			parts[i] = QuoteIdent(f.Name) + " " + FormatType(f.Type)
			if f.Description != "" {
				parts[i] += " " + QuoteString(f.Description)
			}
		}
		s = "ROW<" + strings.Join(parts, ", ") + ">"
	}
	if t.NotNull {
		s += " NOT NULL"
	}
	return s
}

func formatTypePtr(t *types.DataType) string {
	if t == nil {
		return "?"
	}
	return FormatType(*t)
}

// String renders the statement as canonical SQL.
func (s *DropTable) String() string {
	return "DROP TABLE " + ifClause(s.IfExists, "IF EXISTS ") + s.Table.String()
}

// String renders the statement as canonical SQL.
func (s *ShowCreateTable) String() string { return "SHOW CREATE TABLE " + s.Table.String() }

// String renders the statement as canonical SQL.
func (s *Describe) String() string { return "DESCRIBE " + s.Table.String() }

// String renders the statement as canonical SQL.
func (s *AlterTableAddPartition) String() string {
	return "ALTER TABLE " + s.Table.String() + " ADD " + ifClause(s.IfNotExists, "IF NOT EXISTS ") + partitionSpec(s.Partition)
}

// String renders the statement as canonical SQL.
func (s *AlterTableDropPartition) String() string {
	return "ALTER TABLE " + s.Table.String() + " DROP " + ifClause(s.IfExists, "IF EXISTS ") + partitionSpec(s.Partition)
}

// String renders the statement as canonical SQL.
func (s *AlterTableSet) String() string {
	return "ALTER TABLE " + ifClause(s.IfExists, "IF EXISTS ") + s.Table.String() + " SET " + properties(s.Properties)
}

// String renders the statement as canonical SQL.
func (s *AlterTableReset) String() string {
	keys := make([]string, len(s.Keys))
	for i, k := range s.Keys {
		keys[i] = QuoteString(k)
	}
	return "ALTER TABLE " + ifClause(s.IfExists, "IF EXISTS ") + s.Table.String() + " RESET (" + strings.Join(keys, ", ") + ")"
}

// String renders the statement as canonical SQL.
func (s *AlterTableAddColumns) String() string {
	cols := make([]string, len(s.Columns))
	for i, c := range s.Columns {
		cols[i] = QuoteIdent(c.Name) + " " + FormatType(c.Type) + commentClause(c.Comment)
	}
	out := "ALTER TABLE " + ifClause(s.IfExists, "IF EXISTS ") + s.Table.String() + " ADD (" + strings.Join(cols, ", ") + ")"
	if len(s.Properties) > 0 {
		out += " WITH " + properties(s.Properties)
	}
	return out
}

// String renders the statement as canonical SQL.
func (s *ShowPartitions) String() string {
	out := "SHOW PARTITIONS " + s.Table.String()
	if len(s.Partition) > 0 {
		out += " " + partitionSpec(s.Partition)
	}
	return out
}

// String renders the statement as canonical SQL.
func (s *Insert) String() string {
	var b strings.Builder
	b.WriteString(ifClause(s.Upsert, "UPSERT") + ifClause(!s.Upsert, "INSERT") + " INTO " + s.Table.String())
	if s.Columns != nil {
		b.WriteString(" (" + identList(s.Columns) + ")")
	}
	if s.Query != nil {
		return b.String() + " " + s.Query.String()
	}
	b.WriteString(" VALUES ")
	for i, row := range s.Rows {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("(" + exprList(row) + ")")
	}
	return b.String()
}

func exprList(es []Expr) string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = e.String()
	}
	return strings.Join(parts, ", ")
}

func whereClause(e Expr) string {
	if e == nil {
		return ""
	}
	return " WHERE " + e.String()
}

// String renders the statement as canonical SQL.
func (s *Delete) String() string { return "DELETE FROM " + s.Table.String() + whereClause(s.Where) }

// String renders the statement as canonical SQL.
func (s *Update) String() string {
	parts := make([]string, len(s.Set))
	for i, a := range s.Set {
		parts[i] = QuoteIdent(a.Column) + " = " + a.Value.String()
	}
	return "UPDATE " + s.Table.String() + " SET " + strings.Join(parts, ", ") + whereClause(s.Where)
}

// String renders the statement as canonical SQL.
func (s *Select) String() string {
	parts := make([]string, len(s.Items))
	for i, it := range s.Items {
		parts[i] = it.Expr.String()
		if it.Alias != "" {
			parts[i] += " AS " + QuoteIdent(it.Alias)
		}
	}
	if u, ok := unionStatement(s); ok {
		return u.String() + orderLimitString(s)
	}
	out := "SELECT "
	if s.Distinct {
		out += "DISTINCT "
	}
	out += strings.Join(parts, ", ")
	switch {
	case s.From != nil:
		out += " FROM " + s.From.String()
	case s.HasFrom():
		out += " FROM " + s.Table.String()
		if s.Hints != nil {
			out += " " + hintsString(s.Hints)
		}
	}
	out += whereClause(s.Where)
	if len(s.GroupBy) > 0 {
		out += " GROUP BY " + exprList(s.GroupBy)
	}
	if s.Having != nil {
		out += " HAVING " + s.Having.String()
	}
	return out + orderLimitString(s)
}

// orderLimitString renders ORDER BY, LIMIT and OFFSET.
func orderLimitString(s *Select) string {
	out := ""
	if len(s.OrderBy) > 0 {
		keys := make([]string, len(s.OrderBy))
		for i, o := range s.OrderBy {
			keys[i] = o.String()
		}
		out += " ORDER BY " + strings.Join(keys, ", ")
	}
	if s.Limit != nil {
		out += " LIMIT " + s.Limit.String()
	}
	if s.Offset != nil {
		out += " OFFSET " + s.Offset.String()
	}
	return out
}

// hintsString renders an OPTIONS hint.
func hintsString(h map[string]string) string {
	keys := make([]string, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	opts := make([]string, len(keys))
	for i, k := range keys {
		opts[i] = hintString(k) + " = " + hintString(h[k])
	}
	return "/*+ OPTIONS(" + strings.Join(opts, ", ") + ") */"
}

// hintString quotes a hint key or value so that it cannot end the comment:
// */ is written *\/, which the hint parser reads back as */.
func hintString(s string) string {
	return strings.ReplaceAll(QuoteString(s), "*/", `*\/`)
}

// String renders the statement as canonical SQL.
func (s *Explain) String() string { return "EXPLAIN " + s.Statement.String() }

// Expression rendering. Precedence, loosest first: OR, AND, NOT, predicates,
// primaries; a child looser than its parent is parenthesized, and so is an
// equally loose right operand, so the tree shape survives a round trip.
const (
	precOr = iota + 1
	precAnd
	precNot
	precPredicate
	precPrimary
)

func precedence(e Expr) int {
	switch e.(type) {
	case *Or:
		return precOr
	case *And:
		return precAnd
	case *Not:
		return precNot
	case *Comparison, *In, *Between, *IsNull, *Like, *InSubquery:
		return precPredicate
	}
	return precPrimary
}

func paren(e Expr, min int) string {
	if precedence(e) < min {
		return "(" + e.String() + ")"
	}
	return e.String()
}

// String renders the literal as SQL.
func (l *Literal) String() string {
	switch l.Kind {
	case LitString:
		return QuoteString(l.Value)
	case LitBool:
		return strings.ToUpper(l.Value)
	case LitNull:
		return "NULL"
	case LitBytes:
		return "X'" + l.Value + "'"
	case LitDate:
		return "DATE " + QuoteString(l.Value)
	case LitTime:
		return "TIME " + QuoteString(l.Value)
	case LitTimestamp:
		return "TIMESTAMP " + QuoteString(l.Value)
	}
	return l.Value
}

// String renders the placeholder as '?' or ':name'.
func (p *Placeholder) String() string {
	if p.Name != "" {
		return ":" + p.Name
	}
	return "?"
}

// String renders the column reference.
func (c *ColumnRef) String() string {
	if c.Table.Name == "" {
		return QuoteIdent(c.Name)
	}
	return c.Table.String() + "." + QuoteIdent(c.Name)
}

// String renders the comparison.
func (c *Comparison) String() string {
	return paren(c.Left, precPrimary) + " " + string(c.Op) + " " + paren(c.Right, precPrimary)
}

func notClause(not bool) string { return ifClause(not, " NOT") }

// String renders the IN predicate.
func (n *In) String() string {
	return paren(n.Expr, precPrimary) + notClause(n.Not) + " IN (" + exprList(n.List) + ")"
}

// String renders the BETWEEN predicate.
func (n *Between) String() string {
	return paren(n.Expr, precPrimary) + notClause(n.Not) + " BETWEEN " + paren(n.Low, precPrimary) + " AND " + paren(n.High, precPrimary)
}

// String renders the IS NULL predicate.
func (n *IsNull) String() string {
	return paren(n.Expr, precPrimary) + " IS" + notClause(n.Not) + " NULL"
}

// String renders the LIKE predicate.
func (n *Like) String() string {
	s := paren(n.Expr, precPrimary) + notClause(n.Not) + " LIKE " + paren(n.Pattern, precPrimary)
	if n.Escape != nil {
		s += " ESCAPE " + paren(n.Escape, precPrimary)
	}
	return s
}

// String renders the conjunction.
func (n *And) String() string { return paren(n.Left, precAnd) + " AND " + paren(n.Right, precAnd+1) }

// String renders the disjunction.
func (n *Or) String() string { return paren(n.Left, precOr) + " OR " + paren(n.Right, precOr+1) }

// String renders the negation.
func (n *Not) String() string { return "NOT " + paren(n.Expr, precNot) }

// String renders COUNT(*).
func (*CountStar) String() string { return "COUNT(*)" }

// String renders *.
func (s *Star) String() string {
	if s.Table != "" {
		return QuoteIdent(s.Table) + ".*"
	}
	return "*"
}

// unionStatement reports whether s is a UNION ALL statement: SELECT * FROM
// (a UNION ALL b) with nothing but ORDER BY and LIMIT (see Union).
func unionStatement(s *Select) (*Union, bool) {
	sub, ok := s.From.(*SubqueryRef)
	if !ok || sub.Alias != "" || s.Distinct || s.Where != nil || len(s.GroupBy) > 0 || s.Having != nil || len(s.Items) != 1 {
		return nil, false
	}
	if _, star := s.Items[0].Expr.(*Star); !star {
		return nil, false
	}
	u, ok := sub.Query.(*Union)
	return u, ok
}
