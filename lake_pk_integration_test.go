package flussql_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/flusstest/realcluster"
	"github.com/flussql/flussql/fluss/localcluster"
)

// TestLakePrimaryKeyTable writes a primary-key table of a lakehouse cluster, whose keys the
// client must encode and bucket as the lake format does (Paimon BinaryRow or Iceberg
// single-value keys, the lake's bucketing function): flussql upserts and updates, looks up
// and reads every row back; the Java client finds every key flussql wrote and flussql every
// key the Java client wrote (each looks up in the bucket its own bucketing picks); and the
// lake snapshot Fluss's tiering service commits covers every bucket's changelog.
func TestLakePrimaryKeyTable(t *testing.T) {
	format, warehouse := lakehouse(t)
	db, dbName := openTestDB(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	const name, rows, buckets = "scores", 300, 4
	table := dbName + "." + name
	_, err := db.ExecContext(ctx, `CREATE TABLE `+table+` (id INT, name STRING, score BIGINT, PRIMARY KEY (id) NOT ENFORCED)
		WITH ('bucket.num' = '4', 'table.datalake.enabled' = 'true', 'table.datalake.freshness' = '1s')`)
	require.NoError(t, err)

	client, err := fluss.Connect(ctx, fluss.Config{BootstrapServers: realcluster.Addrs(t)})
	require.NoError(t, err)
	defer client.Close()
	path := fluss.TablePath{Database: dbName, Table: name}
	info, err := client.Admin().GetTableInfo(ctx, path)
	require.NoError(t, err)
	require.Equal(t, format, info.Property(fluss.PropDatalakeFormat, ""), "the coordinator stamps the lake format")
	require.Equal(t, "2", info.Property(fluss.PropKvFormatVersion, ""), "and kv format version 2")

	values := func(lo, hi int, prefix string) string {
		v := make([]string, 0, hi-lo)
		for i := lo; i < hi; i++ {
			v = append(v, fmt.Sprintf("(%d, '%s-%d', %d)", i, prefix, i, i*7))
		}
		return strings.Join(v, ", ")
	}
	_, err = db.ExecContext(ctx, `UPSERT INTO `+table+` VALUES `+values(0, rows, "go"))
	require.NoError(t, err)
	// update the first 50 rows: the same keys, in the same buckets
	_, err = db.ExecContext(ctx, `UPSERT INTO `+table+` VALUES `+values(0, 50, "upd"))
	require.NoError(t, err)

	want := func(id int) []string {
		prefix := "go"
		if id < 50 {
			prefix = "upd"
		}
		return []string{fmt.Sprint(id), fmt.Sprintf("%s-%d", prefix, id), fmt.Sprint(id * 7)}
	}
	got := queryStrings(t, db, `SELECT id, name, score FROM `+table+` WHERE id IN (0, 49, 50, 123, 299, 300)`)
	assert.Equal(t, [][]string{want(0), want(49), want(50), want(123), want(299)}, sortedByID(got), "point lookups (300 is absent)")
	// Fluss 0.9.1 has no full scan of a primary-key table: the read back is a lookup of every
	// key, and the table's changelog (log scan of every bucket) holds every change once.
	ids := make([]string, rows)
	for i := range ids {
		ids[i] = fmt.Sprint(i)
	}
	all := sortedByID(queryStrings(t, db, `SELECT id, name, score FROM `+table+` WHERE id IN (`+strings.Join(ids, ",")+`)`))
	require.Len(t, all, rows, "a lookup of every key finds every row once")
	for i, r := range all {
		assert.Equal(t, want(i), r)
	}
	changes := queryStrings(t, db, `SELECT _change_type, COUNT(*) FROM `+table+`$changelog GROUP BY _change_type ORDER BY _change_type`)
	assert.Equal(t, [][]string{{"insert", fmt.Sprint(rows)}, {"update_after", "50"}, {"update_before", "50"}}, changes,
		"the changelog: an insert per key, an update pair per updated key")

	t.Run("bucket key under the primary key", func(t *testing.T) {
		// kv format 2: the primary key in Fluss's compacted encoding (the bucket key its
		// prefix), the bucket from the lake encoding of the bucket key
		prefixTable := dbName + ".by_user"
		_, err := db.ExecContext(ctx, `CREATE TABLE `+prefixTable+` (uid INT, seq INT, v STRING, PRIMARY KEY (uid, seq) NOT ENFORCED)
			WITH ('bucket.num' = '3', 'bucket.key' = 'uid', 'table.datalake.enabled' = 'true')`)
		require.NoError(t, err)
		v := make([]string, 0, 60)
		for uid := range 20 {
			for seq := range 3 {
				v = append(v, fmt.Sprintf("(%d, %d, 'u%d-s%d')", uid, seq, uid, seq))
			}
		}
		_, err = db.ExecContext(ctx, `UPSERT INTO `+prefixTable+` VALUES `+strings.Join(v, ", "))
		require.NoError(t, err)
		assert.Equal(t, [][]string{{"u13-s2"}}, queryStrings(t, db, `SELECT v FROM `+prefixTable+` WHERE uid = 13 AND seq = 2`), "key lookup")
		for _, uid := range []int{0, 7, 19} {
			got := queryStrings(t, db, `SELECT seq, v FROM `+prefixTable+` WHERE uid = ? ORDER BY seq`, uid)
			assert.Equal(t, [][]string{{"0", fmt.Sprintf("u%d-s0", uid)}, {"1", fmt.Sprintf("u%d-s1", uid)}, {"2", fmt.Sprintf("u%d-s2", uid)}}, got, "prefix lookup of uid %d", uid)
		}

		// a log table with a bucket key: rows bucketed the lake's way, read back whole
		logTable := dbName + ".clicks"
		_, err = db.ExecContext(ctx, `CREATE TABLE `+logTable+` (uid INT, page STRING) WITH ('bucket.num' = '3', 'bucket.key' = 'uid')`)
		require.NoError(t, err)
		_, err = db.ExecContext(ctx, `INSERT INTO `+logTable+` VALUES (1, 'a'), (2, 'b'), (3, 'c'), (1, 'd')`)
		require.NoError(t, err)
		assert.Equal(t, [][]string{{"1", "2"}, {"2", "1"}, {"3", "1"}}, queryStrings(t, db, `SELECT uid, COUNT(*) FROM `+logTable+` GROUP BY uid ORDER BY uid`))
	})

	t.Run("java client", func(t *testing.T) {
		j := newJavaClient(t)
		res := j.run(t, "lookup", dbName, name, "50", fmt.Sprint(rows-50), "go")
		assert.EqualValues(t, rows-50, res["found"], "the Java client finds every key flussql wrote: %v", res)
		assert.EqualValues(t, 0, res["wrong"], "first wrong rows: %v", res["first_wrong"])
		res = j.run(t, "upsert", dbName, name, fmt.Sprint(rows), "200", "java")
		require.EqualValues(t, 200, res["written"])
		got := queryStrings(t, db, `SELECT _change_type, COUNT(*) FROM `+table+`$changelog WHERE id >= `+fmt.Sprint(rows)+` GROUP BY _change_type`)
		assert.Equal(t, [][]string{{"insert", "200"}}, got, "the changelog holds the Java client's inserts")
		ids := make([]string, 200)
		for i := range ids {
			ids[i] = fmt.Sprint(rows + i)
		}
		got = queryStrings(t, db, `SELECT id, name FROM `+table+` WHERE id IN (`+strings.Join(ids, ",")+`)`)
		assert.Len(t, got, 200, "flussql looks up every key the Java client wrote, in the bucket Java chose")
		for _, r := range got {
			assert.Equal(t, "java-"+r[0], r[1])
		}
	})

	ends, err := client.Admin().ListOffsets(ctx, path, "", nil, fluss.OffsetLatest())
	require.NoError(t, err)
	tiered := map[fluss.TableBucket]int64{}
	for b, end := range ends {
		if end > 0 {
			tiered[fluss.TableBucket{PartitionID: fluss.NoPartition, Bucket: b}] = end
		}
	}
	require.Len(t, tiered, buckets, "the keys spread over every bucket")
	start := time.Now()
	snap, err := localcluster.WaitLakeTiered(ctx, client.Admin(), path, tiered, 250*time.Millisecond)
	require.NoError(t, err)
	t.Logf("%s: tiered the changelog of %d buckets in %s (lake snapshot %d)", format, len(tiered), time.Since(start).Round(100*time.Millisecond), snap.SnapshotID)
	assert.Equal(t, tiered, snap.Offsets(), "the lake snapshot covers every bucket's changelog to its end")
	assert.Equal(t, snap.SnapshotID, lakeCurrentSnapshot(t, format, warehouse, dbName, name, "id", "name", "score"),
		"the snapshot Fluss reports is the lake table's current one")
}

// sortedByID sorts rows by their first column, an integer.
func sortedByID(rows [][]string) [][]string {
	out := append([][]string(nil), rows...)
	key := func(r []string) int {
		var n int
		fmt.Sscan(r[0], &n)
		return n
	}
	for i := 1; i < len(out); i++ {
		for k := i; k > 0 && key(out[k-1]) > key(out[k]); k-- {
			out[k-1], out[k] = out[k], out[k-1]
		}
	}
	return out
}
