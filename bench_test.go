package flussql_test

import (
	"context"
	"database/sql"
	"fmt"
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

// BenchmarkSelectScan reads a 200,000-row log table with Rows.Next + Scan. One op is one
// full scan.
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
		_, err := st.Exec(i, "name", int64(i))
		require.NoError(b, err)
	}
	require.NoError(b, tx.Commit())
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rows, err := db.Query(`SELECT id, name, value FROM ` + name + `.t`)
		require.NoError(b, err)
		var id int32
		var s string
		var v int64
		count := 0
		for rows.Next() {
			if err := rows.Scan(&id, &s, &v); err != nil {
				b.Fatal(err)
			}
			count++
		}
		require.NoError(b, rows.Err())
		require.Equal(b, n, count)
	}
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkLookupQueryRow is point lookups through QueryRow from 16 goroutines.
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
	db.SetMaxOpenConns(16)
	q, err := db.Prepare(`SELECT score FROM ` + name + `.kv WHERE id = ?`)
	require.NoError(b, err)
	var next atomic.Int64
	b.ResetTimer()
	var wg sync.WaitGroup
	var failed atomic.Value
	per := (b.N + 15) / 16
	for g := 0; g < 16; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < per; j++ {
				id := next.Add(1) % keys
				var score int64
				if err := q.QueryRow(id).Scan(&score); err != nil || score != id*7 {
					failed.Store(fmt.Sprintf("id %d: score %d, err %v", id, score, err))
					return
				}
			}
		}()
	}
	wg.Wait()
	if f := failed.Load(); f != nil {
		b.Fatal(f)
	}
	b.ReportMetric(float64(per*16)/b.Elapsed().Seconds(), "lookups/s")
}
