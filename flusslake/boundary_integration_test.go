package flusslake_test

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/flusstest/realcluster"
)

// TestLakeUnionReadWhileTiering reads a log table through the union read while flussql
// writes it and the tiering service commits lake snapshots under the reads: every read
// returns each row once (COUNT(*) = COUNT(DISTINCT id)) and none missing (at least the rows
// acknowledged before the read began, at most those acknowledged when it ended), across
// several lake snapshots.
func TestLakeUnionReadWhileTiering(t *testing.T) {
	lakeFormat(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	db, err := sql.Open("fluss", "fluss://"+realcluster.Addr(t)+"/fluss")
	require.NoError(t, err)
	defer db.Close()
	dbName := fmt.Sprintf("lake_bound_%d", time.Now().UnixNano()%1e9)
	_, err = db.ExecContext(ctx, "CREATE DATABASE "+dbName)
	require.NoError(t, err)
	// Not dropped: the tiering service fails for good when a table it tiers disappears.
	table := dbName + ".ev"
	_, err = db.ExecContext(ctx, `CREATE TABLE `+table+` (id INT, v BIGINT) WITH ('bucket.num' = '2',
		'table.datalake.enabled' = 'true', 'table.datalake.freshness' = '1s')`)
	require.NoError(t, err)

	client, err := fluss.Connect(ctx, fluss.Config{BootstrapServers: realcluster.Addrs(t)})
	require.NoError(t, err)
	defer client.Close()
	path := fluss.TablePath{Database: dbName, Table: "ev"}

	var acked atomic.Int64 // rows whose INSERT has returned
	done := make(chan error, 1)
	wctx, stopWriter := context.WithCancel(ctx)
	go func() {
		const batch = 40
		for n := 0; wctx.Err() == nil; n += batch {
			vals := make([]string, batch)
			for i := range vals {
				vals[i] = fmt.Sprintf("(%d, %d)", n+i, n+i)
			}
			if _, err := db.ExecContext(wctx, "INSERT INTO "+table+" VALUES "+strings.Join(vals, ", ")); err != nil {
				if wctx.Err() != nil {
					break
				}
				done <- err
				return
			}
			acked.Store(int64(n + batch))
			time.Sleep(50 * time.Millisecond)
		}
		done <- nil
	}()

	snapshots := map[int64]bool{}
	deadline := time.Now().Add(40 * time.Second)
	reads := 0
	for (len(snapshots) < 2 || reads < 10) && time.Now().Before(deadline) {
		before := acked.Load()
		var count, distinct int64
		err := db.QueryRowContext(ctx, "SELECT COUNT(*), COUNT(DISTINCT id) FROM "+table).Scan(&count, &distinct)
		require.NoError(t, err)
		after := acked.Load()
		reads++
		assert.Equal(t, count, distinct, "read %d: a row twice across the lake/log boundary", reads)
		assert.GreaterOrEqual(t, count, before, "read %d: rows acknowledged before the read are missing", reads)
		assert.LessOrEqual(t, count, after, "read %d: more rows than were written", reads)
		if snap, err := client.Admin().ReadableLakeSnapshot(ctx, path); err == nil {
			snapshots[snap.SnapshotID] = true
		}
		time.Sleep(300 * time.Millisecond)
	}
	stopWriter()
	require.NoError(t, <-done)
	t.Logf("%d reads over %d lake snapshots, %d rows written", reads, len(snapshots), acked.Load())
	assert.GreaterOrEqual(t, len(snapshots), 2, "the reads ran across lake snapshots committed under them")
}
