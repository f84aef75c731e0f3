package fluss_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/datum"
	"github.com/flussql/flussql/fluss/flusstest/realcluster"
	"github.com/flussql/flussql/fluss/types"
)

// The log-table benchmarks write and read b.N rows of a 3-column and a
// 20-column schema against FLUSS_BOOTSTRAP_SERVERS and report rows/s and
// MB/s (of raw values: 8 bytes per number, 1 per boolean, string lengths).
// testdata/bench/pyfluss_log.py runs the same workload with pyfluss and
// testdata/bench/compare.sh prints the ratios.

// benchSchema returns the benchmark schema with cols columns (3 or 20).
func benchSchema(cols int) []types.Column {
	if cols == 3 {
		return []types.Column{
			{Name: "id", Type: types.NewBigInt()},
			{Name: "name", Type: types.NewString()},
			{Name: "v", Type: types.NewDouble()},
		}
	}
	var out []types.Column
	for k := 0; k < 5; k++ {
		out = append(out, types.Column{Name: fmt.Sprintf("l%d", k), Type: types.NewBigInt()})
	}
	for k := 0; k < 5; k++ {
		out = append(out, types.Column{Name: fmt.Sprintf("d%d", k), Type: types.NewDouble()})
	}
	for k := 0; k < 5; k++ {
		out = append(out, types.Column{Name: fmt.Sprintf("s%d", k), Type: types.NewString()})
	}
	return append(out,
		types.Column{Name: "i0", Type: types.NewInt()},
		types.Column{Name: "i1", Type: types.NewInt()},
		types.Column{Name: "b", Type: types.NewBoolean()},
		types.Column{Name: "ts", Type: types.NewTimestamp(3)},
		types.Column{Name: "dec", Type: types.NewDecimal(10, 2)},
	)
}

// benchRow fills row i of the benchmark data (same values as pyfluss_log.py)
// and returns its raw size.
func benchRow(cols, i int, row []any) int {
	if cols == 3 {
		name := fmt.Sprintf("name-%d", i)
		row[0], row[1], row[2] = int64(i), name, float64(i)*0.5
		return 16 + len(name)
	}
	size := 0
	for k := 0; k < 5; k++ {
		row[k] = int64(i) * int64(k+1)
		row[5+k] = float64(i) * 0.25 * float64(k+1)
		s := fmt.Sprintf("s%d-%d", k, i)
		row[10+k] = s
		size += 16 + len(s)
	}
	row[15], row[16], row[17] = int32(i%1000), int32(i%7), i%2 == 0
	row[18] = datum.TimestampNTZ{Millis: 1_700_000_000_000 + int64(i)}
	row[19] = datum.NewDecimal(int64(i%1_000_000), 2)
	return size + 4 + 4 + 1 + 8 + 8
}

type benchEnv struct {
	c  *fluss.Client
	db string
}

func newBenchEnv(b *testing.B) *benchEnv {
	addr := realcluster.Addr(b)
	ctx := context.Background()
	c, err := fluss.Connect(ctx, fluss.Config{BootstrapServers: strings.Split(addr, ",")})
	if err != nil {
		b.Fatal(err)
	}
	db := uniqueName("bench")
	if err := c.Admin().CreateDatabase(ctx, db, fluss.DatabaseDescriptor{}, false); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		_ = c.Admin().DropDatabase(context.Background(), db, true, true)
		c.Close()
	})
	return &benchEnv{c: c, db: db}
}

