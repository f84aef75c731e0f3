package authz_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql"
	"github.com/flussql/flussql/fluss"
)

// open returns a database/sql handle for a user of the authorizing cluster.
func open(t *testing.T, user, pass string) *sql.DB {
	t.Helper()
	db, err := sql.Open("fluss", "fluss://"+user+":"+pass+"@"+servers+"/fluss")
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	return db
}

// fixture creates, as admin, a database with a log table, a primary-key table and a
// partitioned table with one row each, and drops it (and every ACL on it) at the end.
func fixture(t *testing.T, admin *sql.DB) string {
	t.Helper()
	dbName := fmt.Sprintf("authz_%s_%d", strings.ToLower(strings.ReplaceAll(t.Name(), "/", "_")), time.Now().UnixNano()%1e6)
	mustExec(t, admin, "CREATE DATABASE "+dbName)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		for _, q := range []string{
			"DROP ACL (resource => '" + dbName + "')",
			"DROP ACL (resource => '" + dbName + ".logt')",
			"DROP ACL (resource => '" + dbName + ".pkt')",
			"DROP ACL (resource => '" + dbName + ".part')",
			"DROP DATABASE IF EXISTS " + dbName + " CASCADE",
		} {
			_, err := admin.ExecContext(ctx, q)
			assert.NoError(t, err, q)
		}
	})
	for _, tb := range []struct{ name, ddl, partition, first string }{
		{"logt", "(a INT, b STRING)", "", "INSERT INTO DB.logt VALUES (1, 'one')"},
		{"pkt", "(a INT PRIMARY KEY, b STRING)", "", "UPSERT INTO DB.pkt VALUES (1, 'one')"},
		{"part", "(a INT, d STRING) PARTITIONED BY (d)", "ALTER TABLE DB.part ADD PARTITION (d = 'x')", "INSERT INTO DB.part VALUES (1, 'x')"},
	} {
		createReady(t, admin, dbName, tb.name, tb.ddl, tb.partition, strings.ReplaceAll(tb.first, "DB", dbName))
	}
	return dbName
}

// createReady creates a table and writes its first row. Fluss 0.9.1's coordinator now and
// then loses the event of a table just created (apache/fluss#1018; its log then lacks the
// "New table: …" line) and that table never gets a bucket leader; such a table is dropped
// and created again.
func createReady(t *testing.T, admin *sql.DB, dbName, name, ddl, partition, first string) {
	t.Helper()
	var err error
	for attempt := 1; attempt <= 3; attempt++ {
		mustExec(t, admin, "CREATE TABLE "+dbName+"."+name+" "+ddl)
		if partition != "" {
			mustExec(t, admin, strings.ReplaceAll(partition, "DB", dbName))
		}
		deadline := time.Now().Add(20 * time.Second)
		tick := time.NewTicker(200 * time.Millisecond)
		for time.Now().Before(deadline) {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			_, err = admin.ExecContext(ctx, first)
			cancel()
			if err == nil {
				tick.Stop()
				return
			}
			<-tick.C
		}
		tick.Stop()
		t.Logf("table %s.%s takes no rows after 20 s (attempt %d; a lost CreateTable event?): %v", dbName, name, attempt, err)
		mustExec(t, admin, "DROP TABLE "+dbName+"."+name)
	}
	require.NoError(t, err, "table %s.%s never took a row", dbName, name)
}

// op is one operation class a user may be denied.
type op struct {
	name      string
	operation string // the Fluss operation it needs
	table     string // the table it needs it on, "" for the database
	run       func(ctx context.Context, db *sql.DB, dbName string) error
	write     bool
}

func execQ(q string) func(context.Context, *sql.DB, string) error {
	return func(ctx context.Context, db *sql.DB, dbName string) error {
		_, err := db.ExecContext(ctx, strings.ReplaceAll(q, "DB", dbName))
		return err
	}
}

func query(q string) func(context.Context, *sql.DB, string) error {
	return func(ctx context.Context, db *sql.DB, dbName string) error {
		rows, err := db.QueryContext(ctx, strings.ReplaceAll(q, "DB", dbName))
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
		}
		return rows.Err()
	}
}

var ops = []op{
	{name: "DDL create table", operation: "CREATE", run: execQ("CREATE TABLE DB.newt (a INT)")},
	{name: "DDL drop table", operation: "DROP", table: "logt", run: execQ("DROP TABLE DB.logt")},
	{name: "log write", operation: "WRITE", table: "logt", run: execQ("INSERT INTO DB.logt VALUES (2, 'two')"), write: true},
	{name: "upsert", operation: "WRITE", table: "pkt", run: execQ("UPSERT INTO DB.pkt VALUES (2, 'two')"), write: true},
	{name: "lookup", operation: "READ", table: "pkt", run: query("SELECT * FROM DB.pkt WHERE a = 1")},
	{name: "scan", operation: "READ", table: "logt", run: query("SELECT * FROM DB.logt LIMIT 1")},
	{name: "list partitions", operation: "DESCRIBE", table: "part", run: query("SHOW PARTITIONS DB.part")},
}

