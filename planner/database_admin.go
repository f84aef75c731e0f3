package planner

import (
	"maps"
	"slices"
	"strings"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/types"
	"github.com/flussql/flussql/parser"
)

// AlterDatabase is ALTER DATABASE: call Admin.AlterDatabase(Name,
// IgnoreIfNotExists, Changes()...) (Fluss 1.0+).
type AlterDatabase struct {
	Name              string
	IgnoreIfNotExists bool
	// Set, Reset and Comment are the statement's changes (one kind each).
	Set     map[string]string
	Reset   []string
	Comment *string
}

// Changes returns the wire client's changes, in a stable order.
func (p *AlterDatabase) Changes() []fluss.DatabaseChange {
	var out []fluss.DatabaseChange
	for _, k := range slices.Sorted(maps.Keys(p.Set)) {
		out = append(out, fluss.SetDatabaseProperty(k, p.Set[k]))
	}
	for _, k := range p.Reset {
		out = append(out, fluss.ResetDatabaseProperty(k))
	}
	if p.Comment != nil {
		out = append(out, fluss.SetDatabaseComment(*p.Comment))
	}
	return out
}

// ShowCreateDatabase is SHOW CREATE DATABASE db: call
// Admin.GetDatabaseInfo(Name) and pass the answer to Rows.
type ShowCreateDatabase struct {
	Name string
}

// ShowClusterHealth is SHOW CLUSTER HEALTH: call Admin.ClusterHealth and
// pass the answer to Rows (Fluss 1.0+).
type ShowClusterHealth struct{}

// ResultColumns returns the single column "create database".
func (*ShowCreateDatabase) ResultColumns() []ResultColumn {
	return stringColumns("create database")
}

// Rows returns the database as one CREATE DATABASE statement.
func (*ShowCreateDatabase) Rows(info *fluss.DatabaseInfo) [][]any {
	s := &parser.CreateDatabase{Name: info.Name, Comment: info.Descriptor.Comment, Properties: info.Descriptor.CustomProperties}
	return [][]any{{s.String()}}
}

// ResultColumns returns status, replicas, in_sync_replicas, leaders and
// active_leaders.
func (*ShowClusterHealth) ResultColumns() []ResultColumn {
	return []ResultColumn{
		{Name: "status", Type: types.NewString().AsNotNull()},
		intCol("replicas"), intCol("in_sync_replicas"), intCol("leaders"), intCol("active_leaders"),
	}
}

// Rows returns the one row of the cluster's health.
func (*ShowClusterHealth) Rows(h fluss.ClusterHealth) [][]any {
	return [][]any{{h.Status.String(), h.Replicas, h.InSyncReplicas, h.LeaderReplicas, h.ActiveLeaders}}
}

// String describes the plan for EXPLAIN.
func (p *AlterDatabase) String() string {
	d := describe("AlterDatabase %s", p.Name).lineIf(p.IgnoreIfNotExists, "if exists", "true").
		lineIf(len(p.Set) > 0, "set", "%s", props(p.Set))
	if len(p.Reset) > 0 {
		q := make([]string, len(p.Reset))
		for i, k := range p.Reset {
			q[i] = parser.QuoteString(k)
		}
		d = d.line("reset", "%s", strings.Join(q, ", "))
	}
	if p.Comment != nil {
		d = d.line("comment", "%s", parser.QuoteString(*p.Comment))
	}
	return d.line("needs", "Fluss 1.0+ (ALTER_DATABASE)").String()
}

// String describes the plan for EXPLAIN.
func (p *ShowCreateDatabase) String() string {
	return describe("ShowCreateDatabase %s", p.Name).String()
}

// String describes the plan for EXPLAIN.
func (*ShowClusterHealth) String() string {
	return describe("ShowClusterHealth").line("needs", "Fluss 1.0+ (GET_CLUSTER_HEALTH)").String()
}

func (*AlterDatabase) plan()      {}
func (*ShowCreateDatabase) plan() {}
func (*ShowClusterHealth) plan()  {}

func (b *builder) alterDatabase(s *parser.AlterDatabase) (Plan, error) {
	return &AlterDatabase{Name: s.Name, IgnoreIfNotExists: s.IfExists, Set: s.Set, Reset: s.Reset, Comment: s.Comment}, nil
}
