package parser

import "strings"

// The cluster-inspection statements of the Fluss CLI: SHOW SERVERS,
// SHOW OFFSETS, SHOW KV SNAPSHOTS and SHOW CLUSTER CONFIGS.

// ShowServers is SHOW SERVERS: the coordinator and the tablet servers.
type ShowServers struct{}

// ShowOffsets is SHOW OFFSETS FOR t [PARTITION (k = 'v', …)]: the earliest
// and latest offset of every bucket (of one partition, or of every
// partition of a partitioned table when no spec is given).
type ShowOffsets struct {
	Table     TableName
	Partition []PartitionValue
}

// ShowKvSnapshots is SHOW [ACTIVE] KV SNAPSHOTS FOR t [PARTITION (…)]: the latest
// snapshot of every bucket of a primary-key table, or with ACTIVE every snapshot the
// cluster keeps (retained or still in use; Fluss 1.0).
type ShowKvSnapshots struct {
	Table     TableName
	Partition []PartitionValue
	Active    bool
}

// ShowClusterConfigs is SHOW CLUSTER CONFIGS [LIKE '…'].
type ShowClusterConfigs struct {
	Like *string
}

func (*ShowServers) statement()        {}
func (*ShowOffsets) statement()        {}
func (*ShowKvSnapshots) statement()    {}
func (*ShowClusterConfigs) statement() {}

// String renders the statement as canonical SQL.
func (*ShowServers) String() string { return "SHOW SERVERS" }

// String renders the statement as canonical SQL.
func (s *ShowOffsets) String() string { return showFor("SHOW OFFSETS FOR ", s.Table, s.Partition) }

// String renders the statement as canonical SQL.
func (s *ShowKvSnapshots) String() string {
	if s.Active {
		return showFor("SHOW ACTIVE KV SNAPSHOTS FOR ", s.Table, s.Partition)
	}
	return showFor("SHOW KV SNAPSHOTS FOR ", s.Table, s.Partition)
}

// String renders the statement as canonical SQL.
func (s *ShowClusterConfigs) String() string {
	if s.Like == nil {
		return "SHOW CLUSTER CONFIGS"
	}
	return "SHOW CLUSTER CONFIGS LIKE " + QuoteString(*s.Like)
}

func showFor(head string, t TableName, spec []PartitionValue) string {
	out := head + t.String()
	if len(spec) > 0 {
		out += " " + partitionSpec(spec)
	}
	return out
}

// showAdmin parses the rest of SHOW SERVERS | OFFSETS FOR … | KV SNAPSHOTS
// FOR … | CLUSTER CONFIGS; ok is false when the next words are none of them.
func (p *ddlParser) showAdmin() (st Statement, ok bool, err error) {
	switch {
	case p.word("servers"):
		return &ShowServers{}, true, p.end()
	case p.word("jobs"):
		return &ShowJobs{}, true, p.end()
	case p.word("offsets"):
		t, spec, err := p.forTable()
		return &ShowOffsets{Table: t, Partition: spec}, true, err
	case p.words("kv", "snapshots"):
		t, spec, err := p.forTable()
		return &ShowKvSnapshots{Table: t, Partition: spec}, true, err
	case p.words("active", "kv", "snapshots"):
		t, spec, err := p.forTable()
		return &ShowKvSnapshots{Table: t, Partition: spec, Active: true}, true, err
	case p.words("cluster", "health"):
		return &ShowClusterHealth{}, true, p.end()
	case p.words("create", "database"), p.words("create", "schema"):
		name, _, err := p.ident("a database name")
		if err != nil {
			return nil, true, err
		}
		return &ShowCreateDatabase{Name: name}, true, p.end()
	case p.words("cluster", "configs"):
		s := &ShowClusterConfigs{}
		if s.Like, err = p.like(); err != nil {
			return nil, true, err
		}
		if s.Like == nil {
			return s, true, p.end("LIKE")
		}
		return s, true, p.end()
	}
	return nil, false, nil
}

// forTable parses FOR t [PARTITION (…)] to the end of the statement.
func (p *ddlParser) forTable() (TableName, []PartitionValue, error) {
	if err := p.expectWords("for"); err != nil {
		return TableName{}, nil, err
	}
	t, err := p.tableName()
	if err != nil {
		return TableName{}, nil, err
	}
	if !p.word("partition") {
		return t, nil, p.end("PARTITION")
	}
	spec, err := p.partitionSpec()
	if err != nil {
		return TableName{}, nil, err
	}
	return t, spec, p.end()
}

// ReturnsRows reports whether a statement has a result set (is run with
// Query rather than Exec): SELECT, SHOW, DESCRIBE, EXPLAIN and CALL (whose procedures answer
// with rows, as in Flink; Exec runs them too and drops the rows).
func ReturnsRows(st Statement) bool {
	if w, ok := st.(*FlinkWindowQuery); ok {
		return !w.Insert
	}
	switch st.(type) {
	case *Select, *ShowDatabases, *ShowTables, *ShowCreateTable, *Describe, *ShowPartitions, *Explain,
		*ShowServers, *ShowOffsets, *ShowKvSnapshots, *ShowClusterConfigs, *ShowClusterHealth, *ShowCreateDatabase, *ShowACLs,
		*Call, *ShowJobs, *StopJob, *ShowFunctions:
		return true
	}
	return false
}

// StatementKind names a statement for messages by its first keyword, e.g. "SELECT",
// "INSERT", "ALTER".
func StatementKind(st Statement) string {
	s := st.String()
	if i := strings.IndexAny(s, " \n"); i > 0 {
		return strings.ToUpper(s[:i])
	}
	return "the statement"
}
