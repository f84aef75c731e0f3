package planner

import (
	"cmp"
	"slices"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/types"
	"github.com/flussql/flussql/parser"
)

// ShowServers is SHOW SERVERS: call Admin.ServerNodes and pass the answer
// to Rows.
type ShowServers struct{}

// ShowClusterConfigs is SHOW CLUSTER CONFIGS [LIKE …]: call
// Admin.ClusterConfigs and pass the answer to Rows.
type ShowClusterConfigs struct {
	Like *string
}

// ShowOffsets is SHOW OFFSETS FOR t [PARTITION (…)]: once bound, list the
// partitions matching Spec (for a partitioned table), then the earliest and
// latest offset of every bucket of each, and pass them to Rows.
type ShowOffsets struct {
	Table *fluss.TableInfo
	SpecFilter
}

// ShowKvSnapshots is SHOW KV SNAPSHOTS FOR t [PARTITION (…)] of a
// primary-key table: once bound, call Admin.LatestKvSnapshots for the table
// or each partition matching Spec and pass the answers to Rows.
type ShowKvSnapshots struct {
	Table *fluss.TableInfo
	SpecFilter
	// Active: every snapshot the cluster keeps (Admin.ActiveKvSnapshots, Fluss 1.0), not
	// only the latest of each bucket.
	Active bool
}

// SpecFilter is the optional, possibly partial, partition spec of
// SHOW OFFSETS and SHOW KV SNAPSHOTS; no spec selects every partition.
type SpecFilter struct {
	// Values holds the spec, one entry per partition key; entries for keys
	// the statement leaves out have an empty Column.
	Values []Value
	// Spec is the spec rendered as partition strings; set by Bind.
	Spec fluss.PartitionSpec
	Placeholders
}

// Matching returns the partitions that the spec selects, ordered by name.
func (f *SpecFilter) Matching(parts []fluss.PartitionInfo) []fluss.PartitionInfo {
	var keep []fluss.PartitionInfo
	for _, p := range parts {
		if matchesSpec(p, f.Spec) {
			keep = append(keep, p)
		}
	}
	slices.SortFunc(keep, func(a, b fluss.PartitionInfo) int { return cmp.Compare(a.Name, b.Name) })
	return keep
}

// BucketOffsets are the offsets of one bucket, for ShowOffsets.Rows.
type BucketOffsets struct {
	Partition        string // "" for a non-partitioned table
	Bucket           int32
	Earliest, Latest int64
}

// PartitionSnapshots are the snapshots of one partition (or of the whole
// table), for ShowKvSnapshots.Rows.
type PartitionSnapshots struct {
	Partition string
	Snapshots []fluss.KvSnapshot
}

func intCol(name string) ResultColumn {
	return ResultColumn{Name: name, Type: types.NewInt().AsNotNull()}
}
func bigintCol(name string, nullable bool) ResultColumn {
	t := types.NewBigInt()
	if !nullable {
		t = t.AsNotNull()
	}
	return ResultColumn{Name: name, Type: t}
}

// ResultColumns returns id, type, host, port and rack.
func (*ShowServers) ResultColumns() []ResultColumn {
	cols := stringColumns("id", "type", "host", "port", "rack")
	cols[0], cols[3] = intCol("id"), intCol("port")
	cols[4].Type = types.NewString()
	return cols
}

