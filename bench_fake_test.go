package flussql_test

import (
	"database/sql"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/flusstest"
)

// fakeBenchDB opens an in-memory fake cluster with the benchmarks' log table t; the pool is
// closed when the benchmark ends.
func fakeBenchDB(b *testing.B) *sql.DB {
	fc := flusstest.New(b)
	db, err := sql.Open("fluss", "fluss://"+fc.Addr()+"/fluss")
	require.NoError(b, err)
	b.Cleanup(func() { db.Close() })
	_, err = db.Exec(`CREATE TABLE t` + benchLogDDL)
	require.NoError(b, err)
	return db
}

// BenchmarkFakeInsertTx is BenchmarkInsertTx10k against the in-memory fake cluster: it
// measures the driver's own cost per row (parse once, bind, buffer, encode at Commit)
// without a server, so a profile shows the client side alone. One op is one row.
func BenchmarkFakeInsertTx(b *testing.B) {
	fakeInsertTx(b, (*sql.Tx).Commit)
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// fakeInsertTx executes a prepared INSERT b.N times in transactions of 10,000 rows, each
// ended by end.
func fakeInsertTx(b *testing.B, end func(*sql.Tx) error) {
	db := fakeBenchDB(b)
	b.ReportAllocs()
	b.ResetTimer()
	for done := 0; done < b.N; {
		tx, err := db.Begin()
		require.NoError(b, err)
		st, err := tx.Prepare(`INSERT INTO t VALUES (?, ?, ?)`)
		require.NoError(b, err)
		for j := 0; j < 10000 && done < b.N; j++ {
			if _, err := st.Exec(done, "name", int64(done)); err != nil {
				b.Fatal(err)
			}
			done++
		}
		require.NoError(b, end(tx))
	}
}

// BenchmarkFakeSelectScan is BenchmarkSelectScan (into int64) against the in-memory fake
// cluster: Rows.Next + Scan over a 200,000-row log table, so a profile shows the driver's
// per-row cost without a server. One op is one full scan.
func BenchmarkFakeSelectScan(b *testing.B) {
	db := fakeBenchDB(b)
	const n = 200000
	tx, err := db.Begin()
	require.NoError(b, err)
	st, err := tx.Prepare(`INSERT INTO t VALUES (?, ?, ?)`)
	require.NoError(b, err)
	for i := 0; i < n; i++ {
		_, err := st.Exec(i, "name-"+strconv.Itoa(i), int64(i)*1000003)
		require.NoError(b, err)
	}
	require.NoError(b, tx.Commit())
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rows, err := db.Query(`SELECT id, name, value FROM t`)
		require.NoError(b, err)
		var id, v, sum int64
		var s string
		count := 0
		for rows.Next() {
			if err := rows.Scan(&id, &s, &v); err != nil {
				b.Fatal(err)
			}
			sum += id
			count++
		}
		require.NoError(b, rows.Err())
		require.Equal(b, n, count)
		require.Equal(b, int64(n)*(n-1)/2, sum)
	}
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkFakeExecInTx is the driver's cost of one prepared INSERT's Exec inside a
// transaction (database/sql, parse cache, bind, buffer), without the Commit that encodes and
// sends: each transaction of 10,000 rows is rolled back. One op is one row.
func BenchmarkFakeExecInTx(b *testing.B) { fakeInsertTx(b, (*sql.Tx).Rollback) }
