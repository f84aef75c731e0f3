package planner

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/types"
	"github.com/flussql/flussql/parser"
)

// VirtualTable is one of Fluss's read-only virtual tables over a table's
// log, named by a suffix of the table name (as Flink SQL on Fluss has them).
type VirtualTable int

// Virtual tables.
const (
	// NotVirtual is a plain read of the table.
	NotVirtual VirtualTable = iota
	// Changelog is t$changelog: every row of the log of t (a log table or a
	// primary-key table) after the columns _change_type ('insert',
	// 'update_before', 'update_after' or 'delete'; appended rows of a log
	// table are 'insert'), _log_offset and _commit_timestamp.
	Changelog
	// Binlog is t$binlog, for primary-key tables: one row per change, with
	// _change_type ('insert', 'update' or 'delete'), _log_offset and
	// _commit_timestamp of the change's first log row, then the ROW columns
	// before (NULL for an insert) and after (NULL for a delete). An update's
	// update_before and update_after log rows make one update row.
	Binlog
)

// Names of the metadata columns of the virtual tables (Fluss's
// TableDescriptor constants).
const (
	ColChangeType      = "_change_type"
	ColLogOffset       = "_log_offset"
	ColCommitTimestamp = "_commit_timestamp"
	ColBefore          = "before"
	ColAfter           = "after"
)

// VirtualMetaColumns is the number of metadata columns the virtual tables
// start with (_change_type, _log_offset, _commit_timestamp).
const VirtualMetaColumns = 3

// String returns the suffix, "$changelog" or "$binlog" ("" for NotVirtual).
func (v VirtualTable) String() string {
	switch v {
	case Changelog:
		return "$changelog"
	case Binlog:
		return "$binlog"
	}
	return ""
}

// splitVirtual splits orders$changelog into orders and Changelog.
func splitVirtual(name string) (string, VirtualTable) {
	lower := strings.ToLower(name)
	for _, v := range []VirtualTable{Changelog, Binlog} {
		if strings.HasSuffix(lower, v.String()) {
			return name[:len(name)-len(v.String())], v
		}
	}
	return name, NotVirtual
}

// VirtualMeta returns the metadata columns the virtual tables start with,
// all NOT NULL: _change_type STRING, _log_offset BIGINT and
// _commit_timestamp TIMESTAMP_LTZ(3).
func VirtualMeta() []types.Column {
	return []types.Column{
		{Name: ColChangeType, Type: types.NewString().AsNotNull()},
		{Name: ColLogOffset, Type: types.NewBigInt().AsNotNull()},
		{Name: ColCommitTimestamp, Type: types.NewTimestampLTZ(3).AsNotNull()},
	}
}

// BinlogImageType is the type of the before and after columns of base's
// $binlog: a nullable ROW of the table's columns.
func BinlogImageType(base *fluss.TableInfo) types.DataType {
	var fields []types.Field
	for _, c := range base.Schema().Columns {
		fields = append(fields, types.Field{Name: c.Name, Type: c.Type})
	}
	return types.NewRow(fields...)
}

// virtualInfo describes the virtual table v over base as a log table of
// its own columns, so that the query builder resolves and types its
// columns as a table's.
func virtualInfo(base *fluss.TableInfo, v VirtualTable) *fluss.TableInfo {
	info := &fluss.TableInfo{
		Path:     fluss.TablePath{Database: base.Path.Database, Table: base.Path.Table + v.String()},
		TableID:  base.TableID,
		SchemaID: base.SchemaID,
		Descriptor: fluss.TableDescriptor{
			BucketCount: base.NumBuckets(),
			Properties:  base.Descriptor.Properties,
			Comment:     base.Descriptor.Comment,
		},
	}
	cols := VirtualMeta()
	switch v {
	case Changelog:
		cols = append(cols, base.Schema().Columns...)
		info.Descriptor.PartitionKeys = base.PartitionKeys()
	case Binlog:
		img := BinlogImageType(base)
		cols = append(cols, types.Column{Name: ColBefore, Type: img}, types.Column{Name: ColAfter, Type: img})
	}
	info.Descriptor.Schema = types.Schema{Columns: cols}
	return info
}

// virtualTable is the table a query over a virtual table reads.
type virtualTable struct {
	kind VirtualTable
	base *fluss.TableInfo
}

