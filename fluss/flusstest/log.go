package flusstest

import (
	"encoding/binary"
	"fmt"
	"slices"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/flussql/flussql/fluss/internal/logbatch"
	"github.com/flussql/flussql/fluss/internal/protocol"
)

// bucket is the storage of one bucket: its log (of a log table, or the changelog of a
// primary-key table) and, for a primary-key table, its KV store.
type bucket struct {
	log []logEntry
	end int64 // the log end offset
	// hw holds the high watermark a server answers instead of end (SetHighWatermark).
	hw map[int32]int64
	// writers holds the last batch of each idempotent writer, for duplicate detection.
	writers map[int64]writerState
	kv      map[string][]byte // encoded key → value (schema id + row)
	// tier is the tiered part of the log (TierLog), nil when none.
	tier *tiering
	// start is the log start offset (ExpireLog): the offsets before it expired.
	start int64
}

// logEntry is one stored log batch: its bytes (base offset and commit timestamp set by the
// fake, every column of the table), its offsets and its commit time.
type logEntry struct {
	base, next int64
	commit     int64
	data       []byte
}

type writerState struct {
	seq  int32
	base int64
}

func newBucket() *bucket {
	return &bucket{writers: map[int64]writerState{}, kv: map[string][]byte{}, hw: map[int32]int64{}}
}

// highWatermark is the high watermark server node answers for the bucket.
func (b *bucket) highWatermark(node int32) int64 {
	if hw, ok := b.hw[node]; ok {
		return min(hw, b.end)
	}
	return b.end
}

// appendBatch stores a batch at the log end: its base offset and commit timestamp are set
// (neither is covered by the CRC).
func (b *bucket) appendBatch(data []byte, rows int) int64 {
	data = slices.Clone(data)
	base := b.end
	commit := nowMillis()
	binary.LittleEndian.PutUint64(data[0:], uint64(base))
	binary.LittleEndian.PutUint64(data[13:], uint64(commit))
	b.end += int64(rows)
	b.log = append(b.log, logEntry{base: base, next: b.end, commit: commit, data: data})
	return base
}

// checkBucket answers the common per-bucket checks: an injected bucket error, the table's
// kind, the bucket's existence and leadership. It returns the bucket or an error code and
// message for the bucket's answer.
func (c *Cluster) checkBucket(r *request, t *table, partID *int64, b int32) (*bucket, int32, string) {
	if r.bucketCode != 0 {
		return nil, r.bucketCode, r.bucketMsg
	}
	bk, err := t.bucketOf(partID, b)
	if err != nil {
		se := err.(*serverError)
		return nil, se.code, se.msg
	}
	if l := t.leader(b, len(c.tablets)); l != r.node.id {
		if l < 0 {
			return nil, codeLeaderNotAvailable, fmt.Sprintf("bucket %d of %s.%s has no leader", b, t.db, t.name)
		}
		return nil, codeNotLeader, fmt.Sprintf("server %d is not the leader of bucket %d of %s.%s (server %d is)", r.node.id, b, t.db, t.name, l)
	}
	return bk, 0, ""
}

func (c *Cluster) tableByID(id int64) (*table, error) {
	t, ok := c.cat.tables[id]
	if !ok {
		return nil, errorf(codeUnknownTableBucket, fmt.Sprintf("table id %d does not exist", id))
	}
	return t, nil
}

func codePtr(code int32, msg string) (*int32, *string) {
	if code == 0 {
		return nil, nil
	}
	return proto.Int32(code), proto.String(msg)
}

