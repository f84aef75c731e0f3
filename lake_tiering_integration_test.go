package flussql_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/flusstest/realcluster"
	"github.com/flussql/flussql/fluss/localcluster"
)

// Environment of a local lakehouse (`fluss-local-cluster run -flink -lake iceberg`).
const (
	lakeFormatEnv    = "FLUSSQL_LAKE_FORMAT"
	lakeWarehouseEnv = "FLUSSQL_LAKE_WAREHOUSE"
)

// lakehouse returns the lake format and warehouse of the local lakehouse the test runs on, and
// skips the test when there is none.
func lakehouse(t *testing.T) (format, warehouse string) {
	t.Helper()
	format, warehouse = os.Getenv(lakeFormatEnv), os.Getenv(lakeWarehouseEnv)
	if format == "" || warehouse == "" {
		t.Skipf("%s and %s are not set: no local lakehouse (make lake-test starts one)", lakeFormatEnv, lakeWarehouseEnv)
	}
	return format, warehouse
}

// TestLakeTiering writes rows with flussql into a datalake-enabled log table of a lakehouse
// cluster, waits until Fluss's own tiering service (a job on the local Flink) has committed
// them to the lake, and checks that the lake snapshot the cluster reports holds every bucket
// exactly up to its log end, and that the lake table of that snapshot is in the warehouse.
func TestLakeTiering(t *testing.T) {
	format, warehouse := lakehouse(t)
	db, dbName := openTestDB(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	table := dbName + ".events"
	_, err := db.ExecContext(ctx, `CREATE TABLE `+table+` (id INT, name STRING) WITH ('bucket.num' = '2',
		'table.datalake.enabled' = 'true', 'table.datalake.freshness' = '1s')`)
	require.NoError(t, err)
	// Four statements: each batch goes to a bucket of the writer's choice (no bucket key;
	// TestLakePrimaryKeyTable covers keys bucketed the lake's way).
	const rows, inserts = 200, 4
	for n := range inserts {
		values := make([]string, rows/inserts)
		for i := range values {
			id := n*len(values) + i
			values[i] = fmt.Sprintf("(%d, 'n%d')", id, id)
		}
		_, err = db.ExecContext(ctx, `INSERT INTO `+table+` VALUES `+strings.Join(values, ", "))
		require.NoError(t, err)
	}

	client, err := fluss.Connect(ctx, fluss.Config{BootstrapServers: realcluster.Addrs(t)})
	require.NoError(t, err)
	defer client.Close()
	path := fluss.TablePath{Database: dbName, Table: "events"}
	ends, err := client.Admin().ListOffsets(ctx, path, "", nil, fluss.OffsetLatest())
	require.NoError(t, err)
	// An empty bucket is never tiered: only the buckets with rows are waited for.
	want := map[fluss.TableBucket]int64{}
	var total int64
	for b, end := range ends {
		if end > 0 {
			want[fluss.TableBucket{PartitionID: fluss.NoPartition, Bucket: b}] = end
		}
		total += end
	}
	require.Equal(t, int64(rows), total, "the log ends of the two buckets add up to the rows written")

	written := time.Now()
	snap, err := localcluster.WaitLakeTiered(ctx, client.Admin(), path, want, 250*time.Millisecond)
	require.NoError(t, err)
	t.Logf("%s: tiered %d rows in %s (lake snapshot %d)", format, rows, time.Since(written).Round(100*time.Millisecond), snap.SnapshotID)
	assert.Equal(t, want, snap.Offsets(), "the snapshot holds every bucket exactly to its log end: nothing was written after")

	readable, err := client.Admin().ReadableLakeSnapshot(ctx, path)
	require.NoError(t, err)
	assert.Equal(t, snap.SnapshotID, readable.SnapshotID, "%s has no deletion vectors: the latest snapshot is readable", format)
	assert.Equal(t, want, readable.Offsets())
	again, err := client.Admin().LakeSnapshotByID(ctx, path, snap.SnapshotID)
	require.NoError(t, err)
	assert.Equal(t, snap.Offsets(), again.Offsets())

	assert.Equal(t, snap.SnapshotID, lakeCurrentSnapshot(t, format, warehouse, dbName, "events", "id", "name"),
		"the snapshot Fluss reports is the lake table's current one")

	// A table that is not datalake-enabled has no lake snapshot: the error says why.
	_, err = db.ExecContext(ctx, `CREATE TABLE `+dbName+`.plain (id INT)`)
	require.NoError(t, err)
	_, err = client.Admin().LatestLakeSnapshot(ctx, fluss.TablePath{Database: dbName, Table: "plain"})
	require.ErrorIs(t, err, fluss.ErrLakeSnapshotNotExist)
	assert.ErrorContains(t, err, "'table.datalake.enabled' = 'true'")
}

// TestLakeTieringPartitioned: the lake snapshot of a partitioned table names each bucket by
// partition id, and holds every partition's buckets to their log ends.
func TestLakeTieringPartitioned(t *testing.T) {
	format, warehouse := lakehouse(t)
	db, dbName := openTestDB(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	table := dbName + ".regions"
	_, err := db.ExecContext(ctx, `CREATE TABLE `+table+` (id INT, region STRING) PARTITIONED BY (region)
		WITH ('bucket.num' = '1', 'table.datalake.enabled' = 'true', 'table.datalake.freshness' = '1s')`)
	require.NoError(t, err)
	counts := map[string]int{"EU": 30, "US": 45}
	for region, n := range counts {
		_, err = db.ExecContext(ctx, `ALTER TABLE `+table+` ADD PARTITION (region = '`+region+`')`)
		require.NoError(t, err)
		values := make([]string, n)
		for i := range values {
			values[i] = fmt.Sprintf("(%d, '%s')", i, region)
		}
		_, err = db.ExecContext(ctx, `INSERT INTO `+table+` VALUES `+strings.Join(values, ", "))
		require.NoError(t, err)
	}

	client, err := fluss.Connect(ctx, fluss.Config{BootstrapServers: realcluster.Addrs(t)})
	require.NoError(t, err)
	defer client.Close()
	path := fluss.TablePath{Database: dbName, Table: "regions"}
	parts, err := client.Admin().ListPartitions(ctx, path, nil)
	require.NoError(t, err)
	require.Len(t, parts, len(counts))
	want := map[fluss.TableBucket]int64{}
	for _, p := range parts {
		ends, err := client.Admin().ListOffsets(ctx, path, p.Name, []int32{0}, fluss.OffsetLatest())
		require.NoError(t, err)
		require.Equal(t, int64(counts[p.Name]), ends[0], "partition %s", p.Name)
		want[fluss.TableBucket{PartitionID: p.ID, Bucket: 0}] = ends[0]
	}
	written := time.Now()
	snap, err := localcluster.WaitLakeTiered(ctx, client.Admin(), path, want, 250*time.Millisecond)
	require.NoError(t, err)
	t.Logf("%s: tiered 2 partitions in %s (lake snapshot %d)", format, time.Since(written).Round(100*time.Millisecond), snap.SnapshotID)
	assert.Equal(t, want, snap.Offsets(), "each partition's bucket exactly to its log end, by partition id")
	assert.Equal(t, snap.SnapshotID, lakeCurrentSnapshot(t, format, warehouse, dbName, "regions", "id", "region"))
}

// lakeCurrentSnapshot reads the current snapshot id of a lake table from the warehouse:
// Iceberg's Hadoop catalog keeps {db}/{table}/metadata/version-hint.text (the current
// metadata version N) and vN.metadata.json ("current-snapshot-id"); Paimon's filesystem
// catalog keeps {db}.db/{table}/snapshot/LATEST (the id) beside snapshot-{id}.
// columns are the Fluss table's; Iceberg's schema must be them and the system columns.
func lakeCurrentSnapshot(t *testing.T, format, warehouse, dbName, table string, columns ...string) int64 {
	t.Helper()
	switch format {
	case "iceberg":
		meta := filepath.Join(warehouse, dbName, table, "metadata")
		hint, err := os.ReadFile(filepath.Join(meta, "version-hint.text"))
		require.NoError(t, err, "the Iceberg table's metadata is in the warehouse")
		b, err := os.ReadFile(filepath.Join(meta, "v"+strings.TrimSpace(string(hint))+".metadata.json"))
		require.NoError(t, err)
		var m struct {
			CurrentSnapshotID int64 `json:"current-snapshot-id"`
			Schemas           []struct {
				Fields []struct {
					Name string `json:"name"`
				} `json:"fields"`
			} `json:"schemas"`
		}
		require.NoError(t, json.Unmarshal(b, &m))
		require.NotEmpty(t, m.Schemas)
		var names []string
		for _, f := range m.Schemas[len(m.Schemas)-1].Fields {
			names = append(names, f.Name)
		}
		assert.Equal(t, append(columns, "__bucket", "__offset", "__timestamp"), names,
			"Fluss's lake table: the columns, then the system columns")
		var data int
		_ = filepath.WalkDir(filepath.Join(warehouse, dbName, table, "data"), func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".parquet") {
				data++
			}
			return nil
		})
		assert.NotZero(t, data, "the tiered rows are in Parquet data files")
		return m.CurrentSnapshotID
	case "paimon":
		dir := filepath.Join(warehouse, dbName+".db", table, "snapshot")
		b, err := os.ReadFile(filepath.Join(dir, "LATEST"))
		require.NoError(t, err, "the Paimon table's snapshots are in the warehouse")
		id, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
		require.NoError(t, err)
		assert.FileExists(t, filepath.Join(dir, fmt.Sprintf("snapshot-%d", id)))
		return id
	}
	t.Fatalf("%s=%q: the test knows iceberg and paimon", lakeFormatEnv, format)
	return 0
}
