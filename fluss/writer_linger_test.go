package fluss

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/flusstest"
	"github.com/flussql/flussql/fluss/types"
)

// TestLingerKeepsFillingBehindAWaitingBatch: while a bucket's batch is in flight (the
// server answers after 150 ms) and its next batch is closed and waiting, rows written at a
// steady pace go into one open batch instead of a new small batch every linger period
// (1 ms here): about 150 batches would reach the server otherwise. Every row is stored once.
func TestLingerKeepsFillingBehindAWaitingBatch(t *testing.T) {
	f := flusstest.New(t)
	f.CreateDatabase("db")
	f.CreateTable("db", "ev", types.TableJSON{Schema: types.SchemaJSON{Schema: types.Schema{
		Columns: []types.Column{{Name: "id", Type: types.NewBigInt()}}}}, BucketCount: 1})
	c, err := Connect(context.Background(), Config{BootstrapServers: []string{f.Addr()}})
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	tb, err := c.Table(context.Background(), TablePath{Database: "db", Table: "ev"})
	require.NoError(t, err)
	w, err := tb.NewAppendWriter(context.Background(), AppendWriterOptions{WriterOptions: WriterOptions{Linger: time.Millisecond}})
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	t.Cleanup(func() { _ = w.Close(ctx) })

	f.Inject(flusstest.Fault{API: flusstest.ProduceLog, Times: -1, Action: flusstest.Delay, Delay: 150 * time.Millisecond})
	before := f.Calls(flusstest.ProduceLog)
	const n = 300
	start := time.Now()
	for i := range n {
		require.NoError(t, w.AppendWith(ctx, nil, []any{int64(i)}))
		time.Sleep(time.Millisecond)
	}
	require.NoError(t, w.Flush(ctx))
	elapsed := time.Since(start)
	requests := f.Calls(flusstest.ProduceLog) - before
	// One batch per request (one bucket); each request takes 150 ms, one in flight.
	assert.LessOrEqual(t, requests, int(elapsed/(150*time.Millisecond))+2,
		"%d requests of one batch in %v: small batches closed behind the one in flight", requests, elapsed)
	assert.Equal(t, int64(n), f.LogEnd("db", "ev", "", 0), "every row stored once")
}
