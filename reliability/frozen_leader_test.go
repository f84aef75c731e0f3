package reliability

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"
	"github.com/stretchr/testify/require"
)

// Anomaly 2 of issue 30, targeted: acknowledged upserts missing from the changelog after a
// bucket leader was frozen about as long as its ZooKeeper session (6 s) while writes were in
// flight. The run that showed it: the resumed leader shrank the ISR to itself (its followers
// had not fetched for longer than log.replica.max-lag-time, 5 s here, by its clock), its session
// then expired, the coordinator left the bucket leaderless (the only in-sync replica was dead),
// elected it again when it registered anew, and the replicas truncated to different offsets
// (ReplicaManager.truncateToHighWatermark on becoming follower; ReplicaFetcherThread truncating
// to the new leader's end offset "below high watermark"). There are no leader epochs in the
// log to reconcile replicas (apache/fluss#673), so a log that diverged could win.
//
// Each round freezes the bucket's leader for a length around the session timeout (5.5 s to
// 8 s; which side of the expiry it lands on depends on the load) while three goroutines upsert
// unique values into 5 keys and look them up, resumes it, and lets the cluster settle; every
// third round then SIGKILLs and restarts the leader of the moment ("after further kills"). The
// history is checked for linearizability and against kv$changelog like
// TestLinearizableUnderFaults. FLUSS_RELIABILITY_REPRO_ROUNDS sets the number of rounds (6).
// Runs only with FLUSS_RELIABILITY_REPRO=1 (make reliability-repro).
func TestReproFrozenLeaderPastSession(t *testing.T) {
	needCluster(t)
	if os.Getenv(reproEnv) == "" {
		t.Skipf("a reproduction of a server anomaly: runs with %s=1 (make reliability-repro)", reproEnv)
	}
	rounds := 6
	if v := os.Getenv("FLUSS_RELIABILITY_REPRO_ROUNDS"); v != "" {
		_, err := fmt.Sscanf(v, "%d", &rounds)
		require.NoError(t, err, "FLUSS_RELIABILITY_REPRO_ROUNDS")
	}
	started := time.Now()
	db, dbName := openDB(t, "")
	execDDL(t, db, `CREATE TABLE kv (id BIGINT NOT NULL, v BIGINT, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket.num' = '1', 'table.replication.factor' = '3')`)
	leaderOf(t, dbName, "kv", 0)
	h := newRegisterHistory()
	t.Logf("the history's clock starts at %s", h.start.Format("15:04:05.000"))
	faults := &faultLog{h: h}
	l := newLedger(t)
	const keys = 5
	var next atomic.Int64
	stop := make(chan struct{})
	clients := writers(3, stop, func(g, _ int) {
		key := rand.Int64N(keys)
		if rand.IntN(2) == 0 {
			value := next.Add(1)
			call := h.since()
			err := l.call("upsert", registerDeadline, func(ctx context.Context) error {
				_, err := db.ExecContext(ctx, "INSERT INTO kv VALUES (?, ?)", key, value)
				return err
			})
			h.add(registerOp{Client: g, Key: key, Write: true, Value: value, Outcome: classify(t, err), Call: call, Return: h.since()})
			return
		}
		call := h.since()
		got, err := lookupRegister(l, db, key, registerDeadline)
		if err == nil {
			h.add(registerOp{Client: g, Key: key, Value: got, Call: call, Return: h.since()})
		}
	})
	freezes := []time.Duration{5500 * time.Millisecond, 6 * time.Second, 6500 * time.Millisecond, 7 * time.Second, 8 * time.Second}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	time.Sleep(2 * time.Second)
	for r := range rounds {
		victim := leaderOf(t, dbName, "kv", 0)
		freeze := freezes[r%len(freezes)]
		requireNoErr(t, cluster.Pause(victim), "pause "+victim)
		faults.add("round %d: SIGSTOP %s (leader) for %s", r+1, victim, freeze)
		time.Sleep(freeze)
		requireNoErr(t, cluster.Resume(victim), "resume "+victim)
		faults.add("SIGCONT %s", victim)
		time.Sleep(8 * time.Second)
		if r%3 == 2 {
			victim = leaderOf(t, dbName, "kv", 0)
			requireNoErr(t, cluster.Kill(victim), "kill "+victim)
			faults.add("SIGKILL %s (leader)", victim)
			time.Sleep(4 * time.Second)
			requireNoErr(t, cluster.Restart(ctx, victim), "restart "+victim)
			faults.add("restarted %s", victim)
			time.Sleep(4 * time.Second)
		}
	}
	close(stop)
	clients.Wait()
	heal(t)
	faults.add("healed")
	final := lookupFinal(t, db, h, keys, 9)
	ops := h.snapshot()
	counts := map[outcome]int{}
	for _, op := range ops {
		if op.Write {
			counts[op.Outcome]++
		}
	}
	l.mu.Lock()
	t.Logf("upserts: acknowledged %d, not written %d, unknown %d; errors: %v", counts[acked], counts[notWritten], counts[unknown], l.errKinds)
	l.mu.Unlock()
	t.Logf("faults:\n%s", faults)
	bad := 0
	for _, v := range checkRegisters(ops, 2*time.Minute) {
		if v.Result != porcupine.Ok {
			bad++
			t.Errorf("key %d is not linearizable (%s):\n%s", v.Key, v.Result, explainKey(ops, v.Key, 40))
		}
	}
	changes := readChangelog(t, db)
	problems := checkChangelog(ops, changes, final)
	for _, p := range problems {
		t.Errorf("changelog: %s", p)
	}
	t.Logf("%d rounds: %d keys not linearizable, %d changes in the changelog, %d problems", rounds, bad, len(changes), len(problems))
	if bad > 0 || len(problems) > 0 {
		t.Logf("server log lines of the run:\n%s", serverLogLines(t, started, "becomes leader", "starts at leader epoch",
			"Truncat", "session", "New tablet server", "Tablet server failure", "ISR", "Isr", "Fenced", "NotEnoughReplicas"))
	}
}
