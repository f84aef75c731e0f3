package fluss

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"

	"github.com/flussql/flussql/fluss/internal/logbatch"
	"github.com/flussql/flussql/fluss/internal/protocol"
	"github.com/flussql/flussql/fluss/internal/rpc"
	"github.com/flussql/flussql/fluss/types"
)

// failoverFake is a coordinator and several tablet servers on loopback that
// serve metadata, ListOffsets and FetchLog of one log table (one BIGINT
// column "id"), and whose servers can be killed (the port refuses), frozen
// (requests are read and never answered) and whose bucket leaders can be
// moved, as a real cluster does when a tablet server dies.
type failoverFake struct {
	t       *testing.T
	tableID int64
	path    TablePath
	json    []byte
	coord   *fakeNode
	buckets int

	mu      sync.Mutex
	tablets map[int32]*fakeNode
	// leader of each bucket; -1: none (LEADER_NOT_AVAILABLE in metadata)
	leader map[int32]int32
	// logs holds each bucket's batches, in offset order.
	logs map[int32][]fakeBatch
	// hw is each bucket's high watermark per serving node; missing means
	// the whole log.
	hw map[int32]map[int32]int64
	// batchesPerFetch bounds the batches in one FetchLog answer.
	batchesPerFetch int
	// onFetch, when set, runs before a FetchLog bucket is answered by node
	// (with f.mu unlocked); a non-zero code is answered instead of rows.
	onFetch func(node, bucket int32, offset int64) ErrorCode
	// fetches counts the FetchLog buckets each node answered with rows.
	fetches map[int32]int
	// metaCalls counts metadata requests naming the table.
	metaCalls int
}

type fakeBatch struct {
	base int64
	ids  []int64
	data []byte
}

func (b fakeBatch) next() int64 { return b.base + int64(len(b.ids)) }

type fakeNode struct {
	id     int32
	ln     net.Listener
	addr   string
	mu     sync.Mutex
	conns  map[net.Conn]bool
	dead   bool
	frozen bool
}

const failoverTableJSON = `{"version":1,"schema":{"version":1,"columns":[{"name":"id","data_type":{"type":"BIGINT"},"id":0}],"highest_field_id":0},"partition_key":[],"bucket_key":[],"bucket_count":%d,"properties":{"table.log.format":"ARROW"},"custom_properties":{}}`

// newFailoverFake starts tablets tablet servers (ids 1..tablets) and a
// coordinator (id 0). Bucket b has rowsPerBucket rows in batches of
// batchRows, ids b*1_000_000 + offset, led by tablet server b%tablets+1.
func newFailoverFake(t *testing.T, tablets, buckets, rowsPerBucket, batchRows int) *failoverFake {
	f := &failoverFake{
		t: t, tableID: 91, path: TablePath{Database: "db", Table: "failover"}, buckets: buckets,
		json:    []byte(fmt.Sprintf(failoverTableJSON, buckets)),
		tablets: map[int32]*fakeNode{}, leader: map[int32]int32{}, logs: map[int32][]fakeBatch{},
		hw: map[int32]map[int32]int64{}, batchesPerFetch: 2, fetches: map[int32]int{},
	}
	f.coord = f.listen(0)
	for i := 1; i <= tablets; i++ {
		f.tablets[int32(i)] = f.listen(int32(i))
	}
	schema, err := types.ToArrowSchema(types.Schema{Columns: []types.Column{{Name: "id", Type: types.NewBigInt()}}})
	require.NoError(t, err)
	enc, err := logbatch.NewArrowEncoder(schema, logbatch.CompressionNone)
	require.NoError(t, err)
	defer enc.Close()
	for b := int32(0); b < int32(buckets); b++ {
		f.leader[b] = b%int32(tablets) + 1
		for off := 0; off < rowsPerBucket; off += batchRows {
			n := min(batchRows, rowsPerBucket-off)
			bld := array.NewInt64Builder(memory.DefaultAllocator)
			ids := make([]int64, n)
			for i := range ids {
				ids[i] = int64(b)*1_000_000 + int64(off+i)
				bld.Append(ids[i])
			}
			col := bld.NewArray()
			rec := array.NewRecordBatch(schema, []arrow.Array{col}, int64(n))
			data, err := enc.AppendBatch(nil, logbatch.Header{BaseOffset: int64(off), SchemaID: 1,
				WriterID: logbatch.NoWriterID, BatchSequence: logbatch.NoBatchSequence, CommitTimestamp: 1700000000000}, rec, nil)
			require.NoError(t, err)
			rec.Release()
			col.Release()
			bld.Release()
			f.logs[b] = append(f.logs[b], fakeBatch{base: int64(off), ids: ids, data: data})
		}
	}
	t.Cleanup(f.close)
	return f
}

