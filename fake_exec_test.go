package flussql_test

import (
	"context"
	"database/sql"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql"
	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/flusserr"
	"github.com/flussql/flussql/fluss/flusstest"
)

// These tests run the driver's execution against the fake cluster of fluss/flusstest: no
// Fluss server is needed, so they are part of make unit.

func TestFakeDDL(t *testing.T) {
	db, fc := openFake(t, "")
	mustExec(t, db,
		"CREATE DATABASE shop COMMENT 'the shop'",
		"CREATE DATABASE IF NOT EXISTS shop",
		"CREATE TABLE shop.orders (id BIGINT, region STRING, amount DOUBLE) PARTITIONED BY (region) WITH ('bucket.num' = '2')",
		"CREATE TABLE IF NOT EXISTS shop.orders (id BIGINT)",
		"ALTER TABLE shop.orders ADD PARTITION (region = 'EU')",
		"ALTER TABLE shop.orders ADD IF NOT EXISTS PARTITION (region = 'EU')",
		"ALTER TABLE shop.orders ADD PARTITION (region = 'US')",
	)
	assert.Contains(t, queryStrings(t, db, "SHOW DATABASES"), []string{"shop"})
	assert.Equal(t, [][]string{{"orders"}}, queryStrings(t, db, "SHOW TABLES FROM shop"))
	assert.Equal(t, [][]string{{"region=EU"}, {"region=US"}}, firstColumn(queryStrings(t, db, "SHOW PARTITIONS shop.orders")))
	assert.NotEmpty(t, queryStrings(t, db, "DESCRIBE shop.orders"))
	assert.NotEmpty(t, queryStrings(t, db, "SHOW CREATE TABLE shop.orders"))
	assert.NotEmpty(t, queryStrings(t, db, "EXPLAIN SELECT id FROM shop.orders WHERE region = 'EU'"))

	mustExec(t, db, "ALTER TABLE shop.orders DROP PARTITION (region = 'US')", "ALTER TABLE shop.orders DROP IF EXISTS PARTITION (region = 'US')")
	assert.Equal(t, [][]string{{"region=EU"}}, firstColumn(queryStrings(t, db, "SHOW PARTITIONS shop.orders")))

	for _, tt := range []struct {
		stmt string
		want error
	}{
		{"CREATE DATABASE shop", fluss.ErrDatabaseAlreadyExist},
		{"CREATE TABLE shop.orders (id BIGINT)", fluss.ErrTableAlreadyExist},
		{"DROP TABLE shop.missing", fluss.ErrTableNotExist},
		{"DROP DATABASE shop", fluss.ErrDatabaseNotEmpty},
		{"USE nowhere", fluss.ErrDatabaseNotExist},
		{"ALTER TABLE shop.orders DROP PARTITION (region = 'XX')", fluss.ErrPartitionNotExists},
	} {
		t.Run(tt.stmt, func(t *testing.T) {
			_, err := db.ExecContext(fakeCtx(t), tt.stmt)
			assert.ErrorIs(t, err, tt.want)
		})
	}

	mustExec(t, db, "DROP TABLE IF EXISTS shop.missing", "DROP TABLE shop.orders", "DROP DATABASE shop", "DROP DATABASE IF EXISTS shop")
	assert.Equal(t, int64(-1), fc.TableID("shop", "orders"))
}

// A DDL statement whose request got no answer may have been applied: ErrOutcomeUnknown.
func TestFakeDDLOutcomeUnknown(t *testing.T) {
	db, fc := openFake(t, "timeout=300ms")
	fc.Inject(flusstest.Fault{API: flusstest.CreateTable, Action: flusstest.Drop, Apply: true, Times: -1})
	_, err := db.ExecContext(shortCtx(t), "CREATE TABLE t (id BIGINT)")
	assert.ErrorIs(t, err, flussql.ErrOutcomeUnknown)
	assert.NotEqual(t, int64(-1), fc.TableID("fluss", "t"), "the fake applied it; the driver cannot know")
}

