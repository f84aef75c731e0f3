package planner

import (
	"strconv"

	"github.com/flussql/flussql/fluss"
)

// KvScan reads the current rows of a primary-key table with the server's KV scan
// (SCAN_KV, Fluss 1.0+): every bucket of the table, or of each partition in
// PartitionSet.Partitions, columns Projection (ascending table column indexes). It is a
// bounded input: each key once with its latest value. It is planned only as the Source of
// a Query (the engine filters, aggregates, sorts and limits), and only when
// Session.KvScan says the server offers SCAN_KV. Output.Limit, when >= 0, is the LIMIT +
// OFFSET pushed to the server for each bucket (a query with no WHERE, aggregate, ORDER
// BY or DISTINCT); -1 reads every row.
type KvScan struct {
	Table *fluss.TableInfo
	PartitionSet
	// Buckets is the number of buckets of the table (of each partition).
	Buckets    int
	Projection []int
	// PushLimit is set when LIMIT + OFFSET may end each bucket's session on the server.
	PushLimit bool
	Output
	Placeholders
}

// usesKvScan reports whether the query reads a primary-key table with a KV scan: the
// server offers it and no lookup or prefix lookup answers the WHERE.
func (qb *queryBuilder) usesKvScan() bool {
	info := qb.info
	if info == nil || !info.HasPrimaryKey() || !qb.b.sess.KvScan || qb.s.Hints != nil {
		return false
	}
	return !qb.keyAnswers()
}

// kvScan plans the KV scan source of a query over columns proj (see usesKvScan).
func (qb *queryBuilder) kvScan(proj []int, streaming bool, q *Query) (QueryPlan, string, error) {
	info := qb.info
	sb := &selectBuilder{b: qb.b, info: info, stmt: qb.s, ph: qb.ph}
	ps, err := sb.partitionSet(equalities(info, qb.s.Where, qb.b.sess))
	if err != nil {
		return nil, "", err
	}
	p := &KvScan{Table: info, PartitionSet: ps, Buckets: info.NumBuckets(), Projection: proj, Placeholders: qb.ph,
		PushLimit: streaming && qb.s.Where == nil && q.LimitValue != nil}
	p.Limit = -1
	for i, c := range proj {
		col := info.Schema().Columns[c]
		p.Columns = append(p.Columns, OutputColumn{Name: col.Name, Type: col.Type, Slot: i})
	}
	return p, "KvScan", nil
}

// kvScanQuery plans a simple SELECT of a primary-key table that no key condition
// answers as a Query over a KvScan, when the server offers it (nil otherwise).
func (sb *selectBuilder) kvScanQuery() (Plan, error) {
	if !sb.b.sess.KvScan {
		return nil, nil
	}
	return sb.b.query(sb.stmt)
}

func (p *KvScan) bind(bd *binder) (Plan, error) {
	out := *p
	var err error
	if out.PartitionSet, err = p.PartitionSet.bind(bd); err != nil {
		return nil, err
	}
	if out.Output, err = p.Output.bind(bd); err != nil {
		return nil, err
	}
	return &out, nil
}

// String describes the plan for EXPLAIN.
func (p *KvScan) String() string {
	d := describe("KvScan %s (%s)", p.Table.Path, tableKind(p.Table)).
		line("read", "kv scan (SCAN_KV): the current row of every key, from a snapshot of each bucket").
		partitions(p.PartitionSet, p.Placeholders)
	switch {
	case p.Limit >= 0:
		d.line("buckets", "%d, at most %s rows read from each", p.Buckets, strconv.FormatInt(p.Limit, 10))
	case p.PushLimit:
		d.line("buckets", "%d, at most LIMIT + OFFSET rows read from each", p.Buckets)
	default:
		d.line("buckets", "%d", p.Buckets)
	}
	return d.line("projection", "%s", describeColumns(p.Table, p.Projection)).
		output(p.Output).pending(p.Placeholders).String()
}

func (*KvScan) plan() {}
