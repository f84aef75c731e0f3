package parser

import (
	"fmt"
	"slices"
	"strings"
)

// The ACL statements, in the vocabulary of Fluss's Flink procedures sys.add_acl, sys.drop_acl
// and sys.list_acl (named arguments resource, permission, principal, operation, host):
//
//	CREATE ACL (resource => 'db.t', principal => 'User:alice', operation => 'READ'
//	            [, permission => 'ALLOW'] [, host => '*'])
//	DROP ACL (resource => …, principal => …, operation => …, permission => …, host => …)
//	SHOW ACLS [FOR 'resource']
//
// Arguments come in any order, each at most once; '=' may stand for '=>'. DROP ACL needs at
// least one argument, and an argument it lacks (or 'ANY') matches every value.

// ACLResourceType is the kind of resource an ACL statement names.
type ACLResourceType int

// Resource kinds of ACL statements.
const (
	ACLAnyResource ACLResourceType = iota // 'ANY' (DROP ACL, SHOW ACLS only)
	ACLCluster                            // 'cluster'
	ACLDatabase                           // 'db', 'cluster.db', '*' (every database)
	ACLTable                              // 'db.t', 'cluster.db.t', '*.*' (every table)
)

// ACLResource is the resource of an ACL statement. Name is "" (any, cluster), a database, a
// "db.table", or "*" (every database, or every table).
type ACLResource struct {
	Type ACLResourceType
	Name string
}

// ParseACLResource reads a resource as ACL statements write it: 'cluster'; a database 'db'
// or 'cluster.db'; a table 'db.t' or 'cluster.db.t' (the Flink procedures' form); '*' every
// database (for database-level operations such as CREATE TABLE: the server does not extend
// it to the tables), '*.*' every table; 'ANY' any resource (filters). A database named "cluster" is
// written 'cluster.cluster'.
func ParseACLResource(s string) (ACLResource, error) {
	if strings.EqualFold(s, "any") {
		return ACLResource{Type: ACLAnyResource}, nil
	}
	parts := strings.Split(s, ".")
	if strings.EqualFold(parts[0], "cluster") {
		parts = parts[1:]
		if len(parts) == 0 {
			return ACLResource{Type: ACLCluster}, nil
		}
	}
	for _, p := range parts {
		if p == "" || strings.TrimSpace(p) != p {
			return ACLResource{}, fmt.Errorf("resource %s: names cannot be empty or start or end with spaces (write 'cluster', 'db' or 'db.table')", QuoteString(s))
		}
	}
	switch {
	case len(parts) == 1:
		return ACLResource{Type: ACLDatabase, Name: parts[0]}, nil
	case len(parts) == 2 && parts[0] == "*" && parts[1] == "*":
		return ACLResource{Type: ACLTable, Name: "*"}, nil
	case len(parts) == 2 && parts[1] == "*":
		return ACLResource{}, fmt.Errorf("resource %s: a grant on database %s covers all its tables; write resource => %s", QuoteString(s), parts[0], QuoteString(parts[0]))
	case len(parts) == 2 && parts[0] == "*":
		return ACLResource{}, fmt.Errorf("resource %s: Fluss has no wildcard database with a named table; write '*.*' (every table) or 'db.%s'", QuoteString(s), parts[1])
	case len(parts) == 2:
		return ACLResource{Type: ACLTable, Name: parts[0] + "." + parts[1]}, nil
	}
	return ACLResource{}, fmt.Errorf("resource %s: write 'cluster', 'db', 'db.table', '*' (every database) or '*.*' (every table)", QuoteString(s))
}

// String renders the resource as ParseACLResource reads it.
func (r ACLResource) String() string {
	switch r.Type {
	case ACLAnyResource:
		return "ANY"
	case ACLCluster:
		return "cluster"
	case ACLTable:
		if r.Name == "*" {
			return "*.*"
		}
	}
	if db, _, _ := strings.Cut(r.Name, "."); strings.EqualFold(db, "cluster") {
		return "cluster." + r.Name
	}
	return r.Name
}

// ACLOperations are the Fluss operations (OperationType) an ACL can allow; ANY is for filters.
var ACLOperations = []string{"ALL", "READ", "WRITE", "CREATE", "DROP", "ALTER", "DESCRIBE"}

// ACLSpec is the argument list of CREATE ACL or DROP ACL. An empty field was not given (for
// DROP ACL: matches every value; a nil Resource matches every resource). Principal is "Type:Name" ("*:*" for every principal),
// Operation and Permission are upper case.
type ACLSpec struct {
	Resource   *ACLResource
	Principal  string
	Operation  string
	Permission string
	Host       string
}

// CreateACL is CREATE ACL (…): allow a principal an operation on a resource.
type CreateACL struct {
	ACLSpec
}

// DropACL is DROP ACL (…): remove every ACL that matches.
type DropACL struct {
	ACLSpec
}

// ShowACLs is SHOW ACLS [FOR 'resource']; Resource is nil without FOR.
type ShowACLs struct {
	Resource *ACLResource
}

func (*CreateACL) statement() {}
func (*DropACL) statement()   {}
func (*ShowACLs) statement()  {}

// String renders the statement canonically.
func (s *CreateACL) String() string { return "CREATE ACL " + s.ACLSpec.String() }

// String renders the statement canonically.
func (s *DropACL) String() string { return "DROP ACL " + s.ACLSpec.String() }

// String renders the statement canonically.
func (s *ShowACLs) String() string {
	if s.Resource == nil {
		return "SHOW ACLS"
	}
	return "SHOW ACLS FOR " + QuoteString(s.Resource.String())
}

