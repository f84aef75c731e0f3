package fluss_test

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/types"
)

// produceBytes counts the bytes of the PRODUCE_LOG requests a client sends.
type produceBytes struct {
	fluss.NopObserver
	mu sync.Mutex
	n  int
}

func (o *produceBytes) RequestDone(e fluss.RequestEvent) {
	if e.API == "PRODUCE_LOG" && e.Err == nil {
		o.mu.Lock()
		o.n += e.BytesSent
		o.mu.Unlock()
	}
}

// TestAppendHonoursZstdLevel: the writer compresses at the table's
// 'table.log.arrow.compression.zstd.level' — the same rows take fewer bytes at level 19 than
// at the default level and at level 1 — and the server stores and serves every level's
// batches: each table reads back row for row.
func TestAppendHonoursZstdLevel(t *testing.T) {
	obs := &produceBytes{}
	c, err := fluss.Connect(testCtx(t), fluss.Config{BootstrapServers: bootstrap(t), RequestTimeout: 20 * time.Second, Observer: obs})
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	db := tempDatabase(t, c.Admin())
	ctx := testCtx(t)
	const rows = 30_000
	sent := map[string]int{}
	for _, level := range []string{"", "1", "19"} {
		props := map[string]string{}
		if level != "" {
			props[fluss.PropArrowZstdLevel] = level
		}
		tbl := createLogTable(t, c, db, "z"+level, fluss.TableDescriptor{Schema: types.Schema{Columns: []types.Column{
			{Name: "id", Type: types.NewBigInt().AsNotNull()},
			{Name: "name", Type: types.NewString()},
		}}, BucketCount: 1, Properties: props})
		w, err := tbl.NewAppendWriter(ctx, fluss.AppendWriterOptions{})
		require.NoError(t, err)
		rb := array.NewRecordBuilder(memory.DefaultAllocator, tbl.ArrowSchema())
		for i := range rows {
			rb.Field(0).(*array.Int64Builder).Append(int64(i))
			rb.Field(1).(*array.StringBuilder).Append(fmt.Sprintf("customer-%d", i%700))
		}
		rec := rb.NewRecordBatch()
		rb.Release()
		obs.mu.Lock()
		before := obs.n
		obs.mu.Unlock()
		require.NoError(t, w.AppendRecordBatch(ctx, rec))
		require.NoError(t, w.Close(ctx))
		rec.Release()
		obs.mu.Lock()
		sent[level] = obs.n - before
		obs.mu.Unlock()

		s, err := tbl.NewLogScanner(fluss.ScannerOptions{Bounded: true})
		require.NoError(t, err)
		require.NoError(t, s.Subscribe(ctx, 0, fluss.EarliestOffset))
		got := drain(t, ctx, s)
		s.Close()
		require.Len(t, got, rows, "level %q", level)
		for i, r := range got {
			require.Equal(t, int64(i), r.values[0])
			require.Equal(t, fmt.Sprintf("customer-%d", i%700), r.values[1])
		}
	}
	t.Logf("PRODUCE_LOG bytes by level (\"\" = the default, 3): %v", sent)
	assert.Less(t, sent["19"], sent[""], "level 19 sends fewer bytes than the default level")
	assert.Less(t, sent["19"], sent["1"], "level 19 sends fewer bytes than level 1")
	assert.NotEqual(t, sent["1"], sent[""], "level 1 compresses otherwise than the default level")
}