func (c *Cluster) produceLog(r *request, req *protocol.ProduceLogRequest) (*protocol.ProduceLogResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, err := c.tableByID(req.GetTableId())
	if err != nil {
		return nil, err
	}
	resp := &protocol.ProduceLogResponse{}
	for _, br := range req.GetBucketsReq() {
		out := &protocol.PbProduceLogRespForBucket{PartitionId: br.PartitionId, BucketId: proto.Int32(br.GetBucketId())}
		resp.BucketsResp = append(resp.BucketsResp, out)
		bk, code, msg := c.checkBucket(r, t, br.PartitionId, br.GetBucketId())
		if code == 0 && t.pk {
			code, msg = codeInvalidTable, fmt.Sprintf("%s.%s is a primary-key table: write it with PUT_KV", t.db, t.name)
		}
		if code != 0 {
			out.ErrorCode, out.ErrorMessage = codePtr(code, msg)
			continue
		}
		base, code, msg := bk.produce(br.GetRecords())
		out.ErrorCode, out.ErrorMessage = codePtr(code, msg)
		if code == 0 {
			out.BaseOffset = proto.Int64(base)
		}
	}
	return resp, nil
}

// produce appends the batches of one bucket's records, answering a resent batch of an
// idempotent writer with the offset it was stored at.
func (b *bucket) produce(records []byte) (int64, int32, string) {
	batches, err := logbatch.DecodeBatches(records, logbatch.DecodeOptions{})
	if err != nil || len(batches) == 0 {
		return 0, codeCorruptMessage, fmt.Sprintf("corrupt log batch: %v", err)
	}
	first := int64(-1)
	for _, bt := range batches {
		if bt.WriterID != logbatch.NoWriterID {
			if w, ok := b.writers[bt.WriterID]; ok && bt.BatchSequence <= w.seq {
				if first < 0 {
					first = w.base
				}
				continue // a duplicate: stored once
			}
		}
		base := b.appendBatch(bt.Data, int(bt.RecordCount))
		if bt.WriterID != logbatch.NoWriterID {
			b.writers[bt.WriterID] = writerState{seq: bt.BatchSequence, base: base}
		}
		if first < 0 {
			first = base
		}
	}
	return first, 0, ""
}

// The fetch offsets that name the log start and end (fluss.EarliestOffset, LatestOffset).
const (
	earliestOffset = -2
	latestOffset   = -1
)

func (c *Cluster) fetchLog(r *request, req *protocol.FetchLogRequest) (*protocol.FetchLogResponse, error) {
	// The OnFetch hook runs once per bucket, without the lock: it may change the cluster.
	c.mu.Lock()
	hook := c.onFetch
	c.mu.Unlock()
	var hooked map[bucketID]int32
	if hook != nil {
		hooked = map[bucketID]int32{}
		for _, treq := range req.GetTablesReq() {
			for _, br := range treq.GetBucketsReq() {
				if code := hook(r.node.id, br.GetBucketId(), br.GetFetchOffset()); code != 0 {
					hooked[bucketID{partition: br.GetPartitionId(), bucket: br.GetBucketId()}] = code
				}
			}
		}
	}
	resp, idle := c.fetchOnce(r, req, hooked)
	if idle {
		wait := min(time.Duration(req.GetMaxWaitMs())*time.Millisecond, c.cfg.maxWait)
		time.Sleep(wait)
		resp, _ = c.fetchOnce(r, req, hooked)
	}
	return resp, nil
}

