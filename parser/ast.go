package parser

import "github.com/flussql/flussql/fluss/types"

// Statement is one parsed SQL statement. String renders it as canonical
// SQL, which parses back to an equal statement.
type Statement interface {
	String() string
	statement()
}

// TableName is a possibly database-qualified table name. Both parts keep the
// case they were written in; Database is empty when the name was unqualified.
type TableName struct {
	Database string
	Name     string
}

// CreateDatabase is CREATE DATABASE [IF NOT EXISTS] db [COMMENT '…'] [WITH (…)].
type CreateDatabase struct {
	Name        string
	IfNotExists bool
	Comment     string
	Properties  map[string]string
}

// DropDatabase is DROP DATABASE [IF EXISTS] db [CASCADE|RESTRICT].
// RESTRICT is the default, as in Flink: the database must be empty.
type DropDatabase struct {
	Name     string
	IfExists bool
	Cascade  bool
}

// Use is USE db.
type Use struct {
	Database string
}

// ShowDatabases is SHOW DATABASES [LIKE '…']; Like is nil without a pattern.
type ShowDatabases struct {
	Like *string
}

// ShowTables is SHOW TABLES [FROM|IN db] [LIKE '…'].
type ShowTables struct {
	Database string
	Like     *string
}

// CreateTable is CREATE TABLE in Fluss's Flink SQL form:
//
//	CREATE TABLE [IF NOT EXISTS] [db.]t (
//	  col TYPE [NOT NULL] [PRIMARY KEY NOT ENFORCED] [COMMENT '…'], …
//	  [, PRIMARY KEY (col, …) [NOT ENFORCED]]
//	) [COMMENT '…'] [PARTITIONED BY (col, …)] [WITH ('k' = 'v', …)]
//
// Column NOT NULL is carried in Column.Type.NotNull. VARCHAR(n) is read as
// STRING and VARBINARY(n) as BYTES: Fluss 0.9 has no length-limited
// variable-size string or binary type, so the length is not enforced.
type CreateTable struct {
	Table         TableName
	IfNotExists   bool
	Columns       []types.Column
	PrimaryKey    []string
	PartitionKeys []string
	Comment       string
	Properties    map[string]string
}

// DropTable is DROP TABLE [IF EXISTS] [db.]t.
type DropTable struct {
	Table    TableName
	IfExists bool
}

// ShowCreateTable is SHOW CREATE TABLE [db.]t.
type ShowCreateTable struct {
	Table TableName
}

// Describe is DESCRIBE [db.]t (also DESC).
type Describe struct {
	Table TableName
}

// PartitionValue is one key = value pair of a partition spec. Value is a
// *Literal (string or number) or a *Placeholder.
type PartitionValue struct {
	Column string
	Value  Expr
}

// AlterTableAddPartition is ALTER TABLE t ADD [IF NOT EXISTS] PARTITION (k = 'v', …).
type AlterTableAddPartition struct {
	Table       TableName
	IfNotExists bool
	Partition   []PartitionValue
}

// AlterTableDropPartition is ALTER TABLE t DROP [IF EXISTS] PARTITION (k = 'v', …).
type AlterTableDropPartition struct {
	Table     TableName
	IfExists  bool
	Partition []PartitionValue
}

// AlterTableSet is ALTER TABLE [IF EXISTS] t SET ('k' = 'v', …): table properties.
type AlterTableSet struct {
	Table      TableName
	IfExists   bool
	Properties map[string]string
}

// AlterTableReset is ALTER TABLE [IF EXISTS] t RESET ('k', …): properties back to
// their defaults.
type AlterTableReset struct {
	Table    TableName
	IfExists bool
	Keys     []string
}

// AlterTableAddColumns is ALTER TABLE [IF EXISTS] t ADD [COLUMN] col TYPE [COMMENT '…'], or
// ADD (col TYPE …, …), optionally followed by WITH ('fields.<col>.agg' = '<function>', …):
// the added columns' aggregate functions, in the options CREATE TABLE takes. Fluss appends
// the columns last.
type AlterTableAddColumns struct {
	Table      TableName
	IfExists   bool
	Columns    []types.Column
	Properties map[string]string
}

