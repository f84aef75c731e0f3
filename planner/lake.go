package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/types"
	"github.com/flussql/flussql/parser"
)

// LakeMode says whether a scan reads the lake a datalake-enabled table is tiered into.
type LakeMode int

// Lake modes of a Scan.
const (
	// NoLake reads the Fluss log alone.
	NoLake LakeMode = iota
	// LakeUnion is the union read of a scan of a datalake-enabled log table in startup mode
	// 'full' (the default; 'earliest' reads the log alone, as in Flink): the lake snapshot
	// the cluster reports as tiered, then the Fluss log of every bucket from the snapshot's
	// offset for it (from the earliest offset when the snapshot has none), bounded or not,
	// as Fluss's Flink connector reads it. Every row once. Of a primary-key table
	// (lakepk.go), bounded: the snapshot merged by key with the changelog after it.
	LakeUnion
	// LakeOnly is t$lake: the lake snapshot alone.
	LakeOnly
)

// lakeSuffix names the lake of a table (t$lake, as in Flink SQL on Fluss).
const lakeSuffix = "$lake"

// splitLake splits orders$lake into orders and true.
func splitLake(name string) (string, bool) {
	if strings.HasSuffix(strings.ToLower(name), lakeSuffix) {
		return name[:len(name)-len(lakeSuffix)], true
	}
	return name, false
}

// isLake reports whether name is the lake of a table (t$lake).
func isLake(name string) bool {
	_, lake := splitLake(name)
	return lake
}

// lakeTable resolves t$lake: the table, which must be datalake-enabled, with the lake's
// system columns after its own (lakeInfo).
func (b *builder) lakeTable(t parser.TableName, name string) (*fluss.TableInfo, error) {
	info, err := b.table(parser.TableName{Database: t.Database, Name: name})
	if err != nil {
		return nil, err
	}
	if !info.DatalakeEnabled() {
		return nil, fmt.Errorf("%s is not datalake-enabled, so %s has no rows to read: create it with '%s' = 'true' on a cluster with a datalake",
			info.Path, t.Name, fluss.PropDatalakeEnabled)
	}
	return lakeInfo(info), nil
}

// LakeSystemColumns are the columns Fluss's tiering service appends to a lake table after
// the table's own, which t$lake shows as Flink does: each row's bucket, log offset and
// commit time.
func LakeSystemColumns() []types.Column {
	return []types.Column{
		{Name: fluss.LakeSystemColumns[0], Type: types.NewInt()},
		{Name: fluss.LakeSystemColumns[1], Type: types.NewBigInt()},
		{Name: fluss.LakeSystemColumns[2], Type: types.NewTimestampLTZ(6)},
	}
}

// lakeInfo is base as t$lake reads it: its columns, then LakeSystemColumns. The path stays
// the table's: the lake table has the same.
func lakeInfo(base *fluss.TableInfo) *fluss.TableInfo {
	info := *base
	info.Descriptor.Schema.Columns = append(slices.Clone(base.Schema().Columns), LakeSystemColumns()...)
	return &info
}

// lakeMode is how a scan of info named name with hints h reads the lake.
func lakeMode(info *fluss.TableInfo, name string, h scanHints) LakeMode {
	if _, lake := splitLake(name); lake {
		return LakeOnly
	}
	if info.DatalakeEnabled() && !info.HasPrimaryKey() && h.start == StartEarliest && !h.logOnly {
		return LakeUnion
	}
	return NoLake
}

// lakeScan plans t$lake: the lake snapshot of the table's columns in proj, bounded, of the
// partitions left after pruning.
func (qb *queryBuilder) lakeScan(proj []int) (QueryPlan, string, error) {
	info, s := qb.info, qb.s
	h, err := parseHints(s.Hints, qb.b.sess.Location)
	if err != nil {
		return nil, "", err
	}
	if !h.bounded || h.start != StartEarliest {
		return nil, "", fmt.Errorf("%s is the lake snapshot: it is read whole and bounded; drop the scan options", s.Table.Name)
	}
	if proj == nil {
		// A primary-key table's query feeds full rows (see queryBuilder's projection).
		for i := range info.Schema().Columns {
			proj = append(proj, i)
		}
	}
	p, err := qb.boundedLakeScan(proj, LakeOnly)
	if err != nil {
		return nil, "", err
	}
	return p, "Scan of " + info.Path.Table + lakeSuffix, nil
}

// lakePushdown compiles the WHERE of a scan of a datalake-enabled table for the lake's
// planning (every column: the lake keeps statistics of all); nil otherwise.
func lakePushdown(info *fluss.TableInfo, where parser.Expr, sess Session) *Filter {
	if !info.DatalakeEnabled() {
		return nil
	}
	return compilePushdown(info, where, sess)
}

// LakeFilter returns what of the scan's WHERE the lake's planning can use to skip files,
// or nil; like ServerFilter it only thins the read.
func (p *Scan) LakeFilter() *fluss.Predicate {
	if p.LakePushdown == nil {
		return nil
	}
	pred, ok := toPredicateWith(p.LakePushdown.root, p.Table, func(fluss.Predicate) bool { return true })
	if !ok {
		return nil
	}
	return &pred
}

// lakeText describes a scan's lake read in EXPLAIN ("" for NoLake). The snapshot, its files
// and offsets are the executor's lines, known when the statement runs.
func (p *Scan) lakeText() string {
	format := p.Table.DatalakeFormat()
	switch p.Lake {
	case LakeUnion:
		if p.Table.HasPrimaryKey() {
			return fmt.Sprintf("union read: the %s snapshot Fluss reports as tiered merged by primary key with each bucket's changelog after the snapshot's offset (the latest change of a key wins, deletes applied)", format)
		}
		return fmt.Sprintf("union read: the %s snapshot Fluss reports as tiered, then each bucket's log from the snapshot's offset", format)
	case LakeOnly:
		return fmt.Sprintf("the %s snapshot Fluss reports as tiered, alone ($lake)", format)
	}
	return ""
}
