package reliability

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// soakDuration is 20 s in the short profile and 5 minutes in the long one
// (FLUSS_RELIABILITY_SOAK overrides, e.g. 30m).
func soakDuration(t *testing.T) time.Duration {
	if v := os.Getenv("FLUSS_RELIABILITY_SOAK"); v != "" {
		d, err := time.ParseDuration(v)
		require.NoError(t, err, "FLUSS_RELIABILITY_SOAK")
		return d
	}
	if long {
		return 5 * time.Minute
	}
	return 20 * time.Second
}

// Mixed inserts, upserts, lookups and scans while a fault is injected every few seconds
// (leader SIGKILL + restart, SIGSTOP, connections cut, answers delayed): no acknowledged row
// lost, none duplicated, no "not written" row stored, every call back by its deadline; after
// Close the process's goroutines and sockets are back to where they were.
func TestSoakWithFaults(t *testing.T) {
	needCluster(t)
	goroutines, sockets := runtime.NumGoroutine(), openSockets(t)
	db, dbName := openDB(t, "")
	execDDL(t, db, fmt.Sprintf(logTable, "t", 3))
	execDDL(t, db, `CREATE TABLE kv (id BIGINT NOT NULL, v BIGINT, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket.num' = '3', 'table.replication.factor' = '3')`)
	leaderOf(t, dbName, "t", 0)
	leaderOf(t, dbName, "kv", 0)

	logs, kvs := newLedger(t), newLedger(t)
	var nextLog, nextKV, lastAckedKV atomic.Int64
	var scans, scanErrs, lookups, lookupErrs atomic.Int64
	stop := make(chan struct{})
	ins := writers(3, stop, func(g, i int) {
		id := nextLog.Add(1)
		logs.write(db, 3*time.Second, []int64{id}, "INSERT INTO t VALUES (?, ?)", id, g)
	})
	ups := writers(1, stop, func(g, i int) {
		id := nextKV.Add(1)
		if kvs.write(db, 3*time.Second, []int64{id}, "INSERT INTO kv VALUES (?, ?)", id, id*7) == acked {
			lastAckedKV.Store(id)
		}
	})
	looks := writers(2, stop, func(g, i int) {
		id := lastAckedKV.Load()
		if id == 0 {
			time.Sleep(10 * time.Millisecond)
			return
		}
		var v int64
		err := kvs.call("lookup", 3*time.Second, func(ctx context.Context) error {
			return db.QueryRowContext(ctx, "SELECT v FROM kv WHERE id = ?", id).Scan(&v)
		})
		lookups.Add(1)
		switch {
		case err == nil && v != id*7:
			t.Errorf("lookup of %d returned %d", id, v)
		case errors.Is(err, sql.ErrNoRows):
			t.Errorf("acknowledged key %d not found", id)
		case err != nil:
			lookupErrs.Add(1)
		}
	})
	scan := writers(1, stop, func(g, i int) {
		err := logs.call("scan", 5*time.Second, func(ctx context.Context) error {
			rows, err := db.QueryContext(ctx, "SELECT id FROM t LIMIT 1000")
			if err != nil {
				return err
			}
			defer rows.Close()
			for rows.Next() {
			}
			return rows.Err()
		})
		scans.Add(1)
		if err != nil {
			scanErrs.Add(1)
		}
		time.Sleep(200 * time.Millisecond)
	})

	end := time.Now().Add(soakDuration(t))
	var faults []string
	for time.Now().Before(end) {
		time.Sleep(3 * time.Second)
		faults = append(faults, injectFault(t, dbName))
	}
	close(stop)
	ins.Wait()
	ups.Wait()
	looks.Wait()
	scan.Wait()
	heal(t)
	t.Logf("faults: %s; %d scans (%d failed), %d lookups (%d failed)", strings.Join(faults, ", "),
		scans.Load(), scanErrs.Load(), lookups.Load(), lookupErrs.Load())

	logs.check(fmt.Sprintf("soak %s: inserts + scans", soakDuration(t)), storedIDs(t, db, "SELECT id FROM t"), 0)
	stored := map[int64]int{}
	for id, v := range storedRows(t, db, "SELECT v FROM kv WHERE id = ?", kvs) {
		stored[id] = 1
		assert.Equal(t, id*7, v, "value of key %d", id)
	}
	kvs.check(fmt.Sprintf("soak %s: upserts + lookups", soakDuration(t)), stored, 0)

	require.NoError(t, db.Close())
	settled := time.Now().Add(15 * time.Second)
	for time.Now().Before(settled) && (runtime.NumGoroutine() > goroutines+2 || openSockets(t) > sockets) {
		time.Sleep(200 * time.Millisecond)
	}
	assert.LessOrEqual(t, runtime.NumGoroutine(), goroutines+2, "goroutines after Close (before: %d)", goroutines)
	assert.LessOrEqual(t, openSockets(t), sockets, "sockets after Close")
}

// injectFault applies one random fault to the leader of a bucket of table t, waits a little
// and undoes it; it returns its name.
func injectFault(t *testing.T, dbName string) string {
	victim := leaderOf(t, dbName, "t", int32(rand.IntN(3)))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	switch rand.IntN(4) {
	case 0:
		requireNoErr(t, cluster.Kill(victim), "kill")
		time.Sleep(2 * time.Second)
		requireNoErr(t, cluster.Restart(ctx, victim), "restart")
		return "kill " + victim
	case 1:
		requireNoErr(t, cluster.Pause(victim), "pause")
		time.Sleep(4 * time.Second)
		requireNoErr(t, cluster.Resume(victim), "resume")
		return "pause " + victim
	case 2:
		cluster.Relay(victim).Cut()
		return "cut " + victim
	default:
		r := cluster.Relay(victim)
		r.DelayResponses(1500 * time.Millisecond)
		time.Sleep(3 * time.Second)
		r.DelayResponses(0)
		return "delay " + victim
	}
}

// openSockets counts the process's open sockets (Linux).
func openSockets(t *testing.T) int {
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("cannot count sockets: %v", err)
	}
	n := 0
	for _, e := range entries {
		if target, err := os.Readlink("/proc/self/fd/" + e.Name()); err == nil && strings.HasPrefix(target, "socket:") {
			n++
		}
	}
	return n
}