func (e *benchEnv) table(b *testing.B, cols int) *fluss.Table {
	ctx := context.Background()
	path := fluss.TablePath{Database: e.db, Table: uniqueName(fmt.Sprintf("t%d", cols))}
	err := e.c.Admin().CreateTable(ctx, path, fluss.TableDescriptor{Schema: types.Schema{Columns: benchSchema(cols)}, BucketCount: 4}, false)
	if err != nil {
		b.Fatal(err)
	}
	t, err := e.c.Table(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	return t
}

// arrowRecord builds rows [from, to) as one Arrow record.
func arrowRecord(tbl *fluss.Table, cols, from, to int) (arrow.RecordBatch, int) {
	rb, err := fluss.NewArrowRowBuilder(nil, tbl.Info().Schema().Columns)
	if err != nil {
		panic(err)
	}
	defer rb.Release()
	row := make([]any, cols)
	size := 0
	for i := from; i < to; i++ {
		size += benchRow(cols, i, row)
		if err := rb.Append(row); err != nil {
			panic(err)
		}
	}
	return rb.NewRecordBatch(), size
}

func benchAppend(b *testing.B, cols int, useArrow bool) {
	env := newBenchEnv(b)
	tbl := env.table(b, cols)
	ctx := context.Background()
	w, err := tbl.NewAppendWriter(ctx, fluss.AppendWriterOptions{})
	if err != nil {
		b.Fatal(err)
	}
	var recs []arrow.RecordBatch
	size := 0
	if useArrow {
		const chunk = 2048 // as testdata/bench/pyfluss_log.py
		for from := 0; from < b.N; from += chunk {
			rec, n := arrowRecord(tbl, cols, from, min(from+chunk, b.N))
			recs = append(recs, rec)
			size += n
		}
	}
	row := make([]any, cols)
	benchRow(cols, 0, row) // warm-up: leaders known, connections open
	if err := w.Append(ctx, row); err != nil {
		b.Fatal(err)
	}
	if err := w.Flush(ctx); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	if useArrow {
		for _, rec := range recs {
			if err := w.AppendRecordBatch(ctx, rec); err != nil {
				b.Fatal(err)
			}
		}
	} else {
		for i := 0; i < b.N; i++ {
			size += benchRow(cols, i, row)
			if err := w.Append(ctx, row); err != nil {
				b.Fatal(err)
			}
		}
	}
	if err := w.Flush(ctx); err != nil {
		b.Fatal(err)
	}
	elapsed := time.Since(start)
	b.StopTimer()
	_ = w.Close(ctx)
	for _, r := range recs {
		r.Release()
	}
	report(b, b.N, size, elapsed)
}

func report(b *testing.B, rows, size int, elapsed time.Duration) {
	b.ReportMetric(float64(rows)/elapsed.Seconds(), "rows/s")
	b.ReportMetric(float64(size)/1e6/elapsed.Seconds(), "MB/s")
}

func benchScan(b *testing.B, cols int) {
	env := newBenchEnv(b)
	tbl := env.table(b, cols)
	ctx := context.Background()
	w, err := tbl.NewAppendWriter(ctx, fluss.AppendWriterOptions{})
	if err != nil {
		b.Fatal(err)
	}
	size := 0
	for from := 0; from < b.N; from += 2048 {
		rec, n := arrowRecord(tbl, cols, from, min(from+2048, b.N))
		size += n
		if err := w.AppendRecordBatch(ctx, rec); err != nil {
			b.Fatal(err)
		}
		rec.Release()
	}
	if err := w.Close(ctx); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	s, err := tbl.NewLogScanner(fluss.ScannerOptions{Bounded: true})
	if err != nil {
		b.Fatal(err)
	}
	subs := map[fluss.TableBucket]int64{}
	for k := int32(0); k < 4; k++ {
		subs[fluss.TableBucket{PartitionID: fluss.NoPartition, Bucket: k}] = fluss.EarliestOffset
	}
	if err := s.SubscribeBuckets(ctx, subs); err != nil {
		b.Fatal(err)
	}
	rows := 0
	for {
		batch, err := s.Poll(ctx)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			b.Fatal(err)
		}
		rows += batch.NumRows()
		batch.Release()
	}
	elapsed := time.Since(start)
	b.StopTimer()
	s.Close()
	if rows != b.N {
		b.Fatalf("read %d rows, wrote %d", rows, b.N)
	}
	report(b, rows, size, elapsed)
}

func BenchmarkAppend3Cols(b *testing.B) {
	b.Run("rows", func(b *testing.B) { benchAppend(b, 3, false) })
	b.Run("arrow", func(b *testing.B) { benchAppend(b, 3, true) })
}

func BenchmarkAppend20Cols(b *testing.B) {
	b.Run("rows", func(b *testing.B) { benchAppend(b, 20, false) })
	b.Run("arrow", func(b *testing.B) { benchAppend(b, 20, true) })
}

func BenchmarkScan3Cols(b *testing.B)  { benchScan(b, 3) }
func BenchmarkScan20Cols(b *testing.B) { benchScan(b, 20) }