func TestFakeWrites(t *testing.T) {
	db, fc := openFake(t, "", flusstest.WithTabletServers(2))
	mustExec(t, db,
		"CREATE TABLE logs (id BIGINT, name STRING) WITH ('bucket.num' = '3')",
		"CREATE TABLE kv (id INT, name STRING, score BIGINT, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket.num' = '3')",
	)
	ctx := fakeCtx(t)
	for _, tt := range []struct {
		stmt string
		args []any
		rows int64
	}{
		{"INSERT INTO logs VALUES (1, 'a'), (2, 'b'), (3, 'c')", nil, 3},
		{"INSERT INTO logs (name, id) VALUES (?, ?)", []any{"d", 4}, 1},
		{"INSERT INTO kv VALUES (1, 'one', 10), (2, 'two', 20), (3, 'three', 30)", nil, 3},
		{"UPSERT INTO kv VALUES (?, ?, ?)", []any{3, "THREE", 33}, 1},
		{"UPDATE kv SET name = 'ONE', score = 11 WHERE id = 1", nil, 1},
		{"UPDATE kv SET name = 'x', score = 0 WHERE id = 99", nil, 0},
		{"DELETE FROM kv WHERE id IN (2, 2, 98)", nil, 1},
	} {
		res, err := db.ExecContext(ctx, tt.stmt, tt.args...)
		require.NoError(t, err, tt.stmt)
		n, err := res.RowsAffected()
		require.NoError(t, err)
		assert.Equal(t, tt.rows, n, tt.stmt)
	}
	assert.Equal(t, [][]string{{"1", "a"}, {"2", "b"}, {"3", "c"}, {"4", "d"}}, queryStrings(t, db, "SELECT * FROM logs ORDER BY id"))
	assert.Equal(t, [][]string{{"1", "ONE", "11"}, {"3", "THREE", "33"}}, queryStrings(t, db, "SELECT * FROM kv WHERE id IN (1, 2, 3) ORDER BY id"))
	assert.Equal(t, 2, fc.KVCount("fluss", "kv"))

	for _, tt := range []struct {
		stmt string
		want error
	}{
		{"UPSERT INTO logs VALUES (5, 'e')", flussql.ErrNotWritten},
		{"INSERT INTO logs VALUES ('not a number', 'e')", flussql.ErrNotWritten},
		{"INSERT INTO missing VALUES (1)", fluss.ErrTableNotExist},
		{"DELETE FROM kv WHERE name = 'x'", flussql.ErrNotWritten},
	} {
		_, err := db.ExecContext(ctx, tt.stmt)
		assert.ErrorIs(t, err, tt.want, tt.stmt)
	}
	_, err := db.ExecContext(ctx, "SELECT * FROM logs")
	assert.ErrorContains(t, err, "run it with Query")
}

func TestFakeWriteToMissingPartition(t *testing.T) {
	db, fc := openFake(t, "")
	mustExec(t, db, "CREATE TABLE p (id BIGINT, region STRING) PARTITIONED BY (region)")
	_, err := db.ExecContext(fakeCtx(t), "INSERT INTO p VALUES (1, 'EU')")
	assert.ErrorIs(t, err, flussql.ErrNotWritten)
	assert.ErrorContains(t, err, "ADD PARTITION")

	mustExec(t, db, "ALTER TABLE p ADD PARTITION (region = 'EU')", "INSERT INTO p VALUES (1, 'EU'), (2, 'EU')")
	assert.Equal(t, [][]string{{"2"}}, queryStrings(t, db, "SELECT COUNT(*) FROM p WHERE region = 'EU'"))

	// In a transaction, a prepared INSERT into a missing partition fails at its Exec and
	// aborts the transaction: Commit sends nothing, not even the rows of existing partitions.
	tx, err := db.BeginTx(fakeCtx(t), nil)
	require.NoError(t, err)
	ins, err := tx.PrepareContext(fakeCtx(t), "INSERT INTO p VALUES (?, ?)")
	require.NoError(t, err)
	_, err = ins.ExecContext(fakeCtx(t), 10, "EU")
	require.NoError(t, err)
	_, err = ins.ExecContext(fakeCtx(t), 11, "ASIA")
	assert.ErrorIs(t, err, flussql.ErrNotWritten)
	assert.ErrorContains(t, err, "ADD PARTITION")
	assert.ErrorIs(t, tx.Commit(), flussql.ErrNotWritten)
	assert.Equal(t, [][]string{{"2"}}, queryStrings(t, db, "SELECT COUNT(*) FROM p WHERE region = 'EU'"))

	auto, _ := openFakeAt(t, fc, "partition_auto_create=true")
	_, err = auto.ExecContext(fakeCtx(t), "INSERT INTO p VALUES (3, 'US')")
	require.NoError(t, err)
	assert.Equal(t, [][]string{{"3"}}, queryStrings(t, auto, "SELECT id FROM p WHERE region = 'US'"))
}

