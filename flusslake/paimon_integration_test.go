package flusslake_test

import (
	"context"
	"database/sql"
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

// TestLakePaimonPrimaryKeyMerge writes, updates and deletes rows of a primary-key table of
// a local Paimon lakehouse with flussql, waits until Fluss's tiering service has committed
// every change to Paimon, and reads t$lake: the Paimon snapshot merged on read (Paimon's
// LSM files of each bucket, the newest change of a key by _SEQUENCE_NUMBER, deletes
// dropped) holds each live key once with its latest values.
func TestLakePaimonPrimaryKeyMerge(t *testing.T) {
	if lakeFormat(t) != "paimon" {
		t.Skip("the merge of a Paimon primary-key table needs a Paimon lakehouse (make lake-test LAKE=paimon)")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	db, err := sql.Open("fluss", "fluss://"+realcluster.Addr(t)+"/fluss")
	require.NoError(t, err)
	defer db.Close()
	dbName := fmt.Sprintf("lake_pk_%d", time.Now().UnixNano()%1e9)
	exec := func(q string) {
		t.Helper()
		_, err := db.ExecContext(ctx, q)
		require.NoError(t, err, q)
	}
	exec("CREATE DATABASE " + dbName)
	// Not dropped: the tiering service fails for good when a table it tiers disappears.
	table := dbName + ".kv"
	exec(`CREATE TABLE ` + table + ` (id INT, v BIGINT, name STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket.num' = '2',
		'table.datalake.enabled' = 'true', 'table.datalake.freshness' = '1s')`)
	const n = 40
	var vals []string
	for i := range n {
		vals = append(vals, fmt.Sprintf("(%d, %d, 'n%d')", i, i*10, i))
	}
	client, err := fluss.Connect(ctx, fluss.Config{BootstrapServers: realcluster.Addrs(t)})
	require.NoError(t, err)
	defer client.Close()
	path := fluss.TablePath{Database: dbName, Table: "kv"}
	tiered := func() {
		t.Helper()
		ends, err := client.Admin().ListOffsets(ctx, path, "", nil, fluss.OffsetLatest())
		require.NoError(t, err)
		want := map[fluss.TableBucket]int64{}
		for b, end := range ends {
			if end > 0 {
				want[fluss.TableBucket{PartitionID: fluss.NoPartition, Bucket: b}] = end
			}
		}
		_, err = localcluster.WaitLakeTiered(ctx, client.Admin(), path, want, 250*time.Millisecond)
		require.NoError(t, err)
	}
	// Two tiering rounds, so that the changes of the second are in newer files of the
	// buckets than the rows they change.
	exec("INSERT INTO " + table + " VALUES " + strings.Join(vals, ", "))
	tiered()
	exec("INSERT INTO " + table + " VALUES (1, 1001, 'u1'), (2, 1002, 'u2'), (3, 1003, 'u3')")
	exec("INSERT INTO " + table + " VALUES (3, 2003, 'u3 again')")
	for _, id := range []int{5, 6, 7} {
		exec(fmt.Sprintf("DELETE FROM %s WHERE id = %d", table, id))
	}
	tiered()

	lake := "`" + dbName + "`.`kv$lake`"
	var count, distinct, sum int64
	require.NoError(t, db.QueryRowContext(ctx, "SELECT COUNT(*), COUNT(DISTINCT id), SUM(v) FROM "+lake).Scan(&count, &distinct, &sum))
	wantSum := int64(10*n*(n-1)/2) - 10 - 20 - 30 + 1001 + 1002 + 2003 - 50 - 60 - 70
	assert.Equal(t, []int64{n - 3, n - 3, wantSum}, []int64{count, distinct, sum},
		"every live key once, with its latest value; the deleted keys gone")
	var v int64
	var name string
	require.NoError(t, db.QueryRowContext(ctx, "SELECT v, name FROM "+lake+" WHERE id = 3").Scan(&v, &name))
	assert.Equal(t, int64(2003), v, "the newest of two updates wins")
	assert.Equal(t, "u3 again", name)
	var deleted int64
	require.NoError(t, db.QueryRowContext(ctx, "SELECT COUNT(*) FROM "+lake+" WHERE id IN (5, 6, 7)").Scan(&deleted))
	assert.Zero(t, deleted, "a deleted key is not in the merged snapshot")

	rows, err := db.QueryContext(ctx, "EXPLAIN SELECT COUNT(*) FROM "+lake)
	require.NoError(t, err)
	files := 0
	for rows.Next() {
		var l string
		require.NoError(t, rows.Scan(&l))
		if strings.HasPrefix(strings.TrimSpace(l), "file ") {
			files++
		}
	}
	require.NoError(t, rows.Close())
	assert.Greater(t, files, 2, "two rounds into two buckets: a bucket has files of both rounds, merged on read")
}
