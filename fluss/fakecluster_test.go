package fluss

import (
	"context"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"

	"github.com/flussql/flussql/fluss/flusserr"
	"github.com/flussql/flussql/fluss/flusstest"
	"github.com/flussql/flussql/fluss/internal/protocol"
	"github.com/flussql/flussql/fluss/types"
)

// fakeCluster is the fake of package flusstest (a coordinator and one tablet server) with
// the log table db.t: one BIGINT column id, two buckets.
type fakeCluster struct {
	*flusstest.Cluster
	path TablePath
}

func newFakeCluster(t *testing.T) *fakeCluster {
	f := &fakeCluster{Cluster: flusstest.New(t), path: TablePath{Database: "db", Table: "t"}}
	f.CreateDatabase("db")
	f.CreateTable("db", "t", types.TableJSON{Schema: types.SchemaJSON{Schema: types.Schema{
		Columns: []types.Column{{Name: "id", Type: types.NewBigInt()}}}}, BucketCount: 2})
	return f
}

func (f *fakeCluster) connect(t *testing.T) *Client {
	c, err := Connect(context.Background(), Config{BootstrapServers: []string{f.Addr()}, RequestTimeout: 2 * time.Second})
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	return c
}

// setLeaders gives both buckets of db.t the leader node (-1: none).
func (f *fakeCluster) setLeaders(node int32) {
	f.SetLeader("db", "t", 0, node)
	f.SetLeader("db", "t", 1, node)
}

// appendIDs appends n rows to bucket b of db.t.
func (f *fakeCluster) appendIDs(t *testing.T, b int32, n int) {
	schema, err := types.ToArrowSchema(types.Schema{Columns: []types.Column{{Name: "id", Type: types.NewBigInt()}}})
	require.NoError(t, err)
	bld := array.NewInt64Builder(memory.DefaultAllocator)
	defer bld.Release()
	for i := range n {
		bld.Append(int64(i))
	}
	col := bld.NewArray()
	defer col.Release()
	rec := array.NewRecordBatch(schema, []arrow.Array{col}, int64(n))
	defer rec.Release()
	f.AppendLog("db", "t", "", b, rec)
}

func TestListOffsetsRefreshesStaleLeader(t *testing.T) {
	f := newFakeCluster(t)
	f.appendIDs(t, 0, 100)
	f.appendIDs(t, 1, 101)
	f.Inject(flusstest.Fault{API: flusstest.ListOffsets, Action: flusstest.FailBuckets, Code: int32(flusserr.NotLeaderOrFollower), Times: 2})
	c := f.connect(t)
	offs, err := c.Admin().ListOffsets(context.Background(), f.path, "", nil, OffsetLatest())
	require.NoError(t, err)
	assert.Equal(t, map[int32]int64{0: 100, 1: 101}, offs)
	assert.Equal(t, 3, f.MetadataCalls("db", "t"), "table metadata refetched after each NOT_LEADER_OR_FOLLOWER")
	assert.Equal(t, 3, f.Calls(flusstest.ListOffsets))

	// Cached now: no more metadata requests.
	_, err = c.Admin().ListOffsets(context.Background(), f.path, "", []int32{0}, OffsetEarliest())
	require.NoError(t, err)
	assert.Equal(t, 3, f.MetadataCalls("db", "t"))
}

func TestListOffsetsWaitsForLeader(t *testing.T) {
	f := newFakeCluster(t)
	f.setLeaders(-1)
	f.OnRequest(func(api flusstest.APIKey, _ int32, _ int) {
		if api == flusstest.GetMetadata && f.MetadataCalls("db", "t") == 2 {
			f.setLeaders(1) // the third answer names the leaders
		}
	})
	c := f.connect(t)
	offs, err := c.Admin().ListOffsets(context.Background(), f.path, "", nil, OffsetEarliest())
	require.NoError(t, err)
	assert.Len(t, offs, 2)
	assert.Equal(t, 3, f.MetadataCalls("db", "t"))
}

func TestListOffsetsGivesUpOnPersistentStaleness(t *testing.T) {
	defer func(old time.Duration) { staleRetryBudget = old }(staleRetryBudget)
	staleRetryBudget = 2 * time.Second
	f := newFakeCluster(t)
	f.Inject(flusstest.Fault{API: flusstest.ListOffsets, Action: flusstest.FailBuckets, Code: int32(flusserr.NotLeaderOrFollower), Message: "moved", Times: -1})
	c := f.connect(t)
	_, err := c.Admin().ListOffsets(context.Background(), f.path, "", nil, OffsetLatest())
	assert.ErrorIs(t, err, flusserr.NotLeaderOrFollower)
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
	assert.ErrorIs(t, err, flusserr.UnsupportedVersion)
	assert.Less(t, time.Since(start), time.Second)
	assert.Zero(t, f.Calls(flusstest.ListOffsets))
}

func TestClientClose(t *testing.T) {
	f := newFakeCluster(t)
	c := f.connect(t)
	require.NoError(t, c.Close())
	require.NoError(t, c.Close())
	_, err := c.Admin().ListOffsets(context.Background(), f.path, "", nil, OffsetLatest())
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
		unready int
		want    int // tablet servers seen
	}{
		{name: "tablet server ready", unready: 0, want: 1},
		{name: "tablet server just started", unready: 1, want: 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.unready > 0 {
				f.Inject(flusstest.Fault{API: flusstest.GetMetadata, Server: 1, Action: flusstest.Empty, Times: tt.unready})
			}
			before := f.ServerCalls(flusstest.GetMetadata, 1)
			nodes, err := c.ServerNodes(ctx)
			require.NoError(t, err)
			tablets := 0
			for _, n := range nodes {
				if n.Type == TabletServer {
					tablets++
				}
			}
			assert.Equal(t, tt.want, tablets)
			assert.Equal(t, before+1, f.ServerCalls(flusstest.GetMetadata, 1), "the tablet server is asked first")
		})
	}
}
