package flusslake_test

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss"
)

// TestLakeExpiredLogIceberg writes a datalake-enabled log table with a 1 s 'table.log.ttl' on
// a lakehouse whose tablet servers roll 64 KiB segments and tier them every second (make
// lake-long: -server-option log.segment.file-size=64kb, remote.log.task-interval-duration=1s),
// waits until the rows are in the lake and the bucket's first segments have left Fluss (its
// earliest offset past 0: Fluss 0.9.1 expires a segment of a lake table only once it is
// tiered to the lake), writes a tail, and checks that the union read returns every row
// written once — COUNT, SUM, the ids — while the log alone returns fewer, and that Flink's
// batch union read of the table agrees when a Flink runs beside the cluster.
func TestLakeExpiredLogIceberg(t *testing.T) {
	if !longLake(t) {
		t.Skip("FLUSSQL_LAKE_LONG is not set: the expired-log union read runs in make lake-long")
	}
	l := newLake(t, "lake_ttl", 4*time.Minute)
	if l.format != "iceberg" {
		t.Skipf("the expired-log test runs on an Iceberg lakehouse, not %s", l.format)
	}
	ev := l.dbName + ".ev"
	l.exec(`CREATE TABLE ` + ev + ` (id INT, v BIGINT, pad STRING) WITH ('bucket.num' = '1',
		'table.datalake.enabled' = 'true', 'table.datalake.freshness' = '1s', 'table.log.ttl' = '1s',
		'table.log.tiered.local-segments' = '1', 'table.log.arrow.compression.type' = 'NONE')`)
	var sum int64
	insert := func(from, to int) {
		vals := make([]string, 0, to-from)
		for i := from; i < to; i++ {
			vals = append(vals, fmt.Sprintf("(%d, %d, '%s')", i, int64(i)*7, strings.Repeat(strconv.Itoa(i%10), 200)))
			sum += int64(i) * 7
		}
		l.exec("INSERT INTO " + ev + " VALUES " + strings.Join(vals, ", "))
	}
	// 20 statements of ~22 KB each: several 64 KiB segments roll.
	const early, tail = 2000, 50
	for i := 0; i < early; i += 100 {
		insert(i, i+100)
	}
	l.waitTiered("ev")
	path := fluss.TablePath{Database: l.dbName, Table: "ev"}
	start := time.Now()
	var logStart int64
	for logStart == 0 {
		offs, err := l.client.Admin().ListOffsets(l.ctx, path, "", []int32{0}, fluss.OffsetEarliest())
		require.NoError(t, err)
		if logStart = offs[0]; logStart > 0 {
			break
		}
		select {
		case <-l.ctx.Done():
			t.Fatalf("the log of %s still starts at offset 0 after %s: does the cluster run with -server-option log.segment.file-size=64kb -server-option remote.log.task-interval-duration=1s (make lake-long)?",
				ev, time.Since(start).Round(time.Second))
		case <-time.After(time.Second):
		}
	}
	t.Logf("the log of %s starts at offset %d after %s", ev, logStart, time.Since(start).Round(100*time.Millisecond))
	insert(early, early+tail)
	const total = early + tail

	want := []string{strconv.Itoa(total), strconv.FormatInt(sum, 10), strconv.Itoa(total), "0", strconv.Itoa(total - 1)}
	assert.Equal(t, [][]string{want}, l.rows("SELECT COUNT(*), SUM(v), COUNT(DISTINCT id), MIN(id), MAX(id) FROM "+ev), "the union read: every row once")
	ids := l.rows("SELECT id FROM " + ev)
	require.Len(t, ids, total)
	seen := make([]int, total)
	for _, r := range ids {
		id, err := strconv.Atoi(r[0])
		require.NoError(t, err)
		seen[id]++
	}
	for id, n := range seen {
		require.Equal(t, 1, n, "id %d", id)
	}
	logAlone := l.rows("SELECT COUNT(*), MIN(id) FROM " + ev + " /*+ OPTIONS('scan.startup.mode' = 'earliest') */")
	require.Len(t, logAlone, 1)
	n, err := strconv.Atoi(logAlone[0][0])
	require.NoError(t, err)
	assert.Less(t, n, total, "the log alone lost its first rows")
	assert.Equal(t, strconv.FormatInt(logStart, 10), logAlone[0][1], "the log alone starts at the log start (one bucket, ids in offset order)")

	gw := os.Getenv("FLUSSQL_FLINK_GATEWAY")
	if gw == "" {
		return
	}
	fl := l.flinkCatalog(gw)
	q := "SELECT COUNT(*), SUM(v), COUNT(DISTINCT id), MIN(id), MAX(id) FROM %s"
	assert.Equal(t, fl.query(fmt.Sprintf(q, fl.catalog+"."+ev), "batch"), l.rows(fmt.Sprintf(q, ev)), "flussql and Flink's batch union read")
}
