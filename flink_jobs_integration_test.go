package flussql_test

import (
	"bufio"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql"
	"github.com/flussql/flussql/fluss/flusstest/realcluster"
)

// unboundedHint reads a table as an unbounded stream: what needs state over it runs on Flink.
const unboundedHint = "/*+ OPTIONS('scan.bounded' = 'false') */"

// openFlinkDB opens the test's database through a DSN that names the Flink SQL gateway;
// it skips without one.
func openFlinkDB(t *testing.T) (flinkDB, plainDB *sql.DB, dbName string) {
	t.Helper()
	gw := os.Getenv(flinkGatewayEnv)
	if gw == "" {
		t.Skipf("%s is not set: no Flink SQL Gateway to run continuous queries on (make flink-up prints one)", flinkGatewayEnv)
	}
	_, dbName = openTestDB(t)
	plainDB, err := sql.Open("fluss", "fluss://"+realcluster.Addr(t)+"/"+dbName)
	require.NoError(t, err)
	flinkDB, err = sql.Open("fluss", flinkDSN(t, dbName))
	require.NoError(t, err)
	t.Cleanup(func() { flinkDB.Close(); plainDB.Close() })
	return flinkDB, plainDB, dbName
}

// flinkDSN is the DSN of database dbName with the gateway. Its Fluss catalog is named after
// the cluster under test (one per cluster: a gateway keeps its catalogs, and one of the same
// name for another cluster is refused).
func flinkDSN(t *testing.T, dbName string) string {
	addr := strings.Split(realcluster.Addr(t), ",")[0]
	catalog := "fluss_" + strings.NewReplacer(".", "_", ":", "_", "[", "", "]", "").Replace(addr)
	return "fluss://" + realcluster.Addr(t) + "/" + dbName + "?flink_gateway=http://" + os.Getenv(flinkGatewayEnv) + "&flink_catalog=" + catalog
}

