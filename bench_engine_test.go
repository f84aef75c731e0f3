package flussql_test

import (
	"context"
	"database/sql"
	"errors"
	"io"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql"
)

// BenchmarkQueryEngine measures the query engine against reading the same columns with
// QueryArrow, over a log table of FLUSS_BENCH_ROWS rows (default 1,000,000) in 3 partitions:
// GROUP BY a key with 100 and with 1M distinct values, and ORDER BY … LIMIT 10 (top-N).
// Each sub-benchmark reports rows/s of the table read; the ratio to "arrow-scan" is the
// engine's cost (the goal: ≥ 0.8). With FLUSS_BENCH_PAIRED set, each iteration of a
// query also runs the scan (outside the timer) and the query reports x-scan, its rows/s over
// the scan's in the same iterations: a ratio that a machine whose load drifts between
// sub-benchmarks does not skew (peak-RSS-MiB then includes the scans').
func BenchmarkQueryEngine(b *testing.B) {
	db, name := benchDB(b)
	rows := 1_000_000
	if v := os.Getenv("FLUSS_BENCH_ROWS"); v != "" {
		n, err := strconv.Atoi(v)
		require.NoError(b, err)
		rows = n
	}
	table := name + ".events"
	_, err := db.Exec(`CREATE TABLE ` + table + ` (k100 INT, k1m INT, v BIGINT, p STRING) PARTITIONED BY (p) WITH ('bucket.num' = '4')`)
	require.NoError(b, err)
	parts := []string{"a", "b", "c"}
	for _, p := range parts {
		_, err := db.Exec(`ALTER TABLE ` + table + ` ADD PARTITION (p = '` + p + `')`)
		require.NoError(b, err)
	}
	loadEngineTable(b, db, table, rows, parts)

	ctx := context.Background()
	conn, err := db.Conn(ctx)
	require.NoError(b, err)
	defer conn.Close()
	scan := `SELECT k100, k1m, v FROM ` + table
	paired := os.Getenv("FLUSS_BENCH_PAIRED") != ""
	run := func(b *testing.B, query string, wantRows int64) {
		debug.FreeOSMemory() // what loading the table used goes back to the OS before the peak is reset
		resetPeakRSS()
		b.ResetTimer()
		var scanTime, queryTime time.Duration
		for i := 0; i < b.N; i++ {
			if paired && query != scan {
				b.StopTimer()
				start := time.Now()
				_, err := countArrowRows(ctx, conn, scan)
				require.NoError(b, err)
				scanTime += time.Since(start)
				b.StartTimer()
			}
			start := time.Now()
			got, err := countArrowRows(ctx, conn, query)
			queryTime += time.Since(start)
			require.NoError(b, err)
			if wantRows >= 0 {
				require.Equal(b, wantRows, got, query)
			}
		}
		b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
		b.ReportMetric(peakRSS(), "peak-RSS-MiB")
		if scanTime > 0 {
			b.ReportMetric(scanTime.Seconds()/queryTime.Seconds(), "x-scan")
		}
	}
	b.Run("arrow-scan", func(b *testing.B) { run(b, scan, int64(rows)) })
	b.Run("group-by-100", func(b *testing.B) {
		run(b, `SELECT k100, COUNT(*), SUM(v) FROM `+table+` GROUP BY k100`, 100)
	})
	b.Run("group-by-1m", func(b *testing.B) {
		run(b, `SELECT k1m, COUNT(*), SUM(v) FROM `+table+` GROUP BY k1m`, int64(min(rows, 1_000_000)))
	})
	b.Run("top-10", func(b *testing.B) { run(b, `SELECT k1m, v FROM `+table+` ORDER BY v DESC LIMIT 10`, 10) })
}

// loadEngineTable appends rows (k100 = i % 100, k1m = i % 1,000,000, v = i·7 mod 1,000,003)
// round-robin over the partitions, in Arrow batches of 65,536 rows.
func loadEngineTable(b *testing.B, db *sql.DB, table string, rows int, parts []string) {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "k100", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "k1m", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "v", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "p", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	require.NoError(b, err)
	defer conn.Close()
	const batch = 65536
	for start := 0; start < rows; start += batch {
		n := min(batch, rows-start)
		p := parts[(start/batch)%len(parts)]
		rb := array.NewRecordBuilder(memory.DefaultAllocator, schema)
		for i := start; i < start+n; i++ {
			rb.Field(0).(*array.Int32Builder).Append(int32(i % 100))
			rb.Field(1).(*array.Int32Builder).Append(int32(i % 1_000_000))
			rb.Field(2).(*array.Int64Builder).Append(int64(i) * 7 % 1_000_003)
			rb.Field(3).(*array.StringBuilder).Append(p)
		}
		rec := rb.NewRecordBatch()
		err := conn.Raw(func(dc any) error { return dc.(flussql.ArrowConn).AppendArrow(ctx, table, rec) })
		rec.Release()
		rb.Release()
		require.NoError(b, err)
	}
}

