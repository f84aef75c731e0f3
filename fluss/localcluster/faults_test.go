package localcluster

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/internal/protocol"
	"github.com/flussql/flussql/fluss/internal/rpc"
	"github.com/flussql/flussql/fluss/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/flusstest/realcluster"
)

func TestWriteConfigsFaultOptions(t *testing.T) {
	tests := []struct {
		name     string
		spec     configSpec
		yaml, zk []string
		notYAML  []string
		notZK    []string
		wantErr  string
	}{
		{
			name:    "defaults leave ZooKeeper's session bounds alone",
			spec:    configSpec{zkPort: 1, csPort: 2, csInternalPort: 3},
			yaml:    []string{"bind.listeners: FLUSS://127.0.0.1:2\n"},
			notYAML: []string{KeyZooKeeperSessionTimeout, "internal.listener.name"},
			notZK:   []string{"tickTime", "SessionTimeout"},
		},
		{
			name: "session timeout in server.yaml and granted by ZooKeeper",
			spec: configSpec{zkPort: 1, csPort: 2, csInternalPort: 3, zkSessionTimeout: 3 * time.Second},
			yaml: []string{KeyZooKeeperSessionTimeout + ": 3000ms\n"},
			zk:   []string{"tickTime=750\n", "minSessionTimeout=1500\n", "maxSessionTimeout=60000\n"},
		},
		{
			name:    "split listeners without SASL",
			spec:    configSpec{zkPort: 1, csPort: 2, csInternalPort: 3, split: true},
			yaml:    []string{"bind.listeners: INTERNAL://127.0.0.1:3, CLIENT://127.0.0.1:2\n", "internal.listener.name: INTERNAL\n"},
			notYAML: []string{"sasl"},
		},
		{
			name:    "extra entries replace ours and are added",
			spec:    configSpec{zkPort: 1, extra: map[string]string{KeyReplicaMaxLagTime: "5s", "default.replication.factor": "3"}},
			yaml:    []string{KeyReplicaMaxLagTime + ": 5s\n", "default.replication.factor: 3\n"},
			notYAML: []string{"default.replication.factor: 1\n"},
		},
		{
			name:    "a value with # cannot be written",
			spec:    configSpec{extra: map[string]string{"a.b": "x#y"}},
			wantErr: "cannot be written",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			require.NoError(t, os.MkdirAll(filepath.Join(dir, "conf"), 0o755))
			err := writeConfigs(dir, tt.spec)
			if tt.wantErr != "" {
				require.ErrorContains(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			y, err := os.ReadFile(filepath.Join(dir, "conf", "server.yaml"))
			require.NoError(t, err)
			zk, err := os.ReadFile(filepath.Join(dir, "conf", "zookeeper.properties"))
			require.NoError(t, err)
			for _, s := range tt.yaml {
				assert.Contains(t, string(y), s)
			}
			for _, s := range tt.notYAML {
				assert.NotContains(t, string(y), s)
			}
			for _, s := range tt.zk {
				assert.Contains(t, string(zk), s)
			}
			for _, s := range tt.notZK {
				assert.NotContains(t, string(zk), s)
			}
		})
	}
}

func TestFaultControlUnknownProcess(t *testing.T) {
	c := &Cluster{Dir: "/nowhere", Procs: []Proc{{Name: "zookeeper", PID: 1 << 30}}}
	assert.Equal(t, 0, c.PID("zookeeper"), "a PID that does not exist is not running")
	assert.Equal(t, 0, c.PID("nope"))
	require.ErrorContains(t, c.Kill("nope"), "no process")
	require.NoError(t, c.Kill("zookeeper"), "killing what is not running is harmless")
	require.ErrorContains(t, c.Pause("zookeeper"), "not running")
	require.ErrorContains(t, c.Resume("nope"), "no process")
	require.ErrorContains(t, c.Restart(context.Background(), "zookeeper"), "LoadState")
	assert.Equal(t, "", c.TabletAddr(0))
}

// startFaultCluster starts a private cluster for a fault test and stops it when the test ends.
func startFaultCluster(t *testing.T, opts Options) *Cluster {
	t.Helper()
	if !realcluster.Configured() {
		t.Skip("FLUSS_BOOTSTRAP_SERVERS is unset: integration tests need Java and Maven (make test sets it)")
	}
	opts.Logf = t.Logf
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	c, err := Start(ctx, opts)
	require.NoError(t, err)
	t.Cleanup(func() {
		if t.Failed() {
			t.Log(c.logTails(30))
		}
		assert.NoError(t, c.Stop())
	})
	return c
}

// createReplicatedTable creates database.table with one bucket replicated rf times and waits
// until the bucket has a leader, which it returns.
func createReplicatedTable(ctx context.Context, t *testing.T, c *Cluster, database, table string, rf int) int {
	t.Helper()
	client, err := fluss.Connect(ctx, fluss.Config{BootstrapServers: []string{c.BootstrapServers}})
	require.NoError(t, err)
	defer client.Close()
	admin := client.Admin()
	require.NoError(t, admin.CreateDatabase(ctx, database, fluss.DatabaseDescriptor{}, true))
	require.NoError(t, admin.CreateTable(ctx, fluss.TablePath{Database: database, Table: table}, fluss.TableDescriptor{
		Schema:      types.Schema{Columns: []types.Column{{Name: "id", Type: types.NewBigInt()}}},
		BucketCount: 1,
		Properties:  map[string]string{fluss.PropReplicationFactor: fmt.Sprint(rf)},
	}, false))
	var leader int
	require.Eventually(t, func() bool {
		leader, err = c.BucketLeader(ctx, database, table, 0)
		return err == nil && leader >= 0
	}, 30*time.Second, 100*time.Millisecond, "bucket 0 of %s.%s never got a leader: %v", database, table, err)
	return leader
}

// waitNewLeader polls the coordinator until bucket 0 of database.table is led by another
// tablet server than old and returns it with the time it took.
func waitNewLeader(ctx context.Context, t *testing.T, c *Cluster, database, table string, old int, since time.Time) (int, time.Duration) {
	t.Helper()
	for {
		leader, err := c.BucketLeader(ctx, database, table, 0)
		if err == nil && leader >= 0 && leader != old {
			return leader, time.Since(since)
		}
		select {
		case <-ctx.Done():
			t.Fatalf("bucket 0 of %s.%s still led by %d (last error %v) after %s", database, table, old, err, time.Since(since))
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// TestFailoverTime measures how long after a SIGKILL of a bucket leader the coordinator
// serves another leader, with RF=3 on 3 tablet servers. It is a measurement, not a check:
// it runs only with FLUSS_MEASURE_FAILOVER set (to "default" or a session timeout like "3s").
func TestFailoverTime(t *testing.T) {
	mode := os.Getenv("FLUSS_MEASURE_FAILOVER")
	if mode == "" {
		t.Skip("FLUSS_MEASURE_FAILOVER is unset")
	}
	opts := Options{TabletServers: 3}
	if mode != "default" {
		d, err := time.ParseDuration(mode)
		require.NoError(t, err)
		opts.ZooKeeperSessionTimeout = d
	}
	c := startFaultCluster(t, opts)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	leader := createReplicatedTable(ctx, t, c, "faults", "failover", 3)
	time.Sleep(2 * time.Second) // let the followers join the ISR
	killed := time.Now()
	require.NoError(t, c.Kill(tabletName(leader)))
	next, took := waitNewLeader(ctx, t, c, "faults", "failover", leader, killed)
	t.Logf("FAILOVER session-timeout=%s: leader %d killed, leader %d served after %s", mode, leader, next, took.Round(10*time.Millisecond))
}

// procState returns the state letter of pid from /proc (R, S, T for stopped, …).
func procState(pid int) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return ""
	}
	s := string(b)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2 : i+3]
	}
	return ""
}