// ShowPartitions is SHOW PARTITIONS t [PARTITION (k = 'v', …)]; the spec,
// when given, may name a subset of the partition keys.
type ShowPartitions struct {
	Table     TableName
	Partition []PartitionValue
}

// Insert is INSERT INTO t [(cols)] VALUES (…), … and, with Upsert set,
// UPSERT INTO t …. Columns is nil when no column list was written. For
// INSERT INTO t [(cols)] SELECT … Query holds the query (a *Select) and
// Rows is nil.
type Insert struct {
	Table   TableName
	Upsert  bool
	Columns []string
	Rows    [][]Expr
	Query   Statement
}

// Delete is DELETE FROM t WHERE ….
type Delete struct {
	Table TableName
	Where Expr
}

// Assignment is one col = expr of UPDATE … SET.
type Assignment struct {
	Column string
	Value  Expr
}

// Update is UPDATE t SET col = expr, … [WHERE …].
type Update struct {
	Table TableName
	Set   []Assignment
	Where Expr
}

// SelectItem is one entry of the select list: *Star or any expression,
// with an optional alias.
type SelectItem struct {
	Expr  Expr
	Alias string
}

// Select is
//
//	SELECT [DISTINCT] items [FROM t [/*+ OPTIONS(…) */]] [WHERE …]
//	  [GROUP BY …] [HAVING …] [ORDER BY …] [LIMIT n] [OFFSET m]
//
// Table is the zero TableName without FROM. Hints holds the OPTIONS of a
// Flink-style table hint written after the table name (nil without one).
// From holds a FROM that is more than one plain table (a join, a subquery,
// an alias); Table and Hints are then zero, and the hint, if any, is on the
// first TableRef.
// Where and Having are nil when absent; Limit and Offset nil without them
// (else an integer *Literal or a *Placeholder).
type Select struct {
	Distinct bool
	Items    []SelectItem
	Table    TableName
	Hints    map[string]string
	From     FromItem
	Where    Expr
	GroupBy  []Expr
	Having   Expr
	OrderBy  []OrderItem
	Limit    Expr
	Offset   Expr
}

// HasFrom reports whether the statement reads a table.
func (s *Select) HasFrom() bool { return s.Table.Name != "" || s.From != nil }

// Explain is EXPLAIN <statement>.
type Explain struct {
	Statement Statement
}

func (*CreateDatabase) statement()          {}
func (*DropDatabase) statement()            {}
func (*Use) statement()                     {}
func (*ShowDatabases) statement()           {}
func (*ShowTables) statement()              {}
func (*CreateTable) statement()             {}
func (*DropTable) statement()               {}
func (*ShowCreateTable) statement()         {}
func (*Describe) statement()                {}
func (*AlterTableAddPartition) statement()  {}
func (*AlterTableSet) statement()           {}
func (*AlterTableReset) statement()         {}
func (*AlterTableAddColumns) statement()    {}
func (*AlterTableDropPartition) statement() {}
func (*ShowPartitions) statement()          {}
func (*Insert) statement()                  {}
func (*Delete) statement()                  {}
func (*Update) statement()                  {}
func (*Select) statement()                  {}
func (*Explain) statement()                 {}

// ParseTableName parses "[db.]table" as a statement names a table: identifiers as in SQL
// (backticks quote, case kept), e.g. "orders", "shop.orders", "`my db`.`t-1`".
func ParseTableName(s string) (TableName, error) {
	l, err := lex(s)
	if err != nil {
		return TableName{}, err
	}
	p := &ddlParser{l: l}
	t, err := p.tableName()
	if err != nil {
		return TableName{}, err
	}
	if err := p.end(); err != nil {
		return TableName{}, err
	}
	return t, nil
}
