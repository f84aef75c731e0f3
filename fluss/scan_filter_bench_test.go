package fluss_test

import (
	"context"
	"errors"
	"io"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/types"
)

// BenchmarkScanFilter measures what a server filter saves: a table of
// FLUSSQL_FILTER_BENCH_ROWS rows (default 1,000,000; 3 columns BIGINT,
// STRING, DOUBLE; 4 buckets; 'table.statistics.columns' = '*' on Fluss 1.0)
// is read whole with a selective condition (id BETWEEN n/2 AND n/2+999,
// 0.1% of the rows) either checked only on the client ("client") or also
// sent to the server ("pushed", which a 1.0 server uses to skip batches).
// Reported per scan: MB fetched, rows returned by the scanner, matching rows.
// testdata/bench/scan_filter.sh runs it against a local 1.0 cluster.
func BenchmarkScanFilter(b *testing.B) {
	env := newBenchEnv(b)
	ctx := context.Background()
	n := 1_000_000
	if s := os.Getenv("FLUSSQL_FILTER_BENCH_ROWS"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil || n < 1000 {
			b.Fatalf("FLUSSQL_FILTER_BENCH_ROWS=%q: want a number of rows ≥ 1000", s)
		}
	}
	v, err := env.c.ServerVersion(ctx)
	if err != nil {
		b.Fatal(err)
	}
	props := map[string]string{}
	if v.AtLeast(1, 0) {
		props[fluss.PropStatisticsColumns] = "*"
	}
	path := fluss.TablePath{Database: env.db, Table: uniqueName("filter")}
	if err := env.c.Admin().CreateTable(ctx, path, fluss.TableDescriptor{
		Schema: types.Schema{Columns: benchSchema(3)}, BucketCount: 4, Properties: props,
	}, false); err != nil {
		b.Fatal(err)
	}
	tbl, err := env.c.Table(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	w, err := tbl.NewAppendWriter(ctx, fluss.AppendWriterOptions{})
	if err != nil {
		b.Fatal(err)
	}
	for from := 0; from < n; from += 8192 {
		rec, _ := arrowRecord(tbl, 3, from, min(from+8192, n))
		err := w.AppendRecordBatch(ctx, rec)
		rec.Release()
		if err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Flush(ctx); err != nil {
		b.Fatal(err)
	}
	if err := w.Close(ctx); err != nil {
		b.Fatal(err)
	}
	b.Logf("Fluss %s: wrote %d rows in %s", v, n, time.Since(start).Round(time.Millisecond))

	lo, hi := int64(n/2), int64(n/2+999)
	pred := &fluss.Predicate{Op: fluss.PredAnd, Children: []fluss.Predicate{
		{Op: fluss.PredGreaterOrEqual, Column: 0, Values: []any{lo}},
		{Op: fluss.PredLessOrEqual, Column: 0, Values: []any{hi}},
	}}
	for _, mode := range []string{"client", "pushed"} {
		b.Run(mode, func(b *testing.B) {
			var filter *fluss.Predicate
			if mode == "pushed" {
				filter = pred
			}
			var fetched, returned, matched int64
			pushed := false
			for b.Loop() {
				s, err := tbl.NewLogScanner(fluss.ScannerOptions{Bounded: true, Filter: filter})
				if err != nil {
					b.Fatal(err)
				}
				subs := map[fluss.TableBucket]int64{}
				for k := 0; k < 4; k++ {
					subs[fluss.TableBucket{PartitionID: fluss.NoPartition, Bucket: int32(k)}] = fluss.EarliestOffset
				}
				if err := s.SubscribeBuckets(ctx, subs); err != nil {
					b.Fatal(err)
				}
				for {
					batch, err := s.Poll(ctx)
					if errors.Is(err, io.EOF) {
						break
					}
					if err != nil {
						b.Fatal(err)
					}
					ids := batch.Record.Column(0).(*array.Int64)
					for i := 0; i < ids.Len(); i++ {
						if id := ids.Value(i); ids.IsValid(i) && id >= lo && id <= hi {
							matched++
						}
					}
					returned += int64(batch.NumRows())
					batch.Release()
				}
				fetched += s.FetchedBytes()
				pushed = s.FilterPushed()
				s.Close()
			}
			iters := float64(b.N)
			b.ReportMetric(float64(fetched)/iters/1e6, "MB-fetched/op")
			b.ReportMetric(float64(returned)/iters, "rows-returned/op")
			b.ReportMetric(float64(matched)/iters, "rows-matched/op")
			b.Logf("%s (pushed to the server: %v): %d rows match of %d", mode, pushed, int64(float64(matched)/iters), n)
		})
	}
}