// TestFaultControl starts its own 3-tablet-server cluster with a short ZooKeeper session and
// relays, kills a bucket leader and sees another one elected, restarts the killed server,
// pauses and resumes another, and checks that clients see the relays in metadata throughout.
func TestFaultControl(t *testing.T) {
	c := startFaultCluster(t, Options{TabletServers: 3, ZooKeeperSessionTimeout: 3 * time.Second, Relays: true})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	checkAddrs := func(want int) {
		t.Helper()
		client, err := fluss.Connect(ctx, fluss.Config{BootstrapServers: []string{c.BootstrapServers}})
		require.NoError(t, err)
		defer client.Close()
		nodes, err := client.ServerNodes(ctx)
		require.NoError(t, err)
		got := map[int]string{}
		for _, n := range nodes {
			if n.Type == fluss.TabletServer {
				got[int(n.ID)] = n.Addr()
			}
		}
		require.Len(t, got, want, "tablet servers in metadata: %v", got)
		for id, addr := range got {
			assert.Equal(t, c.TabletAddr(id), addr, "tablet server %d", id)
			r := c.Relay(tabletName(id))
			require.NotNil(t, r)
			assert.Equal(t, r.Addr(), addr, "clients are sent to the relay of tablet server %d", id)
		}
	}
	checkAddrs(3)
	// viaRelay asks tablet server id for metadata at its client address and checks that the
	// request passed its relay.
	viaRelay := func(id int) {
		t.Helper()
		r := c.Relay(tabletName(id))
		before := r.Stats().Requests[int16(protocol.GetMetadata)]
		conn, err := rpc.Dial(ctx, c.TabletAddr(id), rpc.Options{})
		require.NoError(t, err)
		defer conn.Close()
		// A tablet server that has just (re)started answers from a metadata cache the
		// coordinator has not filled yet (no tablet servers); ask until it knows all three.
		var asked int64
		for listed := 0; listed != 3; asked++ {
			require.Less(t, asked, int64(300), "tablet server %d never listed the 3 tablet servers (last: %d)", id, listed)
			if asked > 0 {
				time.Sleep(100 * time.Millisecond)
			}
			var resp protocol.MetadataResponse
			require.NoError(t, conn.Call(ctx, protocol.GetMetadata, &protocol.MetadataRequest{}, &resp))
			listed = len(resp.GetTabletServers())
		}
		assert.Equal(t, before+asked, r.Stats().Requests[int16(protocol.GetMetadata)], "every request passed the relay")
	}
	for id := 0; id < 3; id++ {
		viaRelay(id)
	}

	leader := createReplicatedTable(ctx, t, c, "faults", "control", 3)
	time.Sleep(time.Second) // let the followers join the ISR
	name := tabletName(leader)
	oldPID := c.PID(name)
	require.NotZero(t, oldPID)
	killed := time.Now()
	require.NoError(t, c.Kill(name))
	assert.Zero(t, c.PID(name))
	assert.False(t, alive(oldPID))
	next, took := waitNewLeader(ctx, t, c, "faults", "control", leader, killed)
	t.Logf("leader %d killed; leader %d after %s", leader, next, took.Round(10*time.Millisecond))
	assert.Less(t, took, 20*time.Second)

	relayBefore := c.Relay(name)
	started := time.Now()
	require.NoError(t, c.Restart(ctx, name))
	t.Logf("%s restarted in %s", name, time.Since(started).Round(10*time.Millisecond))
	newPID := c.PID(name)
	assert.NotZero(t, newPID)
	assert.NotEqual(t, oldPID, newPID)
	assert.Same(t, relayBefore, c.Relay(name), "the relay survives the restart")
	checkAddrs(3)
	viaRelay(leader)

	other := tabletName(next)
	require.NoError(t, c.Pause(other))
	assert.Equal(t, "T", procState(c.PID(other)))
	require.NoError(t, c.Resume(other))
	assert.NotEqual(t, "T", procState(c.PID(other)))
	checkAddrs(3)
	viaRelay(next)

	// Restart of a running process: kill and start again.
	require.NoError(t, c.Restart(ctx, "coordinator"))
	checkAddrs(3)
}