// fetchOnce answers a fetch from the current logs; idle is true when no bucket had rows.
// hooked holds the codes OnFetch answered for buckets.
func (c *Cluster) fetchOnce(r *request, req *protocol.FetchLogRequest, hooked map[bucketID]int32) (*protocol.FetchLogResponse, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	resp := &protocol.FetchLogResponse{}
	idle := true
	budget := int(req.GetMaxBytes())
	for _, treq := range req.GetTablesReq() {
		tr := &protocol.PbFetchLogRespForTable{TableId: proto.Int64(treq.GetTableId())}
		resp.TablesResp = append(resp.TablesResp, tr)
		t, err := c.tableByID(treq.GetTableId())
		var proj []int
		if treq.GetProjectionPushdownEnabled() {
			for _, f := range treq.GetProjectedFields() {
				proj = append(proj, int(f))
			}
		}
		for _, br := range treq.GetBucketsReq() {
			out := &protocol.PbFetchLogRespForBucket{PartitionId: br.PartitionId, BucketId: proto.Int32(br.GetBucketId())}
			tr.BucketsResp = append(tr.BucketsResp, out)
			if err != nil {
				se := err.(*serverError)
				out.ErrorCode, out.ErrorMessage = codePtr(se.code, se.msg)
				continue
			}
			if code, ok := hooked[bucketID{partition: br.GetPartitionId(), bucket: br.GetBucketId()}]; ok {
				out.ErrorCode, out.ErrorMessage = codePtr(code, fmt.Sprintf("injected by OnFetch (code %d)", code))
				continue
			}
			bk, code, msg := c.checkBucket(r, t, br.PartitionId, br.GetBucketId())
			if code != 0 {
				out.ErrorCode, out.ErrorMessage = codePtr(code, msg)
				continue
			}
			hw := bk.highWatermark(r.node.id)
			out.HighWatermark, out.LogStartOffset = proto.Int64(hw), proto.Int64(bk.start)
			off := br.GetFetchOffset()
			switch off {
			case earliestOffset:
				off = bk.start
			case latestOffset:
				off = bk.end
			}
			if off < bk.start || off > bk.end {
				out.ErrorCode, out.ErrorMessage = codePtr(19, fmt.Sprintf("fetch offset %d is out of range [%d, %d]", off, bk.start, bk.end))
				continue
			}
			if info := bk.remoteInfo(off); info != nil {
				out.RemoteLogFetchInfo = info
				idle = false
				continue
			}
			data, code, msg := c.readLog(t, bk, off, hw, min(int(br.GetMaxFetchBytes()), budget), proj)
			if code != 0 {
				out.ErrorCode, out.ErrorMessage = codePtr(code, msg)
				continue
			}
			if len(data) > 0 {
				out.Records = data
				idle = false
				budget -= len(data)
				c.fetchRows[r.node.id]++
			}
		}
	}
	return resp, idle
}

// readLog returns the batches of a bucket from offset off below the high watermark, at least
// one and then as many as fit maxBytes (and the cluster's batches-per-fetch bound),
// projected to proj (nil: every column).
func (c *Cluster) readLog(t *table, bk *bucket, off, hw int64, maxBytes int, proj []int) ([]byte, int32, string) {
	var out []byte
	sent := 0
	for _, e := range bk.log {
		if e.next <= off || e.next > hw {
			continue
		}
		if sent > 0 && (len(out)+len(e.data) > maxBytes || (c.cfg.batchesPerFetch > 0 && sent >= c.cfg.batchesPerFetch)) {
			break
		}
		data := e.data
		if proj != nil {
			var err error
			if data, err = projectBatch(t, data, proj); err != nil {
				return nil, codeInvalidColumnProjct, err.Error()
			}
		}
		out = append(out, data...)
		sent++
	}
	return out, 0, ""
}

func (c *Cluster) listOffsets(r *request, req *protocol.ListOffsetsRequest) (*protocol.ListOffsetsResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, err := c.tableByID(req.GetTableId())
	if err != nil {
		return nil, err
	}
	resp := &protocol.ListOffsetsResponse{}
	for _, b := range req.GetBucketId() {
		out := &protocol.PbListOffsetsRespForBucket{BucketId: proto.Int32(b)}
		resp.BucketsResp = append(resp.BucketsResp, out)
		bk, code, msg := c.checkBucket(r, t, req.PartitionId, b)
		if code != 0 {
			out.ErrorCode, out.ErrorMessage = codePtr(code, msg)
			continue
		}
		switch req.GetOffsetType() {
		case 0:
			out.Offset = proto.Int64(bk.start)
		case 1:
			out.Offset = proto.Int64(bk.highWatermark(r.node.id))
		default:
			off := bk.end
			for _, e := range bk.log {
				if e.commit >= req.GetStartTimestamp() {
					off = e.base
					break
				}
			}
			out.Offset = proto.Int64(off)
		}
	}
	return resp, nil
}
