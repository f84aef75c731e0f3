package fluss

import (
	"fmt"

	"google.golang.org/protobuf/proto"

	"github.com/flussql/flussql/fluss/flusserr"
	"github.com/flussql/flussql/fluss/internal/protocol"
)

// kvSessionState is where one bucket's SCAN_KV session stands.
type kvSessionState int

const (
	// kvNew: nothing opened on the server yet (or the open failed and may be sent again).
	kvNew kvSessionState = iota
	// kvOpen: the server holds the session; continuations carry its scanner id.
	kvOpen
	// kvDone: the server sent the last batch and closed the session itself.
	kvDone
	// kvFailed: the session ended with an error; nothing more is sent but a close.
	kvFailed
)

// kvSession is the client side of one bucket's SCAN_KV session: the requests to send
// and what the answers mean. It does no I/O (the KvScanner sends and receives).
//
// Protocol (Fluss 1.0 TabletService.scanKv): the open carries bucket_scan_req and
// call_seq_id 0; every answer with has_more_results carries the scanner id, which the
// next request sends with the next call_seq_id; an answer without has_more_results is
// the last and the server has closed the session; close_scanner with the scanner id ends
// it early (a close of an unknown id is not an error). batch_size_bytes is required on
// data requests.
type kvSession struct {
	tableID     int64
	partitionID *int64
	bucket      int32
	batchBytes  int32
	limit       int64 // > 0: the server stops the session after this many rows

	state kvSessionState
	id    []byte // the server's scanner id while kvOpen
	seq   int32  // call_seq_id of the next data request
	// logOffset is the bucket's high watermark when the server opened its snapshot (-1
	// until the first answer).
	logOffset int64
}

func newKvSession(tableID int64, partitionID *int64, bucket int32, batchBytes int32, limit int64) *kvSession {
	return &kvSession{tableID: tableID, partitionID: partitionID, bucket: bucket, batchBytes: batchBytes, limit: limit, logOffset: -1}
}

// request returns the next data request: the open while kvNew, else the continuation.
// It must not be called once the session is kvDone or kvFailed.
func (s *kvSession) request() *protocol.ScanKvRequest {
	req := &protocol.ScanKvRequest{CallSeqId: proto.Int32(s.seq), BatchSizeBytes: proto.Int32(s.batchBytes)}
	if s.state == kvNew {
		br := &protocol.PbScanReqForBucket{TableId: proto.Int64(s.tableID), PartitionId: s.partitionID, BucketId: proto.Int32(s.bucket)}
		if s.limit > 0 {
			br.Limit = proto.Int64(s.limit)
		}
		req.BucketScanReq = br
	} else {
		req.ScannerId = s.id
	}
	return req
}

// closeRequest returns the request that ends the server's session early, or nil when the
// server holds none (not opened, finished, or forgotten after an expiry).
func (s *kvSession) closeRequest() *protocol.ScanKvRequest {
	if s.id == nil || s.state == kvDone {
		return nil
	}
	return &protocol.ScanKvRequest{ScannerId: s.id, CloseScanner: proto.Bool(true), BatchSizeBytes: proto.Int32(s.batchBytes)}
}

// active reports whether more data requests are to be sent.
func (s *kvSession) active() bool { return s.state == kvNew || s.state == kvOpen }

// handle applies the answer to the request last returned by request and returns the
// answer's records (a value record batch, possibly empty). An error answer leaves a
// session that was never opened in kvNew (the open may be sent again, e.g. after
// TOO_MANY_SCANNERS or a leader move) and fails an open one.
func (s *kvSession) handle(resp *protocol.ScanKvResponse) ([]byte, error) {
	if !s.active() {
		return nil, fmt.Errorf("fluss: internal error: SCAN_KV answer for a session that is no longer active")
	}
	if err := errorFromCode(resp.GetErrorCode(), resp.GetErrorMessage()); err != nil {
		switch flusserr.Code(resp.GetErrorCode()) {
		case flusserr.ScannerExpired, flusserr.UnknownScannerID:
			s.id = nil // the server has forgotten the session: nothing to close
		}
		if s.state == kvOpen {
			s.state = kvFailed
		}
		return nil, err
	}
	if s.state == kvNew {
		if resp.LogOffset != nil {
			s.logOffset = resp.GetLogOffset()
		}
	}
	if resp.GetHasMoreResults() {
		if len(resp.GetScannerId()) == 0 {
			s.state = kvFailed
			return nil, &Error{Code: flusserr.CorruptMessage, Message: "SCAN_KV answer has more results but no scanner id"}
		}
		s.id = resp.GetScannerId()
		s.state = kvOpen
	} else {
		s.id = nil
		s.state = kvDone
	}
	s.seq++
	return resp.GetRecords(), nil
}

// fail marks the session failed (a transport error or a cancelled call): its scanner id,
// if any, is kept for the close.
func (s *kvSession) fail() { s.state = kvFailed }
