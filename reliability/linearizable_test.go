package reliability

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql"
)

// The registers table of the linearizability test: few keys, so that each is written and read
// often, over four buckets with three replicas.
const (
	registerKeys    = 20
	registerBuckets = 4
	registersTable  = `CREATE TABLE kv (id BIGINT NOT NULL, v BIGINT, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket.num' = '4', 'table.replication.factor' = '3')`
	// registerClients is the number of goroutines that upsert and look keys up.
	registerClients = 6
	// registerDeadline is every upsert's and lookup's deadline.
	registerDeadline = 3 * time.Second
)

// linearRuns is how many runs TestLinearizableUnderFaults makes: 1 in the short profile, 6 in
// the long one, FLUSS_RELIABILITY_LINEAR_RUNS when set.
func linearRuns(t *testing.T) int {
	if v := os.Getenv("FLUSS_RELIABILITY_LINEAR_RUNS"); v != "" {
		n, err := strconv.Atoi(v)
		require.NoError(t, err, "FLUSS_RELIABILITY_LINEAR_RUNS")
		return n
	}
	if long {
		return 6
	}
	return 1
}

// Jepsen-style: six goroutines upsert unique values into 20 keys and look keys up, each call
// with a 3 s deadline, while a bucket leader is SIGKILLed and restarted, another bucket's leader
// is frozen (SIGSTOP) and the coordinator is killed and restarted. Then:
//   - every key's history of upserts and lookups, plus a lookup of each key after the cluster
//     healed, is linearizable as a register (checkRegisters: an acknowledged upsert took effect
//     between its call and return, an unknown one at most once after its call, a not-written
//     one never);
//   - the table's changelog agrees (checkChangelog: every acknowledged upsert in it once, no
//     not-written one, unknown ones at most once, before images chained);
//   - every call returned within its deadline + 1 s.
func TestLinearizableUnderFaults(t *testing.T) {
	needCluster(t)
	for i := range linearRuns(t) {
		t.Run(fmt.Sprintf("run%d", i+1), linearizableRun)
	}
}

// faultLog records what a run did to the cluster, with times on the history's clock.
type faultLog struct {
	h     *registerHistory
	mu    sync.Mutex
	lines []string
}

func (f *faultLog) add(format string, args ...any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.lines = append(f.lines, fmt.Sprintf("%8.3fs ", f.h.since().Seconds())+fmt.Sprintf(format, args...))
}

// Write takes one slog record (the client's log handler writes a record per call).
func (f *faultLog) Write(p []byte) (int, error) {
	f.add("%s", strings.TrimSpace(string(p)))
	return len(p), nil
}

// matching returns the lines that contain one of words.
func (f *faultLog) matching(words ...string) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for _, l := range f.lines {
		for _, w := range words {
			if strings.Contains(l, w) {
				out = append(out, l)
				break
			}
		}
	}
	return strings.Join(out, "\n")
}

// count returns how many lines contain word.
func (f *faultLog) count(word string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, l := range f.lines {
		if strings.Contains(l, word) {
			n++
		}
	}
	return n
}

func (f *faultLog) String() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return strings.Join(f.lines, "\n")
}

