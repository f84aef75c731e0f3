package flussql_test

import (
	"context"
	"database/sql"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql"
	"github.com/flussql/flussql/fluss/flusserr"
	"github.com/flussql/flussql/fluss/flusstest"
)

func TestFakePreparedStatements(t *testing.T) {
	db, _ := openFake(t, "")
	mustExec(t, db,
		"CREATE TABLE logs (id BIGINT, name STRING) WITH ('bucket.num' = '2')",
		"CREATE TABLE kv (id INT, name STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket.num' = '2')",
	)
	ctx := fakeCtx(t)
	ins, err := db.PrepareContext(ctx, "INSERT INTO logs VALUES (?, ?)")
	require.NoError(t, err)
	for i := range 5 { // executed again and again: the bound plan is reused
		res, err := ins.ExecContext(ctx, i, "n")
		require.NoError(t, err)
		n, _ := res.RowsAffected()
		assert.Equal(t, int64(1), n)
	}
	_, err = ins.ExecContext(ctx, "x", "n")
	assert.ErrorIs(t, err, flussql.ErrNotWritten, "a value of the wrong type")
	_, err = ins.ExecContext(ctx, 1)
	assert.Error(t, err, "too few arguments")
	require.NoError(t, ins.Close())
	_, err = ins.ExecContext(ctx, 9, "n")
	assert.Error(t, err, "Exec after Close")

	named, err := db.PrepareContext(ctx, "UPSERT INTO kv VALUES (:id, :name)")
	require.NoError(t, err)
	defer named.Close()
	for i, name := range []string{"a", "b", "c"} {
		_, err := named.ExecContext(ctx, sql.Named("id", i), sql.Named("name", name))
		require.NoError(t, err)
	}
	_, err = named.ExecContext(ctx, sql.Named("id", 0), sql.Named("name", "A")) // same key: an update
	require.NoError(t, err)

	sel, err := db.PrepareContext(ctx, "SELECT name FROM kv WHERE id = ?")
	require.NoError(t, err)
	defer sel.Close()
	for id, want := range []string{"A", "b", "c"} {
		var got string
		require.NoError(t, sel.QueryRowContext(ctx, id).Scan(&got))
		assert.Equal(t, want, got)
	}
	scan, err := db.PrepareContext(ctx, "SELECT COUNT(*) FROM logs WHERE id >= ?")
	require.NoError(t, err)
	defer scan.Close()
	var n int64
	require.NoError(t, scan.QueryRowContext(ctx, 3).Scan(&n))
	assert.Equal(t, int64(2), n)

	// a prepared statement sees a table dropped and created again with another schema
	upd, err := db.PrepareContext(ctx, "INSERT INTO logs (id) VALUES (?)")
	require.NoError(t, err)
	defer upd.Close()
	_, err = upd.ExecContext(ctx, 100)
	require.NoError(t, err)
	mustExec(t, db, "DROP TABLE logs", "CREATE TABLE logs (id BIGINT, extra INT)")
	_, err = upd.ExecContext(ctx, 101)
	require.NoError(t, err)
	assert.Equal(t, [][]string{{"101", "NULL"}}, queryStrings(t, db, "SELECT id, extra FROM logs"))

	// a prepared DDL statement, through the statement's Exec
	ddl, err := db.PrepareContext(ctx, "CREATE TABLE IF NOT EXISTS made (id BIGINT)")
	require.NoError(t, err)
	defer ddl.Close()
	_, err = ddl.ExecContext(ctx)
	require.NoError(t, err)
	assert.Contains(t, queryStrings(t, db, "SHOW TABLES"), []string{"made"})
}

