package fluss

import (
	"context"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"

	"github.com/flussql/flussql/fluss/flusserr"
	"github.com/flussql/flussql/fluss/flusstest"
	"github.com/flussql/flussql/fluss/internal/kvbatch"
	"github.com/flussql/flussql/fluss/internal/protocol"
	"github.com/flussql/flussql/fluss/internal/row"
	"github.com/flussql/flussql/fluss/types"
)

// fakeKvRows is the value record batch of rows (id) of fakePKTableJSON.
func fakeKvRows(t *testing.T, ids ...int64) []byte {
	enc, err := row.NewCompactedEncoder([]types.DataType{types.NewBigInt().AsNotNull()})
	require.NoError(t, err)
	var recs []kvbatch.ValueRecord
	for _, id := range ids {
		b, err := enc.Append(nil, []any{id})
		require.NoError(t, err)
		recs = append(recs, kvbatch.ValueRecord{SchemaID: 1, Row: b})
	}
	return kvbatch.AppendValueBatch(nil, recs)
}

// fakeKvScanner connects to a fake cluster serving SCAN_KV with serve and opens a scanner.
func fakeKvScanner(t *testing.T, serve func(*protocol.ScanKvRequest) *protocol.ScanKvResponse) *KvScanner {
	// A primary-key table (id BIGINT NOT NULL) with 2 buckets, whose tablet servers answer
	// SCAN_KV with serve.
	f := flusstest.New(t)
	f.CreateDatabase("db")
	f.CreateTable("db", "t", types.TableJSON{Schema: types.SchemaJSON{Schema: types.Schema{
		Columns: []types.Column{{Name: "id", Type: types.NewBigInt().AsNotNull()}}, PrimaryKey: []string{"id"}}}, BucketCount: 2})
	f.Serve(protocol.ScanKv, func(body []byte) (proto.Message, error) {
		var req protocol.ScanKvRequest
		if err := proto.Unmarshal(body, &req); err != nil {
			return nil, err
		}
		resp := serve(&req)
		if resp == nil {
			return nil, nil
		}
		return resp, nil
	})
	c, err := Connect(context.Background(), Config{BootstrapServers: []string{f.Addr()}})
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	tm, err := c.tableMetadata(context.Background(), TablePath{"db", "t"})
	require.NoError(t, err)
	tb := &Table{c: c, info: tm.Info}
	s, err := tb.NewKvScanner(context.Background(), KvScanOptions{BatchBytes: 64})
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	return s
}

// waitFor returns the next value of ch, failing the test if none comes within 10 s (a
// guard against a hang, not a timing assertion).
func waitFor[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(10 * time.Second):
		t.Fatalf("no %s within 10 s", what)
		var zero T
		return zero
	}
}

// TestKvScannerCancelledCallClosesSession: when the context ends while a request is being
// served, Next returns at once, and once the answer arrives the session it names is closed
// (not before: the server refuses a close while the request is in flight).
func TestKvScannerCancelledCallClosesSession(t *testing.T) {
	for _, during := range []string{"open", "continuation"} {
		t.Run(during, func(t *testing.T) {
			received := make(chan *protocol.ScanKvRequest, 10)
			release := make(chan struct{})
			s := fakeKvScanner(t, func(req *protocol.ScanKvRequest) *protocol.ScanKvResponse {
				received <- req
				blocked := (during == "open") == (req.BucketScanReq != nil)
				if blocked && !req.GetCloseScanner() {
					<-release
				}
				return kvAnswer("s1", true, fakeKvRows(t, 1))
			})
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if during == "continuation" {
				rows, err := s.Next(ctx)
				require.NoError(t, err)
				assert.Equal(t, [][]any{{int64(1)}}, rows)
				waitFor(t, received, "open")
			}
			done := make(chan error, 1)
			go func() { _, err := s.Next(ctx); done <- err }()
			req := waitFor(t, received, "the request to cancel")
			assert.False(t, req.GetCloseScanner())
			cancel()
			require.ErrorIs(t, waitFor(t, done, "Next's return after the cancel"), context.Canceled)
			close(release)
			closeReq := waitFor(t, received, "the close")
			assert.True(t, closeReq.GetCloseScanner())
			assert.Equal(t, []byte("s1"), closeReq.GetScannerId())
			_, err := s.Next(context.Background())
			require.ErrorIs(t, err, context.Canceled, "the scanner stays failed")
		})
	}
}

// TestKvScannerSessionErrors: how a scanner reacts to each error answer.
func TestKvScannerSessionErrors(t *testing.T) {
	for _, tc := range []struct {
		name     string
		answers  []*protocol.ScanKvResponse // to the data requests of both buckets, in order; the last repeats
		wantRows int
		wantSeqs []int32 // call_seq_id of the data requests (nil: not checked)
		sentinel error
		message  string
		closes   int
	}{
		{name: "too many scanners twice, then open (bucket 1 too)", wantRows: 4, wantSeqs: []int32{0, 0, 0, 0}, answers: []*protocol.ScanKvResponse{
			kvErrorAnswer(flusserr.TooManyScanners), kvErrorAnswer(flusserr.TooManyScanners), kvAnswer("", false, fakeKvRows(t, 1, 2))}},
		{name: "too many scanners always", sentinel: flusserr.TooManyScanners, message: "too many scan sessions open",
			answers: []*protocol.ScanKvResponse{kvErrorAnswer(flusserr.TooManyScanners)}},
		{name: "expired mid-session", wantRows: 1, sentinel: flusserr.ScannerExpired, message: "kv.scanner.ttl",
			answers: []*protocol.ScanKvResponse{kvAnswer("s1", true, fakeKvRows(t, 1)), kvErrorAnswer(flusserr.ScannerExpired)}},
		{name: "leader moved mid-session", wantRows: 1, sentinel: flusserr.NotLeaderOrFollower, message: "leader moved during the scan", closes: 1,
			answers: []*protocol.ScanKvResponse{kvAnswer("s1", true, fakeKvRows(t, 1)), kvErrorAnswer(flusserr.NotLeaderOrFollower)}},
		{name: "empty bucket and batches without rows", wantRows: 3, wantSeqs: []int32{0, 0, 1, 2}, answers: []*protocol.ScanKvResponse{
			kvAnswer("", false, nil), kvAnswer("s2", true, nil), kvAnswer("s2", true, fakeKvRows(t, 5, 6)), kvAnswer("s2", false, fakeKvRows(t, 7))}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var closes, n int
			var seqs []int32
			s := fakeKvScanner(t, func(req *protocol.ScanKvRequest) *protocol.ScanKvResponse {
				if req.GetCloseScanner() {
					closes++
					return kvAnswer("", false, nil)
				}
				seqs = append(seqs, req.GetCallSeqId())
				a := tc.answers[min(n, len(tc.answers)-1)]
				n++
				return a
			})
			var rows [][]any
			var err error
			for {
				var b [][]any
				b, err = s.Next(context.Background())
				if err != nil {
					break
				}
				require.NotEmpty(t, b, "Next never returns an empty batch")
				rows = append(rows, b...)
			}
			assert.Len(t, rows, tc.wantRows)
			if tc.sentinel == nil {
				require.True(t, errors.Is(err, io.EOF), "%v", err)
			} else {
				require.ErrorIs(t, err, tc.sentinel)
				assert.ErrorContains(t, err, tc.message)
				assert.ErrorContains(t, err, "bucket 0 of db.t")
			}
			require.NoError(t, s.Close())
			assert.Equal(t, tc.closes, closes, "close requests")
			if tc.wantSeqs != nil {
				assert.Equal(t, tc.wantSeqs, seqs)
			}
		})
	}
}
