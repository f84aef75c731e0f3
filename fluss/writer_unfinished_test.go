package fluss

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A Flush that runs out of time says what happened to the rows and why.
func TestFlushTimeoutSaysWhy(t *testing.T) {
	f := newFakeCluster(t)
	f.setLeaders(-1) // the buckets never get a leader
	c := f.connect(t)
	info, err := c.Admin().GetTableInfo(context.Background(), f.path)
	require.NoError(t, err)
	tbl, err := c.TableOf(info)
	require.NoError(t, err)
	w, err := tbl.NewAppendWriter(context.Background(), AppendWriterOptions{WriterOptions: WriterOptions{DisableIdempotence: true, Acks: AcksLeader}})
	require.NoError(t, err)
	for i := int64(0); i < 3; i++ {
		require.NoError(t, w.Append(context.Background(), []any{i}))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 1500*time.Millisecond)
	defer cancel()
	err = w.Flush(ctx)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	assert.ErrorIs(t, err, ErrNotWritten, "never sent: withdrawn")
	assert.Contains(t, err.Error(), "3 rows not written: bucket")
	assert.Contains(t, err.Error(), "of db.t: never sent (withdrawn") // queued, or held by the sender looking the leader up
	assert.Contains(t, err.Error(), "has no known leader yet")

	closeCtx, cancel2 := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel2()
	_ = w.Close(closeCtx)
}
