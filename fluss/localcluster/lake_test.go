package localcluster

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss"
)

func TestParseLakeFormat(t *testing.T) {
	for in, want := range map[string]LakeFormat{"": "", "iceberg": LakeIceberg, " Paimon ": LakePaimon} {
		got, err := ParseLakeFormat(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	_, err := ParseLakeFormat("hudi")
	assert.ErrorContains(t, err, "iceberg or paimon")
}

func TestLakeOptionsAndTieringArgs(t *testing.T) {
	ice := LakeOptions(LakeIceberg, "/w/iceberg")
	assert.Equal(t, map[string]string{"datalake.format": "iceberg", "datalake.iceberg.type": "hadoop", "datalake.iceberg.warehouse": "/w/iceberg"}, ice)
	pai := LakeOptions(LakePaimon, "/w/paimon")
	assert.Equal(t, map[string]string{"datalake.format": "paimon", "datalake.paimon.metastore": "filesystem", "datalake.paimon.warehouse": "/w/paimon"}, pai)

	assert.Equal(t, []string{
		"--fluss.bootstrap.servers", "127.0.0.1:9123", "--fluss.tiering.poll.table.interval", TieringPollInterval,
		"--datalake.format", "iceberg", "--datalake.iceberg.type", "hadoop", "--datalake.iceberg.warehouse", "/w/iceberg",
	}, TieringArgs("127.0.0.1:9123", ice), "the server.yaml options, each as --key value, in a stable order")
}

// TestLakeServerConfig: the lake entries reach server.yaml, and a ServerConfig entry of the
// same key wins.
func TestLakeServerConfig(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "conf"), 0o755))
	extra := LakeOptions(LakePaimon, filepath.Join(dir, "lake", "paimon"))
	extra["datalake.paimon.metastore"] = "hive"
	require.NoError(t, writeConfigs(dir, configSpec{zkPort: 1, csPort: 2, csInternalPort: 3, extra: extra}))
	b, err := os.ReadFile(filepath.Join(dir, "conf", "server.yaml"))
	require.NoError(t, err)
	y := string(b)
	assert.Contains(t, y, "\ndatalake.format: paimon\n")
	assert.Contains(t, y, "\ndatalake.paimon.warehouse: "+filepath.Join(dir, "lake", "paimon")+"\n")
	assert.Contains(t, y, "\ndatalake.paimon.metastore: hive\n")
	assert.Equal(t, 1, strings.Count(y, "datalake.paimon.metastore"))
}

func TestLakeShortfall(t *testing.T) {
	b0 := fluss.TableBucket{PartitionID: fluss.NoPartition, Bucket: 0}
	b1 := fluss.TableBucket{PartitionID: fluss.NoPartition, Bucket: 1}
	snap := &fluss.LakeSnapshot{SnapshotID: 5, Buckets: []fluss.LakeBucketOffset{
		{TableBucket: b0, LogOffset: 10, HasOffset: true},
		{TableBucket: b1},
	}}
	assert.Empty(t, lakeShortfall(snap, map[fluss.TableBucket]int64{b0: 10}))
	assert.Empty(t, lakeShortfall(snap, map[fluss.TableBucket]int64{b0: 7}), "further than wanted is enough")
	assert.Equal(t, []string{"bucket 0 (tiered to 10, want 11)", "bucket 1 (nothing tiered, want 1)"},
		lakeShortfall(snap, map[fluss.TableBucket]int64{b0: 11, b1: 1}))
	assert.Equal(t, []string{"partition 3 bucket 0 (nothing tiered, want 1)"},
		lakeShortfall(snap, map[fluss.TableBucket]int64{{PartitionID: 3, Bucket: 0}: 1}))
}
