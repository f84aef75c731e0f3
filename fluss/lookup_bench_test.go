package fluss_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/flusstest/realcluster"
)

// The primary-key benchmarks run against FLUSS_BOOTSTRAP_SERVERS on a
// "users" table (id INT, name STRING, score BIGINT; primary key id; 4
// buckets):
//
//   - BenchmarkUpsert upserts b.N rows one by one with one UpsertWriter and
//     flushes; it reports rows/s.
//   - BenchmarkLookup/callers=C looks up b.N random existing keys (of
//     kvBenchKeys preloaded rows) from C goroutines sharing one Lookuper,
//     each calling Lookup one key at a time; it reports lookups/s and the
//     p50 and p99 latency of one call in milliseconds.
//
// testdata/bench/pyfluss_kv.py runs the same workload with pyfluss and
// testdata/bench/compare_kv.sh runs both and prints the ratios.

const (
	kvBenchKeys    = 100_000
	kvBenchBuckets = 4
)

type kvBenchEnv struct {
	c  *fluss.Client
	db string
}

func newKVBenchEnv(b *testing.B) *kvBenchEnv {
	addr := realcluster.Addr(b)
	ctx := context.Background()
	c, err := fluss.Connect(ctx, fluss.Config{BootstrapServers: strings.Split(addr, ",")})
	if err != nil {
		b.Fatal(err)
	}
	db := uniqueName("kvbench")
	if err := c.Admin().CreateDatabase(ctx, db, fluss.DatabaseDescriptor{}, false); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		_ = c.Admin().DropDatabase(context.Background(), db, true, true)
		c.Close()
	})
	return &kvBenchEnv{c: c, db: db}
}

func (e *kvBenchEnv) usersTable(b *testing.B) *fluss.Table {
	ctx := context.Background()
	path := fluss.TablePath{Database: e.db, Table: uniqueName("users")}
	if err := e.c.Admin().CreateTable(ctx, path, fluss.TableDescriptor{Schema: usersSchema(), BucketCount: kvBenchBuckets}, false); err != nil {
		b.Fatal(err)
	}
	t, err := e.c.Table(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	return t
}

// upsertUsers writes ids [0, n) with one writer.
func upsertUsers(b *testing.B, t *fluss.Table, n int) {
	ctx := context.Background()
	w, err := t.NewUpsertWriter(ctx, fluss.UpsertWriterOptions{})
	if err != nil {
		b.Fatal(err)
	}
	for i := range n {
		if err := w.Upsert(ctx, userRow(i, "name")); err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Close(ctx); err != nil {
		b.Fatal(err)
	}
}

func BenchmarkUpsert(b *testing.B) {
	env := newKVBenchEnv(b)
	t := env.usersTable(b)
	ctx := context.Background()
	w, err := t.NewUpsertWriter(ctx, fluss.UpsertWriterOptions{})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close(ctx)
	rows := make([][]any, b.N)
	for i := range rows {
		rows[i] = userRow(i, "name")
	}
	b.ResetTimer()
	start := time.Now()
	for _, r := range rows {
		if err := w.Upsert(ctx, r); err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Flush(ctx); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "rows/s")
}

func BenchmarkLookup(b *testing.B) {
	env := newKVBenchEnv(b)
	t := env.usersTable(b)
	upsertUsers(b, t, kvBenchKeys)
	l, err := t.NewLookuper()
	if err != nil {
		b.Fatal(err)
	}
	for _, callers := range []int{1, 16, 64} {
		b.Run(fmt.Sprintf("callers=%d", callers), func(b *testing.B) {
			benchLookups(b, l, callers)
		})
	}
}

// benchLookups runs b.N lookups of random keys from callers goroutines and
// reports throughput and latency percentiles.
func benchLookups(b *testing.B, l *fluss.Lookuper, callers int) {
	ctx := context.Background()
	var next atomic.Int64
	lat := make([][]time.Duration, callers)
	var wg sync.WaitGroup
	var failed atomic.Value
	b.ResetTimer()
	start := time.Now()
	for g := range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(g), 7))
			for next.Add(1) <= int64(b.N) {
				id := int32(rng.IntN(kvBenchKeys))
				t0 := time.Now()
				_, found, err := l.Lookup(ctx, []any{id})
				lat[g] = append(lat[g], time.Since(t0))
				if err != nil || !found {
					failed.Store(fmt.Sprintf("lookup %d: found=%v err=%v", id, found, err))
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
	b.ReportMetric(percentile(all, 0.50).Seconds()*1e3, "p50-ms")
	b.ReportMetric(percentile(all, 0.99).Seconds()*1e3, "p99-ms")
}

func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[min(len(sorted)-1, int(p*float64(len(sorted))))]
}