// String renders the argument list, e.g. "(resource => 'db.t', principal => 'User:alice')".
func (s ACLSpec) String() string {
	var parts []string
	add := func(k, v string) {
		if v != "" {
			parts = append(parts, k+" => "+QuoteString(v))
		}
	}
	if s.Resource != nil {
		add("resource", s.Resource.String())
	}
	add("principal", principalText(s.Principal))
	add("operation", s.Operation)
	add("permission", s.Permission)
	add("host", s.Host)
	if len(parts) == 0 {
		parts = append(parts, "resource => 'ANY'") // DROP ACL matching every ACL
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

func principalText(p string) string {
	if p == "*:*" {
		return "ALL"
	}
	return p
}

// aclStatement parses the rest of CREATE ACL / DROP ACL (create tells which).
func (p *ddlParser) aclStatement(create bool) (Statement, error) {
	spec, err := p.aclSpec(create)
	if err != nil {
		return nil, err
	}
	if err := p.end(); err != nil {
		return nil, err
	}
	if create {
		return &CreateACL{ACLSpec: spec}, nil
	}
	return &DropACL{ACLSpec: spec}, nil
}

// aclSpec parses "(name => 'value', …)".
func (p *ddlParser) aclSpec(create bool) (ACLSpec, error) {
	var s ACLSpec
	if err := p.expectPunct('('); err != nil {
		return s, err
	}
	names := []string{"resource", "principal", "operation", "permission", "host"}
	seen := map[string]bool{}
	for {
		t := p.peek()
		name, _, err := p.ident("an ACL argument (" + strings.Join(names, ", ") + ")")
		if err != nil {
			return s, err
		}
		name = strings.ToLower(name)
		if !slices.Contains(names, name) {
			return s, p.errAt(t, "unknown ACL argument "+name+"; the arguments are "+strings.Join(names, ", "))
		}
		if seen[name] {
			return s, p.errAt(t, "ACL argument "+name+" is given twice")
		}
		seen[name] = true
		if err := p.expectPunct('='); err != nil {
			return s, err
		}
		p.punct('>') // "=>" lexes as '=' '>'
		vt := p.peek()
		v, err := p.str("a string value for " + name)
		if err != nil {
			return s, err
		}
		if err := s.Set(name, v, create); err != nil {
			return s, p.errAt(vt, err.Error())
		}
		if !p.punct(',') {
			break
		}
	}
	if err := p.expectPunct(')'); err != nil {
		return s, err
	}
	if create {
		var missing []string
		for _, n := range []string{"resource", "principal", "operation"} {
			if !seen[n] {
				missing = append(missing, n)
			}
		}
		if len(missing) > 0 {
			return s, p.errAt(p.peekAt(-1), "CREATE ACL needs "+strings.Join(missing, ", ")+" (e.g. CREATE ACL (resource => 'db.t', principal => 'User:alice', operation => 'READ'))")
		}
		if s.Permission == "" {
			s.Permission = "ALLOW"
		}
		if s.Host == "" {
			s.Host = "*"
		}
	}
	return s, nil
}

// Set validates and stores one argument (resource, principal, operation, permission, host) as
// CREATE ACL (create) or DROP ACL and SHOW ACLS read it; "ANY" (filters only) leaves the field
// empty. The CALL sys.*_acl procedures use it too.
func (s *ACLSpec) Set(name, v string, create bool) error {
	isAny := strings.EqualFold(v, "any")
	if isAny && create {
		return fmt.Errorf("ANY matches every value in DROP ACL and SHOW ACLS; CREATE ACL needs a concrete %s", name)
	}
	switch name {
	case "resource":
		r, err := ParseACLResource(v)
		if err != nil {
			return err
		}
		if r.Type != ACLAnyResource {
			s.Resource = &r
		}
	case "principal":
		switch {
		case isAny:
		case v == "*" || v == "*:*" || strings.EqualFold(v, "all"):
			s.Principal = "*:*"
		default:
			typ, n, ok := strings.Cut(v, ":")
			if !ok || typ == "" || n == "" || strings.Contains(n, ":") {
				return fmt.Errorf("principal %s must be PrincipalType:PrincipalName (e.g. 'User:alice') or 'ALL' (every principal)", QuoteString(v))
			}
			s.Principal = v
		}
	case "operation":
		up := strings.ToUpper(v)
		if !isAny && !slices.Contains(ACLOperations, up) {
			return fmt.Errorf("operation %s: one of %s", QuoteString(v), strings.Join(ACLOperations, ", "))
		}
		if !isAny {
			s.Operation = up
		}
	case "permission":
		if !isAny && !strings.EqualFold(v, "allow") {
			return fmt.Errorf("permission %s: Fluss knows only 'ALLOW' (it has no DENY)", QuoteString(v))
		}
		if !isAny {
			s.Permission = "ALLOW"
		}
	case "host":
		if v == "" {
			return fmt.Errorf("host cannot be empty; '*' is every host")
		}
		if !isAny {
			s.Host = v
		}
	}
	return nil
}

// showACLs parses the rest of SHOW ACLS.
func (p *ddlParser) showACLs() (Statement, error) {
	s := &ShowACLs{}
	if !p.word("for") {
		return s, p.end("FOR")
	}
	t := p.peek()
	v, err := p.str("a resource string (e.g. 'db.t')")
	if err != nil {
		return nil, err
	}
	r, err := ParseACLResource(v)
	if err != nil {
		return nil, p.errAt(t, err.Error())
	}
	s.Resource = &r
	return s, p.end()
}
