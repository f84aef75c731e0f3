package flussmigrate_test

import (
	"strings"
	"testing"

	"github.com/golang-migrate/migrate/v4"
	"github.com/golang-migrate/migrate/v4/database"
	dt "github.com/golang-migrate/migrate/v4/database/testing"
	_ "github.com/golang-migrate/migrate/v4/source/file"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/flussmigrate"
)

// TestDriverSuite runs golang-migrate's own driver tests (nil version, lock and unlock, a
// run, versions set and read back, drop) against the real cluster.
func TestDriverSuite(t *testing.T) {
	db, _, _ := testDatabase(t)
	d, err := flussmigrate.WithInstance(db, nil)
	require.NoError(t, err)
	defer d.Close()
	dt.Test(t, d, []byte("CREATE TABLE t (id INT, v STRING) WITH ('bucket.num' = '1'); INSERT INTO t VALUES (1, 'x')"))
}

// TestUpDownVersion drives migrate's Go API: up, re-up without change, one step down, all
// the way down, and up again, checking the version and the tables after each.
func TestUpDownVersion(t *testing.T) {
	db, _, url := testDatabase(t)
	m, err := migrate.New("file://testdata/migrations", url)
	require.NoError(t, err)
	defer m.Close()

	_, _, err = m.Version()
	assert.ErrorIs(t, err, migrate.ErrNilVersion)

	require.NoError(t, m.Up())
	assertVersion(t, m, 2, false)
	assert.Equal(t, []string{"events", "orders", "schema_migrations", "schema_migrations_lock", "users"}, tables(t, db))
	var name string
	require.NoError(t, db.QueryRow("SELECT name FROM users WHERE id = 1").Scan(&name))
	assert.Equal(t, "Ada; Lovelace", name, "the ';' inside the string does not cut the statement")

	assert.ErrorIs(t, m.Up(), migrate.ErrNoChange, "up again changes nothing")
	assertVersion(t, m, 2, false)

	require.NoError(t, m.Steps(-1))
	assertVersion(t, m, 1, false)
	assert.Equal(t, []string{"schema_migrations", "schema_migrations_lock", "users"}, tables(t, db))

	require.NoError(t, m.Down())
	_, _, err = m.Version()
	assert.ErrorIs(t, err, migrate.ErrNilVersion)
	assert.Equal(t, []string{"schema_migrations", "schema_migrations_lock"}, tables(t, db))

	require.NoError(t, m.Migrate(2))
	assertVersion(t, m, 2, false)
	assert.Equal(t, []string{"events", "orders", "schema_migrations", "schema_migrations_lock", "users"}, tables(t, db))
}

// TestFailingMigration: the second statement of migration 2 fails. The error names it, the
// version is 2 and dirty, the statement before it stays applied and the one after it never
// ran; up refuses a dirty database until force.
func TestFailingMigration(t *testing.T) {
	db, _, url := testDatabase(t)
	m, err := migrate.New("file://testdata/failing", url)
	require.NoError(t, err)
	defer m.Close()

	err = m.Up()
	require.Error(t, err)
	var dbErr database.Error
	require.ErrorAs(t, err, &dbErr)
	assert.Equal(t, "CREATE TABLE b (id NOSUCHTYPE)", string(dbErr.Query))
	assert.Equal(t, uint(2), dbErr.Line)
	assert.Contains(t, err.Error(), "statement 2 of 3 failed")
	assert.Contains(t, err.Error(), "NOSUCHTYPE")
	assertVersion(t, m, 2, true)
	assert.Equal(t, []string{"a", "schema_migrations", "schema_migrations_lock", "users"}, tables(t, db))

	var dirty migrate.ErrDirty
	require.ErrorAs(t, m.Up(), &dirty)
	assert.Equal(t, 2, dirty.Version)

	require.NoError(t, m.Force(1))
	assertVersion(t, m, 1, false)
	require.NoError(t, m.Down())
	_, _, err = m.Version()
	assert.ErrorIs(t, err, migrate.ErrNilVersion)
}

// TestDrop: migrate's Drop leaves the database with the lock table only, and a new driver
// starts from no version.
func TestDrop(t *testing.T) {
	db, _, url := testDatabase(t)
	m, err := migrate.New("file://testdata/migrations", url)
	require.NoError(t, err)
	require.NoError(t, m.Up())
	require.NoError(t, m.Drop())
	assert.Equal(t, []string{"schema_migrations_lock"}, tables(t, db))
	m.Close()

	m, err = migrate.New("file://testdata/migrations", url)
	require.NoError(t, err)
	defer m.Close()
	_, _, err = m.Version()
	assert.ErrorIs(t, err, migrate.ErrNilVersion)
	require.NoError(t, m.Up())
	assertVersion(t, m, 2, false)
}

// TestConfiguredTables: x-migrations-table and x-lock-table name the driver's tables.
func TestConfiguredTables(t *testing.T) {
	db, _, url := testDatabase(t)
	m, err := migrate.New("file://testdata/migrations", url+"?x-migrations-table=versions&x-lock-table=versions_mutex&timeout=20s")
	require.NoError(t, err)
	defer m.Close()
	require.NoError(t, m.Steps(1))
	assert.Equal(t, []string{"users", "versions", "versions_mutex"}, tables(t, db))
	var v int64
	var dirty bool
	require.NoError(t, db.QueryRow("SELECT version, dirty FROM versions WHERE id = 1").Scan(&v, &dirty))
	assert.Equal(t, int64(1), v)
	assert.False(t, dirty)
}

func assertVersion(t *testing.T, m *migrate.Migrate, want uint, wantDirty bool) {
	t.Helper()
	v, dirty, err := m.Version()
	require.NoError(t, err)
	assert.Equal(t, want, v, "version")
	assert.Equal(t, wantDirty, dirty, "dirty")
}

// TestRunUseLastsOneFile: a USE in a migration file applies to the statements after it in
// that file only; the next file starts in the driver's database again.
func TestRunUseLastsOneFile(t *testing.T) {
	db, name, _ := testDatabase(t)
	other := name + "_other"
	_, err := db.Exec("CREATE DATABASE " + other)
	require.NoError(t, err)
	defer db.Exec("DROP DATABASE IF EXISTS " + other + " CASCADE")
	d, err := flussmigrate.WithInstance(db, nil)
	require.NoError(t, err)
	defer d.Close()

	require.NoError(t, d.Run(strings.NewReader("USE "+other+"; CREATE TABLE there (id INT) WITH ('bucket.num' = '1')")))
	require.NoError(t, d.Run(strings.NewReader("CREATE TABLE here (id INT) WITH ('bucket.num' = '1');")))
	assert.Equal(t, []string{"here", "schema_migrations", "schema_migrations_lock"}, tables(t, db))
	var n int
	require.NoError(t, db.QueryRow("SELECT COUNT(*) FROM "+other+".there").Scan(&n))
	assert.Equal(t, 0, n)
}