// TestPausedFollowerTime measures how long after a SIGSTOP of a follower the leader shrinks
// the ISR (its "Shrink ISR" log line) or the coordinator declares the follower dead (its
// "Tablet server failure callback" line). A measurement, not a check: it runs only with
// FLUSS_MEASURE_PAUSE set to "<session timeout|default>,<log.replica.max-lag-time|default>".
func TestPausedFollowerTime(t *testing.T) {
	mode := os.Getenv("FLUSS_MEASURE_PAUSE")
	if mode == "" {
		t.Skip("FLUSS_MEASURE_PAUSE is unset")
	}
	session, lag, _ := strings.Cut(mode, ",")
	opts := Options{TabletServers: 3}
	if session != "default" {
		d, err := time.ParseDuration(session)
		require.NoError(t, err)
		opts.ZooKeeperSessionTimeout = d
	}
	if lag != "default" && lag != "" {
		opts.ServerConfig = map[string]string{KeyReplicaMaxLagTime: lag}
	}
	c := startFaultCluster(t, opts)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	leader := createReplicatedTable(ctx, t, c, "faults", "pause", 3)
	time.Sleep(2 * time.Second)
	follower := (leader + 1) % 3
	paused := time.Now()
	require.NoError(t, c.Pause(tabletName(follower)))
	leaderLog, _ := c.proc(tabletName(leader))
	coordLog, _ := c.proc("coordinator")
	b, _ := os.ReadFile(leaderLog.Log)
	shrinks := strings.Count(string(b), "Shrink ISR") // the ISR may have changed during setup
	var shrink, dead time.Duration
	for time.Since(paused) < 2*time.Minute && (shrink == 0 || dead == 0) {
		if b, _ := os.ReadFile(leaderLog.Log); shrink == 0 && strings.Count(string(b), "Shrink ISR") > shrinks {
			shrink = time.Since(paused)
		}
		if b, _ := os.ReadFile(coordLog.Log); dead == 0 && strings.Contains(string(b), fmt.Sprintf("Tablet server failure callback for %d", follower)) {
			dead = time.Since(paused)
		}
		time.Sleep(100 * time.Millisecond)
	}
	require.NoError(t, c.Resume(tabletName(follower)))
	t.Logf("PAUSE session=%s max-lag=%s: follower %d paused; leader shrank ISR after %s, coordinator declared it dead after %s (0 = not within 2 min)",
		session, lag, follower, shrink.Round(100*time.Millisecond), dead.Round(100*time.Millisecond))
}