// TestFlinkContinuousGroupBy reads a continuous GROUP BY over a table another goroutine
// writes to: its changelog, applied in order, equals the bounded GROUP BY flussql computes
// once the writer is done.
func TestFlinkContinuousGroupBy(t *testing.T) {
	fdb, db, dbName := openFlinkDB(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	_, err := db.ExecContext(ctx, "CREATE TABLE src (k INT, v BIGINT) WITH ('bucket.num' = '2')")
	require.NoError(t, err)

	rows, err := fdb.QueryContext(ctx, "SELECT k, COUNT(*) AS n, SUM(v) AS s FROM src "+unboundedHint+" GROUP BY k")
	require.NoError(t, err)
	defer rows.Close()
	cols, err := rows.Columns()
	require.NoError(t, err)
	assert.Equal(t, []string{"_change_type", "k", "n", "s"}, cols)

	const batches, perBatch = 10, 40
	written := make(chan error, 1)
	go func() {
		for b := range batches {
			var vals []string
			for i := range perBatch {
				n := b*perBatch + i
				vals = append(vals, fmt.Sprintf("(%d, %d)", n%7, n))
			}
			if _, err := db.ExecContext(ctx, "INSERT INTO src VALUES "+strings.Join(vals, ", ")); err != nil {
				written <- err
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
		written <- nil
	}()

	// Apply the changelog until it has counted every row written.
	type agg struct{ n, s int64 }
	state := map[int64]agg{}
	kinds := map[string]int{}
	total := func() (n int64) {
		for _, a := range state {
			n += a.n
		}
		return n
	}
	for total() < batches*perBatch {
		require.True(t, rows.Next(), "the changelog ended early: %v", rows.Err())
		var kind string
		var k, n, s int64
		require.NoError(t, rows.Scan(&kind, &k, &n, &s))
		kinds[kind]++
		switch kind {
		case "insert", "update_after":
			state[k] = agg{n, s}
		case "update_before", "delete":
			require.Equal(t, agg{n, s}, state[k], "%s of group %d retracts the row it last had", kind, k)
			delete(state, k)
		default:
			t.Fatalf("unexpected _change_type %q", kind)
		}
	}
	require.NoError(t, <-written)
	assert.Positive(t, kinds["update_before"]+kinds["update_after"], "groups were updated as rows came: %v", kinds)

	want := map[int64]agg{}
	bounded, err := db.QueryContext(ctx, "SELECT k, COUNT(*), SUM(v) FROM src GROUP BY k")
	require.NoError(t, err)
	for bounded.Next() {
		var k, n, s int64
		require.NoError(t, bounded.Scan(&k, &n, &s))
		want[k] = agg{n, s}
	}
	require.NoError(t, bounded.Err())
	assert.Equal(t, want, state, "the changelog applied in order equals flussql's bounded GROUP BY")
	require.Equal(t, []string{dbName}, runningJobsOf(ctx, t, fdb, dbName), "the query runs as a Flink job")
	require.NoError(t, rows.Close())
	var running []string
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		if running = runningJobsOf(ctx, t, fdb, dbName); len(running) == 0 {
			break
		}
	}
	assert.Empty(t, running, "closing the rows stopped the query's Flink job")
}

// runningJobsOf lists (as dbName, once per job) the running Flink jobs that read a table
// of database dbName: Flink names a query's job by its text, whose tables it qualifies.
func runningJobsOf(ctx context.Context, t *testing.T, db *sql.DB, dbName string) []string {
	t.Helper()
	var out []string
	for _, r := range queryStrings(t, db, "SHOW JOBS") {
		if r[2] == "RUNNING" && strings.Contains(r[1], dbName) {
			out = append(out, dbName)
		}
	}
	return out
}

// TestFlinkJobSubmitHelper is the program TestFlinkJobOutlivesProgram runs in a process of
// its own: it submits the job and exits. It skips unless that test started it.
func TestFlinkJobSubmitHelper(t *testing.T) {
	dsn, stmt := os.Getenv("FLUSSQL_TEST_SUBMIT_DSN"), os.Getenv("FLUSSQL_TEST_SUBMIT_SQL")
	if dsn == "" {
		t.Skip("run by TestFlinkJobOutlivesProgram")
	}
	db, err := sql.Open("fluss", dsn)
	require.NoError(t, err)
	defer db.Close()
	var id string
	require.NoError(t, db.QueryRow(stmt).Scan(&id))
	fmt.Printf("JOB %s\n", id)
}

// TestFlinkJobOutlivesProgram submits an INSERT … SELECT job from another process that
// then exits: the job keeps running (new rows reach the sink), SHOW JOBS from a new
// *sql.DB lists it, STOP JOB ends it.
func TestFlinkJobOutlivesProgram(t *testing.T) {
	fdb, db, dbName := openFlinkDB(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	for _, ddl := range []string{
		"CREATE TABLE src (k INT, v BIGINT) WITH ('bucket.num' = '1')",
		"CREATE TABLE sink (k INT, v BIGINT) WITH ('bucket.num' = '1')",
		"INSERT INTO src VALUES (1, 10), (2, 20), (3, -30)",
	} {
		_, err := db.ExecContext(ctx, ddl)
		require.NoError(t, err, ddl)
	}
	insert := "INSERT INTO sink SELECT k, v * 2 FROM src " + unboundedHint + " WHERE v > 0"

	plan := explainText(t, fdb, "EXPLAIN "+insert)
	assert.Contains(t, plan, "Flink job")
	assert.Contains(t, plan, "engine: Flink")

	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestFlinkJobSubmitHelper$", "-test.v")
	cmd.Env = append(os.Environ(),
		"FLUSSQL_TEST_SUBMIT_DSN="+flinkDSN(t, dbName),
		"FLUSSQL_TEST_SUBMIT_SQL="+insert)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	var id string
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "JOB "); ok {
			id = strings.TrimSpace(rest)
		}
	}
	require.NotEmpty(t, id, "the submitting process printed the job id: %s", out)
	stopped := false
	t.Cleanup(func() {
		if !stopped {
			_, _ = fdb.Exec("STOP JOB '" + id + "'")
		}
	})

	// A new *sql.DB (the submitter is gone) lists the job as running. Its session names a
	// savepoint folder (a Flink option through the DSN), for STOP JOB … WITH SAVEPOINT.
	savepoints := t.TempDir()
	fdb2, err := sql.Open("fluss", flinkDSN(t, dbName)+"&flink.execution.checkpointing.savepoint-dir="+url.QueryEscape("file://"+savepoints))
	require.NoError(t, err)
	defer fdb2.Close()
	assert.Equal(t, "RUNNING", jobStatus(ctx, t, fdb2, id))

	// The job keeps copying: rows written now reach the sink.
	_, err = db.ExecContext(ctx, "INSERT INTO src VALUES (4, 40), (5, -50), (6, 60)")
	require.NoError(t, err)
	want := [][]string{{"1", "20"}, {"2", "40"}, {"4", "80"}, {"6", "120"}}
	var got [][]string
	for deadline := time.Now().Add(90 * time.Second); time.Now().Before(deadline); time.Sleep(300 * time.Millisecond) {
		if got = queryStrings(t, db, "SELECT k, v FROM sink ORDER BY k"); len(got) >= len(want) {
			break
		}
	}
	assert.Equal(t, want, got, "the job submitted by the exited process copies new rows")

	// STOP JOB … WITH SAVEPOINT answers with the savepoint's path, which holds Flink's
	// savepoint metadata, and ends the job (FINISHED: stopped with a savepoint, not cancelled).
	var savepoint sql.NullString
	rows, err := fdb2.QueryContext(ctx, "STOP JOB '"+id+"' WITH SAVEPOINT")
	require.NoError(t, err)
	for rows.Next() {
		require.NoError(t, rows.Scan(&savepoint))
	}
	require.NoError(t, rows.Err())
	rows.Close()
	stopped = true
	require.True(t, savepoint.Valid, "STOP JOB WITH SAVEPOINT names the savepoint")
	spDir := strings.TrimPrefix(strings.TrimPrefix(savepoint.String, "file:"), "//")
	assert.True(t, strings.HasPrefix(spDir, savepoints), "savepoint %q in the session's folder %s", savepoint.String, savepoints)
	assert.FileExists(t, filepath.Join(spDir, "_metadata"), "the savepoint %s holds Flink's metadata", savepoint.String)
	status := ""
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		if status = jobStatus(ctx, t, fdb2, id); status == "FINISHED" || status == "CANCELED" {
			break
		}
	}
	assert.Equal(t, "FINISHED", status, "STOP JOB WITH SAVEPOINT ended the job")
}

