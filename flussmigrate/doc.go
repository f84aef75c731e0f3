// Package flussmigrate is a golang-migrate (github.com/golang-migrate/migrate/v4) database
// driver for Apache Fluss, over the flussql driver. Importing it registers the URL scheme
// fluss:// with migrate:
//
//	m, err := migrate.New("file://migrations", "fluss://127.0.0.1:9123/shop")
//	err = m.Up()
//
// It is a module of its own (github.com/flussql/flussql/flussmigrate) so that the driver
// does not depend on migrate. The command in cmd/migrate is migrate's up, down, goto,
// force, version and drop built with it.
//
// # Versions
//
// The current version lives in the primary-key table schema_migrations (x-migrations-table,
// Config.MigrationsTable) of the URL's database: columns id INT (always 1), version BIGINT,
// dirty BOOLEAN, one bucket. Every SetVersion is an upsert of that one row, which the
// default merge engine replaces, so the table holds exactly the current state; Version reads
// it with a point lookup, which sees an upsert as soon as it was acknowledged.
//
// # Migration files and "dirty"
//
// Run cuts a file into statements with parser.Split (at each ';' outside strings, quoted
// identifiers and comments, as the flussql shell does) and runs them one by one on one
// connection, so a USE lasts to the end of the file. Fluss has no transactions for DDL and
// writes are not atomic across statements: when statement k fails, statements 1…k-1 stay
// applied and k+1… never ran. The error (a database.Error) names statement k, its number and
// its line; migrate records the version as dirty. Dirty thus means "applied up to the named
// statement": finish or undo the rest by hand, then `migrate force V` (V the version the
// database now matches). Write migrations so that they can run again: CREATE TABLE IF NOT
// EXISTS, DROP TABLE IF EXISTS, ALTER TABLE … ADD IF NOT EXISTS PARTITION (…).
//
// # Drop
//
// Drop drops every table of the database, the migrations table included, except the lock
// table (migrate holds the lock while it drops). The database itself stays.
//
// # Locking
//
// Fluss has no locks, transactions or conditional writes, so no lock on it can stop a
// process that does not ask for it, and a holder that stalls is not fenced. The lock here
// is advisory, but mutual exclusion among migrate processes holds: it is built on the one
// compare-and-set Fluss has, the first_row merge engine, which keeps the first row written
// under a key and ignores later writes and deletes of it. The lock table
// (schema_migrations_lock, x-lock-table) is a log of epochs 0, 1, 2, …: each change of the
// lock — take, renew, release, break an expired one — writes the next epoch, exactly one
// writer's row is kept, and a lookup afterwards tells each writer whether it won. A row
// written later under the same key changes nothing, so two processes can never both believe
// they hold the same epoch.
//
// Lock returns at once when the lock is free; when another process holds it, Lock polls
// for LockTimeout (x-lock-timeout, default 10s) and then fails with an error matching
// database.ErrLocked that names the holder (host, pid) and its expiry. Keep migrate's own
// Migrate.LockTimeout (default 15 s) above it: when migrate stops waiting first, a Lock that
// succeeds afterwards holds the lock, unused, until Migrate.Close (the command in
// cmd/migrate sets it to x-lock-timeout + 5s). The holder renews the lock every LockTTL/3 (x-lock-ttl, default 1m); a lock not
// renewed for LockTTL (its process died) is broken by the next Lock. Expiry compares the
// holder's clock with the reader's: clocks must agree to within LockTTL/3. Unlock reports
// when the lock had expired and another process took it meanwhile. The lock table keeps its
// epochs (a few rows per migrate run); it is safe to drop it when no migration runs.
package flussmigrate
