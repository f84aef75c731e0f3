package fluss_test

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/flusstest/realcluster"
	"github.com/flussql/flussql/fluss/localcluster"
)

// throttleCounter is a slog handler that counts the wire client's "write throttled by
// storage pressure" records and keeps the highest pressure they report.
type throttleCounter struct {
	n   atomic.Int64
	max atomic.Int64 // pressure × 1000
}

func (h *throttleCounter) Enabled(context.Context, slog.Level) bool { return true }
func (h *throttleCounter) Handle(_ context.Context, r slog.Record) error {
	if !strings.Contains(r.Message, "throttled by storage pressure") {
		return nil
	}
	h.n.Add(1)
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "pressure" {
			var p float64
			fmt.Sscan(a.Value.String(), &p)
			if v := int64(p * 1000); v > h.max.Load() {
				h.max.Store(v)
			}
		}
		return true
	})
	return nil
}
func (h *throttleCounter) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h *throttleCounter) WithGroup(string) slog.Handler      { return h }

// TestKvBackpressureLive: a Fluss 1.0 tablet server whose RocksDB keeps L0 files around
// (a 64 KiB write buffer, proactive backpressure from the first L0 file) piggybacks a
// pressure on its PUT_KV v2 answers; the upsert writer slows the bucket down (logged as
// throttled) instead of failing, and every key is stored. A 0.9 server sends no pressure:
// the same writes are never throttled.
func TestKvBackpressureLive(t *testing.T) {
	if !realcluster.Configured() {
		t.Skip("FLUSS_BOOTSTRAP_SERVERS is not set: integration tests are off")
	}
	shared := connect(t)
	v, err := shared.ServerVersion(testCtx(t))
	require.NoError(t, err)
	addr := bootstrap(t)
	rows := 2000
	if v.AtLeast(1, 0) {
		ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
		defer cancel()
		cl, err := localcluster.Start(ctx, localcluster.Options{Logf: t.Logf, ServerConfig: map[string]string{
			"kv.backpressure.l0-slowdown-trigger": "1",
			"kv.rocksdb.writebuffer.size":         "64kb",
		}})
		require.NoError(t, err)
		t.Cleanup(func() { assert.NoError(t, cl.Stop()) })
		addr = []string{cl.BootstrapServers}
		rows = 30000
	}
	counter := &throttleCounter{}
	c, err := fluss.Connect(testCtx(t), fluss.Config{BootstrapServers: addr, RequestTimeout: 20 * time.Second, Logger: slog.New(counter)})
	require.NoError(t, err)
	defer c.Close()
	path := createUsersTable(t, c, 1)
	tb := openTable(t, c, path)
	w := newUpsertWriter(t, tb, fluss.UpsertWriterOptions{WriterOptions: fluss.WriterOptions{BatchSize: 16 << 10}})
	ctx := testCtx(t)
	pad := strings.Repeat("x", 200)
	start := time.Now()
	for id := 1; id <= rows; id++ {
		require.NoError(t, w.Upsert(ctx, []any{int32(id), fmt.Sprintf("%s-%d", pad, id), int64(id) * 7}))
	}
	require.NoError(t, w.Flush(ctx), "every upsert is acknowledged: pressure slows the writer down, it does not fail it")
	t.Logf("Fluss %s: %d upserts in %s, throttled %d times, highest pressure %.3f", v, rows, time.Since(start).Round(time.Millisecond),
		counter.n.Load(), float64(counter.max.Load())/1000)

	l := newLookuper(t, c, path)
	keys := make([][]any, 0, rows)
	for id := 1; id <= rows; id++ {
		keys = append(keys, []any{int32(id)})
	}
	found, err := l.LookupMany(ctx, keys)
	require.NoError(t, err)
	missing := 0
	for i, r := range found {
		if r == nil || r[2] != int64(i+1)*7 {
			missing++
		}
	}
	assert.Zero(t, missing, "every key is stored with its value")
	if v.AtLeast(1, 0) {
		assert.Positive(t, counter.n.Load(), "the 1.0 server reported storage pressure and the writer throttled")
	} else {
		assert.Zero(t, counter.n.Load(), "a 0.9 server sends no pressure")
	}
}
