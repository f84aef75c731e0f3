package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/parser"
)

// CreateACL is CREATE ACL: call Admin.CreateACLs with Binding.
type CreateACL struct {
	Binding fluss.ACLBinding
}

// DropACL is DROP ACL: call Admin.DropACLs with Filter; its result is the number of ACLs
// removed.
type DropACL struct {
	Filter fluss.ACLFilter
}

// ShowACLs is SHOW ACLS [FOR …]: call Admin.ListACLs with Filter, then Rows.
type ShowACLs struct {
	Filter fluss.ACLFilter
}

func (*CreateACL) plan() {}
func (*DropACL) plan()   {}
func (*ShowACLs) plan()  {}

// ACLResource converts the resource of an ACL statement to the server's.
func ACLResource(r parser.ACLResource) fluss.Resource {
	switch r.Type {
	case parser.ACLCluster:
		return fluss.ClusterResource()
	case parser.ACLDatabase:
		return fluss.DatabaseResource(r.Name)
	case parser.ACLTable:
		return fluss.Resource{Type: fluss.ResourceTable, Name: r.Name}
	}
	return fluss.Resource{Type: fluss.ResourceAny}
}

// ACLResourceText renders a server resource as ACL statements write it ('cluster', 'db',
// 'db.t', '*', '*.*').
func ACLResourceText(r fluss.Resource) string {
	switch r.Type {
	case fluss.ResourceCluster:
		return parser.ACLResource{Type: parser.ACLCluster}.String()
	case fluss.ResourceDatabase:
		return parser.ACLResource{Type: parser.ACLDatabase, Name: r.Name}.String()
	case fluss.ResourceTable:
		return parser.ACLResource{Type: parser.ACLTable, Name: r.Name}.String()
	}
	return r.Name
}

func planCreateACL(s *parser.CreateACL) (Plan, error) {
	b := fluss.ACLBinding{Resource: ACLResource(*s.Resource), Host: s.Host, Permission: fluss.PermissionAllow}
	var err error
	if b.Principal, err = fluss.ParsePrincipal(s.Principal); err != nil {
		return nil, err
	}
	if b.Operation, err = fluss.ParseACLOperation(s.Operation); err != nil {
		return nil, err
	}
	return &CreateACL{Binding: b}, nil
}

func aclFilter(s parser.ACLSpec) (fluss.ACLFilter, error) {
	var f fluss.ACLFilter
	if s.Resource != nil {
		r := ACLResource(*s.Resource)
		f.ResourceType, f.ResourceName = r.Type, r.Name
	}
	if s.Principal != "" {
		p, err := fluss.ParsePrincipal(s.Principal)
		if err != nil {
			return f, err
		}
		f.Principal = &p
	}
	if s.Operation != "" {
		op, err := fluss.ParseACLOperation(s.Operation)
		if err != nil {
			return f, err
		}
		f.Operation = op
	}
	if s.Permission != "" {
		f.Permission = fluss.PermissionAllow
	}
	f.Host = s.Host
	return f, nil
}

func planDropACL(s *parser.DropACL) (Plan, error) {
	f, err := aclFilter(s.ACLSpec)
	if err != nil {
		return nil, err
	}
	return &DropACL{Filter: f}, nil
}

func planShowACLs(s *parser.ShowACLs) (Plan, error) {
	var spec parser.ACLSpec
	if s.Resource != nil && s.Resource.Type != parser.ACLAnyResource {
		spec.Resource = s.Resource
	}
	f, err := aclFilter(spec)
	if err != nil {
		return nil, err
	}
	return &ShowACLs{Filter: f}, nil
}

// ResultColumns returns resource, principal, operation, permission, host.
func (p *ShowACLs) ResultColumns() []ResultColumn {
	return stringColumns("resource", "principal", "operation", "permission", "host")
}

// Rows renders the listed ACLs, sorted, with resources in ACL statement form.
func (p *ShowACLs) Rows(acls []fluss.ACLBinding) [][]any {
	rows := make([][]any, 0, len(acls))
	for _, b := range acls {
		principal := b.Principal.String()
		if b.Principal == fluss.WildcardPrincipal {
			principal = "ALL"
		}
		rows = append(rows, []any{ACLResourceText(b.Resource), principal, b.Operation.String(), b.Permission.String(), b.Host})
	}
	slices.SortFunc(rows, func(a, b []any) int {
		for i := range a {
			if c := strings.Compare(a[i].(string), b[i].(string)); c != 0 {
				return c
			}
		}
		return 0
	})
	return rows
}

// String describes the plan for EXPLAIN.
func (p *CreateACL) String() string {
	b := p.Binding
	op := b.Operation.String()
	if b.Operation != fluss.OpDescribe && b.Operation != fluss.OpAll {
		op += " (also allows DESCRIBE)"
	}
	return describe("CreateACL on %s (%s)", parser.QuoteString(ACLResourceText(b.Resource)), b.Resource).
		line("principal", "%s", b.Principal).
		line("operation", "%s", op).
		line("permission", "%s", b.Permission).
		line("host", "%s", b.Host).
		line("request", "CREATE_ACLS to the coordinator; tablet servers apply it after ZooKeeper tells them").String()
}

// String describes the plan for EXPLAIN.
func (p *DropACL) String() string {
	return describe("DropACL matching %s", filterText(p.Filter)).
		line("request", "DROP_ACLS to the coordinator; tablet servers apply it after ZooKeeper tells them").String()
}

// String describes the plan for EXPLAIN.
func (p *ShowACLs) String() string {
	return describe("ShowACLs matching %s", filterText(p.Filter)).
		line("request", "LIST_ACLS to the coordinator (lists the ACLs of resources the user may DESCRIBE)").String()
}

func filterText(f fluss.ACLFilter) string {
	var parts []string
	if f.ResourceType != 0 && f.ResourceType != fluss.ResourceAny {
		r := fluss.Resource{Type: f.ResourceType, Name: f.ResourceName}
		if f.ResourceName == "" {
			parts = append(parts, fmt.Sprintf("resource type %s", f.ResourceType))
		} else {
			parts = append(parts, "resource "+r.String())
		}
	}
	if f.Principal != nil {
		parts = append(parts, "principal "+f.Principal.String())
	}
	if f.Operation != 0 && f.Operation != fluss.OpAny {
		parts = append(parts, "operation "+f.Operation.String())
	}
	if f.Permission != 0 && f.Permission != fluss.PermissionAny {
		parts = append(parts, "permission "+f.Permission.String())
	}
	if f.Host != "" {
		parts = append(parts, "host "+f.Host)
	}
	if len(parts) == 0 {
		return "every ACL"
	}
	return strings.Join(parts, ", ")
}
