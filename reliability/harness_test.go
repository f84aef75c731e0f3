package reliability

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"runtime/pprof"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql"
	"github.com/flussql/flussql/fluss/flusstest/realcluster"
	"github.com/flussql/flussql/fluss/localcluster"
)

// cluster is the package's own cluster: ZooKeeper, a coordinator and three tablet servers
// behind relays, with a short ZooKeeper session so that a killed server is noticed in
// seconds (the 60 s default dominates every recovery time otherwise).
var cluster *localcluster.Cluster

// long is the `make reliability` profile: longer fault windows and the soak.
var long = os.Getenv("FLUSS_RELIABILITY") == "long"

// margin is how far past its deadline a call may return.
const margin = time.Second

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	if !realcluster.Configured() {
		return m.Run() // every test skips
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	// FLUSS_RELIABILITY_KEEP_DIR keeps the run folder (configuration, data and every server's
	// log, restarted ones rotated to <name>.log.<n>) for reading after the run.
	keep := os.Getenv("FLUSS_RELIABILITY_KEEP_DIR")
	if keep != "" {
		if err := os.MkdirAll(keep, 0o755); err != nil {
			fmt.Fprintf(os.Stderr, "reliability: %v\n", err)
			return 1
		}
	}
	var err error
	cluster, err = localcluster.Start(ctx, localcluster.Options{
		Dir:                     keep,
		TabletServers:           3,
		ZooKeeperSessionTimeout: 6 * time.Second,
		// A follower that stopped fetching leaves the in-sync replicas after 5 s instead of
		// 30 s, so acks=all writes do not wait half a minute for a dead replica.
		ServerConfig: map[string]string{localcluster.KeyReplicaMaxLagTime: "5s",
			// Acknowledged means stored on two servers: with Fluss's default of 1, a write
			// acknowledged while the ISR had shrunk to the leader (a frozen and a lagging
			// follower on this loaded machine) was lost when the soak then killed that leader.
			localcluster.KeyMinInSyncReplicas: "2"},
		Relays: true,
		Logf:   func(f string, a ...any) { fmt.Fprintf(os.Stderr, f+"\n", a...) },
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "reliability: starting the fault-test cluster: %v\n", err)
		return 1
	}
	defer func() {
		if err := cluster.Stop(); err != nil {
			fmt.Fprintf(os.Stderr, "reliability: stopping the cluster: %v\n", err)
		}
	}()
	return m.Run()
}

// needCluster skips the test when no cluster runs.
func needCluster(t *testing.T) {
	t.Helper()
	if cluster == nil {
		t.Skip("FLUSS_BOOTSTRAP_SERVERS is unset: the fault tests start their own cluster only when integration tests run")
	}
}

var tabletNames = []string{"tablet-server-0", "tablet-server-1", "tablet-server-2"}

// heal brings every server back: resumes paused ones, restarts dead ones, resets relays.
func heal(t *testing.T) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	for _, name := range append([]string{"coordinator"}, tabletNames...) {
		if r := cluster.Relay(name); r != nil {
			r.Blackhole(false)
			r.RefuseNew(false)
			r.DelayResponses(0)
		}
		if cluster.PID(name) != 0 {
			_ = cluster.Resume(name)
			continue
		}
		require.NoError(t, cluster.Restart(ctx, name), "restarting %s", name)
	}
}

// openDB opens a database/sql handle on a fresh database of the cluster; params are extra
// DSN keys. The database is dropped and the handle closed when the test ends.
func openDB(t *testing.T, params string) (*sql.DB, string) {
	t.Helper()
	return openDBWith(t, params, nil)
}

// openDBWith is openDB with a last say on the driver's configuration (e.g. a Logger).
func openDBWith(t *testing.T, params string, configure func(*flussql.Config)) (*sql.DB, string) {
	t.Helper()
	name := fmt.Sprintf("rel_%s_%d", strings.ToLower(strings.ReplaceAll(t.Name(), "/", "_")), time.Now().UnixNano()%1e9)
	admin, err := sql.Open("fluss", "fluss://"+cluster.BootstrapServers+"/fluss")
	require.NoError(t, err)
	defer admin.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err = admin.ExecContext(ctx, "CREATE DATABASE "+name)
	require.NoError(t, err)
	dsn := "fluss://" + cluster.BootstrapServers + "/" + name + "?timeout=5s&connect_timeout=3s"
	if params != "" {
		dsn += "&" + params
	}
	cfg, err := flussql.ParseDSN(dsn)
	require.NoError(t, err)
	if configure != nil {
		configure(cfg)
	}
	connector, err := flussql.NewConnector(cfg)
	require.NoError(t, err)
	db := sql.OpenDB(connector)
	t.Cleanup(func() {
		db.Close()
		heal(t)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		admin, err := sql.Open("fluss", "fluss://"+cluster.BootstrapServers+"/fluss")
		if err == nil {
			_, _ = admin.ExecContext(ctx, "DROP DATABASE IF EXISTS "+name+" CASCADE")
			admin.Close()
		}
	})
	return db, name
}

