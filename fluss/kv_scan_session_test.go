package fluss

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"

	"github.com/flussql/flussql/fluss/flusserr"
	"github.com/flussql/flussql/fluss/internal/kvbatch"
	"github.com/flussql/flussql/fluss/internal/protocol"
	"github.com/flussql/flussql/fluss/internal/row"
)

// kvAnswer builds a SCAN_KV answer.
func kvAnswer(id string, more bool, recs []byte) *protocol.ScanKvResponse {
	r := &protocol.ScanKvResponse{HasMoreResults: proto.Bool(more), Records: recs}
	if id != "" {
		r.ScannerId = []byte(id)
	}
	return r
}

func kvErrorAnswer(code flusserr.Code) *protocol.ScanKvResponse {
	return &protocol.ScanKvResponse{ErrorCode: proto.Int32(int32(code)), ErrorMessage: proto.String("from the server")}
}

// TestKvSessionRequests: the open names the bucket with call_seq_id 0, continuations
// carry the scanner id and the next sequence number, the last answer ends the session
// with nothing to close.
func TestKvSessionRequests(t *testing.T) {
	part := int64(7)
	s := newKvSession(11, &part, 3, 4096, 10)
	open := s.request()
	assert.Equal(t, int64(11), open.GetBucketScanReq().GetTableId())
	assert.Equal(t, int64(7), open.GetBucketScanReq().GetPartitionId())
	assert.Equal(t, int32(3), open.GetBucketScanReq().GetBucketId())
	assert.Equal(t, int64(10), open.GetBucketScanReq().GetLimit())
	assert.Equal(t, int32(0), open.GetCallSeqId())
	assert.Equal(t, int32(4096), open.GetBatchSizeBytes())
	assert.Nil(t, open.ScannerId)
	assert.Nil(t, s.closeRequest(), "nothing to close before the open is answered")

	first := kvAnswer("abc", true, []byte{1})
	first.LogOffset = proto.Int64(42)
	recs, err := s.handle(first)
	require.NoError(t, err)
	assert.Equal(t, []byte{1}, recs)
	assert.Equal(t, int64(42), s.logOffset)
	for seq := int32(1); seq <= 2; seq++ {
		next := s.request()
		assert.Nil(t, next.BucketScanReq)
		assert.Equal(t, []byte("abc"), next.GetScannerId())
		assert.Equal(t, seq, next.GetCallSeqId())
		assert.Equal(t, int32(4096), next.GetBatchSizeBytes())
		c := s.closeRequest()
		require.NotNil(t, c)
		assert.True(t, c.GetCloseScanner())
		assert.Equal(t, []byte("abc"), c.GetScannerId())
		assert.Nil(t, c.BucketScanReq, "the server refuses close_scanner with bucket_scan_req")
		_, err := s.handle(kvAnswer("abc", true, nil))
		require.NoError(t, err)
	}
	_, err = s.handle(kvAnswer("abc", false, nil))
	require.NoError(t, err)
	assert.False(t, s.active())
	assert.Nil(t, s.closeRequest(), "the server closed a finished session itself")
	_, err = s.handle(kvAnswer("abc", true, nil))
	require.Error(t, err, "no answer is expected after the last")
}

// TestKvSessionNoLimit: without a limit the open carries none (the server reads all).
func TestKvSessionNoLimit(t *testing.T) {
	s := newKvSession(1, nil, 0, 1, 0)
	req := s.request()
	assert.Nil(t, req.GetBucketScanReq().Limit)
	assert.Nil(t, req.GetBucketScanReq().PartitionId)
	_, err := s.handle(kvAnswer("", false, nil)) // an empty bucket: no session at all
	require.NoError(t, err)
	assert.Equal(t, kvDone, s.state)
}

// TestKvSessionErrors: what each error answer leaves behind.
func TestKvSessionErrors(t *testing.T) {
	for _, tc := range []struct {
		name      string
		opened    bool
		code      flusserr.Code
		sentinel  error
		state     kvSessionState
		wantClose bool
	}{
		{"too many scanners on the open", false, flusserr.TooManyScanners, flusserr.TooManyScanners, kvNew, false},
		{"not leader on the open", false, flusserr.NotLeaderOrFollower, flusserr.NotLeaderOrFollower, kvNew, false},
		{"expired", true, flusserr.ScannerExpired, flusserr.ScannerExpired, kvFailed, false},
		{"unknown id", true, flusserr.UnknownScannerID, flusserr.UnknownScannerID, kvFailed, false},
		{"leader moved", true, flusserr.NotLeaderOrFollower, flusserr.NotLeaderOrFollower, kvFailed, true},
		{"invalid request", true, flusserr.InvalidScanRequest, &Error{Code: flusserr.InvalidScanRequest}, kvFailed, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newKvSession(1, nil, 0, 100, 0)
			if tc.opened {
				_, err := s.handle(kvAnswer("id", true, nil))
				require.NoError(t, err)
			}
			_, err := s.handle(kvErrorAnswer(tc.code))
			require.ErrorIs(t, err, tc.sentinel)
			assert.Contains(t, err.Error(), "from the server")
			assert.Equal(t, tc.state, s.state)
			assert.Equal(t, tc.wantClose, s.closeRequest() != nil)
		})
	}
}

// TestKvSessionMoreWithoutID: an answer promising more rows must name the session.
func TestKvSessionMoreWithoutID(t *testing.T) {
	s := newKvSession(1, nil, 0, 100, 0)
	_, err := s.handle(kvAnswer("", true, nil))
	require.ErrorIs(t, err, flusserr.CorruptMessage)
	assert.False(t, s.active())
}

// kvScannerOffline is a KvScanner over partitionedUsers that decodes but cannot send.
func kvScannerOffline(t testing.TB, proj []int) *KvScanner {
	pt, err := openPKTable(&Table{c: offlineClient(), info: partitionedUsers()})
	require.NoError(t, err)
	return &KvScanner{t: pt, proj: proj, batchBytes: 100}
}

// valueBatch encodes rows of partitionedUsers as the server's value record batch.
func valueBatch(t testing.TB, schemaID int16, rows ...[]any) []byte {
	enc, err := row.NewCompactedEncoder(row.FieldTypes(partitionedUsers().Schema().Columns))
	require.NoError(t, err)
	var recs []kvbatch.ValueRecord
	for _, r := range rows {
		b, err := enc.Append(nil, r)
		require.NoError(t, err)
		recs = append(recs, kvbatch.ValueRecord{SchemaID: schemaID, Row: b})
	}
	return kvbatch.AppendValueBatch(nil, recs)
}

// TestKvScannerDecode: the records of an answer come back as rows, projected.
func TestKvScannerDecode(t *testing.T) {
	b := valueBatch(t, 1, []any{int32(1), "EU", int64(10)}, []any{int32(2), "US", nil})
	for _, tc := range []struct {
		name string
		proj []int
		want [][]any
	}{
		{"all columns", nil, [][]any{{int32(1), "EU", int64(10)}, {int32(2), "US", nil}}},
		{"projected and reordered", []int{2, 0}, [][]any{{int64(10), int32(1)}, {nil, int32(2)}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rows, err := kvScannerOffline(t, tc.proj).decode(b)
			require.NoError(t, err)
			assert.Equal(t, tc.want, rows)
		})
	}
	rows, err := kvScannerOffline(t, nil).decode(nil)
	require.NoError(t, err)
	assert.Empty(t, rows, "an answer without records has no rows")
	_, err = kvScannerOffline(t, nil).decode(b[:len(b)-1])
	require.ErrorIs(t, err, flusserr.CorruptMessage)
}
