package planner

import (
	"fmt"
	"strings"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/parser"
)

// The ACL procedures sys.add_acl, sys.drop_acl and sys.list_acl take resource, permission,
// principal, operation and host, positional or named. As in Flink: 'ANY' (or NULL) matches
// every value in drop_acl and list_acl; a host not given is '*' in all three (so list_acl
// without host lists only the ACLs for every host); list_acl's rows are strings
// resource="cluster.db.t";permission="ALLOW";principal="User:alice";operation="READ";host="*".
// Resources are read as CREATE ACL reads them: 'cluster', 'cluster.db', 'cluster.db.t' (Flink's
// forms) and also 'db', 'db.t', '*', '*.*'.

var aclParams = []procParam{{name: "resource"}, {name: "permission"}, {name: "principal"}, {name: "operation"}, {name: "host", optional: true}}

func init() {
	register("add_acl", procedure{
		params:  aclParams,
		example: "CALL sys.add_acl(resource => 'cluster.db.t', permission => 'ALLOW', principal => 'User:alice', operation => 'READ')",
		plan: func(a callArgs) (CallPlan, error) {
			spec, err := aclSpec(a, true)
			if err != nil {
				return nil, err
			}
			p, err := planCreateACL(&parser.CreateACL{ACLSpec: spec})
			if err != nil {
				return nil, err
			}
			return &CallAddACL{Binding: p.(*CreateACL).Binding}, nil
		},
	})
	register("drop_acl", procedure{
		params:  aclParams,
		example: "CALL sys.drop_acl(resource => 'ANY', permission => 'ANY', principal => 'User:alice', operation => 'ANY', host => 'ANY')",
		plan: func(a callArgs) (CallPlan, error) {
			f, err := aclCallFilter(a)
			return &CallDropACL{Filter: f}, err
		},
	})
	listParams := append([]procParam{aclParams[0]}, aclParams[1:]...)
	for i := 1; i < len(listParams); i++ {
		listParams[i].optional = true
	}
	register("list_acl", procedure{
		params:  listParams,
		example: "CALL sys.list_acl(resource => 'ANY', principal => 'User:alice')",
		plan: func(a callArgs) (CallPlan, error) {
			f, err := aclCallFilter(a)
			return &CallListACL{Filter: f}, err
		},
	})
}

// aclSpec reads the ACL arguments; NULL is 'ANY' (refused by add_acl), host not given '*'.
func aclSpec(a callArgs, create bool) (parser.ACLSpec, error) {
	var spec parser.ACLSpec
	for _, p := range aclParams {
		v, ok := a.str(p.name)
		switch {
		case !ok && p.name == "host":
			v = "*" // Flink's default, NULL included
		case !ok:
			v = "ANY"
		}
		if err := spec.Set(p.name, v, create); err != nil {
			return spec, fmt.Errorf("CALL sys.%s: %s: %w", a.proc, p.name, err)
		}
	}
	return spec, nil
}

func aclCallFilter(a callArgs) (fluss.ACLFilter, error) {
	spec, err := aclSpec(a, false)
	if err != nil {
		return fluss.ACLFilter{}, err
	}
	return aclFilter(spec)
}

// CallAddACL is CALL sys.add_acl(…): CREATE_ACLS with one binding; answers "success".
type CallAddACL struct {
	Binding fluss.ACLBinding
}

// CallDropACL is CALL sys.drop_acl(…): DROP_ACLS with one filter; answers "success".
type CallDropACL struct {
	Filter fluss.ACLFilter
}

// CallListACL is CALL sys.list_acl(…): LIST_ACLS with one filter; one string per ACL.
type CallListACL struct {
	Filter fluss.ACLFilter
}

func (*CallAddACL) plan()  {}
func (*CallDropACL) plan() {}
func (*CallListACL) plan() {}

// ProcedureName returns "sys.add_acl".
func (*CallAddACL) ProcedureName() string { return "sys.add_acl" }

// ProcedureName returns "sys.drop_acl".
func (*CallDropACL) ProcedureName() string { return "sys.drop_acl" }

// ProcedureName returns "sys.list_acl".
func (*CallListACL) ProcedureName() string { return "sys.list_acl" }

// ResultColumns returns Flink's one column, result.
func (*CallAddACL) ResultColumns() []ResultColumn { return resultColumn() }

// ResultColumns returns Flink's one column, result.
func (*CallDropACL) ResultColumns() []ResultColumn { return resultColumn() }

// ResultColumns returns Flink's one column, result.
func (*CallListACL) ResultColumns() []ResultColumn { return resultColumn() }

// Rows returns "success".
func (*CallAddACL) Rows() [][]any { return success }

// Rows returns "success".
func (*CallDropACL) Rows() [][]any { return success }

// Rows renders each ACL as Flink's list_acl does, in the server's order.
func (*CallListACL) Rows(acls []fluss.ACLBinding) [][]any {
	out := make([]string, len(acls))
	for i, b := range acls {
		resource := "cluster"
		if b.Resource.Type != fluss.ResourceCluster {
			resource = "cluster." + b.Resource.Name
		}
		fields := []string{
			entry("resource", resource), entry("permission", b.Permission.String()),
			entry("principal", b.Principal.String()), entry("operation", b.Operation.String()),
			entry("host", b.Host),
		}
		out[i] = strings.Join(fields, ";")
	}
	return stringRows(out...)
}

func entry(k, v string) string {
	if v == "" {
		return ""
	}
	return k + `="` + v + `"`
}

// String describes the plan for EXPLAIN.
func (p *CallAddACL) String() string {
	return "CallAddACL (sys.add_acl): " + (&CreateACL{Binding: p.Binding}).String()
}

// String describes the plan for EXPLAIN.
func (p *CallDropACL) String() string {
	return "CallDropACL (sys.drop_acl): " + (&DropACL{Filter: p.Filter}).String()
}

// String describes the plan for EXPLAIN.
func (p *CallListACL) String() string {
	return "CallListACL (sys.list_acl): " + (&ShowACLs{Filter: p.Filter}).String()
}