// execDDL runs a statement with a generous deadline and retries while the cluster heals.
func execDDL(t *testing.T, db *sql.DB, q string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err := db.ExecContext(ctx, q)
	require.NoError(t, err, q)
}

// leaderOf waits until bucket of database.table has a leader and returns its process name.
func leaderOf(t *testing.T, database, table string, bucket int32) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for {
		id, err := cluster.BucketLeader(ctx, database, table, bucket)
		if err == nil && id >= 0 {
			return fmt.Sprintf("tablet-server-%d", id)
		}
		select {
		case <-ctx.Done():
			t.Fatalf("bucket %d of %s.%s has no leader: %v", bucket, database, table, err)
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// outcome is what a statement reported for its rows.
type outcome int

const (
	acked outcome = iota
	notWritten
	unknown
)

func (o outcome) String() string {
	return [...]string{"acknowledged", "not written", "unknown"}[o]
}

// classify maps a write statement's error to its outcome; an error that matches no outcome
// (or more than one) fails the test: the contract says every write error names one.
func classify(t *testing.T, err error) outcome {
	if err == nil {
		return acked
	}
	u, n, p := errors.Is(err, flussql.ErrOutcomeUnknown), errors.Is(err, flussql.ErrNotWritten), errors.Is(err, flussql.ErrPartiallyWritten)
	switch {
	case u && !n && !p:
		return unknown
	case n && !u && !p:
		return notWritten
	}
	t.Errorf("a write error must match exactly one outcome (unknown %v, not written %v, partial %v): %v", u, n, p, err)
	return unknown
}

// ledger records the outcome of every row and the duration of every call of a fault test.
type ledger struct {
	t        *testing.T
	mu       sync.Mutex
	rows     map[int64]outcome
	calls    int
	longest  time.Duration
	late     []string
	errKinds map[string]int
	ackTimes []time.Time // start times of acknowledged calls
}

func newLedger(t *testing.T) *ledger {
	return &ledger{t: t, rows: map[int64]outcome{}, errKinds: map[string]int{}}
}

// call runs f with a deadline and records how long it took; a call that returns later than
// deadline + margin is a failure.
func (l *ledger) call(what string, deadline time.Duration, f func(ctx context.Context) error) error {
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	start := time.Now()
	dump := time.AfterFunc(deadline+300*time.Millisecond, func() {
		if os.Getenv("FLUSS_RELIABILITY_DUMP") != "" {
			_ = pprof.Lookup("goroutine").WriteTo(os.Stderr, 1)
		}
	})
	err := f(ctx)
	dump.Stop()
	took := time.Since(start)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.calls++
	l.longest = max(l.longest, took)
	if took > deadline+margin {
		l.late = append(l.late, fmt.Sprintf("%s took %s (deadline %s): %v", what, took.Round(time.Millisecond), deadline, err))
	}
	if err != nil {
		msg := err.Error()
		if len(msg) > 120 {
			msg = msg[:120] + "…"
		}
		l.errKinds[msg]++
	}
	return err
}

// write runs one write statement for the rows ids and records their outcome.
func (l *ledger) write(db *sql.DB, deadline time.Duration, ids []int64, query string, args ...any) outcome {
	start := time.Now()
	err := l.call(query, deadline, func(ctx context.Context) error {
		_, err := db.ExecContext(ctx, query, args...)
		return err
	})
	o := classify(l.t, err)
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, id := range ids {
		if _, dup := l.rows[id]; dup {
			l.t.Errorf("row %d written twice by the test itself", id)
		}
		l.rows[id] = o
	}
	if o == acked {
		l.ackTimes = append(l.ackTimes, start)
	}
	return o
}

// recoveredAfter returns how long after at the first call that started after at was
// acknowledged (0 if none was).
func (l *ledger) recoveredAfter(at time.Time) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	first := time.Time{}
	for _, s := range l.ackTimes {
		if s.After(at) && (first.IsZero() || s.Before(first)) {
			first = s
		}
	}
	if first.IsZero() {
		return 0
	}
	return first.Sub(at)
}

// report is one line of a fault test's figures.
type report struct {
	Fault                                                   string
	Acknowledged, Stored, Lost, Duplicated, NotWritten      int
	Unknown, UnknownStored, NotWrittenStored, Calls, Errors int
	Longest, Recovery                                       time.Duration
}

// check compares the table's rows (id → times stored) with the ledger: no acknowledged row
// lost, none duplicated, no "not written" row stored, no row stored that the test never
// wrote, no call late. It logs the figures and appends them to $FLUSS_RELIABILITY_REPORT.
func (l *ledger) check(fault string, stored map[int64]int, recovery time.Duration) report {
	t := l.t
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	r := report{Fault: fault, Calls: l.calls, Longest: l.longest, Recovery: recovery}
	for id, n := range stored {
		r.Stored += n
		if n > 1 {
			r.Duplicated++
			t.Errorf("row %d stored %d times", id, n)
		}
		if _, ok := l.rows[id]; !ok {
			t.Errorf("row %d stored but never written by the test", id)
		}
	}
	for id, o := range l.rows {
		n := stored[id]
		switch o {
		case acked:
			r.Acknowledged++
			if n == 0 {
				r.Lost++
				t.Errorf("acknowledged row %d is not stored", id)
			}
		case notWritten:
			r.NotWritten++
			if n > 0 {
				r.NotWrittenStored++
				t.Errorf("row %d was reported not written but is stored", id)
			}
		case unknown:
			r.Unknown++
			if n > 0 {
				r.UnknownStored++
			}
		}
	}
	for _, n := range l.errKinds {
		r.Errors += n
	}
	for _, s := range l.late {
		t.Errorf("call overran its deadline: %s", s)
	}
	kinds := make([]string, 0, len(l.errKinds))
	for k, n := range l.errKinds {
		kinds = append(kinds, fmt.Sprintf("%4d × %s", n, k))
	}
	sort.Strings(kinds)
	t.Logf("%s: acknowledged %d, stored %d, lost %d, duplicated %d, not written %d (stored %d), unknown %d (stored %d); %d calls, longest %s, recovered after %s\nerrors:\n%s",
		fault, r.Acknowledged, r.Stored, r.Lost, r.Duplicated, r.NotWritten, r.NotWrittenStored, r.Unknown, r.UnknownStored,
		r.Calls, r.Longest.Round(time.Millisecond), r.Recovery.Round(time.Millisecond), strings.Join(kinds, "\n"))
	if path := os.Getenv("FLUSS_RELIABILITY_REPORT"); path != "" {
		if f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
			fmt.Fprintf(f, "| %s | %d | %d | %d | %d | %d | %d (%d stored) | %s | %s |\n", fault, r.Acknowledged, r.Stored, r.Lost,
				r.Duplicated, r.NotWritten, r.Unknown, r.UnknownStored, r.Longest.Round(time.Millisecond), recoveryText(r.Recovery))
			f.Close()
		}
	}
	return r
}

