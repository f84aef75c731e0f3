package flusslake_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "github.com/flussql/flussql"
	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/flusstest/realcluster"
	"github.com/flussql/flussql/fluss/localcluster"
	_ "github.com/flussql/flussql/flusslake"
)

// lakeFormat returns the format of the local lakehouse the tests run against (make
// lake-test LAKE=iceberg or LAKE=paimon), or skips the test when there is none.
func lakeFormat(t testing.TB) string {
	t.Helper()
	f := os.Getenv("FLUSSQL_LAKE_FORMAT")
	if f != "iceberg" && f != "paimon" {
		t.Skip("FLUSSQL_LAKE_FORMAT is neither iceberg nor paimon: no local lakehouse (make lake-test starts one)")
	}
	return f
}

// TestLakeUnionRead writes rows with flussql into a datalake-enabled log table of a local
// lakehouse (make lake-test, Iceberg or Paimon), waits until Fluss's own tiering service has
// committed them to the lake, writes more, and reads the table back: the union read returns
// every row once across the lake/log boundary (COUNT, COUNT DISTINCT, SUM, MIN, MAX and the
// rows themselves), t$lake the tiered rows alone, and EXPLAIN the lake snapshot.
func TestLakeUnionRead(t *testing.T) {
	format := lakeFormat(t)
	addr := realcluster.Addr(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	db, err := sql.Open("fluss", "fluss://"+addr+"/fluss")
	require.NoError(t, err)
	defer db.Close()
	dbName := fmt.Sprintf("lake_union_%d", time.Now().UnixNano()%1e9)
	exec := func(q string) {
		t.Helper()
		_, err := db.ExecContext(ctx, q)
		require.NoError(t, err, q)
	}
	exec("CREATE DATABASE " + dbName)
	// The database is not dropped: Fluss's tiering service fails (and is restarted)
	// when a table it is tiering disappears, and the lakehouse is the test's own.
	table := dbName + ".ev"
	exec(`CREATE TABLE ` + table + ` (id INT, v BIGINT, name STRING, ts TIMESTAMP(3)) WITH ('bucket.num' = '2',
		'table.datalake.enabled' = 'true', 'table.datalake.freshness' = '1s')`)
	insert := func(from, to int) {
		var vals []string
		for i := from; i < to; i++ {
			vals = append(vals, fmt.Sprintf("(%d, %d, 'n%d', TIMESTAMP '2026-01-01 00:00:00.%03d')", i, i*10, i, i))
		}
		exec("INSERT INTO " + table + " VALUES " + strings.Join(vals, ", "))
	}
	const tiered, tail = 100, 50
	for i := 0; i < tiered; i += 25 {
		insert(i, i+25) // four statements: the batches go to both buckets
	}

	client, err := fluss.Connect(ctx, fluss.Config{BootstrapServers: realcluster.Addrs(t)})
	require.NoError(t, err)
	defer client.Close()
	path := fluss.TablePath{Database: dbName, Table: "ev"}
	ends, err := client.Admin().ListOffsets(ctx, path, "", nil, fluss.OffsetLatest())
	require.NoError(t, err)
	want := map[fluss.TableBucket]int64{}
	for b, end := range ends {
		if end > 0 {
			want[fluss.TableBucket{PartitionID: fluss.NoPartition, Bucket: b}] = end
		}
	}
	snap, err := localcluster.WaitLakeTiered(ctx, client.Admin(), path, want, 250*time.Millisecond)
	require.NoError(t, err)
	insert(tiered, tiered+tail) // after the snapshot: in the log (until the next tiering round)

	one := func(q string) []string {
		t.Helper()
		rows, err := db.QueryContext(ctx, q)
		require.NoError(t, err, q)
		defer rows.Close()
		cols, _ := rows.Columns()
		require.True(t, rows.Next(), q)
		vals := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		require.NoError(t, rows.Scan(ptrs...))
		out := make([]string, len(vals))
		for i, v := range vals {
			out[i] = v.String
		}
		require.NoError(t, rows.Err())
		return out
	}
	const n = tiered + tail
	sum := 10 * n * (n - 1) / 2
	assert.Equal(t, []string{fmt.Sprint(n), fmt.Sprint(n), fmt.Sprint(sum), "0", fmt.Sprint(n - 1)},
		one("SELECT COUNT(*), COUNT(DISTINCT id), SUM(v), MIN(id), MAX(id) FROM "+table),
		"the union read returns every row once across the lake/log boundary")
	assert.Equal(t, []string{"10", "45"}, one("SELECT COUNT(*), SUM(id) FROM "+table+" WHERE id < 10"),
		"a filter pushed into the lake's planning still returns its rows")
	row := one("SELECT name, CAST(ts AS STRING) FROM " + table + " WHERE id = 42")
	assert.Equal(t, "n42", row[0], "a lake row reads back with its values")
	assert.Contains(t, row[1], "2026-01-01 00:00:00.042", "a TIMESTAMP(3) of the lake (microseconds in Iceberg, milliseconds in Paimon) reads back")

	// One query: the tiering service may commit a newer snapshot between two.
	lake := one("SELECT COUNT(*), MIN(id), SUM(CASE WHEN __bucket IN (0, 1) AND __offset >= 0 AND __timestamp > TIMESTAMP '2026-01-01 00:00:00' THEN 1 ELSE 0 END) FROM `" + dbName + "`.`ev$lake`")
	var lakeRows int
	fmt.Sscan(lake[0], &lakeRows)
	assert.GreaterOrEqual(t, lakeRows, tiered, "t$lake holds the tiered rows")
	assert.LessOrEqual(t, lakeRows, n)
	assert.Equal(t, "0", lake[1])
	assert.Equal(t, lake[0], lake[2], "t$lake shows the system columns __bucket, __offset and __timestamp of every row")

	rows, err := db.QueryContext(ctx, "EXPLAIN SELECT COUNT(*) FROM "+table)
	require.NoError(t, err)
	var explain []string
	for rows.Next() {
		var l string
		require.NoError(t, rows.Scan(&l))
		explain = append(explain, l)
	}
	require.NoError(t, rows.Close())
	text := strings.Join(explain, "\n")
	assert.Contains(t, text, "union read")
	assert.Regexp(t, format+` snapshot \d+, \d+ data files kept`, text)
	assert.Contains(t, text, "log after the snapshot: bucket")
	t.Logf("lake snapshot %d after %d rows; t$lake now %d rows\n%s", snap.SnapshotID, tiered, lakeRows, text)

}

// TestLakeUnionReadPartitioned: the same across the partitions of a partitioned table,
// with a query that prunes partitions (pushed into the lake's planning: Iceberg's as the
// partition column's values, Paimon's as the partitions whose manifest entries are kept).
func TestLakeUnionReadPartitioned(t *testing.T) {
	lakeFormat(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	db, err := sql.Open("fluss", "fluss://"+realcluster.Addr(t)+"/fluss")
	require.NoError(t, err)
	defer db.Close()
	dbName := fmt.Sprintf("lake_part_%d", time.Now().UnixNano()%1e9)
	exec := func(q string) {
		t.Helper()
		_, err := db.ExecContext(ctx, q)
		require.NoError(t, err, q)
	}
	exec("CREATE DATABASE " + dbName)
	// The database is not dropped: Fluss's tiering service fails (and is restarted)
	// when a table it is tiering disappears, and the lakehouse is the test's own.
	table := dbName + ".pv"
	exec(`CREATE TABLE ` + table + ` (id INT, region STRING) PARTITIONED BY (region) WITH ('bucket.num' = '1',
		'table.datalake.enabled' = 'true', 'table.datalake.freshness' = '1s')`)
	exec("ALTER TABLE " + table + " ADD PARTITION (region = 'eu')")
	exec("ALTER TABLE " + table + " ADD PARTITION (region = 'us')")
	insert := func(from, to int) {
		var vals []string
		for i := from; i < to; i++ {
			vals = append(vals, fmt.Sprintf("(%d, '%s')", i, []string{"eu", "us"}[i%2]))
		}
		exec("INSERT INTO " + table + " VALUES " + strings.Join(vals, ", "))
	}
	insert(0, 60)

	client, err := fluss.Connect(ctx, fluss.Config{BootstrapServers: realcluster.Addrs(t)})
	require.NoError(t, err)
	defer client.Close()
	path := fluss.TablePath{Database: dbName, Table: "pv"}
	parts, err := client.Admin().ListPartitions(ctx, path, nil)
	require.NoError(t, err)
	want := map[fluss.TableBucket]int64{}
	for _, p := range parts {
		ends, err := client.Admin().ListOffsets(ctx, path, p.Name, nil, fluss.OffsetLatest())
		require.NoError(t, err)
		for b, end := range ends {
			if end > 0 {
				want[fluss.TableBucket{PartitionID: p.ID, Bucket: b}] = end
			}
		}
	}
	_, err = localcluster.WaitLakeTiered(ctx, client.Admin(), path, want, 250*time.Millisecond)
	require.NoError(t, err)
	insert(60, 80)

	count := func(q string) string {
		t.Helper()
		var n, s sql.NullString
		require.NoError(t, db.QueryRowContext(ctx, q).Scan(&n, &s), q)
		return n.String + " " + s.String
	}
	assert.Equal(t, "80 3160", count("SELECT COUNT(*), SUM(id) FROM "+table))
	assert.Equal(t, "40 1560", count("SELECT COUNT(*), SUM(id) FROM "+table+" WHERE region = 'eu'"), "ids 0, 2, …, 78")
	lake := count("SELECT COUNT(*), SUM(id) FROM `" + dbName + "`.`pv$lake` WHERE region = 'us'")
	assert.True(t, strings.HasPrefix(lake, "30 ") || strings.HasPrefix(lake, "40 "), "t$lake of one partition: %s", lake)
}
