package flusslake_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql"
	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/flusstest/realcluster"
	"github.com/flussql/flussql/fluss/localcluster"
	"github.com/flussql/flussql/flusslake"
)

// BenchmarkLakeUnionRead reads a table of FLUSSQL_LAKE_BENCH_ROWS rows (default 200,000)
// that the tiering service has put into the lake (Iceberg or Paimon) whole: "union" is SELECT COUNT(*), SUM(v)
// through the union read (every row from the lake), "log" the same with 'scan.startup.mode'
// = 'earliest' (every row from Fluss). Run it on a local lakehouse:
//
//	fluss-local-cluster run -flink -lake iceberg -- sh -c 'cd flusslake && go test -run - -bench LakeUnionRead -benchtime 3x .'
func BenchmarkLakeUnionRead(b *testing.B) {
	lakeFormat(b)
	n := 200_000
	if v := os.Getenv("FLUSSQL_LAKE_BENCH_ROWS"); v != "" {
		var err error
		n, err = strconv.Atoi(v)
		require.NoError(b, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	db, err := sql.Open("fluss", "fluss://"+realcluster.Addr(b)+"/fluss")
	require.NoError(b, err)
	defer db.Close()
	dbName := fmt.Sprintf("lake_bench_%d", time.Now().UnixNano()%1e9)
	conn, err := db.Conn(ctx)
	require.NoError(b, err)
	defer conn.Close()
	for _, q := range []string{"CREATE DATABASE " + dbName,
		"CREATE TABLE " + dbName + ".t (id BIGINT, v BIGINT, name STRING) WITH ('bucket.num' = '2', 'table.datalake.enabled' = 'true', 'table.datalake.freshness' = '1s')"} {
		_, err := conn.ExecContext(ctx, q)
		require.NoError(b, err, q)
	}
	schema, err := flussql.TableArrowSchema(ctx, conn, dbName+".t")
	require.NoError(b, err)
	var recs []arrow.RecordBatch
	for start := 0; start < n; start += 10_000 {
		bld := array.NewRecordBuilder(memory.DefaultAllocator, schema)
		for i := start; i < min(start+10_000, n); i++ {
			bld.Field(0).(*array.Int64Builder).Append(int64(i))
			bld.Field(1).(*array.Int64Builder).Append(int64(i % 1000))
			bld.Field(2).(*array.StringBuilder).Append("name-" + strconv.Itoa(i))
		}
		recs = append(recs, bld.NewRecordBatch())
		bld.Release()
	}
	rdr, err := array.NewRecordReader(schema, recs)
	require.NoError(b, err)
	written, err := flussql.CopyFrom(ctx, conn, dbName+".t", rdr)
	require.NoError(b, err)
	require.Equal(b, int64(n), written)

	client, err := fluss.Connect(ctx, fluss.Config{BootstrapServers: realcluster.Addrs(b)})
	require.NoError(b, err)
	defer client.Close()
	path := fluss.TablePath{Database: dbName, Table: "t"}
	ends, err := client.Admin().ListOffsets(ctx, path, "", nil, fluss.OffsetLatest())
	require.NoError(b, err)
	want := map[fluss.TableBucket]int64{}
	for bk, end := range ends {
		if end > 0 {
			want[fluss.TableBucket{PartitionID: fluss.NoPartition, Bucket: bk}] = end
		}
	}
	_, err = localcluster.WaitLakeTiered(ctx, client.Admin(), path, want, 500*time.Millisecond)
	require.NoError(b, err)

	wantSum := 0
	for i := range n {
		wantSum += i % 1000
	}
	for _, c := range []struct {
		name, hint string
		readers    int // Iceberg data files decoded at once; 0: the default
	}{
		{"union", "", 0},
		{"union-serial", "", 1},
		{"log", " /*+ OPTIONS('scan.startup.mode' = 'earliest') */", 0},
	} {
		b.Run(c.name, func(b *testing.B) {
			if c.readers > 0 {
				defer flusslake.SetMaxFileReaders(flusslake.SetMaxFileReaders(c.readers))
			}
			var before runtime.MemStats
			runtime.ReadMemStats(&before)
			peak := peakHeap(b)
			defer func() {
				b.ReportMetric(float64(peak()-before.HeapInuse)/(1<<20), "peak-heap-MiB")
			}()
			for range b.N {
				var count, sum int
				require.NoError(b, conn.QueryRowContext(ctx, "SELECT COUNT(*), SUM(v) FROM "+dbName+".t"+c.hint).Scan(&count, &sum))
				require.Equal(b, n, count)
				require.Equal(b, wantSum, sum)
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}

// peakHeap samples the Go heap in use every 10 ms until the returned function is called,
// which returns the highest sample.
func peakHeap(b *testing.B) func() uint64 {
	stop := make(chan struct{})
	done := make(chan uint64)
	go func() {
		var peak uint64
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			peak = max(peak, m.HeapInuse)
			select {
			case <-stop:
				done <- peak
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
	}()
	return func() uint64 {
		close(stop)
		return <-done
	}
}