// readTable resolves a table that is read (SELECT, DESCRIBE): a table, or
// a virtual table over one. vt is nil for a plain table.
func (b *builder) readTable(t parser.TableName) (*fluss.TableInfo, *virtualTable, error) {
	if name, lake := splitLake(t.Name); lake {
		info, err := b.lakeTable(t, name)
		return info, nil, err
	}
	name, v := splitVirtual(t.Name)
	if v == NotVirtual {
		info, err := b.table(t)
		return info, nil, err
	}
	base, err := b.table(parser.TableName{Database: t.Database, Name: name})
	if err != nil {
		return nil, nil, err
	}
	if v == Binlog && !base.HasPrimaryKey() {
		return nil, nil, fmt.Errorf("%s is a log table: $binlog needs a primary-key table; read %s$changelog for the rows of a log table", base.Path, base.Path.Table)
	}
	return virtualInfo(base, v), &virtualTable{kind: v, base: base}, nil
}

// virtualWriteError is the error of a statement other than SELECT or
// DESCRIBE on a virtual table (nil for other names).
func virtualWriteError(t parser.TableName) error {
	name, v := splitVirtual(t.Name)
	if v == NotVirtual {
		return nil
	}
	return fmt.Errorf("%s is a read-only virtual table (the %s of %s): only SELECT and DESCRIBE read it; write to %s itself",
		t.Name, strings.TrimPrefix(v.String(), "$"), name, name)
}

// virtualProjection is the engine input of a query over a virtual table,
// as indexes of the virtual table's columns: every metadata column and
// the base columns the query reads (at least one, since a fetch needs a
// column) for $changelog; every column for $binlog.
func (qb *queryBuilder) virtualProjection() []int {
	n := len(qb.info.Schema().Columns)
	if qb.virtual.kind == Binlog {
		proj := make([]int, n)
		for i := range proj {
			proj[i] = i
		}
		return proj
	}
	proj := []int{0, 1, 2}
	for _, c := range qb.projection() {
		if c >= VirtualMetaColumns {
			proj = append(proj, c)
		}
	}
	if len(proj) == VirtualMetaColumns {
		proj = append(proj, VirtualMetaColumns)
	}
	return proj
}

// virtualSource plans the scan of the base table's log under a virtual
// table: every bucket (of the partitions left after pruning on the
// partition columns, for $changelog), with the scan hints of a log table.
// The driver adds the metadata columns (and pairs updates for $binlog).
func (qb *queryBuilder) virtualSource(proj []int, streaming bool) (QueryPlan, string, error) {
	base, s, sess := qb.virtual.base, qb.s, qb.b.sess
	hints := s.Hints
	if strings.EqualFold(hints[HintStartupMode], "full") {
		// Flink's default mode; its $changelog and $binlog read the log from the
		// earliest offset for it (there is no snapshot phase).
		hints = maps.Clone(hints)
		hints[HintStartupMode] = "earliest"
	}
	h, err := parseHints(hints, sess.Location)
	if err != nil {
		return nil, "", err
	}
	if !h.bounded && !streaming {
		return nil, "", needsStreaming("aggregates, ORDER BY and DISTINCT need a bounded scan; an unbounded scan ('%s' = 'false') only takes filters, expressions and LIMIT", HintBounded)
	}
	eq := map[int][]Value{}
	if qb.virtual.kind == Changelog {
		eq = equalities(base, s.Where, sess)
	}
	sb := &selectBuilder{b: qb.b, info: base, stmt: s, ph: qb.ph}
	ps, err := sb.partitionSet(eq)
	if err != nil {
		return nil, "", err
	}
	var scanProj []int
	for _, c := range proj {
		if c >= VirtualMetaColumns {
			scanProj = append(scanProj, c-VirtualMetaColumns)
		}
	}
	if qb.virtual.kind == Binlog {
		scanProj = scanProj[:0]
		for i := range base.Schema().Columns {
			scanProj = append(scanProj, i)
		}
	}
	p := &Scan{Table: base, PartitionSet: ps, Buckets: base.NumBuckets(), Projection: slices.Clip(scanProj),
		Start: h.start, StartTimestamp: h.timestamp, Bounded: h.bounded, Virtual: qb.virtual.kind, Placeholders: qb.ph}
	p.Limit = -1
	for i, c := range scanProj {
		col := base.Schema().Columns[c]
		p.Columns = append(p.Columns, OutputColumn{Name: col.Name, Type: col.Type, Slot: i})
	}
	return p, "Scan of " + base.Path.Table + qb.virtual.kind.String(), nil
}

// virtualText describes a virtual table in EXPLAIN.
func virtualText(v VirtualTable) string {
	if v == Binlog {
		return "$binlog (the client adds _change_type, _log_offset, _commit_timestamp and pairs update_before/update_after into before/after)"
	}
	return "$changelog (the client adds _change_type, _log_offset, _commit_timestamp to every row)"
}
