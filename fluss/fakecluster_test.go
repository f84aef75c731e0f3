package fluss

import (
	"bufio"
	"context"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"

	"github.com/flussql/flussql/fluss/internal/protocol"
	"github.com/flussql/flussql/fluss/internal/rpc"
)

// fakeCluster is a coordinator and one tablet server on loopback that
// speak just enough Fluss for metadata and ListOffsets tests.
type fakeCluster struct {
	t           *testing.T
	coord, tab  net.Listener
	tableJSON   []byte
	metaCalls   atomic.Int32
	offsetCalls atomic.Int32
	// leaderAfter: metadata reports no leader for the first n table lookups.
	leaderAfter int32
	// notLeader: ListOffsets answers NOT_LEADER_OR_FOLLOWER n times.
	notLeader atomic.Int32
	// produce, when set, makes the tablet server serve ProduceLog and
	// InitWriter: it answers each ProduceLog request (nil: no answer).
	produce func(*protocol.ProduceLogRequest) *protocol.ProduceLogResponse
	// tabletUnready: the tablet server answers metadata as one that has just started (no
	// servers) n times; tabletMetaCalls counts its metadata answers.
	tabletUnready   atomic.Int32
	tabletMetaCalls atomic.Int32
	// scanKv, when set, makes the tablet server offer and serve SCAN_KV.
	scanKv func(*protocol.ScanKvRequest) *protocol.ScanKvResponse
	wg     sync.WaitGroup
}

const fakeTableJSON = `{"version":1,"schema":{"version":1,"columns":[{"name":"id","data_type":{"type":"BIGINT"},"id":0}],"highest_field_id":0},"partition_key":[],"bucket_key":[],"bucket_count":2,"properties":{},"custom_properties":{}}`

func newFakeCluster(t *testing.T) *fakeCluster {
	f := &fakeCluster{t: t, tableJSON: []byte(fakeTableJSON)}
	var err error
	f.coord, err = net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	f.tab, err = net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	f.serve(f.coord, 1)
	f.serve(f.tab, 2)
	t.Cleanup(func() { f.coord.Close(); f.tab.Close(); f.wg.Wait() })
	return f
}

func (f *fakeCluster) node(ln net.Listener, id int32) *protocol.PbServerNode {
	host, port, _ := net.SplitHostPort(ln.Addr().String())
	p, _ := strconv.Atoi(port)
	return &protocol.PbServerNode{NodeId: proto.Int32(id), Host: proto.String(host), Port: proto.Int32(int32(p))}
}

func (f *fakeCluster) serve(ln net.Listener, stype int32) {
	f.wg.Add(1)
	go func() {
		defer f.wg.Done()
		for {
			nc, err := ln.Accept()
			if err != nil {
				return
			}
			f.wg.Add(1)
			go func() {
				defer f.wg.Done()
				defer nc.Close()
				go func() { <-time.After(10 * time.Second); nc.Close() }()
				br := bufio.NewReader(nc)
				for {
					p, err := rpc.ReadFrame(br, 1<<20)
					if err != nil {
						return
					}
					h, body, err := rpc.ParseRequest(p)
					if err != nil {
						return
					}
					resp := f.answer(stype, h, body)
					if resp == nil {
						continue // silence, as the real server for unknown APIs
					}
					b, _ := proto.Marshal(resp)
					_, _ = nc.Write(rpc.AppendResponse(nil, rpc.Response{Type: rpc.SuccessResponse, RequestID: h.RequestID, Body: b}))
				}
			}()
		}
	}()
}

