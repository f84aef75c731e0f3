package flussql_test

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql"
	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/flusstest/realcluster"
)

// TestTxAbortedByFailedStatement: a statement that fails inside a transaction aborts it —
// the statements after it fail, Commit returns the first error and sends nothing — so a
// transaction is never committed with a hole in it.
func TestTxAbortedByFailedStatement(t *testing.T) {
	db, dbName := openTestDB(t)
	tbl := createTable(t, db, dbName, "t", `id INT, name STRING`, `'bucket.num' = '1'`)
	full := dbName + "." + tbl

	tx, err := db.Begin()
	require.NoError(t, err)
	_, err = tx.Exec(`INSERT INTO `+full+` VALUES (?, ?)`, 1, "a")
	require.NoError(t, err)
	_, err = tx.Exec(`INSERT INTO `+full+` VALUES (?, ?, ?)`, 2, "b", 3)
	require.Error(t, err, "three values for two columns")
	first := err.Error()
	prepared, err := tx.Prepare(`INSERT INTO ` + full + ` VALUES (?, ?)`)
	require.NoError(t, err)
	_, err = prepared.Exec(3, "c")
	require.ErrorContains(t, err, "the transaction is aborted by an earlier failed statement")
	assert.ErrorIs(t, err, flussql.ErrNotWritten)
	_, err = tx.Exec(`INSERT INTO ` + full + ` VALUES (4, 'd')`)
	require.ErrorContains(t, err, "aborted")
	err = tx.Commit()
	require.Error(t, err)
	assert.ErrorIs(t, err, flussql.ErrNotWritten)
	assert.Contains(t, err.Error(), first)
	assert.Contains(t, err.Error(), "nothing of it was sent")
	assert.Empty(t, queryStrings(t, db, `SELECT * FROM `+full), "nothing of the aborted transaction is stored")

	// The connection is usable afterwards, and a good transaction commits.
	tx, err = db.Begin()
	require.NoError(t, err)
	_, err = tx.Exec(`INSERT INTO ` + full + ` VALUES (5, 'e')`)
	require.NoError(t, err)
	require.NoError(t, tx.Commit())
	assert.Equal(t, [][]string{{"5", "e"}}, queryStrings(t, db, `SELECT * FROM `+full))
}

// TestPlaceholderMistakes: sql.Named with ? placeholders and PostgreSQL's $1 fail before
// anything is written, naming the fix.
func TestPlaceholderMistakes(t *testing.T) {
	db, dbName := openTestDB(t)
	tbl := createTable(t, db, dbName, "t", `id INT, name STRING`, `'bucket.num' = '1'`)
	full := dbName + "." + tbl
	_, err := db.Exec(`INSERT INTO `+full+` VALUES (?, ?)`, sql.Named("name", "a"), sql.Named("id", 1))
	require.ErrorContains(t, err, `sql.Named("name", …) cannot fill a ? placeholder`)
	assert.ErrorIs(t, err, flussql.ErrNotWritten)
	_, err = db.Exec(`INSERT INTO `+full+` VALUES ($1, $2)`, 1, "a")
	require.ErrorContains(t, err, "write ? (bound by position) or :name")
	assert.Empty(t, queryStrings(t, db, `SELECT * FROM `+full))
	_, err = db.Exec(`INSERT INTO `+full+` VALUES (:id, :name)`, sql.Named("name", "a"), sql.Named("id", 1))
	require.NoError(t, err)
	assert.Equal(t, [][]string{{"1", "a"}}, queryStrings(t, db, `SELECT * FROM `+full))
}

// TestPingChecksDatabase: Ping fails, naming the DSN part, when the DSN's database does not
// exist, and succeeds once it does.
func TestPingChecksDatabase(t *testing.T) {
	db, dbName := openTestDB(t)
	missing := dbName + "_missing"
	other, err := sql.Open("fluss", "fluss://"+realcluster.Addr(t)+"/"+missing)
	require.NoError(t, err)
	defer other.Close()
	err = other.Ping()
	require.Error(t, err)
	assert.ErrorIs(t, err, fluss.ErrDatabaseNotExist)
	assert.Contains(t, err.Error(), `the database "`+missing+`" named by the DSN`)
	_, err = db.Exec("CREATE DATABASE " + missing)
	require.NoError(t, err)
	defer db.Exec("DROP DATABASE IF EXISTS " + missing)
	assert.NoError(t, other.Ping())
}

// recordingTracer keeps every start and end it is called with.
type recordingTracer struct {
	mu     sync.Mutex
	starts []flussql.TraceStart
	ends   []flussql.TraceEnd
}

type spanKey struct{}

func (r *recordingTracer) TraceStatementStart(ctx context.Context, s flussql.TraceStart) context.Context {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.starts = append(r.starts, s)
	return context.WithValue(ctx, spanKey{}, s.SQL)
}

func (r *recordingTracer) TraceStatementEnd(ctx context.Context, e flussql.TraceEnd) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if ctx.Value(spanKey{}) != e.SQL {
		e.Err = fmt.Errorf("end called without the start's context")
	}
	r.ends = append(r.ends, e)
}

// TestTracer: the tracer sees each statement's start and end with its plan, rows and
// error; a query ends when its rows are closed, with the rows read.
func TestTracer(t *testing.T) {
	_, dbName := openTestDB(t)
	cfg, err := flussql.ParseDSN("fluss://" + realcluster.Addr(t) + "/" + dbName)
	require.NoError(t, err)
	tr := &recordingTracer{}
	cfg.Tracer = tr
	connector, err := flussql.NewConnector(cfg)
	require.NoError(t, err)
	db := sql.OpenDB(connector)
	defer db.Close()
	_, err = db.Exec(`CREATE TABLE t (id INT, name STRING) WITH ('bucket.num' = '1')`)
	require.NoError(t, err)
	_, err = db.Exec(`INSERT INTO t VALUES (?, ?), (2, 'b')`, 1, "a")
	require.NoError(t, err)
	rows, err := db.Query(`SELECT * FROM t`)
	require.NoError(t, err)
	for rows.Next() {
	}
	require.NoError(t, rows.Close())
	_, err = db.Exec(`INSERT INTO nosuch VALUES (1)`)
	require.Error(t, err)

	tr.mu.Lock()
	defer tr.mu.Unlock()
	require.Len(t, tr.starts, 4)
	require.Len(t, tr.ends, 4)
	assert.Equal(t, flussql.TraceStart{SQL: `INSERT INTO t VALUES (?, ?), (2, 'b')`, Args: 2}, tr.starts[1])
	assert.True(t, tr.starts[2].Query)
	got := []string{}
	for _, e := range tr.ends {
		got = append(got, fmt.Sprintf("%s|%d|%v", e.Plan, e.Rows, e.Err != nil))
		assert.Positive(t, e.Duration)
	}
	assert.Equal(t, []string{"CreateTable|0|false", "Write|2|false", "Scan|2|false", "|0|true"}, got)
	assert.ErrorContains(t, tr.ends[3].Err, "nosuch")
	for i, e := range tr.ends[:3] {
		assert.Positive(t, e.Bytes, "statement %d exchanged bytes with the cluster: %s", i, e)
	}
}