func (f *failoverFake) listen(id int32) *fakeNode {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(f.t, err)
	n := &fakeNode{id: id, ln: ln, addr: ln.Addr().String(), conns: map[net.Conn]bool{}}
	go func() {
		for {
			nc, err := ln.Accept()
			if err != nil {
				return
			}
			n.mu.Lock()
			if n.dead {
				n.mu.Unlock()
				nc.Close()
				continue
			}
			n.conns[nc] = true
			n.mu.Unlock()
			go f.serveConn(n, nc)
		}
	}()
	return n
}

func (f *failoverFake) close() {
	f.coord.kill()
	f.mu.Lock()
	nodes := f.tablets
	f.mu.Unlock()
	for _, n := range nodes {
		n.kill()
	}
}

// kill closes the node's port and its connections: later dials are refused.
func (n *fakeNode) kill() {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.dead = true
	n.ln.Close()
	for c := range n.conns {
		c.Close()
	}
}

func (n *fakeNode) setFrozen(v bool) {
	n.mu.Lock()
	n.frozen = v
	n.mu.Unlock()
}

func (n *fakeNode) isFrozen() bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.frozen
}

// kill kills tablet server id.
func (f *failoverFake) kill(id int32) { f.tablets[id].kill() }

// moveLeader makes node the leader of bucket (-1: no leader).
func (f *failoverFake) moveLeader(bucket, node int32) {
	f.mu.Lock()
	f.leader[bucket] = node
	f.mu.Unlock()
}

// setHW sets the high watermark node serves for bucket.
func (f *failoverFake) setHW(node, bucket int32, hw int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.hw[bucket] == nil {
		f.hw[bucket] = map[int32]int64{}
	}
	f.hw[bucket][node] = hw
}

func (f *failoverFake) leaderOf(bucket int32) int32 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.leader[bucket]
}

// allIDs returns every row id of the table.
func (f *failoverFake) allIDs() []int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []int64
	for b := int32(0); int(b) < f.buckets; b++ {
		for _, bt := range f.logs[b] {
			out = append(out, bt.ids...)
		}
	}
	return out
}

func (f *failoverFake) connect(t *testing.T, requestTimeout time.Duration) (*Client, *Table) {
	c, err := Connect(context.Background(), Config{BootstrapServers: []string{f.coord.addr}, RequestTimeout: requestTimeout})
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	tm, err := c.tableMetadata(context.Background(), f.path)
	require.NoError(t, err)
	tbl, err := c.TableOf(tm.Info)
	require.NoError(t, err)
	return c, tbl
}

func (f *failoverFake) serveConn(n *fakeNode, nc net.Conn) {
	defer func() {
		nc.Close()
		n.mu.Lock()
		delete(n.conns, nc)
		n.mu.Unlock()
	}()
	br := bufio.NewReader(nc)
	var wmu sync.Mutex
	for {
		p, err := rpc.ReadFrame(br, 1<<20)
		if err != nil {
			return
		}
		if n.isFrozen() {
			continue // read, never answered: a stopped process looks like this
		}
		h, body, err := rpc.ParseRequest(p)
		if err != nil {
			return
		}
		go func() {
			resp := f.answer(n, h, body)
			if resp == nil || n.isFrozen() {
				return
			}
			b, _ := proto.Marshal(resp)
			wmu.Lock()
			_, _ = nc.Write(rpc.AppendResponse(nil, rpc.Response{Type: rpc.SuccessResponse, RequestID: h.RequestID, Body: b}))
			wmu.Unlock()
		}()
	}
}

func pbNode(n *fakeNode) *protocol.PbServerNode {
	host, port, _ := net.SplitHostPort(n.addr)
	p, _ := strconv.Atoi(port)
	return &protocol.PbServerNode{NodeId: proto.Int32(n.id), Host: proto.String(host), Port: proto.Int32(int32(p))}
}