// checkDenied asserts what a user must learn from a refused statement.
func checkDenied(t *testing.T, o op, dbName, resource string, err error, took time.Duration) {
	t.Helper()
	require.Error(t, err, "%s succeeded for alice without a grant", o.name)
	assert.ErrorIs(t, err, flussql.ErrPermissionDenied)
	assert.ErrorIs(t, err, fluss.ErrPermissionDenied)
	assert.False(t, errors.Is(err, driverErrBadConn), "a denied statement must not be ErrBadConn (database/sql would retry it)")
	assert.Less(t, took, 5*time.Second, "%s: denied after %s", o.name, took)
	var pe *flussql.PermissionError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, "User:alice", pe.Principal)
	assert.Equal(t, o.operation, pe.Operation, err.Error())
	assert.Equal(t, resource, pe.Resource, err.Error())
	grant := fmt.Sprintf("CREATE ACL (resource => '%s', principal => 'User:alice', operation => '%s', permission => 'ALLOW')", resource, o.operation)
	assert.Contains(t, err.Error(), grant)
	if o.write {
		assert.ErrorIs(t, err, flussql.ErrNotWritten)
		assert.NotErrorIs(t, err, flussql.ErrOutcomeUnknown)
	}
	for _, secret := range []string{adminPass, alicePass, bobPass, "bob", "admin"} {
		assert.NotContains(t, err.Error(), secret)
	}
}

