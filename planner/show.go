package planner

import (
	"cmp"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/flusserr"
	"github.com/flussql/flussql/fluss/types"
	"github.com/flussql/flussql/parser"
)

// ShowDatabases is SHOW DATABASES [LIKE …]: call Admin.ListDatabases and
// pass the names to Rows.
type ShowDatabases struct {
	Like *string
}

// ShowTables is SHOW TABLES [FROM db] [LIKE …]: call
// Admin.ListTables(Database) and pass the names to Rows.
type ShowTables struct {
	Database string
	Like     *string
}

// ShowPartitions is SHOW PARTITIONS t [PARTITION (…)]: once bound, call
// Admin.ListPartitions(Path, nil) (or Catalog.Partitions after
// invalidating) and pass the answer to Rows, which keeps the partitions
// matching Spec.
type ShowPartitions struct {
	Path fluss.TablePath
	// Keys are the table's partition keys.
	Keys []string
	// Values holds the partial spec, one entry per partition key; entries
	// for keys the statement leaves out have an empty Column.
	Values []Value
	// Spec is the partial spec rendered as partition strings; set by Bind.
	Spec fluss.PartitionSpec
	Placeholders
}

// ShowCreateTable is SHOW CREATE TABLE t; Rows renders Table (the info the
// planner resolved) as a CREATE TABLE statement.
type ShowCreateTable struct {
	Table *fluss.TableInfo
}

// Describe is DESCRIBE t; Rows lists Table's columns.
type Describe struct {
	Table *fluss.TableInfo
}

// Explain is EXPLAIN stmt: Rows holds the lines of Plan.String().
type Explain struct {
	Plan Plan
}

func stringColumns(names ...string) []ResultColumn {
	out := make([]ResultColumn, len(names))
	for i, n := range names {
		out[i] = ResultColumn{Name: n, Type: types.NewString().AsNotNull()}
	}
	return out
}

// ResultColumns returns the single column "database".
func (p *ShowDatabases) ResultColumns() []ResultColumn { return stringColumns("database") }

// Rows returns the names matching Like, sorted.
func (p *ShowDatabases) Rows(names []string) [][]any { return nameRows(names, p.Like) }

// ResultColumns returns the single column "table".
func (p *ShowTables) ResultColumns() []ResultColumn { return stringColumns("table") }

// Rows returns the names matching Like, sorted.
func (p *ShowTables) Rows(names []string) [][]any { return nameRows(names, p.Like) }

func nameRows(names []string, like *string) [][]any {
	sorted := slices.Sorted(slices.Values(names))
	var out [][]any
	for _, n := range sorted {
		if like == nil || matchLike(n, *like) {
			out = append(out, []any{n})
		}
	}
	return out
}

// ResultColumns returns "partition" (k1=v1/k2=v2) and "id".
func (p *ShowPartitions) ResultColumns() []ResultColumn {
	return []ResultColumn{
		{Name: "partition", Type: types.NewString().AsNotNull()},
		{Name: "id", Type: types.NewBigInt().AsNotNull()},
	}
}

// Rows returns the partitions matching Spec, sorted by name.
func (p *ShowPartitions) Rows(parts []fluss.PartitionInfo) [][]any {
	var keep []fluss.PartitionInfo
	for _, part := range parts {
		if matchesSpec(part, p.Spec) {
			keep = append(keep, part)
		}
	}
	slices.SortFunc(keep, func(a, b fluss.PartitionInfo) int { return cmp.Compare(a.Name, b.Name) })
	out := make([][]any, len(keep))
	for i, part := range keep {
		out[i] = []any{part.QualifiedName(), part.ID}
	}
	return out
}

func matchesSpec(part fluss.PartitionInfo, spec fluss.PartitionSpec) bool {
	have := part.Spec()
	for k, v := range spec {
		if have[k] != v {
			return false
		}
	}
	return true
}

// ResultColumns returns "table" and "create table".
func (p *ShowCreateTable) ResultColumns() []ResultColumn {
	return stringColumns("table", "create table")
}