// jobStatus returns the status SHOW JOBS gives job id.
func jobStatus(ctx context.Context, t *testing.T, db *sql.DB, id string) string {
	t.Helper()
	rows, err := db.QueryContext(ctx, "SHOW JOBS")
	require.NoError(t, err)
	defer rows.Close()
	cols, err := rows.Columns()
	require.NoError(t, err)
	require.Equal(t, []string{"job id", "job name", "status", "start time"}, cols)
	for rows.Next() {
		var jid, name, status, start sql.NullString
		require.NoError(t, rows.Scan(&jid, &name, &status, &start))
		if jid.String == id {
			return status.String
		}
	}
	require.NoError(t, rows.Err())
	return ""
}

// TestFlinkRefusalsAndErrors: without a gateway the streaming statements are refused
// naming the DSN key; Flink's own errors come back as a *flussql.FlinkError.
func TestFlinkRefusalsAndErrors(t *testing.T) {
	fdb, db, _ := openFlinkDB(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err := db.ExecContext(ctx, "CREATE TABLE src (k INT, v BIGINT) WITH ('bucket.num' = '1')")
	require.NoError(t, err)
	for _, q := range []string{
		"SHOW JOBS",
		"STOP JOB 'a6f8c3d1e2b4a5c6d7e8f9a0b1c2d3e4'",
		"SELECT k, COUNT(*) FROM src " + unboundedHint + " GROUP BY k",
		"INSERT INTO src SELECT k, v FROM src " + unboundedHint,
		"SELECT window_start, COUNT(*) FROM TABLE(TUMBLE(TABLE src, DESCRIPTOR(ts), INTERVAL '1' MINUTE)) GROUP BY window_start, window_end",
	} {
		_, err := db.QueryContext(ctx, q)
		require.Error(t, err, q)
		assert.ErrorIs(t, err, flussql.ErrNotSupported, q)
		assert.ErrorIs(t, err, flussql.ErrNeedsStreaming, q)
		assert.Contains(t, err.Error(), "flink_gateway=", q)
	}

	_, err = fdb.ExecContext(ctx, "STOP JOB 'a6f8c3d1e2b4a5c6d7e8f9a0b1c2d3e4'")
	var fe *flussql.FlinkError
	require.True(t, errors.As(err, &fe), "a job Flink does not know: %v", err)
	assert.NotEmpty(t, fe.Message)
	assert.Contains(t, strings.ToLower(fe.Error()), "a6f8c3d1e2b4a5c6d7e8f9a0b1c2d3e4")

	plan := explainText(t, fdb, "EXPLAIN SELECT k, COUNT(*) FROM src "+unboundedHint+" GROUP BY k")
	assert.Contains(t, plan, "Flink continuous query")
	assert.Contains(t, plan, "engine: Flink")
	plan = explainText(t, fdb, "EXPLAIN SELECT k, COUNT(*) FROM src GROUP BY k")
	assert.NotContains(t, plan, "Flink", "a bounded GROUP BY runs in flussql")
}

// explainText is EXPLAIN's answer, its lines joined.
func explainText(t *testing.T, db *sql.DB, q string) string {
	t.Helper()
	var lines []string
	for _, r := range queryStrings(t, db, q) {
		lines = append(lines, r...)
	}
	return strings.Join(lines, "\n")
}

// TestFlinkTumbleWindow runs a TUMBLE window aggregation (Flink's windowing table-valued
// function) over a table with a watermark: each window's row streams back once the
// watermark passes its end.
func TestFlinkTumbleWindow(t *testing.T) {
	fdb, db, dbName := openFlinkDB(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	// flussql's CREATE TABLE has no WATERMARK clause: Flink creates the table.
	fl := openFlinkSession(ctx, t, os.Getenv(flinkGatewayEnv), dbName)
	fl.exec(ctx, t, fmt.Sprintf("CREATE TABLE flussql_%s.%s.ev (k INT, v BIGINT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH ('bucket.num' = '1')", dbName, dbName), nil)

	qctx, qcancel := context.WithCancel(ctx)
	defer qcancel()
	rows, err := fdb.QueryContext(qctx, "SELECT window_start, window_end, COUNT(*) AS n, SUM(v) AS s FROM TABLE(TUMBLE(TABLE ev, DESCRIPTOR(ts), INTERVAL '10' SECOND)) GROUP BY window_start, window_end")
	require.NoError(t, err)
	defer rows.Close()
	_, err = db.ExecContext(ctx, `INSERT INTO ev VALUES
		(1, 1, TIMESTAMP '2026-01-01 00:00:01'), (2, 2, TIMESTAMP '2026-01-01 00:00:05'), (3, 4, TIMESTAMP '2026-01-01 00:00:09.999'),
		(1, 8, TIMESTAMP '2026-01-01 00:00:10'), (2, 16, TIMESTAMP '2026-01-01 00:00:19'),
		(3, 32, TIMESTAMP '2026-01-01 00:00:35')`)
	require.NoError(t, err)

	day := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	type window struct {
		start, end time.Time
		n, s       int64
	}
	want := []window{{day, day.Add(10 * time.Second), 3, 7}, {day.Add(10 * time.Second), day.Add(20 * time.Second), 2, 24}}
	var got []window
	for len(got) < len(want) {
		require.True(t, rows.Next(), "the window rows: %v", rows.Err())
		var kind string
		var w window
		require.NoError(t, rows.Scan(&kind, &w.start, &w.end, &w.n, &w.s))
		assert.Equal(t, "insert", kind, "a window aggregation only appends")
		got = append(got, w)
	}
	assert.Equal(t, want, got)

	// Cancelling the query's context ends the rows and stops the job.
	require.NotEmpty(t, runningJobsOf(ctx, t, fdb, dbName), "the window query runs as a Flink job")
	qcancel()
	assert.False(t, rows.Next())
	assert.ErrorIs(t, rows.Err(), context.Canceled)
	var running []string
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		if running = runningJobsOf(ctx, t, fdb, dbName); len(running) == 0 {
			break
		}
	}
	assert.Empty(t, running, "cancelling the context stopped the query's Flink job")
}
