package flussql_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// windowRow is one row of a window aggregation: the window and its COUNT and SUM.
type windowRow struct {
	start, end time.Time
	n, s       int64
}

// readChangelogInserts reads want rows of a continuous query, checks each is an insert (a
// window aggregation and an interval join only append) and closes the rows, which stops
// the query's Flink job.
func readChangelogInserts[T any](t *testing.T, rows *sql.Rows, want int, scan func(*sql.Rows, *T) error) []T {
	t.Helper()
	defer rows.Close()
	var got []T
	for len(got) < want {
		require.True(t, rows.Next(), "row %d of %d: %v", len(got)+1, want, rows.Err())
		var v T
		require.NoError(t, scan(rows, &v))
		got = append(got, v)
	}
	return got
}

// TestFlinkWindowsAndIntervalJoin runs, on Flink through the driver, the HOP and CUMULATE
// windowing table-valued functions (TUMBLE: TestFlinkTumbleWindow) and an interval join of
// two unbounded tables; one database and Flink session for both (each costs seconds).
func TestFlinkWindowsAndIntervalJoin(t *testing.T) {
	fdb, db, dbName := openFlinkDB(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	fl := openFlinkSession(ctx, t, os.Getenv(flinkGatewayEnv), dbName)
	t.Run("HOP and CUMULATE", func(t *testing.T) { hopAndCumulateWindows(ctx, t, fdb, db, fl, dbName) })
	// Closing the window queries cancelled their jobs; the local TaskManager's slots are free
	// for the next one once those have ended.
	waitForJobsToEnd(t, fdb, 30*time.Second)
	t.Run("interval join", func(t *testing.T) { intervalJoin(ctx, t, fdb, db, fl, dbName) })
}

// hopAndCumulateWindows runs HOP and CUMULATE over a table with a watermark: each window
// streams back once the watermark passes its end, with the rows that fall into it, and empty
// windows are not emitted.
func hopAndCumulateWindows(ctx context.Context, t *testing.T, fdb, db *sql.DB, fl *flinkSession, dbName string) {
	fl.exec(ctx, t, fmt.Sprintf("CREATE TABLE flussql_%s.%s.ev (k INT, v BIGINT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH ('bucket.num' = '1')", dbName, dbName), nil)
	_, err := db.ExecContext(ctx, `INSERT INTO ev VALUES
		(1, 1, TIMESTAMP '2026-01-01 00:00:01'), (2, 2, TIMESTAMP '2026-01-01 00:00:05'), (3, 4, TIMESTAMP '2026-01-01 00:00:09.999'),
		(1, 8, TIMESTAMP '2026-01-01 00:00:10'), (2, 16, TIMESTAMP '2026-01-01 00:00:19'),
		(3, 32, TIMESTAMP '2026-01-01 00:00:35')`)
	require.NoError(t, err)

	day := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	sec := func(s int) time.Time { return day.Add(time.Duration(s) * time.Second) }
	scan := func(r *sql.Rows, w *windowRow) error {
		var kind string
		if err := r.Scan(&kind, &w.start, &w.end, &w.n, &w.s); err != nil {
			return err
		}
		if kind != "insert" {
			return fmt.Errorf("change %q: a window aggregation only appends", kind)
		}
		return nil
	}
	for _, tc := range []struct {
		name, tvf string
		want      []windowRow
	}{
		{
			// Windows of 10 s every 5 s; the one of [25 s, 35 s) is empty, [30 s, 40 s) still open.
			name: "HOP", tvf: "HOP(TABLE ev, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '10' SECOND)",
			want: []windowRow{{sec(-5), sec(5), 1, 1}, {sec(0), sec(10), 3, 7}, {sec(5), sec(15), 3, 14}, {sec(10), sec(20), 2, 24}, {sec(15), sec(25), 1, 16}},
		},
		{
			// Windows growing by 5 s up to 10 s from each 10 s boundary.
			name: "CUMULATE", tvf: "CUMULATE(TABLE ev, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '10' SECOND)",
			want: []windowRow{{sec(0), sec(5), 1, 1}, {sec(0), sec(10), 3, 7}, {sec(10), sec(15), 1, 8}, {sec(10), sec(20), 2, 24}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := "SELECT window_start, window_end, COUNT(*) AS n, SUM(v) AS s FROM TABLE(" + tc.tvf + ") GROUP BY window_start, window_end"
			assert.Contains(t, explainText(t, fdb, "EXPLAIN "+q), "engine: Flink")
			rows, err := fdb.QueryContext(ctx, q)
			require.NoError(t, err)
			got := readChangelogInserts(t, rows, len(tc.want), scan)
			assert.ElementsMatch(t, tc.want, got)
		})
	}
}

// intervalJoin runs an interval join of two unbounded tables: a pair is emitted once both
// rows are there, only when the second's time is within 5 s after the first's, for the same
// key.
func intervalJoin(ctx context.Context, t *testing.T, fdb, db *sql.DB, fl *flinkSession, dbName string) {
	for _, name := range []string{"clicks", "buys"} {
		fl.exec(ctx, t, fmt.Sprintf("CREATE TABLE flussql_%s.%s.%s (k INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH ('bucket.num' = '1')", dbName, dbName, name), nil)
	}
	_, err := db.ExecContext(ctx, `INSERT INTO clicks VALUES (1, TIMESTAMP '2026-01-01 00:00:01'), (2, TIMESTAMP '2026-01-01 00:00:04'), (3, TIMESTAMP '2026-01-01 00:00:06')`)
	require.NoError(t, err)
	_, err = db.ExecContext(ctx, `INSERT INTO buys VALUES
		(1, TIMESTAMP '2026-01-01 00:00:03'), (1, TIMESTAMP '2026-01-01 00:00:10'),
		(2, TIMESTAMP '2026-01-01 00:00:05'), (3, TIMESTAMP '2026-01-01 00:00:05')`)
	require.NoError(t, err)

	q := "SELECT c.k, c.ts AS clicked, b.ts AS bought FROM clicks " + unboundedHint + " c, buys " + unboundedHint + " b " +
		"WHERE c.k = b.k AND b.ts > c.ts AND b.ts <= c.ts + INTERVAL '5' SECOND"
	assert.Contains(t, explainText(t, fdb, "EXPLAIN "+q), "engine: Flink")
	rows, err := fdb.QueryContext(ctx, q)
	require.NoError(t, err)
	type pair struct {
		k               int64
		clicked, bought time.Time
	}
	day := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	sec := func(s int) time.Time { return day.Add(time.Duration(s) * time.Second) }
	want := []pair{{1, sec(1), sec(3)}, {2, sec(4), sec(5)}}
	got := readChangelogInserts(t, rows, len(want), func(r *sql.Rows, p *pair) error {
		var kind string
		if err := r.Scan(&kind, &p.k, &p.clicked, &p.bought); err != nil {
			return err
		}
		if kind != "insert" {
			return fmt.Errorf("change %q: an interval join only appends", kind)
		}
		return nil
	})
	assert.ElementsMatch(t, want, got)
}

// waitForJobsToEnd waits until SHOW JOBS lists no job that still holds a slot (anything but
// FINISHED, CANCELED and FAILED), up to limit.
func waitForJobsToEnd(t *testing.T, db *sql.DB, limit time.Duration) {
	t.Helper()
	for deadline := time.Now().Add(limit); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		busy := false
		for _, r := range queryStrings(t, db, "SHOW JOBS") {
			switch r[2] {
			case "FINISHED", "CANCELED", "FAILED":
			default:
				busy = true
			}
		}
		if !busy {
			return
		}
	}
}