func (f *fakeCluster) answer(stype int32, h rpc.RequestHeader, body []byte) proto.Message {
	switch h.APIKey {
	case protocol.APIVersions:
		keys := []protocol.APIKey{protocol.APIVersions, protocol.GetMetadata}
		if stype == 2 {
			keys = append(keys, protocol.ListOffsets)
			if f.produce != nil {
				keys = append(keys, protocol.ProduceLog, protocol.InitWriter)
			}
			if f.scanKv != nil {
				keys = append(keys, protocol.ScanKv)
			}
		}
		var vs []*protocol.PbApiVersion
		for _, k := range keys {
			vs = append(vs, &protocol.PbApiVersion{ApiKey: proto.Int32(int32(k)), MinVersion: proto.Int32(0), MaxVersion: proto.Int32(0)})
		}
		return &protocol.ApiVersionsResponse{ApiVersions: vs, ServerType: proto.Int32(stype)}
	case protocol.GetMetadata:
		var req protocol.MetadataRequest
		require.NoError(f.t, proto.Unmarshal(body, &req))
		resp := &protocol.MetadataResponse{CoordinatorServer: f.node(f.coord, 0), TabletServers: []*protocol.PbServerNode{f.node(f.tab, 5)}}
		if stype == 2 {
			f.tabletMetaCalls.Add(1)
			if f.tabletUnready.Add(-1) >= 0 {
				return &protocol.MetadataResponse{}
			}
		}
		if len(req.GetTablePath()) > 0 {
			n := f.metaCalls.Add(1)
			var buckets []*protocol.PbBucketMetadata
			for b := int32(0); b < 2; b++ {
				bm := &protocol.PbBucketMetadata{BucketId: proto.Int32(b)}
				if n > f.leaderAfter {
					bm.LeaderId = proto.Int32(5)
				}
				buckets = append(buckets, bm)
			}
			resp.TableMetadata = []*protocol.PbTableMetadata{{
				TablePath: req.GetTablePath()[0], TableId: proto.Int64(77), SchemaId: proto.Int32(1),
				TableJson: f.tableJSON, BucketMetadata: buckets, CreatedTime: proto.Int64(1), ModifiedTime: proto.Int64(2),
			}}
		}
		return resp
	case protocol.InitWriter:
		return &protocol.InitWriterResponse{WriterId: proto.Int64(42)}
	case protocol.ProduceLog:
		var req protocol.ProduceLogRequest
		require.NoError(f.t, proto.Unmarshal(body, &req))
		if resp := f.produce(&req); resp != nil {
			return resp
		}
		return nil
	case protocol.ScanKv:
		var req protocol.ScanKvRequest
		require.NoError(f.t, proto.Unmarshal(body, &req))
		return f.scanKv(&req)
	case protocol.ListOffsets:
		f.offsetCalls.Add(1)
		var req protocol.ListOffsetsRequest
		require.NoError(f.t, proto.Unmarshal(body, &req))
		assert.Equal(f.t, int32(-1), req.GetFollowerServerId())
		assert.Equal(f.t, int64(77), req.GetTableId())
		resp := &protocol.ListOffsetsResponse{}
		stale := f.notLeader.Add(-1) >= 0
		for _, b := range req.GetBucketId() {
			r := &protocol.PbListOffsetsRespForBucket{BucketId: proto.Int32(b)}
			if stale && b == 1 {
				r.ErrorCode = proto.Int32(int32(CodeNotLeaderOrFollower))
				r.ErrorMessage = proto.String("moved")
			} else {
				r.Offset = proto.Int64(100 + int64(b))
			}
			resp.BucketsResp = append(resp.BucketsResp, r)
		}
		return resp
	}
	return nil
}

func (f *fakeCluster) connect(t *testing.T) *Client {
	c, err := Connect(context.Background(), Config{BootstrapServers: []string{f.coord.Addr().String()}, RequestTimeout: 2 * time.Second})
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	return c
}