func none(n int64) bool { return n == 0 }
func all(n int64) bool  { return n == 6 }

// The outcome of a failed write is one of three sentinels, told apart with errors.Is.
func TestFakeWriteOutcomes(t *testing.T) {
	tooLarge := int32(flusserr.RecordTooLargeException)
	for _, tt := range []struct {
		name   string
		faults []flusstest.Fault
		want   error
		stored func(n int64) bool // of the rows in the table afterwards
	}{
		{
			name:   "refused by the server",
			faults: []flusstest.Fault{{API: flusstest.ProduceLog, Action: flusstest.FailBuckets, Code: tooLarge, Times: -1}},
			want:   flussql.ErrNotWritten, stored: none,
		},
		{
			name:   "request refused as a whole",
			faults: []flusstest.Fault{{API: flusstest.ProduceLog, Action: flusstest.Fail, Code: tooLarge, Times: -1}},
			want:   flussql.ErrNotWritten, stored: none,
		},
		{
			name:   "no answer",
			faults: []flusstest.Fault{{API: flusstest.ProduceLog, Action: flusstest.Drop, Times: -1}},
			want:   flussql.ErrOutcomeUnknown, stored: none,
		},
		{
			name:   "one bucket refused",
			faults: []flusstest.Fault{{API: flusstest.ProduceLog, Call: 1, Action: flusstest.FailBuckets, Code: tooLarge}},
			want:   flussql.ErrPartiallyWritten, stored: func(n int64) bool { return n > 0 && n < 6 },
		},
		{
			name:   "answer lost once, resent",
			faults: []flusstest.Fault{{API: flusstest.ProduceLog, Action: flusstest.Cut, Apply: true}},
			want:   nil, stored: all,
		},
		{
			name:   "connection cut before the request was applied",
			faults: []flusstest.Fault{{API: flusstest.ProduceLog, Action: flusstest.Cut}},
			want:   nil, stored: all,
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			db, fc := openFake(t, "timeout=500ms", flusstest.WithTabletServers(2))
			mustExec(t, db, "CREATE TABLE t (id BIGINT) WITH ('bucket.num' = '2', 'bucket.key' = 'id')")
			for _, f := range tt.faults {
				fc.Inject(f)
			}
			_, err := db.ExecContext(shortCtx(t), "INSERT INTO t VALUES (1), (2), (3), (4), (5), (6)")
			outcomes := []error{flussql.ErrNotWritten, flussql.ErrOutcomeUnknown, flussql.ErrPartiallyWritten}
			if tt.want == nil {
				require.NoError(t, err)
			} else {
				for _, o := range outcomes {
					assert.Equal(t, o == tt.want, errors.Is(err, o), "%v: errors.Is(%v)", err, o)
				}
			}
			fc.ClearFaults()
			n := fc.LogEnd("fluss", "t", "", 0) + fc.LogEnd("fluss", "t", "", 1)
			assert.True(t, tt.stored(n), "%d rows stored", n)
		})
	}
}