func TestFakeTransactions(t *testing.T) {
	db, fc := openFake(t, "")
	mustExec(t, db,
		"CREATE TABLE logs (id BIGINT) WITH ('bucket.num' = '2')",
		"CREATE TABLE kv (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED)",
		"INSERT INTO kv VALUES (1, 'old')",
	)
	ctx := fakeCtx(t)
	count := func() string { return queryStrings(t, db, "SELECT COUNT(*) FROM logs")[0][0] }

	t.Run("commit", func(t *testing.T) {
		tx, err := db.BeginTx(ctx, nil)
		require.NoError(t, err)
		ins, err := tx.PrepareContext(ctx, "INSERT INTO logs VALUES (?)")
		require.NoError(t, err)
		for i := range 3 {
			_, err := ins.ExecContext(ctx, i)
			require.NoError(t, err)
		}
		_, err = tx.ExecContext(ctx, "UPSERT INTO kv VALUES (2, 'new')")
		require.NoError(t, err)
		_, err = tx.ExecContext(ctx, "DELETE FROM kv WHERE id = 1")
		require.NoError(t, err)
		assert.Equal(t, "0", count(), "nothing is sent before Commit")
		require.NoError(t, tx.Commit())
		assert.Equal(t, "3", count())
		assert.Equal(t, [][]string{{"2", "new"}}, queryStrings(t, db, "SELECT * FROM kv WHERE id IN (1, 2)"))
		assert.ErrorIs(t, tx.Commit(), sql.ErrTxDone)
	})
	t.Run("rollback", func(t *testing.T) {
		tx, err := db.BeginTx(ctx, nil)
		require.NoError(t, err)
		_, err = tx.ExecContext(ctx, "INSERT INTO logs VALUES (10), (11)")
		require.NoError(t, err)
		require.NoError(t, tx.Rollback())
		assert.Equal(t, "3", count())
	})
	t.Run("empty", func(t *testing.T) {
		tx, err := db.BeginTx(ctx, nil)
		require.NoError(t, err)
		require.NoError(t, tx.Commit())
	})
	t.Run("aborted by a failed statement", func(t *testing.T) {
		tx, err := db.BeginTx(ctx, nil)
		require.NoError(t, err)
		_, err = tx.ExecContext(ctx, "INSERT INTO logs VALUES (20)")
		require.NoError(t, err)
		_, err = tx.ExecContext(ctx, "INSERT INTO logs VALUES ('bad')")
		require.Error(t, err)
		_, err = tx.ExecContext(ctx, "INSERT INTO logs VALUES (21)")
		assert.ErrorIs(t, err, flussql.ErrNotWritten, "the transaction is aborted")
		err = tx.Commit()
		assert.ErrorIs(t, err, flussql.ErrNotWritten)
		assert.Equal(t, "3", count(), "nothing of it was sent")
	})
	t.Run("statements keep their order", func(t *testing.T) {
		// A prepared write executed many times is buffered as one batch of rows (the bulk
		// path); other statements between its executions still land in between.
		tx, err := db.BeginTx(ctx, nil)
		require.NoError(t, err)
		up, err := tx.PrepareContext(ctx, "UPSERT INTO kv VALUES (?, ?)")
		require.NoError(t, err)
		for _, step := range []struct {
			prepared bool
			id       int
			v        string
		}{{true, 5, "a"}, {true, 6, "x"}, {false, 5, "b"}, {true, 5, "c"}, {false, 6, "y"}, {false, 7, "z"}, {true, 7, "w"}} {
			if step.prepared {
				_, err = up.ExecContext(ctx, step.id, step.v)
			} else {
				_, err = tx.ExecContext(ctx, "UPSERT INTO kv VALUES (?, ?)", step.id, step.v)
			}
			require.NoError(t, err)
		}
		require.NoError(t, tx.Commit())
		assert.Equal(t, [][]string{{"5", "c"}, {"6", "y"}, {"7", "w"}}, queryStrings(t, db, "SELECT * FROM kv WHERE id IN (5, 6, 7) ORDER BY id"))
	})
	t.Run("aborted by a failed prepared statement", func(t *testing.T) {
		tx, err := db.BeginTx(ctx, nil)
		require.NoError(t, err)
		ins, err := tx.PrepareContext(ctx, "INSERT INTO logs VALUES (?)")
		require.NoError(t, err)
		for i := range 3 {
			_, err := ins.ExecContext(ctx, 50+i)
			require.NoError(t, err)
		}
		_, err = ins.ExecContext(ctx, "bad")
		require.ErrorContains(t, err, "argument ?1")
		_, err = ins.ExecContext(ctx, 60)
		assert.ErrorIs(t, err, flussql.ErrNotWritten, "the transaction is aborted")
		assert.ErrorIs(t, tx.Commit(), flussql.ErrNotWritten)
		assert.Equal(t, "3", count(), "nothing of it was sent")
	})
	t.Run("commit refused by the server", func(t *testing.T) {
		tx, err := db.BeginTx(ctx, nil)
		require.NoError(t, err)
		_, err = tx.ExecContext(ctx, "INSERT INTO logs VALUES (30)")
		require.NoError(t, err)
		fc.Inject(flusstest.Fault{API: flusstest.ProduceLog, Action: flusstest.FailBuckets, Code: int32(flusserr.RecordTooLargeException), Times: -1})
		defer fc.ClearFaults()
		err = tx.Commit()
		assert.ErrorIs(t, err, flussql.ErrNotWritten)
	})
	t.Run("commit keeps BeginTx's deadline", func(t *testing.T) {
		short, cancel := context.WithCancel(ctx)
		tx, err := db.BeginTx(short, nil)
		require.NoError(t, err)
		_, err = tx.ExecContext(short, "INSERT INTO logs VALUES (40)")
		require.NoError(t, err)
		before := count()
		cancel()
		assert.Error(t, tx.Commit())
		assert.Equal(t, before, count(), "a transaction whose context ended sends nothing")
	})
}