func TestListOffsetsRefreshesStaleLeader(t *testing.T) {
	f := newFakeCluster(t)
	f.notLeader.Store(2)
	c := f.connect(t)
	offs, err := c.Admin().ListOffsets(context.Background(), TablePath{"db", "t"}, "", nil, OffsetLatest())
	require.NoError(t, err)
	assert.Equal(t, map[int32]int64{0: 100, 1: 101}, offs)
	assert.Equal(t, int32(3), f.metaCalls.Load(), "table metadata refetched after each NOT_LEADER_OR_FOLLOWER")
	assert.Equal(t, int32(3), f.offsetCalls.Load())

	// Cached now: no more metadata requests.
	_, err = c.Admin().ListOffsets(context.Background(), TablePath{"db", "t"}, "", []int32{0}, OffsetEarliest())
	require.NoError(t, err)
	assert.Equal(t, int32(3), f.metaCalls.Load())
}

func TestListOffsetsWaitsForLeader(t *testing.T) {
	f := newFakeCluster(t)
	f.leaderAfter = 2
	c := f.connect(t)
	offs, err := c.Admin().ListOffsets(context.Background(), TablePath{"db", "t"}, "", nil, OffsetEarliest())
	require.NoError(t, err)
	assert.Len(t, offs, 2)
	assert.Equal(t, int32(3), f.metaCalls.Load())
}

func TestListOffsetsGivesUpOnPersistentStaleness(t *testing.T) {
	defer func(old time.Duration) { staleRetryBudget = old }(staleRetryBudget)
	staleRetryBudget = 2 * time.Second
	f := newFakeCluster(t)
	f.notLeader.Store(1000)
	c := f.connect(t)
	_, err := c.Admin().ListOffsets(context.Background(), TablePath{"db", "t"}, "", nil, OffsetLatest())
	assert.ErrorIs(t, err, ErrNotLeaderOrFollower)
	assert.Contains(t, err.Error(), "moved")
}

// A request for an API the server does not serve is refused at once, with
// no wait for the silence the real server would answer with.
func TestMisroutedRequestIsRefusedNotSent(t *testing.T) {
	f := newFakeCluster(t)
	c := f.connect(t)
	start := time.Now()
	coord, err := c.coordinator(context.Background())
	require.NoError(t, err)
	err = c.callNode(context.Background(), coord, protocol.ListOffsets,
		&protocol.ListOffsetsRequest{FollowerServerId: proto.Int32(-1), OffsetType: proto.Int32(0), TableId: proto.Int64(1)},
		&protocol.ListOffsetsResponse{})
	assert.ErrorIs(t, err, ErrUnsupportedVersion)
	assert.Less(t, time.Since(start), time.Second)
	assert.Zero(t, f.offsetCalls.Load())
}

func TestClientClose(t *testing.T) {
	f := newFakeCluster(t)
	c := f.connect(t)
	require.NoError(t, c.Close())
	require.NoError(t, c.Close())
	_, err := c.Admin().ListOffsets(context.Background(), TablePath{"db", "t"}, "", nil, OffsetLatest())
	assert.ErrorIs(t, err, ErrClosed)
}

// TestMetadataPassesOverUnreadyTablet: a tablet server that has just started answers metadata
// with no servers; the client asks the coordinator instead of forgetting every tablet server.
func TestMetadataPassesOverUnreadyTablet(t *testing.T) {
	f := newFakeCluster(t)
	c := f.connect(t)
	ctx := context.Background()
	nodes, err := c.ServerNodes(ctx) // first from the bootstrap coordinator, now the tablet server is known
	require.NoError(t, err)
	require.Len(t, nodes, 2)

	for _, tt := range []struct {
		name    string
		unready int32
		want    int // tablet servers seen
	}{
		{name: "tablet server ready", unready: 0, want: 1},
		{name: "tablet server just started", unready: 1, want: 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f.tabletUnready.Store(tt.unready)
			before := f.tabletMetaCalls.Load()
			nodes, err := c.ServerNodes(ctx)
			require.NoError(t, err)
			tablets := 0
			for _, n := range nodes {
				if n.Type == TabletServer {
					tablets++
				}
			}
			assert.Equal(t, tt.want, tablets)
			assert.Equal(t, before+1, f.tabletMetaCalls.Load(), "the tablet server is asked first")
		})
	}
}
