package fluss

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/flusserr"
	"github.com/flussql/flussql/fluss/flusstest"
	"github.com/flussql/flussql/fluss/types"
)

// backpressureWriter returns an upsert writer on a one-bucket primary-key table of a fake
// cluster whose first PUT_KV answer refuses the write with STORAGE_BACKPRESSURE_EXCEPTION,
// as a Fluss 1.0 tablet server does when its RocksDB reaches the slowdown trigger.
func backpressureWriter(t *testing.T, throttle time.Duration) (*flusstest.Cluster, *UpsertWriter) {
	f := flusstest.New(t)
	f.CreateDatabase("db")
	f.CreateTable("db", "kv", types.TableJSON{Schema: types.SchemaJSON{Schema: types.Schema{
		Columns: []types.Column{{Name: "id", Type: types.NewBigInt().AsNotNull()}, {Name: "v", Type: types.NewString()}}, PrimaryKey: []string{"id"}}}, BucketCount: 1})
	f.Inject(flusstest.Fault{API: flusstest.PutKv, Call: 1, Action: flusstest.FailBuckets, Code: int32(flusserr.StorageBackpressureException), Message: "write stall"})
	c, err := Connect(context.Background(), Config{BootstrapServers: []string{f.Addr()}})
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	tb, err := c.Table(context.Background(), TablePath{Database: "db", Table: "kv"})
	require.NoError(t, err)
	w, err := tb.NewUpsertWriter(context.Background(), UpsertWriterOptions{WriterOptions: WriterOptions{
		RetryBackoff: time.Millisecond, MaxBackpressureThrottle: throttle}})
	require.NoError(t, err)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = w.Close(ctx)
	})
	return f, w
}

// TestStorageBackpressureRetried: a write the server refuses under storage pressure is held
// back, then sent again and stored once.
func TestStorageBackpressureRetried(t *testing.T) {
	f, w := backpressureWriter(t, 50*time.Millisecond)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	require.NoError(t, w.Upsert(ctx, []any{int64(1), "a"}))
	require.NoError(t, w.Flush(ctx))
	assert.Equal(t, 2, f.Calls(flusstest.PutKv), "refused once, then stored")
	assert.Equal(t, flusserr.StorageBackpressureException.String(), "STORAGE_BACKPRESSURE_EXCEPTION")
}

// TestStorageBackpressureHoldsBatch: while the throttle holds a refused batch back, the
// writer does not hammer the server; a statement whose deadline comes first gets the batch
// withdrawn, and its rows reported not written (the refusal stored nothing).
func TestStorageBackpressureHoldsBatch(t *testing.T) {
	f, w := backpressureWriter(t, time.Minute)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	r := NewReceipt()
	require.NoError(t, w.UpsertWith(ctx, r, []any{int64(1), "a"}))
	err := r.Wait(ctx)
	require.Error(t, err)
	assert.True(t, errors.Is(err, ErrNotWritten), "%v", err)
	assert.Equal(t, 1, f.Calls(flusstest.PutKv), "no resend while throttled")
}
