package fluss

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/flusserr"
	"github.com/flussql/flussql/fluss/flusstest/realcluster"
	"github.com/flussql/flussql/fluss/internal/protocol"
	"github.com/flussql/flussql/fluss/types"
)

// TestIdempotentResend sends the very bytes the append writer produces for
// a batch several times with the same writer id and sequence, as a retry
// after a lost answer does, and checks the rows are stored once. The same
// resend without a writer id duplicates the rows, which shows the check
// can fail.
func TestIdempotentResend(t *testing.T) {
	addr := realcluster.Addr(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := Connect(ctx, Config{BootstrapServers: strings.Split(addr, ",")})
	require.NoError(t, err)
	defer c.Close()
	db := fmt.Sprintf("idem_%d", time.Now().UnixNano()%1e10)
	require.NoError(t, c.Admin().CreateDatabase(ctx, db, DatabaseDescriptor{}, false))
	defer c.Admin().DropDatabase(context.Background(), db, true, true)
	path := TablePath{Database: db, Table: "t"}
	require.NoError(t, c.Admin().CreateTable(ctx, path, TableDescriptor{Schema: types.Schema{Columns: []types.Column{
		{Name: "id", Type: types.NewInt()},
	}}, BucketCount: 1}, false))
	tbl, err := c.Table(ctx, path)
	require.NoError(t, err)
	w, err := tbl.NewAppendWriter(ctx, AppendWriterOptions{})
	require.NoError(t, err)
	defer w.Close(ctx)
	require.GreaterOrEqual(t, w.core.writerID, int64(0), "idempotent by default: the writer has an id")

	batch := func(from int, writerID int64, seq int32) []byte {
		content, err := w.newContent()
		require.NoError(t, err)
		defer content.release()
		for i := from; i < from+10; i++ {
			require.NoError(t, content.(*logContent).put([]any{int32(i)}))
		}
		data, err := content.seal()
		require.NoError(t, err)
		require.NoError(t, content.setWriterState(data, writerID, seq))
		return data
	}
	// The bucket of a table created a moment ago may have no leader yet: wait for it.
	var leader ServerNode
	for {
		leader, err = c.bucketLeader(ctx, path, "", 0)
		if err == nil || !errors.Is(err, flusserr.LeaderNotAvailableException) || ctx.Err() != nil {
			break
		}
		c.invalidateTable(path)
		time.Sleep(50 * time.Millisecond)
	}
	require.NoError(t, err)
	produce := func(data []byte) error {
		b := &writeBatch{target: writeTarget{partitionID: -1, bucket: 0}, data: data}
		req := logProtocol{}.request(tbl.info.TableID, AcksAll, 10*time.Second, []*writeBatch{b})
		var resp protocol.ProduceLogResponse
		require.NoError(t, c.callNode(ctx, leader, protocol.ProduceLog, req, &resp))
		r := resp.GetBucketsResp()[0]
		return errorFromCode(r.GetErrorCode(), r.GetErrorMessage())
	}
	count := func() int {
		s, err := tbl.NewLogScanner(ScannerOptions{Bounded: true})
		require.NoError(t, err)
		defer s.Close()
		require.NoError(t, s.Subscribe(ctx, 0, EarliestOffset))
		n := 0
		for {
			b, err := s.Poll(ctx)
			if errors.Is(err, io.EOF) {
				return n
			}
			require.NoError(t, err)
			n += b.NumRows()
			b.Release()
		}
	}

	id := w.core.writerID
	first := batch(0, id, 0)
	// A new table's bucket leader may not serve yet (NOT_LEADER_OR_FOLLOWER for a moment
	// after creation): retry the first send until it does. Resending sequence 0 is what
	// the test is about anyway.
	deadline := time.Now().Add(15 * time.Second)
	for err := produce(first); err != nil; err = produce(first) {
		require.True(t, errors.Is(err, flusserr.NotLeaderOrFollower) && time.Now().Before(deadline), "first send: %v", err)
		time.Sleep(200 * time.Millisecond)
		c.invalidateTable(path)
		leader, err = c.bucketLeader(ctx, path, "", 0)
		require.NoError(t, err)
	}
	for i := 0; i < 3; i++ {
		require.NoError(t, produce(first), "resend %d of sequence 0", i)
	}
	assert.Equal(t, 10, count(), "three sends of one batch store it once")
	require.NoError(t, produce(batch(10, id, 1)))
	assert.Equal(t, 20, count())
	err = produce(batch(20, id, 5))
	assert.ErrorIs(t, err, flusserr.OutOfOrderSequenceException, "a gap in the sequence is refused")
	assert.Equal(t, 20, count())

	plain := batch(100, -1, -1)
	require.NoError(t, produce(plain))
	require.NoError(t, produce(plain))
	assert.Equal(t, 40, count(), "without a writer id a resend duplicates")
}
