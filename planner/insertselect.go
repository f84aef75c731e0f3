package planner

import (
	"fmt"
	"strings"

	"github.com/flussql/flussql/fluss/types"
	"github.com/flussql/flussql/internal/sqlkind"
	"github.com/flussql/flussql/parser"
)

// InsertSelect writes the rows of a bounded query into a table: INSERT INTO t [(cols)]
// SELECT … appends to a log table or upserts into a primary-key table, UPSERT INTO … SELECT
// upserts. The driver streams the query's result into the table's writer: the rows are
// never all held at once. RowsAffected is the number of rows written.
type InsertSelect struct {
	// Write is the target: table, mode and target columns (as INSERT … VALUES plans
	// them); it has no rows.
	Write *Write
	// Targets are the table column indexes the query's columns are written to, in the
	// query's column order.
	Targets []int
	// Source is the query's plan: a read the driver runs as SELECT would.
	Source QueryPlan
}

func (*InsertSelect) plan() {}

// insertSelect plans INSERT / UPSERT INTO t [(cols)] SELECT ….
func (b *builder) insertSelect(s *parser.Insert) (Plan, error) {
	w, targets, err := b.insertTarget(s)
	if err != nil {
		return nil, err
	}
	src, err := b.build(s.Query)
	if err != nil {
		return nil, err
	}
	qp, ok := src.(QueryPlan)
	if !ok {
		return nil, fmt.Errorf("planner: the query of INSERT … SELECT plans as %T", src)
	}
	if err := checkBoundedSource(qp); err != nil {
		return nil, err
	}
	cols := qp.ResultColumns()
	if len(cols) != len(targets) {
		return nil, fmt.Errorf("INSERT INTO %s … SELECT: the query returns %d column(s) for %d target column(s); list the target columns (INSERT INTO t (a, b) SELECT …) or select one value per column",
			w.Table.Path, len(cols), len(targets))
	}
	schema := w.Table.Schema()
	for i, c := range cols {
		col := schema.Columns[targets[i]]
		if !implicitCast(c.Type, col.Type) && !literalFits(s.Query, len(cols), i, col.Type) {
			return nil, fmt.Errorf("column %q is %s; the query's column %d (%s) is %s, which does not convert to it implicitly: CAST it in the SELECT list",
				col.Name, engineTypeName(col.Type), i+1, c.Name, engineTypeName(c.Type))
		}
	}
	return &InsertSelect{Write: w, Targets: targets, Source: qp}, nil
}

// checkBoundedSource refuses a query that reads an unbounded scan: the statement
// would never end.
func checkBoundedSource(p QueryPlan) error {
	switch p := p.(type) {
	case *Scan:
		if !p.Bounded {
			return needsStreaming("INSERT … SELECT needs a bounded query; %s is read with '%s' = 'false': remove the hint", p.Table.Path, HintBounded)
		}
	case *Query:
		if p.Source != nil {
			if err := checkBoundedSource(p.Source); err != nil {
				return err
			}
		}
		for _, in := range p.Inputs {
			if err := checkBoundedSource(in); err != nil {
				return err
			}
		}
	}
	return nil
}

// literalFits reports whether the i-th of n select items of q is a literal that
// converts to type t whatever the type the query gives it: NULL, or an integer
// for a numeric column (its value is checked when the row is written).
func literalFits(q parser.Statement, n, i int, t types.DataType) bool {
	sel, ok := q.(*parser.Select)
	if !ok || len(sel.Items) != n {
		return false
	}
	lit, ok := sel.Items[i].Expr.(*parser.Literal)
	switch {
	case !ok:
		return false
	case lit.Kind == parser.LitNull:
		return true
	}
	return lit.Kind == parser.LitInt && sqlkind.Numeric(t.Kind)
}

// engineTypeName renders a type as SQL without NOT NULL.
func engineTypeName(t types.DataType) string {
	if t.Kind.Nested() {
		return t.String()
	}
	return t.AsNullable().String()
}

// implicitCast reports whether a value of type from is written to a column of type to
// without a CAST, as Flink's INSERT allows: the same kind (any length or precision),
// character strings to character strings, binary strings to binary strings, integers to
// wider integers, and integers and decimals to DECIMAL, FLOAT and DOUBLE; FLOAT to DOUBLE;
// TIMESTAMP and TIMESTAMP_LTZ to each other.
func implicitCast(from, to types.DataType) bool {
	if from.Kind == to.Kind {
		if !from.Kind.Nested() {
			return true
		}
		return from.AsNullable().String() == to.AsNullable().String()
	}
	f, t := sqlkind.Of(from.Kind), sqlkind.Of(to.Kind)
	if f == nil || t == nil {
		return false
	}
	switch {
	case f.Family == sqlkind.String && t.Family == sqlkind.String,
		f.Family == sqlkind.Binary && t.Family == sqlkind.Binary:
		return true
	case f.Family == sqlkind.Integer && t.Family == sqlkind.Integer:
		return f.Width <= t.Width
	case f.Family == sqlkind.Integer || f.Family == sqlkind.Decimal:
		return t.Family == sqlkind.Decimal || t.Family == sqlkind.Float
	case from.Kind == types.Float:
		return to.Kind == types.Double
	case from.Kind == types.Timestamp, from.Kind == types.TimestampLTZ:
		return to.Kind == types.Timestamp || to.Kind == types.TimestampLTZ
	}
	return false
}

// Row converts one row of the query's result (the driver's representation: int64,
// float64, DECIMAL as its string, time.Time, …) into a bound row of the write: values
// converted to their columns' types as arguments of INSERT … VALUES are, NULL for the
// columns not written, NOT NULL checked and the partition named.
func (p *InsertSelect) Row(vals []any) (WriteRow, error) {
	cols := p.Write.Table.Schema().Columns
	out := make([]any, len(cols))
	for i, v := range vals {
		col := cols[p.Targets[i]]
		c, err := convertArg(col.Name, col.Type, v, p.Write.Location)
		if err != nil {
			return WriteRow{}, err
		}
		out[p.Targets[i]] = c
	}
	return p.Write.checkRow(WriteRow{bound: out})
}

// String describes the plan for EXPLAIN: the write, then the query under it.
func (p *InsertSelect) String() string {
	schema := p.Write.Table.Schema()
	names := make([]string, len(p.Targets))
	for i, t := range p.Targets {
		names[i] = schema.Columns[t].Name
	}
	d := describe("InsertSelect %s (%s)", p.Write.Table.Path, tableKind(p.Write.Table)).line("mode", "%s", p.Write.Mode)
	d.lineIf(p.Write.TargetColumns != nil, "target columns", "%s", describeColumns(p.Write.Table, p.Write.TargetColumns))
	d.line("query columns into", "%s", strings.Join(names, ", "))
	d.line("rows", "streamed from the query into the table's writer, one receipt for the statement")
	var b strings.Builder
	b.WriteString(d.String())
	for _, l := range strings.Split(strings.TrimRight(p.Source.String(), "\n"), "\n") {
		b.WriteString("  " + l + "\n")
	}
	return b.String()
}

// placeholders are the query's.
func (p *InsertSelect) placeholders() *Placeholders {
	if b, ok := p.Source.(bindable); ok {
		return b.placeholders()
	}
	return &Placeholders{}
}

func (p *InsertSelect) bind(bd *binder) (Plan, error) {
	b, ok := p.Source.(bindable)
	if !ok {
		return p, nil
	}
	src, err := b.bind(bd)
	if err != nil {
		return nil, err
	}
	cp := *p
	cp.Source = src.(QueryPlan)
	return &cp, nil
}