// openFakeAt opens another pool on a running fake.
func openFakeAt(t *testing.T, fc *flusstest.Cluster, dsnOptions string) (*sql.DB, string) {
	t.Helper()
	dsn := "fluss://" + fc.Addr() + "/fluss"
	if dsnOptions != "" {
		dsn += "?" + dsnOptions
	}
	db, err := sql.Open("fluss", dsn)
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	return db, dsn
}

// A write whose context is cancelled while its request is at the server returns at once,
// with an unknown outcome; a lookup whose connections are cut until its deadline says so.
func TestFakeCancelMidWrite(t *testing.T) {
	db, fc := openFake(t, "")
	mustExec(t, db, "CREATE TABLE t (id BIGINT)", "CREATE TABLE kv (id BIGINT, PRIMARY KEY (id) NOT ENFORCED)")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	fc.Inject(flusstest.Fault{API: flusstest.ProduceLog, Action: flusstest.Drop, Times: -1})
	fc.OnRequest(func(api flusstest.APIKey, _ int32, _ int) {
		if api == flusstest.ProduceLog {
			cancel() // the rows were sent: no answer will come
		}
	})
	_, err := db.ExecContext(ctx, "INSERT INTO t VALUES (1), (2)")
	assert.ErrorIs(t, err, context.Canceled)
	assert.ErrorIs(t, err, flussql.ErrOutcomeUnknown)
	assert.NotErrorIs(t, err, flussql.ErrNotWritten)
	fc.OnRequest(nil)
	fc.ClearFaults()

	fc.Inject(flusstest.Fault{API: flusstest.Lookup, Action: flusstest.Cut, Times: -1})
	var id int64
	err = db.QueryRowContext(shortCtx(t), "SELECT id FROM kv WHERE id = 1").Scan(&id)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.ErrorIs(t, err, flusserr.NetworkException, "the last cause: the connection was closed")
}

// TestFakeUnpreparedWritePlanKept: an unprepared INSERT run again reuses its plan (as a
// prepared one does) only while it still names the same table: after the table is dropped
// and created with other columns, or in another current database, the same text is planned
// again.
func TestFakeUnpreparedWritePlanKept(t *testing.T) {
	db, _ := openFake(t, "")
	ctx := fakeCtx(t)
	c, err := db.Conn(ctx)
	require.NoError(t, err)
	defer c.Close()
	exec := func(q string, args ...any) error {
		_, err := c.ExecContext(ctx, q, args...)
		return err
	}
	const two = "INSERT INTO t VALUES (?, ?)"
	require.NoError(t, exec("CREATE TABLE t (a BIGINT, b STRING)"))
	require.NoError(t, exec(two, 1, "one"))
	require.NoError(t, exec(two, 2, "two"))

	require.NoError(t, exec("DROP TABLE t"))
	require.NoError(t, exec("CREATE TABLE t (a BIGINT, b STRING, c STRING)"))
	err = exec(two, 3, "three")
	require.Error(t, err, "the kept plan of the old table must not be used")
	assert.ErrorIs(t, err, flussql.ErrNotWritten)
	assert.ErrorContains(t, err, "3 columns")
	require.NoError(t, exec("INSERT INTO t VALUES (?, ?, ?)", 3, "three", "drei"))

	require.NoError(t, exec("CREATE DATABASE d2"))
	require.NoError(t, exec("CREATE TABLE d2.t (x BIGINT, y BIGINT)"))
	require.NoError(t, exec("USE d2"))
	require.NoError(t, exec(two, 5, 6), "the same text in another database names another table")
	var x, y int64
	require.NoError(t, c.QueryRowContext(ctx, "SELECT x, y FROM t").Scan(&x, &y))
	assert.Equal(t, []int64{5, 6}, []int64{x, y})
	require.NoError(t, exec("USE fluss"))
	var n int
	require.NoError(t, c.QueryRowContext(ctx, "SELECT COUNT(*) FROM t").Scan(&n))
	assert.Equal(t, 1, n, "fluss.t was created again and holds the one 3-column row")
}
