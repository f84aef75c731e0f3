package flussql_test

import (
	"context"
	"database/sql"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql"
	"github.com/flussql/flussql/fluss/flusstest/realcluster"
)

// Benchmarks of the SQL driver against FLUSS_BOOTSTRAP_SERVERS (skipped without it). They
// report rows/s (or lookups/s) beside ns/op; testdata/bench/compare_sql.sh runs the same
// work through pyfluss on the same cluster and prints the ratios.

func benchDB(b *testing.B) (*sql.DB, string) {
	addrs := realcluster.Addr(b)
	db, err := sql.Open("fluss", "fluss://"+addrs+"/fluss")
	require.NoError(b, err)
	name := fmt.Sprintf("bench_%d", time.Now().UnixNano()%1e9)
	_, err = db.Exec("CREATE DATABASE " + name)
	require.NoError(b, err)
	b.Cleanup(func() {
		_, _ = db.Exec("DROP DATABASE IF EXISTS " + name + " CASCADE")
		db.Close()
	})
	return db, name
}

const benchLogDDL = ` (id INT, name STRING, value BIGINT) WITH ('bucket.num' = '4')`

// BenchmarkInsertExec is one INSERT … VALUES (?, ?, ?) per Exec: each returns after the
// server's acknowledgement.
func BenchmarkInsertExec(b *testing.B) {
	db, name := benchDB(b)
	_, err := db.Exec(`CREATE TABLE ` + name + `.t` + benchLogDDL)
	require.NoError(b, err)
	st, err := db.Prepare(`INSERT INTO ` + name + `.t VALUES (?, ?, ?)`)
	require.NoError(b, err)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := st.Exec(i, "name", int64(i)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkInsertTx10k is the bulk path: a prepared INSERT executed 10,000 times in a
// transaction, sent at Commit. One op is one row.
func BenchmarkInsertTx10k(b *testing.B) {
	db, name := benchDB(b)
	_, err := db.Exec(`CREATE TABLE ` + name + `.t` + benchLogDDL)
	require.NoError(b, err)
	b.ResetTimer()
	for done := 0; done < b.N; {
		tx, err := db.Begin()
		require.NoError(b, err)
		st, err := tx.Prepare(`INSERT INTO ` + name + `.t VALUES (?, ?, ?)`)
		require.NoError(b, err)
		for j := 0; j < 10000 && done < b.N; j++ {
			if _, err := st.Exec(done, "name", int64(done)); err != nil {
				b.Fatal(err)
			}
			done++
		}
		require.NoError(b, tx.Commit())
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkInsertArrow appends Arrow record batches of 10,000 rows through sql.Conn.Raw.
// One op is one row.
func BenchmarkInsertArrow(b *testing.B) {
	db, name := benchDB(b)
	_, err := db.Exec(`CREATE TABLE ` + name + `.t` + benchLogDDL)
	require.NoError(b, err)
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "value", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	}, nil)
	rb := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer rb.Release()
	for i := 0; i < 10000; i++ {
		rb.Field(0).(*array.Int32Builder).Append(int32(i))
		rb.Field(1).(*array.StringBuilder).Append("name")
		rb.Field(2).(*array.Int64Builder).Append(int64(i))
	}
	rec := rb.NewRecordBatch()
	defer rec.Release()
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	require.NoError(b, err)
	defer conn.Close()
	b.ResetTimer()
	for done := 0; done < b.N; done += 10000 {
		err := conn.Raw(func(dc any) error {
			return dc.(flussql.ArrowConn).AppendArrow(ctx, name+".t", rec)
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	rows := ((b.N + 9999) / 10000) * 10000
	b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkSelectScan reads a 200,000-row log table with Rows.Next + Scan, the INT column
// into an int32 (database/sql converts through a string) and into an int64 (no
// conversion). One op is one full scan; allocs/row counts every allocation of the process.
func BenchmarkSelectScan(b *testing.B) {
	db, name := benchDB(b)
	const n = 200000
	_, err := db.Exec(`CREATE TABLE ` + name + `.t` + benchLogDDL)
	require.NoError(b, err)
	tx, err := db.Begin()
	require.NoError(b, err)
	st, err := tx.Prepare(`INSERT INTO ` + name + `.t VALUES (?, ?, ?)`)
	require.NoError(b, err)
	for i := 0; i < n; i++ {
		_, err := st.Exec(i, fmt.Sprintf("name-%d", i), int64(i)*1000003)
		require.NoError(b, err)
	}
	require.NoError(b, tx.Commit())
	for _, into := range []string{"int32", "int64"} {
		b.Run("into="+into, func(b *testing.B) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				rows, err := db.Query(`SELECT id, name, value FROM ` + name + `.t`)
				require.NoError(b, err)
				var id32 int32
				var id64 int64
				var s string
				var v, sum int64
				count := 0
				for rows.Next() {
					if into == "int32" {
						err = rows.Scan(&id32, &s, &v)
						id64 = int64(id32)
					} else {
						err = rows.Scan(&id64, &s, &v)
					}
					if err != nil {
						b.Fatal(err)
					}
					sum += id64
					count++
				}
				require.NoError(b, rows.Err())
				require.Equal(b, n, count)
				require.Equal(b, int64(n)*(n-1)/2, sum)
			}
			b.StopTimer()
			runtime.ReadMemStats(&after)
			b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "rows/s")
			b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(n*b.N), "allocs/row")
		})
	}
}

// BenchmarkLookupQueryRow is point lookups through QueryRow (prepared, and unprepared with
// the same text each time) from 1, 16 and 64 goroutines, with as many connections.
func BenchmarkLookupQueryRow(b *testing.B) {
	db, name := benchDB(b)
	const keys = 10000
	_, err := db.Exec(`CREATE TABLE ` + name + `.kv (id INT, name STRING, score BIGINT, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket.num' = '4')`)
	require.NoError(b, err)
	tx, err := db.Begin()
	require.NoError(b, err)
	st, err := tx.Prepare(`UPSERT INTO ` + name + `.kv VALUES (?, ?, ?)`)
	require.NoError(b, err)
	for i := 0; i < keys; i++ {
		_, err := st.Exec(i, "name", int64(i)*7)
		require.NoError(b, err)
	}
	require.NoError(b, tx.Commit())
	text := `SELECT score FROM ` + name + `.kv WHERE id = ?`
	q, err := db.Prepare(text)
	require.NoError(b, err)
	for _, prepared := range []bool{true, false} {
		for _, callers := range []int{1, 16, 64} {
			b.Run(fmt.Sprintf("prepared=%v/callers=%d", prepared, callers), func(b *testing.B) {
				db.SetMaxOpenConns(callers)
				db.SetMaxIdleConns(callers)
				queryRow := func(id int64) *sql.Row { return db.QueryRow(text, id) }
				if prepared {
					queryRow = func(id int64) *sql.Row { return q.QueryRow(id) }
				}
				benchQueryRows(b, callers, keys, queryRow)
			})
		}
	}
}

// benchQueryRows runs b.N lookups from callers goroutines and reports lookups/s and the
// 50th and 99th percentile latencies.
func benchQueryRows(b *testing.B, callers int, keys int64, queryRow func(id int64) *sql.Row) {
	var next atomic.Int64
	lat := make([][]time.Duration, callers)
	var wg sync.WaitGroup
	var failed atomic.Value
	b.ResetTimer()
	start := time.Now()
	for g := 0; g < callers; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				n := next.Add(1)
				if n > int64(b.N) {
					return
				}
				id := (n * 7919) % keys
				var score int64
				t0 := time.Now()
				err := queryRow(id).Scan(&score)
				lat[g] = append(lat[g], time.Since(t0))
				if err != nil || score != id*7 {
					failed.Store(fmt.Sprintf("id %d: score %d, err %v", id, score, err))
					return
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	if f := failed.Load(); f != nil {
		b.Fatal(f)
	}
	all := slices.Concat(lat...)
	slices.Sort(all)
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "lookups/s")
	b.ReportMetric(all[len(all)/2].Seconds()*1e3, "p50-ms")
	b.ReportMetric(all[min(len(all)-1, len(all)*99/100)].Seconds()*1e3, "p99-ms")
}