// Rows returns one row: the table's path and its CREATE TABLE statement.
func (p *ShowCreateTable) Rows() [][]any {
	return [][]any{{p.Table.Path.String(), CreateTableSQL(p.Table)}}
}

// CreateTableSQL renders a table as the CREATE TABLE statement that
// creates it again (with the defaults the server filled in).
func CreateTableSQL(info *fluss.TableInfo) string {
	d := info.Descriptor
	props := map[string]string{}
	maps.Copy(props, d.CustomProperties)
	maps.Copy(props, d.Properties)
	if d.BucketCount > 0 {
		props[propBucketNum] = strconv.Itoa(d.BucketCount)
	}
	if len(d.BucketKeys) > 0 {
		props[propBucketKey] = strings.Join(d.BucketKeys, ",")
	}
	aggFunctionOptions(d.AggFunctions, props)
	ct := &parser.CreateTable{
		Table:         parser.TableName{Database: info.Path.Database, Name: info.Path.Table},
		Columns:       d.Schema.Columns,
		PrimaryKey:    d.Schema.PrimaryKey,
		PartitionKeys: d.PartitionKeys,
		Comment:       d.Comment,
		Properties:    props,
	}
	return ct.String()
}

// ResultColumns returns name, type, null, key, comment and aggregate.
func (p *Describe) ResultColumns() []ResultColumn {
	cols := stringColumns("name", "type", "null", "key", "comment", "aggregate")
	cols[2].Type = types.NewBoolean().AsNotNull()
	return cols
}

// Rows returns one row per column: its name, type (without NOT NULL),
// whether it is nullable, its key roles ("primary key", "partition key",
// "bucket key", comma-separated), its comment and its aggregate function
// (aggregation merge engine; e.g. "sum", "listagg(delimiter=';')").
func (p *Describe) Rows() [][]any {
	info := p.Table
	out := make([][]any, 0, len(info.Schema().Columns))
	for _, c := range info.Schema().Columns {
		var roles []string
		if slices.Contains(info.Schema().PrimaryKey, c.Name) {
			roles = append(roles, "primary key")
		}
		if slices.Contains(info.PartitionKeys(), c.Name) {
			roles = append(roles, "partition key")
		}
		if slices.Contains(info.BucketKeys(), c.Name) {
			roles = append(roles, "bucket key")
		}
		agg, ok := info.Descriptor.AggFunctions[c.Name]
		out = append(out, []any{c.Name, parser.FormatType(c.Type.AsNullable()), c.Type.Nullable(), strings.Join(roles, ", "), c.Comment, aggFunctionText(agg, ok)})
	}
	return out
}

// ResultColumns returns the single column "plan".
func (p *Explain) ResultColumns() []ResultColumn { return stringColumns("plan") }

// Rows returns one row per line of the plan's description.
func (p *Explain) Rows() [][]any {
	lines := strings.Split(strings.TrimRight(p.Plan.String(), "\n")+engineLine(p.Plan), "\n")
	out := make([][]any, len(lines))
	for i, l := range lines {
		out[i] = []any{l}
	}
	return out
}

func (b *builder) showPartitions(s *parser.ShowPartitions) (Plan, error) {
	var info *fluss.TableInfo
	var vals []Value
	var err error
	if len(s.Partition) > 0 {
		info, vals, err = b.partitionSpec(s.Table, s.Partition, true)
	} else {
		info, err = b.table(s.Table)
		if err == nil && !info.IsPartitioned() {
			err = errNotPartitioned(info)
		}
	}
	if err != nil {
		return nil, err
	}
	return &ShowPartitions{Path: info.Path, Keys: info.PartitionKeys(), Values: vals, Placeholders: Placeholders{Params: parser.Placeholders(s), Location: b.sess.Location}}, nil
}

func errNotPartitioned(info *fluss.TableInfo) error {
	return &notPartitionedError{path: info.Path}
}

type notPartitionedError struct{ path fluss.TablePath }

func (e *notPartitionedError) Error() string {
	return "table " + e.path.String() + " is not partitioned"
}
func (e *notPartitionedError) Unwrap() error { return flusserr.TableNotPartitionedException }
