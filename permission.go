package flussql

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/parser"
)

// ErrPermissionDenied matches the error of a statement the server refused because the
// connection's user lacks an ACL (Fluss AUTHORIZATION_EXCEPTION); the error is a
// *PermissionError that names the operation, the resource, the principal and the CREATE ACL
// statement that would allow it. It is never retried (by flussql or database/sql: it is not
// driver.ErrBadConn), and a refused write matches ErrNotWritten.
var ErrPermissionDenied = fluss.ErrPermissionDenied

// PermissionError is a statement the server refused for lack of an ACL.
type PermissionError struct {
	// Principal is the connection's principal, e.g. "User:alice" (User:ANONYMOUS without SASL).
	Principal string
	// Operation is the Fluss operation the statement needs, e.g. "WRITE".
	Operation string
	// Resource is the resource in ACL statement form: 'cluster', 'db' or 'db.table'.
	Resource string
	// Statement is the kind of statement, e.g. "INSERT".
	Statement string
	err       error
}

// Error names what was refused and the ACL that would allow it, then the server's message.
func (e *PermissionError) Error() string {
	return fmt.Sprintf("flussql: permission denied: %s may not %s %s (%s); a super user, or a user with ALTER on the database, can grant it with CREATE ACL (resource => '%s', principal => '%s', operation => '%s', permission => 'ALLOW'): %v",
		e.Principal, e.Operation, describeACLResource(e.Resource), e.Statement, e.Resource, e.Principal, e.Operation, e.err)
}

// Unwrap returns the server's error (and the write outcome, for a write).
func (e *PermissionError) Unwrap() error { return e.err }

// The messages of Fluss 0.9.1's authorizer (AbstractAuthorizer, TabletService).
var (
	denyPrincipal = regexp.MustCompile(`have no authorization to operate (\w+) on resource Resource\{type=(\w+), name='([^']*)'\}`)
	denyBucket    = regexp.MustCompile(`No permission to (\w+) table (\S+) in database (\S+)`)
	denyWriter    = regexp.MustCompile(`No (\w+) permission among all the tables: \[([^\],]+)`)
)

// permissionError turns a server's AUTHORIZATION_EXCEPTION for statement st into a
// *PermissionError; other errors pass unchanged. The operation and resource come from the
// server's message; a refused DESCRIBE (the metadata every statement reads first) is
// reported as the operation the statement needs, which also allows DESCRIBE.
func permissionError(user string, st parser.Statement, database string, err error) error {
	if err == nil || !errors.Is(err, ErrPermissionDenied) {
		return err
	}
	return denied(user, parser.StatementKind(st), neededOperation(st), func() string { return statementTable(st, database) }, err)
}

// denied builds the *PermissionError of a refused statement of this kind (e.g. "INSERT",
// "COMMIT") that needs operation want ("" when the server's message says it better) on the
// resource fallback returns when the message names none.
func denied(user, kind, want string, fallback func() string, err error) error {
	var pe *PermissionError
	if errors.As(err, &pe) {
		return err
	}
	pe = &PermissionError{Principal: "User:ANONYMOUS", Statement: kind, err: err}
	if u := user; u != "" {
		pe.Principal = "User:" + u
	}
	msg := err.Error()
	if m := denyPrincipal.FindStringSubmatch(msg); m != nil {
		pe.Operation, pe.Resource = m[1], aclResourceText(m[2], m[3])
	} else if m := denyBucket.FindStringSubmatch(msg); m != nil {
		pe.Operation, pe.Resource = m[1], aclResourceText("TABLE", m[3]+"."+m[2])
	} else if m := denyWriter.FindStringSubmatch(msg); m != nil {
		pe.Operation, pe.Resource = m[1], aclResourceText("TABLE", m[2])
	}
	if want != "" && (pe.Operation == "" || pe.Operation == "DESCRIBE") {
		pe.Operation = want
	}
	if pe.Operation == "" {
		pe.Operation = "ALL"
	}
	if pe.Resource == "" {
		pe.Resource = fallback()
	}
	return pe
}

// statementTable is the table a DML statement works on, in ACL resource form ('db.t'), or
// 'cluster' when the statement names none.
func statementTable(st parser.Statement, database string) string {
	var t parser.TableName
	switch st := st.(type) {
	case *parser.Insert:
		t = st.Table
	case *parser.Update:
		t = st.Table
	case *parser.Delete:
		t = st.Table
	case *parser.Select:
		t = st.Table
	}
	if t.Name == "" {
		return "cluster"
	}
	if t.Database == "" {
		t.Database = database
	}
	if t.Database == "" {
		return "cluster"
	}
	return aclResourceText("TABLE", t.Database+"."+t.Name)
}

// neededOperation is the operation a statement of this kind needs on its table, "" when the
// server's message says it better.
func neededOperation(st parser.Statement) string {
	switch st := st.(type) {
	case *parser.Insert, *parser.Update, *parser.Delete:
		return "WRITE"
	case *parser.Select:
		return "READ"
	case *parser.Explain:
		return neededOperation(st.Statement)
	}
	return ""
}

// aclResourceText renders a Fluss resource (type and name) as the resource of an ACL
// statement: 'cluster', 'db', 'db.table', '*' (every database), '*.*' (every table); a name
// that would read as the cluster keeps the explicit "cluster." prefix.
func aclResourceText(typ, name string) string {
	switch typ {
	case "CLUSTER":
		return "cluster"
	case "DATABASE":
		if strings.EqualFold(name, "cluster") {
			return "cluster." + name
		}
		return name
	case "TABLE":
		if name == fluss.WildcardResource {
			return "*.*"
		}
		if db, _, _ := strings.Cut(name, "."); strings.EqualFold(db, "cluster") {
			return "cluster." + name
		}
		return name
	}
	return name
}

// describeACLResource names a resource of ACL statement form for a message, e.g.
// "table fluss.orders".
func describeACLResource(r string) string {
	res, err := parser.ParseACLResource(r)
	if err != nil {
		return r
	}
	switch res.Type {
	case parser.ACLCluster:
		return "the cluster"
	case parser.ACLDatabase:
		return "database " + res.Name
	}
	return "table " + res.Name
}