// Rows returns one row per server: the coordinator first, then the tablet
// servers by id; rack is NULL when the server has none.
func (*ShowServers) Rows(nodes []fluss.ServerNode) [][]any {
	nodes = slices.Clone(nodes)
	slices.SortFunc(nodes, func(a, b fluss.ServerNode) int {
		if c := cmp.Compare(a.Type, b.Type); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	out := make([][]any, 0, len(nodes))
	for _, n := range nodes {
		var rack any
		if n.Rack != "" {
			rack = n.Rack
		}
		out = append(out, []any{n.ID, n.Type.String(), n.Host, int32(n.Port), rack})
	}
	return out
}

// ResultColumns returns key, value and source.
func (*ShowClusterConfigs) ResultColumns() []ResultColumn {
	cols := stringColumns("key", "value", "source")
	cols[1].Type = types.NewString()
	return cols
}

// Rows returns the entries whose key matches LIKE, by key; value is NULL
// for an entry without one.
func (p *ShowClusterConfigs) Rows(configs []fluss.ClusterConfig) [][]any {
	keys := make([]string, len(configs))
	byKey := make(map[string]fluss.ClusterConfig, len(configs))
	for i, c := range configs {
		keys[i] = c.Key
		byKey[c.Key] = c
	}
	var out [][]any
	for _, r := range nameRows(keys, p.Like) {
		c := byKey[r[0].(string)]
		var v any
		if c.HasValue {
			v = c.Value
		}
		out = append(out, []any{c.Key, v, c.Source})
	}
	return out
}

// ResultColumns returns [partition,] bucket, earliest and latest.
func (p *ShowOffsets) ResultColumns() []ResultColumn {
	cols := []ResultColumn{intCol("bucket"), bigintCol("earliest", false), bigintCol("latest", false)}
	if p.Table.IsPartitioned() {
		cols = append(stringColumns("partition"), cols...)
	}
	return cols
}

// Rows returns one row per bucket, in the order given.
func (p *ShowOffsets) Rows(offsets []BucketOffsets) [][]any {
	out := make([][]any, 0, len(offsets))
	for _, o := range offsets {
		row := []any{o.Bucket, o.Earliest, o.Latest}
		if p.Table.IsPartitioned() {
			row = append([]any{o.Partition}, row...)
		}
		out = append(out, row)
	}
	return out
}

// ResultColumns returns [partition,] bucket, snapshot_id and log_offset
// (both NULL for a bucket without a snapshot yet).
func (p *ShowKvSnapshots) ResultColumns() []ResultColumn {
	cols := []ResultColumn{intCol("bucket"), bigintCol("snapshot_id", true), bigintCol("log_offset", true)}
	if p.Table.IsPartitioned() {
		cols = append(stringColumns("partition"), cols...)
	}
	return cols
}

// Rows returns one row per bucket of each partition, in the order given.
func (p *ShowKvSnapshots) Rows(parts []PartitionSnapshots) [][]any {
	var out [][]any
	for _, ps := range parts {
		for _, s := range ps.Snapshots {
			row := []any{s.Bucket, nil, nil}
			if s.HasSnapshot {
				row[1], row[2] = s.SnapshotID, s.LogOffset
			}
			if p.Table.IsPartitioned() {
				row = append([]any{ps.Partition}, row...)
			}
			out = append(out, row)
		}
	}
	return out
}

// String describes the plan for EXPLAIN.
func (*ShowServers) String() string { return describe("ShowServers").String() }

// String describes the plan for EXPLAIN.
func (p *ShowClusterConfigs) String() string {
	return describe("ShowClusterConfigs").lineIf(p.Like != nil, "like", "%s", likeText(p.Like)).String()
}

// String describes the plan for EXPLAIN.
func (p *ShowOffsets) String() string {
	return describe("ShowOffsets %s", p.Table.Path).partitionsOf(p.Table, &p.SpecFilter).
		line("offsets", "earliest and latest of every bucket (ListOffsets to each bucket leader)").
		pending(p.Placeholders).String()
}

// String describes the plan for EXPLAIN.
func (p *ShowKvSnapshots) String() string {
	what := "latest of every bucket (GetLatestKvSnapshots)"
	if p.Active {
		what = "every one the cluster keeps: retained and in use (ListKvSnapshots, Fluss 1.0)"
	}
	return describe("ShowKvSnapshots %s", p.Table.Path).partitionsOf(p.Table, &p.SpecFilter).
		line("snapshots", "%s", what).
		pending(p.Placeholders).String()
}

// partitionsOf describes which partitions a SHOW … FOR statement covers.
func (d *desc) partitionsOf(info *fluss.TableInfo, f *SpecFilter) *desc {
	if !info.IsPartitioned() {
		return d
	}
	spec := specText(f.Values, f.Spec, f.bound)
	if spec == "" {
		return d.line("partitions", "all")
	}
	return d.line("partitions", "matching %s", spec)
}

func (*ShowServers) plan()        {}
func (*ShowClusterConfigs) plan() {}
func (*ShowOffsets) plan()        {}
func (*ShowKvSnapshots) plan()    {}

func (p *ShowOffsets) bind(bd *binder) (Plan, error) {
	out := *p
	var err error
	if out.Values, out.Spec, err = bindSpec(bd, p.Values, false); err != nil {
		return nil, err
	}
	return &out, nil
}

func (p *ShowKvSnapshots) bind(bd *binder) (Plan, error) {
	out := *p
	var err error
	if out.Values, out.Spec, err = bindSpec(bd, p.Values, false); err != nil {
		return nil, err
	}
	return &out, nil
}

// showFor resolves the table and the optional partial spec of SHOW
// OFFSETS / SHOW KV SNAPSHOTS.
func (b *builder) showFor(t parser.TableName, spec []parser.PartitionValue, st parser.Statement) (*fluss.TableInfo, SpecFilter, error) {
	var info *fluss.TableInfo
	var f SpecFilter
	var err error
	if len(spec) > 0 {
		info, f.Values, err = b.partitionSpec(t, spec, true)
	} else {
		info, err = b.table(t)
	}
	if err != nil {
		return nil, f, err
	}
	f.Placeholders = Placeholders{Params: parser.Placeholders(st), Location: b.sess.Location}
	return info, f, nil
}

func (b *builder) showOffsets(s *parser.ShowOffsets) (Plan, error) {
	info, f, err := b.showFor(s.Table, s.Partition, s)
	if err != nil {
		return nil, err
	}
	return &ShowOffsets{Table: info, SpecFilter: f}, nil
}

func (b *builder) showKvSnapshots(s *parser.ShowKvSnapshots) (Plan, error) {
	info, f, err := b.showFor(s.Table, s.Partition, s)
	if err != nil {
		return nil, err
	}
	if !info.HasPrimaryKey() {
		return nil, &notPrimaryKeyError{path: info.Path}
	}
	return &ShowKvSnapshots{Table: info, SpecFilter: f, Active: s.Active}, nil
}

type notPrimaryKeyError struct{ path fluss.TablePath }

func (e *notPrimaryKeyError) Error() string {
	return "table " + e.path.String() + " is a log table: only primary-key tables have KV snapshots (SHOW OFFSETS FOR " + e.path.String() + " shows its log)"
}
