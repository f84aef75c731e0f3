package planner

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/types"
	"github.com/flussql/flussql/parser"
)

// AlterTable is ALTER TABLE … SET (…), RESET (…) or ADD columns: call
// Admin.AlterTable(Path, IgnoreIfNotExists, changes…) with one change per
// property set or reset and per added column, then invalidate the table in
// the catalog. Fluss 0.9 appends added columns last and requires them
// nullable; rows written before read NULL in them.
type AlterTable struct {
	Path              fluss.TablePath
	IgnoreIfNotExists bool
	Set               map[string]string
	Reset             []string
	AddColumns        []types.Column
	// AddAggFunctions are the added columns' aggregate functions, by column (ADD … WITH
	// ('fields.<col>.agg' = …) on a table with the aggregation merge engine; Fluss 1.0).
	AddAggFunctions map[string]types.AggFunction
}

func (b *builder) alterTable(t parser.TableName, ifExists bool) (*AlterTable, *fluss.TableInfo, error) {
	path, err := b.path(t)
	if err != nil {
		return nil, nil, err
	}
	p := &AlterTable{Path: path, IgnoreIfNotExists: ifExists}
	info, err := b.table(t)
	if err != nil {
		var missing *TableNotExistError
		if ifExists && errors.As(err, &missing) {
			return p, nil, nil // nothing to check; the server ignores it too
		}
		return nil, nil, err
	}
	return p, info, nil
}

func (b *builder) alterTableSet(s *parser.AlterTableSet) (Plan, error) {
	p, _, err := b.alterTable(s.Table, s.IfExists)
	if err != nil {
		return nil, err
	}
	p.Set = maps.Clone(s.Properties)
	return p, nil
}

func (b *builder) alterTableReset(s *parser.AlterTableReset) (Plan, error) {
	p, _, err := b.alterTable(s.Table, s.IfExists)
	if err != nil {
		return nil, err
	}
	p.Reset = append([]string(nil), s.Keys...)
	return p, nil
}

func (b *builder) alterTableAdd(s *parser.AlterTableAddColumns) (Plan, error) {
	p, info, err := b.alterTable(s.Table, s.IfExists)
	if err != nil {
		return nil, err
	}
	for _, c := range s.Columns {
		if c.Type.NotNull {
			return nil, fmt.Errorf("column %q: Fluss adds only nullable columns (rows written before have no value); leave out NOT NULL", c.Name)
		}
		if info != nil && info.Schema().Index(c.Name) >= 0 {
			return nil, fmt.Errorf("column %q already exists in %s; its columns: %s", c.Name, info.Path, strings.Join(columnNames(info), ", "))
		}
	}
	p.AddColumns = append([]types.Column(nil), s.Columns...)
	if len(s.Properties) > 0 {
		if p.AddAggFunctions, err = addedAggFunctions(info, s); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// addedAggFunctions reads the aggregate functions of ALTER TABLE … ADD (…) WITH (…): the
// options of CREATE TABLE ('fields.<col>.agg', 'fields.<col>.<function>.<param>'), for the
// added columns only, checked against the table's merge engine and the columns' types.
func addedAggFunctions(info *fluss.TableInfo, s *parser.AlterTableAddColumns) (map[string]types.AggFunction, error) {
	for k := range s.Properties {
		if !isAggKey(k) {
			return nil, fmt.Errorf("ALTER TABLE … ADD … WITH takes the added columns' aggregate functions ('fields.<column>.agg' = '<function>'); '%s' is not one (set table options with ALTER TABLE %s SET (…))", k, s.Table)
		}
	}
	if info == nil {
		return nil, fmt.Errorf("ALTER TABLE IF EXISTS %s … WITH: the table does not exist, so its merge engine cannot be checked; drop IF EXISTS", s.Table)
	}
	schema := info.Schema()
	schema.Columns = append(slices.Clone(schema.Columns), s.Columns...)
	props := maps.Clone(s.Properties)
	props[propMergeEngine] = info.Descriptor.Properties[propMergeEngine]
	funcs, err := extractAggFunctions(schema, props)
	if err != nil {
		return nil, err
	}
	for col := range funcs {
		if info.Schema().Index(col) >= 0 {
			return nil, fmt.Errorf("'fields.%s.agg': %q is not an added column; a column's aggregate function is set when it is created", col, col)
		}
	}
	return funcs, nil
}

// columnNames lists the table's columns in order.
func columnNames(info *fluss.TableInfo) []string { return schemaColumnNames(info.Schema()) }

// schemaColumnNames lists a schema's columns in order.
func schemaColumnNames(s types.Schema) []string {
	out := make([]string, len(s.Columns))
	for i, c := range s.Columns {
		out[i] = c.Name
	}
	return out
}

// String describes the plan for EXPLAIN.
func (p *AlterTable) String() string {
	d := describe("AlterTable %s", p.Path).
		lineIf(len(p.Set) > 0, "set", "%s", props(p.Set)).
		lineIf(len(p.Reset) > 0, "reset", "%s", strings.Join(p.Reset, ", "))
	for _, c := range p.AddColumns {
		agg := ""
		if f, ok := p.AddAggFunctions[c.Name]; ok {
			agg = " aggregated with " + aggFunctionText(f, true)
		}
		d.line("add column", "%s %s%s%s", parser.QuoteIdent(c.Name), parser.FormatType(c.Type), commentText(c.Comment), agg)
	}
	return d.lineIf(p.IgnoreIfNotExists, "if exists", "true").String()
}

func commentText(c string) string {
	if c == "" {
		return ""
	}
	return " COMMENT " + parser.QuoteString(c)
}

func (*AlterTable) plan() {}
