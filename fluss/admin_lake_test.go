package fluss

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"

	"github.com/flussql/flussql/fluss/flusserr"
	"github.com/flussql/flussql/fluss/flusstest"
	"github.com/flussql/flussql/fluss/internal/protocol"
)

func TestLakeSnapshotCalls(t *testing.T) {
	f := newFakeCluster(t)
	var got []*protocol.GetLakeSnapshotRequest
	f.Serve(protocol.GetLakeSnapshot, func(body []byte) (proto.Message, error) {
		var req protocol.GetLakeSnapshotRequest
		if err := proto.Unmarshal(body, &req); err != nil {
			return nil, err
		}
		got = append(got, &req)
		if req.GetTablePath().GetTableName() == "none" {
			return nil, flusstest.ServerError(int32(flusserr.LakeSnapshotNotExist), "Lake table snapshot not exist for table: db.none, table id: 7")
		}
		// Out of order on purpose: the client sorts by partition, then bucket.
		return &protocol.GetLakeSnapshotResponse{TableId: proto.Int64(7), SnapshotId: proto.Int64(42),
			BucketSnapshots: []*protocol.PbLakeSnapshotForBucket{
				{PartitionId: proto.Int64(3), BucketId: proto.Int32(1), LogOffset: proto.Int64(9), PartitionName: proto.String("p=a")},
				{BucketId: proto.Int32(1), LogOffset: proto.Int64(5)},
				{BucketId: proto.Int32(0)},
				{PartitionId: proto.Int64(3), BucketId: proto.Int32(0), LogOffset: proto.Int64(0)},
			}}, nil
	})
	adm := f.connect(t).Admin()
	ctx := context.Background()

	snap, err := adm.LatestLakeSnapshot(ctx, f.path)
	require.NoError(t, err)
	assert.Equal(t, &LakeSnapshot{TableID: 7, SnapshotID: 42, Buckets: []LakeBucketOffset{
		{TableBucket: TableBucket{PartitionID: NoPartition, Bucket: 0}},
		{TableBucket: TableBucket{PartitionID: NoPartition, Bucket: 1}, LogOffset: 5, HasOffset: true},
		{TableBucket: TableBucket{PartitionID: 3, Bucket: 0}, LogOffset: 0, HasOffset: true},
		{TableBucket: TableBucket{PartitionID: 3, Bucket: 1}, PartitionName: "p=a", LogOffset: 9, HasOffset: true},
	}}, snap)
	off, ok := snap.Offset(TableBucket{PartitionID: NoPartition, Bucket: 1})
	assert.True(t, ok)
	assert.Equal(t, int64(5), off)
	_, ok = snap.Offset(TableBucket{PartitionID: NoPartition, Bucket: 0})
	assert.False(t, ok, "a bucket without an offset has nothing in the lake")
	_, ok = snap.Offset(TableBucket{PartitionID: 4, Bucket: 0})
	assert.False(t, ok, "a bucket the snapshot does not list")
	assert.Equal(t, map[TableBucket]int64{{PartitionID: NoPartition, Bucket: 1}: 5, {PartitionID: 3, Bucket: 0}: 0, {PartitionID: 3, Bucket: 1}: 9},
		snap.Offsets(), "only the buckets with an offset")

	_, err = adm.ReadableLakeSnapshot(ctx, f.path)
	require.NoError(t, err)
	_, err = adm.LakeSnapshotByID(ctx, f.path, 41)
	require.NoError(t, err)
	require.Len(t, got, 3)
	assert.Equal(t, "db", got[0].GetTablePath().GetDatabaseName())
	assert.Equal(t, "t", got[0].GetTablePath().GetTableName())
	assert.False(t, got[0].Readable != nil || got[0].SnapshotId != nil, "latest: neither readable nor an id")
	assert.True(t, got[1].GetReadable())
	assert.False(t, got[1].SnapshotId != nil, "the server refuses readable together with an id")
	assert.Equal(t, int64(41), got[2].GetSnapshotId())
	assert.False(t, got[2].Readable != nil)

	_, err = adm.LatestLakeSnapshot(ctx, TablePath{Database: "db", Table: "none"})
	require.Error(t, err)
	assert.True(t, errors.Is(err, ErrLakeSnapshotNotExist))
	assert.Contains(t, err.Error(), "db.none has no lake snapshot")
	assert.Contains(t, err.Error(), "'table.datalake.enabled' = 'true'")
	assert.Contains(t, err.Error(), "Lake table snapshot not exist", "the server's words are kept")

	_, err = adm.LatestLakeSnapshot(ctx, TablePath{Database: "db"})
	require.Error(t, err, "a path without a table name is refused before any request")
	assert.Len(t, got, 4)
}