func (f *failoverFake) answer(n *fakeNode, h rpc.RequestHeader, body []byte) proto.Message {
	switch h.APIKey {
	case protocol.APIVersions:
		keys := []protocol.APIKey{protocol.APIVersions, protocol.GetMetadata}
		stype := int32(1)
		if n.id != 0 {
			stype = 2
			keys = append(keys, protocol.ListOffsets, protocol.FetchLog)
		}
		var vs []*protocol.PbApiVersion
		for _, k := range keys {
			vs = append(vs, &protocol.PbApiVersion{ApiKey: proto.Int32(int32(k)), MinVersion: proto.Int32(0), MaxVersion: proto.Int32(0)})
		}
		return &protocol.ApiVersionsResponse{ApiVersions: vs, ServerType: proto.Int32(stype)}
	case protocol.GetMetadata:
		var req protocol.MetadataRequest
		if proto.Unmarshal(body, &req) != nil {
			return nil
		}
		f.mu.Lock()
		defer f.mu.Unlock()
		resp := &protocol.MetadataResponse{CoordinatorServer: pbNode(f.coord)}
		for id := int32(1); int(id) <= len(f.tablets); id++ {
			resp.TabletServers = append(resp.TabletServers, pbNode(f.tablets[id]))
		}
		if len(req.GetTablePath()) > 0 {
			f.metaCalls++
			var buckets []*protocol.PbBucketMetadata
			for b := int32(0); int(b) < f.buckets; b++ {
				bm := &protocol.PbBucketMetadata{BucketId: proto.Int32(b)}
				if l := f.leader[b]; l >= 0 {
					bm.LeaderId = proto.Int32(l)
				}
				buckets = append(buckets, bm)
			}
			resp.TableMetadata = []*protocol.PbTableMetadata{{
				TablePath: req.GetTablePath()[0], TableId: proto.Int64(f.tableID), SchemaId: proto.Int32(1),
				TableJson: f.json, BucketMetadata: buckets, CreatedTime: proto.Int64(1), ModifiedTime: proto.Int64(2),
			}}
		}
		return resp
	case protocol.ListOffsets:
		var req protocol.ListOffsetsRequest
		if proto.Unmarshal(body, &req) != nil {
			return nil
		}
		f.mu.Lock()
		defer f.mu.Unlock()
		resp := &protocol.ListOffsetsResponse{}
		for _, b := range req.GetBucketId() {
			r := &protocol.PbListOffsetsRespForBucket{BucketId: proto.Int32(b)}
			switch {
			case f.leader[b] != n.id:
				r.ErrorCode = proto.Int32(int32(CodeNotLeaderOrFollower))
			case req.GetOffsetType() == 0:
				r.Offset = proto.Int64(0)
			default:
				r.Offset = proto.Int64(f.hwLocked(n.id, b))
			}
			resp.BucketsResp = append(resp.BucketsResp, r)
		}
		return resp
	case protocol.FetchLog:
		var req protocol.FetchLogRequest
		if proto.Unmarshal(body, &req) != nil {
			return nil
		}
		tr := &protocol.PbFetchLogRespForTable{TableId: proto.Int64(f.tableID)}
		idle := true
		for _, t := range req.GetTablesReq() {
			for _, br := range t.GetBucketsReq() {
				r, hasRows := f.fetchBucket(n, br.GetBucketId(), br.GetFetchOffset())
				idle = idle && !hasRows
				tr.BucketsResp = append(tr.BucketsResp, r)
			}
		}
		if idle {
			// nothing to send: hold the request a little, as the server
			// does for max_wait_ms
			time.Sleep(min(time.Duration(req.GetMaxWaitMs())*time.Millisecond, 20*time.Millisecond))
		}
		return &protocol.FetchLogResponse{TablesResp: []*protocol.PbFetchLogRespForTable{tr}}
	}
	return nil
}

func (f *failoverFake) hwLocked(node, bucket int32) int64 {
	if hw, ok := f.hw[bucket][node]; ok {
		return hw
	}
	logs := f.logs[bucket]
	if len(logs) == 0 {
		return 0
	}
	return logs[len(logs)-1].next()
}

func (f *failoverFake) fetchBucket(n *fakeNode, bucket int32, offset int64) (*protocol.PbFetchLogRespForBucket, bool) {
	r := &protocol.PbFetchLogRespForBucket{BucketId: proto.Int32(bucket)}
	f.mu.Lock()
	hook := f.onFetch
	f.mu.Unlock()
	if hook != nil {
		if code := hook(n.id, bucket, offset); code != CodeNone {
			r.ErrorCode = proto.Int32(int32(code))
			r.ErrorMessage = proto.String("injected " + code.String())
			return r, false
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.leader[bucket] != n.id {
		r.ErrorCode = proto.Int32(int32(CodeNotLeaderOrFollower))
		r.ErrorMessage = proto.String("not the leader")
		return r, false
	}
	hw := f.hwLocked(n.id, bucket)
	r.HighWatermark = proto.Int64(hw)
	if offset == EarliestOffset {
		offset = 0
	}
	var data []byte
	sent := 0
	for _, b := range f.logs[bucket] {
		if b.next() <= offset || b.next() > hw || sent == f.batchesPerFetch {
			continue
		}
		data = append(data, b.data...)
		sent++
	}
	if sent > 0 {
		f.fetches[n.id]++
		r.Records = data
	}
	return r, sent > 0
}

// fetchCount returns how many answers with rows node sent.
func (f *failoverFake) fetchCount(node int32) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.fetches[node]
}
