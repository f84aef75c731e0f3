package fluss_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/types"
)

// TestRemoteDataDir: a Fluss 1.0 server names the remote storage folder of each table and
// partition (GetTableInfo, the metadata answer, ListPartitionInfos); a 0.9 server names none.
func TestRemoteDataDir(t *testing.T) {
	c := connect(t)
	ctx := testCtx(t)
	admin := c.Admin()
	v, err := c.ServerVersion(ctx)
	require.NoError(t, err)
	db := tempDatabase(t, admin)
	path := fluss.TablePath{Database: db, Table: "dirs"}
	require.NoError(t, admin.CreateTable(ctx, path, fluss.TableDescriptor{
		Schema:        types.Schema{Columns: []types.Column{{Name: "id", Type: types.NewInt()}, {Name: "region", Type: types.NewString()}}},
		PartitionKeys: []string{"region"}, BucketCount: 1,
	}, false))
	require.NoError(t, admin.CreatePartition(ctx, path, fluss.PartitionSpec{"region": "EU"}, false))

	info, err := admin.GetTableInfo(ctx, path)
	require.NoError(t, err)
	tb, err := c.Table(ctx, path) // through the metadata answer
	require.NoError(t, err)
	parts, err := admin.ListPartitions(ctx, path, nil)
	require.NoError(t, err)
	require.Len(t, parts, 1)
	if !v.AtLeast(1, 0) {
		assert.Empty(t, info.RemoteDataDir, "0.9 names no remote folder")
		assert.Empty(t, parts[0].RemoteDataDir)
		return
	}
	assert.NotEmpty(t, info.RemoteDataDir, "1.0 names the table's remote folder")
	assert.Equal(t, info.RemoteDataDir, tb.Info().RemoteDataDir, "GetTableInfo and the metadata answer agree")
	assert.Equal(t, info.RemoteDataDir, parts[0].RemoteDataDir, "the partition lives in its table's folder on a one-folder cluster")
	t.Logf("remote data dir: %s", info.RemoteDataDir)
}
