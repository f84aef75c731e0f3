package fluss

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/flusstest"
	"github.com/flussql/flussql/fluss/types"
)

// A writer sends the buckets of one server over WriterOptions.Connections connections, one
// request per connection (a Fluss server runs one connection's requests one after another),
// so that the server stores them in parallel; with 1, one request carries every bucket.
func TestWriterSpreadsBucketsOverConnections(t *testing.T) {
	for _, tt := range []struct {
		connections  int
		wantRequests int
	}{{connections: 1, wantRequests: 1}, {connections: 4, wantRequests: 4}, {connections: 0 /* default */, wantRequests: DefaultWriteConnections}} {
		f := flusstest.New(t)
		f.CreateDatabase("db")
		const buckets = 8
		f.CreateTable("db", "ev", types.TableJSON{Schema: types.SchemaJSON{Schema: types.Schema{
			Columns: []types.Column{{Name: "id", Type: types.NewBigInt()}}}}, BucketKeys: []string{"id"}, BucketCount: buckets})
		c, err := Connect(context.Background(), Config{BootstrapServers: []string{f.Addr()}})
		require.NoError(t, err)
		tb, err := c.Table(context.Background(), TablePath{Database: "db", Table: "ev"})
		require.NoError(t, err)
		w, err := tb.NewAppendWriter(context.Background(), AppendWriterOptions{WriterOptions: WriterOptions{Connections: tt.connections, Linger: time.Hour}})
		require.NoError(t, err)
		ctx := context.Background()
		before := f.Calls(flusstest.ProduceLog)
		for i := range 64 * buckets {
			require.NoError(t, w.AppendWith(ctx, nil, []any{int64(i)}))
		}
		require.NoError(t, w.Flush(ctx))
		assert.Equal(t, tt.wantRequests, f.Calls(flusstest.ProduceLog)-before, "connections %d", tt.connections)
		assert.Equal(t, 1+tt.wantRequests, f.Connections(1), "connections %d: the tablet server's: one per lane, and the admin reads' (table info)", tt.connections)
		total := int64(0)
		for b := range int32(buckets) {
			total += f.LogEnd("db", "ev", "", b)
		}
		assert.Equal(t, int64(64*buckets), total, "every row stored once")
		require.NoError(t, w.Close(ctx))
		require.NoError(t, c.Close())
	}
}

// Each bucket has one lane, and the buckets of a table, or of a partition, are spread evenly.
func TestWriteLanesSpreadBuckets(t *testing.T) {
	for _, pid := range []int64{-1, 0, 7, 1 << 40} {
		per := make([]int, 4)
		for b := range int32(64) {
			l := writeTarget{partitionID: pid, bucket: b}.lane(4)
			require.Equal(t, l, writeTarget{partitionID: pid, bucket: b}.lane(4))
			per[l]++
		}
		assert.Equal(t, []int{16, 16, 16, 16}, per, "partition %d", pid)
	}
}

// Read-only admin requests (table infos, partition lists) go to a tablet server over a
// connection of their own (adminLane), not the one of its fetches and lookups: a server runs
// one connection's requests one after another, and a partition list can take it 250 ms.
func TestAdminReadsHaveTheirOwnConnection(t *testing.T) {
	f := flusstest.New(t)
	f.CreateDatabase("db")
	f.CreateTable("db", "ev", types.TableJSON{Schema: types.SchemaJSON{Schema: types.Schema{
		Columns: []types.Column{{Name: "id", Type: types.NewBigInt()}}}}, BucketCount: 1})
	ctx := context.Background()
	c, err := Connect(ctx, Config{BootstrapServers: []string{f.Addr()}})
	require.NoError(t, err)
	defer c.Close()
	path := TablePath{Database: "db", Table: "ev"}
	_, err = c.Admin().GetTableInfo(ctx, path)
	require.NoError(t, err)
	admin := f.Connections(1)
	require.Equal(t, 1, admin, "the admin read reached the tablet server")
	_, err = c.Admin().ListOffsets(ctx, path, "", []int32{0}, OffsetLatest())
	require.NoError(t, err)
	assert.Equal(t, admin+1, f.Connections(1), "a bucket request takes the server's other connection")
	_, err = c.Admin().ListDatabases(ctx)
	require.NoError(t, err)
	assert.Equal(t, admin+1, f.Connections(1), "admin reads reuse theirs")
}