func linearizableRun(t *testing.T) {
	h := newRegisterHistory()
	// The servers' logs carry wall-clock times: this maps the history's clock onto them.
	t.Logf("the history's clock starts at %s (UTC %s)", h.start.Format("15:04:05.000"), h.start.UTC().Format("15:04:05.000"))
	faults := &faultLog{h: h}
	// The client's own account of leader changes and metadata refreshes, on the history's
	// clock: printed when a key is not linearizable, to tell a server's answer from a routing one.
	client := &faultLog{h: h}
	db, dbName := openDBWith(t, "", func(c *flussql.Config) {
		c.Logger = slog.New(slog.NewTextHandler(client, &slog.HandlerOptions{Level: slog.LevelDebug,
			ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
				if a.Key == slog.TimeKey {
					return slog.Attr{}
				}
				return a
			}}))
	})
	execDDL(t, db, registersTable)
	for b := range int32(registerBuckets) {
		leaderOf(t, dbName, "kv", b)
	}
	l := newLedger(t)
	var nextValue atomic.Int64
	var readErrs, writes, reads atomic.Int64
	stop := make(chan struct{})
	clients := writers(registerClients, stop, func(g, i int) {
		key := rand.Int64N(registerKeys)
		if rand.IntN(3) == 0 {
			value := nextValue.Add(1)
			call := h.since()
			err := l.call("upsert", registerDeadline, func(ctx context.Context) error {
				_, err := db.ExecContext(ctx, "INSERT INTO kv VALUES (?, ?)", key, value)
				return err
			})
			ret := h.since()
			h.add(registerOp{Client: g, Key: key, Write: true, Value: value, Outcome: classify(t, err), Call: call, Return: ret})
			writes.Add(1)
			return
		}
		call := h.since()
		got, err := lookupRegister(l, db, key, registerDeadline)
		ret := h.since()
		if err != nil {
			readErrs.Add(1) // a failed lookup observed nothing
			return
		}
		reads.Add(1)
		h.add(registerOp{Client: g, Key: key, Value: got, Call: call, Return: ret})
	})

	injectRegisterFaults(t, dbName, faults)
	close(stop)
	clients.Wait()
	heal(t)
	faults.add("healed")

	// A lookup of every key after the cluster healed, into the history: it must see the last
	// acknowledged upsert (or a later unknown one).
	final := lookupFinal(t, db, h, registerKeys, registerClients)

	ops := h.snapshot()
	counts := map[outcome]int{}
	for _, op := range ops {
		if op.Write {
			counts[op.Outcome]++
		}
	}
	l.mu.Lock()
	for _, s := range l.late {
		t.Errorf("call overran its deadline: %s", s)
	}
	kinds := make([]string, 0, len(l.errKinds))
	for k, n := range l.errKinds {
		kinds = append(kinds, fmt.Sprintf("%5d × %s", n, k))
	}
	longest := l.longest
	l.mu.Unlock()
	sort.Strings(kinds)
	t.Logf("%d upserts (acknowledged %d, not written %d, unknown %d), %d lookups answered, %d failed; longest call %s\nfaults:\n%s\nerrors:\n%s",
		writes.Load(), counts[acked], counts[notWritten], counts[unknown], reads.Load(), readErrs.Load(),
		longest.Round(time.Millisecond), faults, strings.Join(kinds, "\n"))

	checkStart := time.Now()
	verdicts := checkRegisters(ops, 2*time.Minute)
	bad := 0
	for _, v := range verdicts {
		if v.Result == porcupine.Ok {
			continue
		}
		bad++
		where := ""
		if path, err := visualize(os.TempDir(), v); err == nil {
			where = " (porcupine's view: " + path + ")"
		}
		what := "is not linearizable"
		if v.Result == porcupine.Unknown {
			what = "could not be checked within 2 minutes"
		}
		t.Errorf("key %d (%d calls) %s%s; its writes and changing lookups:\n%s", v.Key, v.Ops, what, where, explainKey(ops, v.Key, 40))
	}
	stale := client.count("older than one already seen")
	what := "refused"
	if os.Getenv("FLUSSQL_EXPERIMENT_NO_EPOCH_GUARD") == "1" {
		what = "used (the guard off)"
	}
	t.Logf("linearizability: %d keys checked in %s, %d not linearizable; the client saw %d leader changes and %s %d stale leaders",
		len(verdicts), time.Since(checkStart).Round(time.Millisecond), bad,
		client.count("bucket leader changed"), what, stale)
	if stale > 0 {
		t.Logf("stale leaders named by metadata, with the refresh before each:\n%s", client.matching("older than one already seen", "metadata refreshed"))
	}
	assert.Positive(t, counts[acked], "no upsert was acknowledged")
	if bad > 0 {
		if f, err := os.CreateTemp("", "linearizability-history-*.json"); err == nil {
			_ = json.NewEncoder(f).Encode(ops)
			f.Close()
			t.Logf("the history: %s", f.Name())
		}
		t.Logf("faults of the run:\n%s\nthe client's leader changes and metadata refreshes:\n%s", faults, client.matching("leader changed", "metadata refreshed"))
	}

	changes := readChangelog(t, db)
	problems := checkChangelog(ops, changes, final)
	for _, p := range problems {
		t.Errorf("changelog: %s", p)
	}
	t.Logf("changelog: %d changes, %d problems", len(changes), len(problems))
	guard := "on"
	if os.Getenv("FLUSSQL_EXPERIMENT_NO_EPOCH_GUARD") == "1" {
		guard = "off"
	}
	load, _ := os.ReadFile("/proc/loadavg")
	appendReport(fmt.Sprintf("| linearizability run, Fluss %s, epoch guard %s | %d (%d/%d/%d) | %d | %d of %d | %d | %d | %s | %s |",
		cluster.Version, guard, writes.Load(), counts[acked], counts[notWritten], counts[unknown], reads.Load(), bad, len(verdicts),
		len(problems), stale, longest.Round(time.Millisecond), strings.Join(strings.Fields(string(load))[:min(3, len(strings.Fields(string(load))))], " ")))
}