// BenchmarkLookupJoin joins a log table of FLUSS_BENCH_ROWS rows (default 200,000) with a
// primary-key table of as many keys (every log row finds its key) as a lookup join: one
// batched lookup per batch of the log side. It reports joined rows/s (the goal:
// ≥ 200k rows/s for 1M × 1M).
func BenchmarkLookupJoin(b *testing.B) {
	db, name := benchDB(b)
	rows := 200_000
	if v := os.Getenv("FLUSS_BENCH_ROWS"); v != "" {
		n, err := strconv.Atoi(v)
		require.NoError(b, err)
		rows = n
	}
	_, err := db.Exec(`CREATE TABLE ` + name + `.users (id INT, name STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket.num' = '4')`)
	require.NoError(b, err)
	_, err = db.Exec(`CREATE TABLE ` + name + `.clicks (uid INT, page STRING) WITH ('bucket.num' = '4')`)
	require.NoError(b, err)
	tx, err := db.Begin()
	require.NoError(b, err)
	up, err := tx.Prepare(`INSERT INTO ` + name + `.users VALUES (?, ?)`)
	require.NoError(b, err)
	for i := range rows {
		_, err := up.Exec(i, "user-"+strconv.Itoa(i))
		require.NoError(b, err)
	}
	require.NoError(b, tx.Commit())
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "uid", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "page", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	require.NoError(b, err)
	defer conn.Close()
	for start := 0; start < rows; start += 65536 {
		rb := array.NewRecordBuilder(memory.DefaultAllocator, schema)
		for i := start; i < min(start+65536, rows); i++ {
			rb.Field(0).(*array.Int32Builder).Append(int32(i * 7919 % rows))
			rb.Field(1).(*array.StringBuilder).Append("/p")
		}
		rec := rb.NewRecordBatch()
		err := conn.Raw(func(dc any) error { return dc.(flussql.ArrowConn).AppendArrow(ctx, name+".clicks", rec) })
		rec.Release()
		rb.Release()
		require.NoError(b, err)
	}
	query := `SELECT l.uid, u.name FROM ` + name + `.clicks l JOIN ` + name + `.users u ON l.uid = u.id`
	plan, err := db.Query(`EXPLAIN ` + query)
	require.NoError(b, err)
	var text string
	for plan.Next() {
		var line string
		require.NoError(b, plan.Scan(&line))
		text += line + "\n"
	}
	require.NoError(b, plan.Err())
	require.Contains(b, text, "LookupJoin", "a lookup join: %s", text)
	debug.FreeOSMemory()
	resetPeakRSS()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		got, err := countArrowRows(ctx, conn, query)
		require.NoError(b, err)
		require.Equal(b, int64(rows), got, "every click finds its user")
	}
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	b.ReportMetric(peakRSS(), "peak-RSS-MiB")
}

// resetPeakRSS starts a new peak of the process's resident set (Linux: /proc/self/clear_refs
// 5 resets VmHWM), so that peakRSS measures what follows and not the loading before it.
func resetPeakRSS() { _ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) }

// peakRSS is the process's peak resident set since resetPeakRSS, in MiB (0 where /proc has
// no VmHWM).
func peakRSS() float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			return float64(kb) / 1024
		}
	}
	return 0
}

// countArrowRows runs query through QueryArrow on conn and counts the rows of its batches.
func countArrowRows(ctx context.Context, conn *sql.Conn, query string) (int64, error) {
	var got int64
	err := conn.Raw(func(dc any) error {
		rd, err := dc.(flussql.ArrowConn).QueryArrow(ctx, query)
		if err != nil {
			return err
		}
		defer rd.Close()
		for {
			rec, err := rd.Next(ctx)
			if errors.Is(err, io.EOF) {
				return nil
			}
			if err != nil {
				return err
			}
			got += rec.NumRows()
		}
	})
	return got, err
}
