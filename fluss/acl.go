package fluss

import (
	"fmt"
	"strings"

	"github.com/flussql/flussql/fluss/flusserr"
)

// ACL vocabulary of the Fluss authorizer (fluss-common security/acl in Fluss 0.9.1): an ACL
// binding allows a principal an operation on a resource, from a host. The codes are the
// server's wire codes.

// ResourceType is the kind of resource an ACL is bound to.
type ResourceType int8

// Resource types (Fluss ResourceType codes). A grant on the cluster covers every database and
// table, a grant on a database every table in it.
const (
	ResourceAny      ResourceType = 1 // filters only: every type
	ResourceCluster  ResourceType = 2
	ResourceDatabase ResourceType = 3
	ResourceTable    ResourceType = 4
)

// ACLOperation is the operation an ACL allows.
type ACLOperation int8

// Operations (Fluss OperationType codes). ALL allows every operation; any of READ, WRITE,
// CREATE, DROP, ALTER also allows DESCRIBE.
const (
	OpAny      ACLOperation = 1 // filters only: every operation
	OpAll      ACLOperation = 2
	OpRead     ACLOperation = 3
	OpWrite    ACLOperation = 4
	OpCreate   ACLOperation = 5
	OpDrop     ACLOperation = 6
	OpAlter    ACLOperation = 7
	OpDescribe ACLOperation = 8
)

// ACLPermission is the permission of an ACL; Fluss 0.9.1 only knows ALLOW.
type ACLPermission int8

// Permissions (Fluss PermissionType codes).
const (
	PermissionAny   ACLPermission = 1 // filters only: every permission
	PermissionAllow ACLPermission = 2
)

// Names of special resources, principals and hosts.
const (
	// ClusterResourceName is the name of the one cluster resource.
	ClusterResourceName = "fluss-cluster"
	// WildcardResource as a resource name matches every resource of its type.
	WildcardResource = "*"
	// WildcardHost as an ACL's host matches every client address.
	WildcardHost = "*"
)

var (
	resourceTypeNames = map[ResourceType]string{ResourceAny: "ANY", ResourceCluster: "CLUSTER", ResourceDatabase: "DATABASE", ResourceTable: "TABLE"}
	operationNames    = map[ACLOperation]string{OpAny: "ANY", OpAll: "ALL", OpRead: "READ", OpWrite: "WRITE", OpCreate: "CREATE", OpDrop: "DROP", OpAlter: "ALTER", OpDescribe: "DESCRIBE"}
	permissionNames   = map[ACLPermission]string{PermissionAny: "ANY", PermissionAllow: "ALLOW"}
)

// String returns the Fluss name, e.g. "TABLE".
func (t ResourceType) String() string { return nameOf(resourceTypeNames, t) }

// String returns the Fluss name, e.g. "WRITE".
func (o ACLOperation) String() string { return nameOf(operationNames, o) }

// String returns the Fluss name, e.g. "ALLOW".
func (p ACLPermission) String() string { return nameOf(permissionNames, p) }

func nameOf[K ~int8](names map[K]string, k K) string {
	if n, ok := names[k]; ok {
		return n
	}
	return fmt.Sprintf("UNKNOWN(%d)", int8(k))
}

// ParseACLOperation returns the operation with this Fluss name (any case).
func ParseACLOperation(s string) (ACLOperation, error) {
	return parseName(operationNames, s, "operation")
}

// ParseACLPermission returns the permission with this Fluss name (any case).
func ParseACLPermission(s string) (ACLPermission, error) {
	return parseName(permissionNames, s, "permission")
}

func parseName[K ~int8](names map[K]string, s, what string) (K, error) {
	var all []string
	for k := K(1); int(k) <= len(names); k++ {
		if strings.EqualFold(names[k], s) {
			return k, nil
		}
		all = append(all, names[k])
	}
	return 0, fmt.Errorf("fluss: unknown ACL %s %q (one of %s)", what, s, strings.Join(all, ", "))
}

// Resource is what an ACL is bound to.
type Resource struct {
	// Type is the kind of resource: the cluster, a database or a table.
	Type ResourceType
	// Name is ClusterResourceName, a database name, "db.table", or WildcardResource.
	Name string
}

// ClusterResource returns the cluster resource.
func ClusterResource() Resource { return Resource{ResourceCluster, ClusterResourceName} }

// DatabaseResource returns the resource of a database.
func DatabaseResource(db string) Resource { return Resource{ResourceDatabase, db} }

// TableResource returns the resource of a table.
func TableResource(p TablePath) Resource {
	return Resource{ResourceTable, p.Database + "." + p.Table}
}

// String returns e.g. "TABLE fluss.orders".
func (r Resource) String() string { return r.Type.String() + " " + r.Name }

// Principal is an authenticated identity, e.g. {Type: "User", Name: "alice"} for the SASL
// user alice. {"*", "*"} (WildcardPrincipal) in an ACL matches every principal.
type Principal struct {
	// Type is the principal's kind ("User" for SASL users); Name its name.
	Type, Name string
}