// recoveryText prints a recovery time, "–" where none was measured.
func recoveryText(d time.Duration) string {
	if d == 0 {
		return "–"
	}
	return d.Round(100 * time.Millisecond).String()
}

// storedIDs reads column id of table with a bounded scan, retrying while the cluster heals,
// and counts how often each id is stored.
func storedIDs(t *testing.T, db *sql.DB, query string) map[int64]int {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		got, err := readIDs(db, query)
		if err == nil {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("reading back %q: %v", query, err)
		}
		time.Sleep(500 * time.Millisecond)
	}
}

func readIDs(db *sql.DB, query string) (map[int64]int, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	rows, err := db.QueryContext(ctx, query)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64]int{}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out[id]++
	}
	return out, rows.Err()
}

// writers runs n goroutines that each call write(goroutine, i) for i = 0, 1, … until stop
// is closed, and waits for them.
func writers(n int, stop <-chan struct{}, write func(g, i int)) *sync.WaitGroup {
	var wg sync.WaitGroup
	for g := 0; g < n; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				write(g, i)
			}
		}()
	}
	return &wg
}

// after runs f after d in its own goroutine; the returned channel closes when f returned.
func after(d time.Duration, f func()) <-chan struct{} {
	done := make(chan struct{})
	go func() {
		defer close(done)
		time.Sleep(d)
		f()
	}()
	return done
}

// requireNoErr fails the test from any goroutine.
func requireNoErr(t *testing.T, err error, what string) {
	if err != nil {
		t.Errorf("%s: %v", what, err)
	}
}
