package reliability

import (
	"bufio"
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Anomaly 1 of issue 30, in its smallest form: a deposed leader answers lookups. A tablet
// server learns that it lost a bucket's leadership only from the coordinator
// (NotifyLeaderAndIsr); when its ZooKeeper session expired the server merely registers again
// (ZooKeeperUtils' session re-init listener), and a lookup is answered by whichever replica
// believes itself leader (Replica.lookups checks isLeader(), the request carries no leader
// epoch). So: the leader of a bucket frozen past the ZooKeeper session, the coordinator elects
// another, upserts are acknowledged by it, the coordinator is killed, the old leader resumes —
// and nothing tells it. It answers metadata from its own cache (itself as leader, at the old
// epoch) and lookups from its own store: a client that asks it (here a fresh one bootstrapped
// on it and cut off from the other servers, which has no epoch to compare) reads the values
// from before the acknowledged upserts.
//
// Runs only with FLUSS_RELIABILITY_REPRO=1 (make reliability-repro); it fails where the server
// has the anomaly (0.9.1).
func TestReproDeposedLeaderLookup(t *testing.T) {
	needCluster(t)
	if os.Getenv(reproEnv) == "" {
		t.Skipf("a reproduction of a server anomaly: runs with %s=1 (make reliability-repro)", reproEnv)
	}
	started := time.Now()
	db, dbName := openDB(t, "")
	execDDL(t, db, `CREATE TABLE kv (id BIGINT NOT NULL, v BIGINT, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket.num' = '1', 'table.replication.factor' = '3')`)
	oldName := leaderOf(t, dbName, "kv", 0)
	var oldID int
	_, err := fmt.Sscanf(oldName, "tablet-server-%d", &oldID)
	require.NoError(t, err)
	h := newRegisterHistory()
	faults := &faultLog{h: h}
	l := newLedger(t)
	upsert := func(on *sql.DB, key, value int64) outcome {
		call := h.since()
		err := l.call("upsert", 30*time.Second, func(ctx context.Context) error {
			_, err := on.ExecContext(ctx, "INSERT INTO kv VALUES (?, ?)", key, value)
			return err
		})
		o := classify(t, err)
		h.add(registerOp{Key: key, Write: true, Value: value, Outcome: o, Call: call, Return: h.since()})
		return o
	}
	lookup := func(client int, on *sql.DB, key int64) {
		call := h.since()
		v, err := lookupRegister(l, on, key, 3*time.Second)
		if err == nil {
			h.add(registerOp{Client: client, Key: key, Value: v, Call: call, Return: h.since()})
		}
	}
	metadata := func(from string, addr string) string {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		leader, epoch, err := cluster.BucketLeaderFrom(ctx, addr, dbName, "kv", 0)
		if err != nil {
			return fmt.Sprintf("%s: %v", from, err)
		}
		return fmt.Sprintf("%s says leader %d at epoch %d", from, leader, epoch)
	}
	const keys = 5
	for k := int64(1); k <= keys; k++ {
		require.Equal(t, acked, upsert(db, k, k*100))
	}
	time.Sleep(2 * time.Second) // every replica's high watermark covers the first values
	faults.add("%s", metadata("coordinator", cluster.BootstrapServers))

	require.NoError(t, cluster.Pause(oldName))
	faults.add("SIGSTOP %s (leader of the bucket), past the 6 s ZooKeeper session", oldName)
	newID := -1
	deadline := time.Now().Add(time.Minute)
	for newID < 0 || newID == oldID {
		require.True(t, time.Now().Before(deadline), "no new leader elected while %s is frozen", oldName)
		time.Sleep(200 * time.Millisecond)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		newID, _, _ = cluster.BucketLeaderFrom(ctx, cluster.BootstrapServers, dbName, "kv", 0)
		cancel()
	}
	faults.add("%s", metadata("coordinator", cluster.BootstrapServers))
	// A client opened now learns the new leader from the coordinator (db's first attempt would
	// go to the frozen one, and end unknown).
	writer, err := sql.Open("fluss", "fluss://"+cluster.BootstrapServers+"/"+dbName+"?timeout=5s&connect_timeout=3s")
	require.NoError(t, err)
	defer writer.Close()
	for k := int64(1); k <= keys; k++ {
		require.Equal(t, acked, upsert(writer, k, k*100+1), "upsert of key %d on the new leader", k)
	}
	for k := int64(1); k <= keys; k++ {
		lookup(2, db, k) // db learns the new leader (and its epoch)
	}
	faults.add("upserts acknowledged by tablet-server-%d", newID)

	require.NoError(t, cluster.Kill("coordinator"))
	faults.add("SIGKILL coordinator")
	require.NoError(t, cluster.Resume(oldName))
	faults.add("SIGCONT %s", oldName)
	oldAddr := cluster.TabletAddr(oldID)
	deadline = time.Now().Add(30 * time.Second)
	for {
		answer := metadata(oldName, oldAddr)
		if !strings.Contains(answer, ":") || time.Now().After(deadline) {
			faults.add("%s", answer)
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	faults.add("%s", metadata(fmt.Sprintf("tablet-server-%d", newID), cluster.TabletAddr(newID)))

	// A client that has seen nothing yet, bootstrapped on the resumed server, which can open
	// no new connection to the other tablet servers (their relays refuse new connections; the
	// writers' client keeps the ones it has): it asks the resumed server for metadata, as any
	// client may that picks it.
	for _, n := range tabletNames {
		if n != oldName {
			cluster.Relay(n).RefuseNew(true)
		}
	}
	fresh, err := sql.Open("fluss", "fluss://"+oldAddr+"/"+dbName+"?timeout=5s&connect_timeout=3s")
	require.NoError(t, err)
	defer fresh.Close()
	until := time.Now().Add(5 * time.Second)
	for time.Now().Before(until) {
		for k := int64(1); k <= keys; k++ {
			lookup(1, fresh, k)
			lookup(2, db, k)
		}
		time.Sleep(100 * time.Millisecond)
	}
	for _, n := range tabletNames {
		cluster.Relay(n).RefuseNew(false)
	}
	faults.add("lookups done; restarting the coordinator")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	require.NoError(t, cluster.Restart(ctx, "coordinator"))
	faults.add("restarted coordinator")
	heal(t)
	time.Sleep(3 * time.Second)
	faults.add("%s", metadata(oldName, oldAddr))
	for k := int64(1); k <= keys; k++ {
		lookup(3, db, k)
	}

	ops := h.snapshot()
	stale := map[int]int{}
	answered := map[int]int{}
	for _, op := range ops {
		if !op.Write {
			answered[op.Client]++
			if op.Value%100 == 0 {
				stale[op.Client]++ // every lookup came after the second upserts were acknowledged
			}
		}
	}
	t.Logf("faults:\n%s", faults)
	t.Logf("lookups answered (stale): fresh client on %s %d (%d), the writers' client %d (%d), after the coordinator came back %d (%d)",
		oldName, answered[1], stale[1], answered[2], stale[2], answered[3], stale[3])
	t.Logf("server log lines of the run:\n%s", serverLogLines(t, started, "becomes leader", "starts at leader epoch",
		"Truncating", "session", "New tablet server", "Tablet server failure", "leader election", "Fenced", "Shrink", "shrink", "LeaderAndIsr"))
	for _, v := range checkRegisters(ops, time.Minute) {
		if v.Result != porcupine.Ok {
			t.Errorf("key %d is not linearizable (%s):\n%s", v.Key, v.Result, explainKey(ops, v.Key, 30))
		}
	}
	assert.Zero(t, stale[1]+stale[2]+stale[3], "lookups that returned a value from before an acknowledged upsert")
}

// serverLogLines returns the lines of every server log of the cluster (restarted servers'
// rotated logs included) written since start that contain one of words, each prefixed with its
// server, sorted by time. The logs' times are HH:mm:ss,SSS local time of today.
func serverLogLines(t *testing.T, start time.Time, words ...string) string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(cluster.Dir, "log", "*.log*"))
	from := start.Format("15:04:05")
	var out []string
	for _, f := range files {
		server := strings.TrimSuffix(filepath.Base(f), filepath.Ext(f))
		server = strings.TrimSuffix(server, ".log")
		fh, err := os.Open(f)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			if len(line) < 12 || line[:8] < from || line[2] != ':' {
				continue
			}
			for _, w := range words {
				if strings.Contains(line, w) {
					if len(line) > 400 {
						line = line[:400] + "…"
					}
					out = append(out, line[:12]+" "+server+" "+line[13:])
					break
				}
			}
		}
		fh.Close()
	}
	sort.Strings(out)
	return strings.Join(out, "\n")
}