// WildcardPrincipal in an ACL matches every principal.
var WildcardPrincipal = Principal{"*", "*"}

// UserPrincipal returns the principal of a SASL user.
func UserPrincipal(name string) Principal { return Principal{"User", name} }

// String returns "Type:Name", e.g. "User:alice".
func (p Principal) String() string { return p.Type + ":" + p.Name }

// ParsePrincipal parses "Type:Name", e.g. "User:alice"; "*" or "*:*" is WildcardPrincipal.
func ParsePrincipal(s string) (Principal, error) {
	if s == "*" {
		return WildcardPrincipal, nil
	}
	t, n, ok := strings.Cut(s, ":")
	if !ok || t == "" || n == "" || strings.Contains(n, ":") {
		return Principal{}, fmt.Errorf("fluss: principal %q must be PrincipalType:PrincipalName, e.g. User:alice", s)
	}
	return Principal{t, n}, nil
}

// ACLBinding allows Principal the Operation on Resource from Host.
type ACLBinding struct {
	// Resource is what the ACL is bound to.
	Resource Resource
	// Principal is who it allows.
	Principal Principal
	// Host is the client address it applies to; WildcardHost for every address.
	Host string
	// Operation is what it allows (READ, WRITE, CREATE, …; OpAll for every operation).
	Operation ACLOperation
	// Permission is PermissionAllow (Fluss has no DENY).
	Permission ACLPermission
}

// String returns e.g. "User:alice may WRITE on TABLE fluss.orders from host * (ALLOW)".
func (b ACLBinding) String() string {
	return fmt.Sprintf("%s may %s on %s from host %s (%s)", b.Principal, b.Operation, b.Resource, b.Host, b.Permission)
}

// check reports a binding the server would refuse or misread.
func (b ACLBinding) check() error {
	switch {
	case b.Resource.Type < ResourceCluster || b.Resource.Type > ResourceTable:
		return fmt.Errorf("fluss: an ACL needs a cluster, database or table resource, not %s", b.Resource.Type)
	case b.Resource.Name == "":
		return fmt.Errorf("fluss: an ACL needs a resource name")
	case b.Resource.Type == ResourceCluster && b.Resource.Name != ClusterResourceName:
		return fmt.Errorf("fluss: the cluster resource is named %q, not %q", ClusterResourceName, b.Resource.Name)
	case b.Resource.Type == ResourceTable && b.Resource.Name != WildcardResource && strings.Count(b.Resource.Name, ".") != 1:
		return fmt.Errorf("fluss: a table resource is named database.table, not %q", b.Resource.Name)
	case b.Principal.Type == "" || b.Principal.Name == "":
		return fmt.Errorf("fluss: an ACL needs a principal (e.g. User:alice)")
	case b.Host == "":
		return fmt.Errorf("fluss: an ACL needs a host (%q for every host)", WildcardHost)
	case b.Operation < OpAll || b.Operation > OpDescribe:
		return fmt.Errorf("fluss: an ACL needs an operation other than %s", b.Operation)
	case b.Permission != PermissionAllow:
		return fmt.Errorf("fluss: an ACL's permission must be ALLOW (Fluss 0.9.1 has no DENY), not %s", b.Permission)
	}
	return nil
}

// ACLFilter selects ACL bindings; its zero value's fields mean "any": ResourceType 0 or
// ResourceAny, an empty ResourceName, a nil Principal, an empty Host, Operation 0 or OpAny,
// Permission 0 or PermissionAny.
type ACLFilter struct {
	// ResourceType selects bindings of one kind of resource (0 or ResourceAny: every kind).
	ResourceType ResourceType
	// ResourceName selects one resource by name ("": any).
	ResourceName string
	// Principal selects one principal (nil: any).
	Principal *Principal
	// Host selects one client address ("": any).
	Host string
	// Operation selects one operation (0 or OpAny: any).
	Operation ACLOperation
	// Permission selects one permission (0 or PermissionAny: any).
	Permission ACLPermission
}

// Matches reports whether b is selected by f (the server's matching rules).
func (f ACLFilter) Matches(b ACLBinding) bool {
	rt := orAny(f.ResourceType, ResourceAny)
	if rt != ResourceAny && (rt != b.Resource.Type || (f.ResourceName != "" && f.ResourceName != b.Resource.Name)) {
		return false
	}
	if f.Principal != nil && *f.Principal != b.Principal {
		return false
	}
	if f.Host != "" && f.Host != b.Host {
		return false
	}
	if op := orAny(f.Operation, OpAny); op != OpAny && op != b.Operation {
		return false
	}
	if p := orAny(f.Permission, PermissionAny); p != PermissionAny && p != b.Permission {
		return false
	}
	return true
}

func orAny[K ~int8](k, anyValue K) K {
	if k == 0 {
		return anyValue
	}
	return k
}

// ErrPermissionDenied matches the server's AUTHORIZATION_EXCEPTION: the authenticated
// principal lacks an ACL for the request (it is flusserr.AuthorizationException under a
// clearer name). It is never retried; a write it refuses stored nothing (ErrNotWritten).
const ErrPermissionDenied = flusserr.AuthorizationException