// TestDeniedThenGranted runs each operation class as alice without rights (denied at once,
// with the ACL that would allow it), then with that ACL (works), then after DROP ACL
// (denied again once the tablet servers learnt the change).
func TestDeniedThenGranted(t *testing.T) {
	needCluster(t)
	admin := open(t, "admin", adminPass)
	alice := open(t, "alice", alicePass)
	for _, o := range ops {
		t.Run(strings.ReplaceAll(o.name, " ", "_"), func(t *testing.T) {
			dbName := fixture(t, admin)
			resource := dbName
			if o.table != "" {
				resource = dbName + "." + o.table
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			start := time.Now()
			err := o.run(ctx, alice, dbName)
			checkDenied(t, o, dbName, resource, err, time.Since(start))

			grant := fmt.Sprintf("CREATE ACL (resource => '%s', principal => 'User:alice', operation => '%s')", resource, o.operation)
			_, err = admin.Exec(grant)
			require.NoError(t, err, grant)
			eventually(t, func() error { return o.run(ctx, alice, dbName) }, "after "+grant)

			revoke := fmt.Sprintf("DROP ACL (resource => '%s', principal => 'User:alice')", resource)
			res, err := admin.Exec(revoke)
			require.NoError(t, err)
			n, _ := res.RowsAffected()
			assert.EqualValues(t, 1, n, "DROP ACL removes the one ACL")
			eventuallyDenied(t, func() error { return o.run(ctx, alice, dbName) }, "after "+revoke)
		})
	}
}

// TestDatabaseAndWildcardGrants checks that a grant on a database covers its tables, a
// wildcard grant every database, and a table grant only that table.
func TestDatabaseAndWildcardGrants(t *testing.T) {
	needCluster(t)
	admin := open(t, "admin", adminPass)
	alice := open(t, "alice", alicePass)
	bob := open(t, "bob", bobPass)
	dbName := fixture(t, admin)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	readLog := query("SELECT * FROM DB.logt LIMIT 1")
	readPK := query("SELECT * FROM DB.pkt WHERE a = 1")

	mustExec(t, admin, "CREATE ACL (resource => '"+dbName+".logt', principal => 'User:alice', operation => 'READ')")
	eventually(t, func() error { return readLog(ctx, alice, dbName) }, "table grant")
	err := readPK(ctx, alice, dbName)
	assert.ErrorIs(t, err, flussql.ErrPermissionDenied, "a table grant covers only that table")

	mustExec(t, admin, "CREATE ACL (resource => '"+dbName+"', principal => 'User:alice', operation => 'READ')")
	eventually(t, func() error { return readPK(ctx, alice, dbName) }, "database grant")
	assert.ErrorIs(t, readLog(ctx, bob, dbName), flussql.ErrPermissionDenied, "alice's grants are not bob's")

	// '*' is every database, for database-level operations only (the server does not apply
	// it to the tables): CREATE TABLE works in any database, reading a table does not.
	mustExec(t, admin, "CREATE ACL (resource => '*', principal => 'User:bob', operation => 'CREATE')")
	t.Cleanup(func() { _, _ = admin.Exec("DROP ACL (resource => '*', principal => 'User:bob')") })
	createBob := execQ("CREATE TABLE DB.bobt (a INT)")
	eventually(t, func() error { return createBob(ctx, bob, dbName) }, "wildcard database grant")
	assert.ErrorIs(t, readPK(ctx, bob, dbName), flussql.ErrPermissionDenied, "'*' does not grant the tables of every database")

	// '*.*' is every table.
	mustExec(t, admin, "CREATE ACL (resource => '*.*', principal => 'User:bob', operation => 'READ')")
	t.Cleanup(func() { _, _ = admin.Exec("DROP ACL (resource => '*.*', principal => 'User:bob')") })
	eventually(t, func() error { return readPK(ctx, bob, dbName) }, "wildcard table grant")

	// SHOW ACLS lists what was granted, in statement form; bob may not list ACLs of others.
	rows := queryRows(t, admin, "SHOW ACLS FOR '"+dbName+"'")
	assert.Equal(t, [][]string{{dbName, "User:alice", "READ", "ALLOW", "*"}}, rows)
	rows = queryRows(t, admin, "SHOW ACLS FOR '*'")
	assert.Equal(t, [][]string{{"*", "User:bob", "CREATE", "ALLOW", "*"}}, rows)
	rows = queryRows(t, admin, "SHOW ACLS FOR '*.*'")
	assert.Equal(t, [][]string{{"*.*", "User:bob", "READ", "ALLOW", "*"}}, rows)

	// A user who may not grant is told so, and the error names only that user.
	_, err = alice.Exec("CREATE ACL (resource => '" + dbName + "', principal => 'User:alice', operation => 'ALL')")
	require.Error(t, err)
	assert.ErrorIs(t, err, flussql.ErrPermissionDenied)
	assert.Contains(t, err.Error(), "User:alice")
	assert.Contains(t, err.Error(), "ALTER")
	assert.NotContains(t, err.Error(), alicePass)
}

// TestWildcardTableGrantAndWireAPI grants WRITE on every table through the fluss Admin API
// and lists and drops it again.
func TestWildcardTableGrantAndWireAPI(t *testing.T) {
	needCluster(t)
	admin := open(t, "admin", adminPass)
	alice := open(t, "alice", alicePass)
	dbName := fixture(t, admin)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	fc, err := fluss.Connect(ctx, fluss.Config{BootstrapServers: []string{servers}, Username: "admin", Password: adminPass})
	require.NoError(t, err)
	defer fc.Close()
	b := fluss.ACLBinding{Resource: fluss.Resource{Type: fluss.ResourceTable, Name: fluss.WildcardResource},
		Principal: fluss.UserPrincipal("alice"), Host: fluss.WildcardHost, Operation: fluss.OpWrite, Permission: fluss.PermissionAllow}
	require.NoError(t, fc.Admin().CreateACLs(ctx, []fluss.ACLBinding{b}))
	alicePrincipal := fluss.UserPrincipal("alice")
	filter := fluss.ACLFilter{ResourceType: fluss.ResourceTable, ResourceName: fluss.WildcardResource, Principal: &alicePrincipal}
	listed, err := fc.Admin().ListACLs(ctx, filter)
	require.NoError(t, err)
	assert.Equal(t, []fluss.ACLBinding{b}, listed)

	insert := execQ("INSERT INTO DB.logt VALUES (3, 'three')")
	eventually(t, func() error { return insert(ctx, alice, dbName) }, "wildcard table grant")
	dropped, err := fc.Admin().DropACLs(ctx, []fluss.ACLFilter{filter})
	require.NoError(t, err)
	assert.Equal(t, []fluss.ACLBinding{b}, dropped)
	eventuallyDenied(t, func() error { return insert(ctx, alice, dbName) }, "after dropping the wildcard grant")
}

// TestDeniedCommit: a transaction's writes go out at Commit, which is refused as a whole
// (nothing written) when the user may read the table but not write it.
func TestDeniedCommit(t *testing.T) {
	needCluster(t)
	admin := open(t, "admin", adminPass)
	alice := open(t, "alice", alicePass)
	dbName := fixture(t, admin)
	mustExec(t, admin, "CREATE ACL (resource => '"+dbName+".logt', principal => 'User:alice', operation => 'READ')")
	read := query("SELECT * FROM DB.logt LIMIT 1")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	eventually(t, func() error { return read(ctx, alice, dbName) }, "READ grant")

	tx, err := alice.BeginTx(ctx, nil)
	require.NoError(t, err)
	_, err = tx.ExecContext(ctx, "INSERT INTO "+dbName+".logt VALUES (5, 'five')")
	require.NoError(t, err, "the row is buffered until Commit")
	start := time.Now()
	err = tx.Commit()
	took := time.Since(start)
	require.Error(t, err)
	assert.Less(t, took, 5*time.Second)
	assert.ErrorIs(t, err, flussql.ErrPermissionDenied)
	assert.ErrorIs(t, err, flussql.ErrNotWritten)
	var pe *flussql.PermissionError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, "COMMIT", pe.Statement)
	assert.Equal(t, "WRITE", pe.Operation)
	assert.Equal(t, dbName+".logt", pe.Resource)
	assert.Contains(t, err.Error(), "CREATE ACL (resource => '"+dbName+".logt', principal => 'User:alice', operation => 'WRITE', permission => 'ALLOW')")
}