// appendReport appends a line to $FLUSS_RELIABILITY_REPORT when it is set. The linearizability
// runs' columns: run | upserts (acknowledged/not written/unknown) | lookups answered | keys not
// linearizable | changelog problems | stale leaders named by metadata | longest call | load
// average (1, 5, 15 min) at the end of the run.
func appendReport(line string) {
	path := os.Getenv("FLUSS_RELIABILITY_REPORT")
	if path == "" {
		return
	}
	if f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
		fmt.Fprintln(f, line)
		f.Close()
	}
}

// lookupFinal looks every key up once more after the cluster healed (retrying for up to a
// minute), records each lookup in h as client's, and returns the values: the last
// acknowledged upsert of each key (or a later unknown one) is what they must see.
func lookupFinal(t *testing.T, db *sql.DB, h *registerHistory, keys, client int) map[int64]int64 {
	t.Helper()
	final := map[int64]int64{}
	for key := range int64(keys) {
		deadline := time.Now().Add(time.Minute)
		for {
			call := h.since()
			got, err := lookupRegister(nil, db, key, 10*time.Second)
			if err == nil {
				final[key] = got
				h.add(registerOp{Client: client, Key: key, Value: got, Call: call, Return: h.since()})
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("looking up key %d after the run: %v", key, err)
			}
			time.Sleep(200 * time.Millisecond)
		}
	}
	return final
}

// lookupRegister looks key up within deadline (timed by l when not nil) and returns its value,
// 0 when the key has no row.
func lookupRegister(l *ledger, db *sql.DB, key int64, deadline time.Duration) (int64, error) {
	var v sql.NullInt64
	f := func(ctx context.Context) error {
		err := db.QueryRowContext(ctx, "SELECT v FROM kv WHERE id = ?", key).Scan(&v)
		if errors.Is(err, sql.ErrNoRows) {
			v = sql.NullInt64{}
			return nil
		}
		return err
	}
	var err error
	if l != nil {
		err = l.call("lookup", deadline, f)
	} else {
		ctx, cancel := context.WithTimeout(context.Background(), deadline)
		err = f(ctx)
		cancel()
	}
	return v.Int64, err
}

// injectRegisterFaults runs the faults of issue 30, each logged: the leader of a random bucket
// SIGKILLed and restarted later, the leader of another bucket frozen, the coordinator killed and
// restarted; it returns when the last one is undone and the clients ran a little longer.
func injectRegisterFaults(t *testing.T, dbName string, faults *faultLog) {
	killFor, freezeFor := 8*time.Second, 5*time.Second
	if long {
		killFor, freezeFor = 10*time.Second, 7*time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	time.Sleep(2 * time.Second)

	b := int32(rand.IntN(registerBuckets))
	victim := leaderOf(t, dbName, "kv", b)
	requireNoErr(t, cluster.Kill(victim), "kill "+victim)
	faults.add("SIGKILL %s (leader of bucket %d)", victim, b)
	time.Sleep(killFor)
	requireNoErr(t, cluster.Restart(ctx, victim), "restart "+victim)
	faults.add("restarted %s", victim)
	time.Sleep(2 * time.Second)

	b = (b + 1 + int32(rand.IntN(registerBuckets-1))) % registerBuckets
	victim = leaderOf(t, dbName, "kv", b)
	requireNoErr(t, cluster.Pause(victim), "pause "+victim)
	faults.add("SIGSTOP %s (leader of bucket %d)", victim, b)
	time.Sleep(freezeFor)
	requireNoErr(t, cluster.Resume(victim), "resume "+victim)
	faults.add("SIGCONT %s", victim)
	time.Sleep(2 * time.Second)

	requireNoErr(t, cluster.Kill("coordinator"), "kill coordinator")
	faults.add("SIGKILL coordinator")
	time.Sleep(3 * time.Second)
	requireNoErr(t, cluster.Restart(ctx, "coordinator"), "restart coordinator")
	faults.add("restarted coordinator")
	time.Sleep(3 * time.Second)
	faults.add("clients stop")
}

// readChangelog reads the whole of kv$changelog (a bounded scan up to the end offsets when it
// starts), retrying while the cluster settles.
func readChangelog(t *testing.T, db *sql.DB) []changeRow {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		changes, err := func() ([]changeRow, error) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			rows, err := db.QueryContext(ctx, "SELECT _change_type, _log_offset, id, v FROM kv$changelog")
			if err != nil {
				return nil, err
			}
			defer rows.Close()
			var out []changeRow
			for rows.Next() {
				var c changeRow
				var v sql.NullInt64
				if err := rows.Scan(&c.Kind, &c.Offset, &c.Key, &v); err != nil {
					return nil, err
				}
				c.Value = v.Int64
				out = append(out, c)
			}
			return out, rows.Err()
		}()
		if err == nil {
			return changes
		}
		if time.Now().After(deadline) {
			t.Fatalf("reading kv$changelog: %v", err)
		}
		time.Sleep(500 * time.Millisecond)
	}
}
