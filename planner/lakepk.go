package planner

import (
	"slices"

	"github.com/flussql/flussql/fluss"
)

// A datalake-enabled primary-key table is read whole, where the server offers no KV scan
// (Fluss 0.9), as a union read: the lake snapshot merged by primary key with each bucket's
// changelog after the snapshot's offset (the executor's lakemerge.go). The plan is a Scan
// with Lake LakeUnion whose projection holds the primary key, bounded, from the earliest
// offsets (the snapshot's, in fact), with no server filter: a change of a key to a value
// the WHERE rejects must still replace the key's row of the lake, so only the merged rows
// are filtered.

// keyAnswers reports whether a lookup or a prefix lookup answers the query's WHERE.
func (qb *queryBuilder) keyAnswers() bool {
	info := qb.info
	eq := equalities(info, qb.s.Where, qb.b.sess)
	if _, ok := keySet(info, info.Schema().PrimaryKey, eq); ok {
		return true
	}
	bucket, phys := info.BucketKeys(), info.PhysicalPrimaryKey()
	if len(bucket) > 0 && len(bucket) < len(phys) && slices.Equal(bucket, phys[:len(bucket)]) {
		if _, ok := keySet(info, append(slices.Clone(bucket), info.PartitionKeys()...), eq); ok {
			return true
		}
	}
	return false
}

// usesLakeMerge reports whether the query reads a primary-key table with a union read of
// its lake: the table is datalake-enabled, the server offers no KV scan, the query has no
// OPTIONS hints, reads the table itself (not t$lake) and no key condition answers it.
func (qb *queryBuilder) usesLakeMerge() bool {
	info := qb.info
	if info == nil || qb.virtual != nil || !info.HasPrimaryKey() || !info.DatalakeEnabled() || qb.b.sess.KvScan || qb.s.Hints != nil {
		return false
	}
	if _, lake := splitLake(qb.s.Table.Name); lake {
		return false
	}
	return !qb.keyAnswers()
}

// withPrimaryKey returns proj (ascending table column positions) with the primary key's
// columns added: the merge matches the lake's rows and the changelog's by key.
func withPrimaryKey(info *fluss.TableInfo, proj []int) []int {
	out := slices.Clone(proj)
	for _, k := range info.Schema().PrimaryKey {
		out = append(out, info.Schema().Index(k))
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// lakeMergeScan plans the union read of a datalake-enabled primary-key table over proj
// (which holds the primary key, withPrimaryKey).
func (qb *queryBuilder) lakeMergeScan(proj []int) (QueryPlan, string, error) {
	p, err := qb.boundedLakeScan(proj, LakeUnion)
	if err != nil {
		return nil, "", err
	}
	return p, "Scan", nil
}

// boundedLakeScan is the bounded Scan of the statement's table in lake mode over proj (its
// columns in that order): the partitions the WHERE's equalities keep, the WHERE pushed into
// the lake's planning, no limit.
func (qb *queryBuilder) boundedLakeScan(proj []int, mode LakeMode) (*Scan, error) {
	info, s := qb.info, qb.s
	sb := &selectBuilder{b: qb.b, info: info, stmt: s, ph: qb.ph}
	ps, err := sb.partitionSet(equalities(info, s.Where, qb.b.sess))
	if err != nil {
		return nil, err
	}
	p := &Scan{Table: info, PartitionSet: ps, Buckets: info.NumBuckets(), Projection: proj,
		Start: StartEarliest, Bounded: true, Lake: mode, Placeholders: qb.ph,
		LakePushdown: lakePushdown(info, s.Where, qb.b.sess)}
	p.Limit = -1
	for i, c := range proj {
		col := info.Schema().Columns[c]
		p.Columns = append(p.Columns, OutputColumn{Name: col.Name, Type: col.Type, Slot: i})
	}
	return p, nil
}

// lakeMergeQuery plans a simple SELECT of a datalake-enabled primary-key table that no key
// condition answers as a Query over its union read, when the server offers no KV scan
// (nil otherwise). A plain LIMIT that the limit scan answers exactly stays a limit scan:
// it reads the first rows of each bucket's current state.
func (sb *selectBuilder) lakeMergeQuery() (Plan, error) {
	info := sb.info
	if !info.DatalakeEnabled() || sb.b.sess.KvScan || sb.stmt.Hints != nil {
		return nil, nil
	}
	if sb.limit != nil && !sb.count && limitScanExact(info, sb.stmt.Where) {
		return nil, nil
	}
	return sb.b.query(sb.stmt)
}

// IsLakeMerge reports whether the scan is the union read of a primary-key table (its lake
// snapshot merged by key with the changelog after it).
func (p *Scan) IsLakeMerge() bool {
	return p.Lake == LakeUnion && p.Table.HasPrimaryKey()
}
