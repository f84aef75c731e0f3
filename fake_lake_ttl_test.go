package flussql_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/flusstest"
)

// TestFakeLakeExpiredLog: a datalake-enabled log table whose first rows expired from Fluss
// (table.log.ttl). While the lake snapshot still covers the expired offsets, the union read
// returns every row once and the log alone fewer; once the log starts after the snapshot's
// offset, the union read fails naming the bucket, both offsets and the ways out instead of
// silently missing rows; a bucket the snapshot holds nothing of must start at offset 0.
func TestFakeLakeExpiredLog(t *testing.T) {
	fluss.RegisterLakeFormat("memlake", &memLake{rows: 10})
	db, fc := openFake(t, "")
	fc.ServeLakeSnapshots(func(_, table string) (flusstest.LakeSnapshot, bool) {
		switch table {
		case "ttl":
			return flusstest.LakeSnapshot{SnapshotID: 7, Offsets: map[int32]int64{0: 10}}, true
		case "untiered":
			return flusstest.LakeSnapshot{SnapshotID: 3, Offsets: map[int32]int64{}}, true
		}
		return flusstest.LakeSnapshot{}, false
	})
	for _, name := range []string{"ttl", "untiered"} {
		mustExec(t, db, "CREATE TABLE "+name+" (id BIGINT, v INT) WITH ('bucket.num' = '1', 'table.datalake.enabled' = 'true', 'table.datalake.format' = 'memlake')")
		// Four batches, offsets 0-4, 5-9, 10-14, 15-19: the log expires batch by batch.
		for n := range 4 {
			var vals []string
			for i := n * 5; i < n*5+5; i++ {
				vals = append(vals, fmt.Sprintf("(%d, %d)", i, i*10))
			}
			mustExec(t, db, "INSERT INTO "+name+" VALUES "+strings.Join(vals, ", "))
		}
	}
	const union = "SELECT COUNT(*), SUM(v), COUNT(DISTINCT id), MIN(id), MAX(id) FROM ttl"
	const logAlone = "SELECT COUNT(*), MIN(id) FROM ttl /*+ OPTIONS('scan.startup.mode' = 'earliest') */"
	fc.ExpireLog("fluss", "ttl", "", 0, 5)
	assert.Equal(t, [][]string{{"20", "1900", "20", "0", "19"}}, queryStrings(t, db, union))
	assert.Equal(t, [][]string{{"15", "5"}}, queryStrings(t, db, logAlone), "the log alone lost its first batch")

	// The snapshot holds the bucket up to offset 10; the log now starts at 15.
	fc.ExpireLog("fluss", "ttl", "", 0, 15)
	_, err := db.Query(union)
	require.Error(t, err)
	for _, part := range []string{"would miss rows", "bucket 0", "starts at offset 15", "after offset 10", "lake snapshot 7 holds that bucket up to offset 10",
		"table.log.ttl", "ttl$lake", "'scan.startup.mode' = 'earliest'"} {
		assert.Contains(t, err.Error(), part)
	}
	var gap *fluss.LogGapError
	require.ErrorAs(t, err, &gap)
	assert.Equal(t, int64(10), gap.Want)
	assert.Equal(t, int64(15), gap.LogStart)
	// The ways out the error names still work.
	assert.Equal(t, [][]string{{"5", "15"}}, queryStrings(t, db, logAlone))
	assert.Equal(t, [][]string{{"10"}}, queryStrings(t, db, "SELECT COUNT(*) FROM `ttl$lake`"))

	// A bucket the snapshot holds nothing of is read from offset 0: expired rows are a gap.
	// (memLake holds its 10 rows whatever the snapshot says: 10 + the log's 20.)
	assert.Equal(t, [][]string{{"30"}}, queryStrings(t, db, "SELECT COUNT(*) FROM untiered"))
	fc.ExpireLog("fluss", "untiered", "", 0, 5)
	_, err = db.Query("SELECT COUNT(*) FROM untiered")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "after offset 0")
	assert.Contains(t, err.Error(), "lake snapshot 3 holds none of that bucket")
}
