package reliability

import (
	"context"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// reproEnv selects the reproductions of server anomalies (not in make test: on a server that
// has the anomaly they fail, which is their point).
const reproEnv = "FLUSS_RELIABILITY_REPRO"

// Anomaly 1 of issue 30, provoked: a follower's high watermark lags the leader's by up to one
// fetch round trip, a replica that becomes leader rebuilds its key-value store from its log up
// to its own high watermark (KvRecoverHelper: the rest goes to the pre-write buffer), lookups
// read the store only (KvTablet.multiGet), and the buffer is flushed only when the new leader's
// high watermark advances — which it does not while the ISR is below
// log.replica.min-in-sync-replicas-number. So: one follower frozen (the ISR shrinks to the
// leader and the other follower), upserts acknowledged, the leader SIGKILLed right after the
// last acknowledgement: the other follower leads alone, under min ISR, and (if its high
// watermark had not caught up) answers lookups with the values from before the last
// acknowledged upserts until the frozen follower comes back.
//
// The history (upserts, lookups every 100 ms through the outage, lookups after the cluster
// healed) is checked for linearizability like TestLinearizableUnderFaults. Runs only with
// FLUSS_RELIABILITY_REPRO=1 (make reliability-repro).
func TestReproStaleLookupAfterFailover(t *testing.T) {
	needCluster(t)
	if os.Getenv(reproEnv) == "" {
		t.Skipf("a reproduction of a server anomaly: runs with %s=1 (make reliability-repro)", reproEnv)
	}
	db, dbName := openDB(t, "")
	execDDL(t, db, `CREATE TABLE kv (id BIGINT NOT NULL, v BIGINT, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket.num' = '1', 'table.replication.factor' = '3')`)
	leader := leaderOf(t, dbName, "kv", 0)
	var followers []string
	for _, n := range tabletNames {
		if n != leader {
			followers = append(followers, n)
		}
	}
	h := newRegisterHistory()
	faults := &faultLog{h: h}
	l := newLedger(t)
	upsert := func(key, value int64, deadline time.Duration) outcome {
		call := h.since()
		err := l.call("upsert", deadline, func(ctx context.Context) error {
			_, err := db.ExecContext(ctx, "INSERT INTO kv VALUES (?, ?)", key, value)
			return err
		})
		o := classify(t, err)
		h.add(registerOp{Key: key, Write: true, Value: value, Outcome: o, Call: call, Return: h.since()})
		return o
	}
	lookup := func(client int, key int64) {
		call := h.since()
		v, err := lookupRegister(l, db, key, 2*time.Second)
		if err == nil {
			h.add(registerOp{Client: client, Key: key, Value: v, Call: call, Return: h.since()})
		}
	}
	const keys = 5
	for k := int64(1); k <= keys; k++ {
		require.Equal(t, acked, upsert(k, k*100, 20*time.Second))
	}
	time.Sleep(2 * time.Second) // every replica's high watermark covers the first values

	frozen, survivor := followers[1], followers[0]
	require.NoError(t, cluster.Pause(frozen))
	faults.add("SIGSTOP %s (follower)", frozen)
	// The first upsert waits for the ISR to drop the frozen follower (log.replica.max-lag-time);
	// then all keys at once, so that their records share the survivor's fetches and its high
	// watermark (learnt on its next fetch) covers none of them when the leader dies.
	require.Equal(t, acked, upsert(0, 1, 20*time.Second), "upsert with one follower frozen")
	var wg sync.WaitGroup
	for k := int64(1); k <= keys; k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if o := upsert(k, k*100+1, 20*time.Second); o != acked {
				t.Logf("upsert of key %d with one follower frozen: %s (the key is left out of the stale count)", k, o)
			}
		}()
	}
	wg.Wait()
	require.NoError(t, cluster.Kill(leader))
	faults.add("SIGKILL %s (leader) right after the last acknowledgement; %s is the survivor", leader, survivor)

	until := time.Now().Add(20 * time.Second)
	for time.Now().Before(until) {
		for k := int64(1); k <= keys; k++ {
			lookup(1, k)
		}
		time.Sleep(100 * time.Millisecond)
	}
	require.NoError(t, cluster.Resume(frozen))
	faults.add("SIGCONT %s", frozen)
	until = time.Now().Add(10 * time.Second)
	for time.Now().Before(until) {
		for k := int64(1); k <= keys; k++ {
			lookup(1, k)
		}
		time.Sleep(200 * time.Millisecond)
	}
	heal(t)
	faults.add("healed")
	for k := int64(1); k <= keys; k++ {
		lookup(2, k)
	}

	ops := h.snapshot()
	// A lookup is stale when it returns a key's first value after its second upsert was
	// acknowledged (every lookup came after the upserts returned); one that ended not written
	// (under load the ISR may not shrink within its deadline) leaves the first value right.
	second := map[int64]bool{}
	for _, op := range ops {
		if op.Write && op.Outcome == acked && op.Value%100 == 1 {
			second[op.Key] = true
		}
	}
	stale := 0
	for _, op := range ops {
		if !op.Write && op.Key > 0 && op.Value%100 == 0 && second[op.Key] {
			stale++
		}
	}
	t.Logf("faults:\n%s", faults)
	for k := int64(1); k <= keys; k++ {
		t.Logf("key %d:\n%s", k, explainKey(ops, k, 30))
	}
	l.mu.Lock()
	t.Logf("errors: %v", l.errKinds)
	l.mu.Unlock()
	for _, v := range checkRegisters(ops, time.Minute) {
		if v.Result != porcupine.Ok {
			t.Errorf("key %d is not linearizable (%s):\n%s", v.Key, v.Result, explainKey(ops, v.Key, 30))
		}
	}
	changes := readChangelog(t, db)
	final := map[int64]int64{}
	for _, op := range ops {
		if op.Client == 2 {
			final[op.Key] = op.Value
		}
	}
	for _, p := range checkChangelog(ops, changes, final) {
		t.Errorf("changelog: %s", p)
	}
	assert.Zero(t, stale, "lookups that returned a value from before an acknowledged upsert")
}
