package localcluster

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/flusstest/realcluster"
)

func TestJAASConfig(t *testing.T) {
	tests := []struct {
		name    string
		users   map[string]string
		want    string
		wantErr string
	}{
		{
			name:  "users sorted by name",
			users: map[string]string{"bob": "b-pw", "alice": "a-pw"},
			want:  `org.apache.fluss.security.auth.sasl.plain.PlainLoginModule required user_alice="a-pw" user_bob="b-pw";`,
		},
		{name: "hash would start a yaml comment", users: map[string]string{"a": "x#y"}, wantErr: "free of #"},
		{name: "quote would end the jaas string", users: map[string]string{"a": `x"y`}, wantErr: "free of #"},
		{name: "empty password", users: map[string]string{"a": ""}, wantErr: "non-empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := jaasConfig(tt.users)
			if tt.wantErr != "" {
				require.ErrorContains(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestWriteConfigs(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "conf"), 0o755))
	require.NoError(t, writeConfigs(dir, configSpec{zkPort: 2181, csPort: 9123, csInternalPort: 9122, sasl: map[string]string{"admin": "secret"}}))
	y, err := os.ReadFile(filepath.Join(dir, "conf", "server.yaml"))
	require.NoError(t, err)
	s := string(y)
	assert.Contains(t, s, "zookeeper.address: 127.0.0.1:2181\n")
	assert.Contains(t, s, "bind.listeners: INTERNAL://127.0.0.1:9122, CLIENT://127.0.0.1:9123\n")
	assert.Contains(t, s, "security.protocol.map: CLIENT:sasl\n")
	assert.Contains(t, s, "remote.data.dir: "+filepath.Join(dir, "remote")+"\n")
	zk, err := os.ReadFile(filepath.Join(dir, "conf", "zookeeper.properties"))
	require.NoError(t, err)
	assert.Contains(t, string(zk), "clientPortAddress=127.0.0.1\n")

	require.NoError(t, writeConfigs(dir, configSpec{zkPort: 2181, csPort: 9123, csInternalPort: 9122}))
	y, err = os.ReadFile(filepath.Join(dir, "conf", "server.yaml"))
	require.NoError(t, err)
	assert.Contains(t, string(y), "bind.listeners: FLUSS://127.0.0.1:9123\n")
	assert.NotContains(t, string(y), "sasl")
	assert.NotContains(t, string(y), KeyLogSegmentFileSize, "the default cluster keeps 1 GiB segments")
	assert.NotContains(t, string(y), KeyRemoteLogTaskInterval)

	require.NoError(t, writeConfigs(dir, configSpec{zkPort: 2181, csPort: 9123, csInternalPort: 9122, tiering: true,
		extra: map[string]string{KeyLogSegmentFileSize: "1mb"}}))
	y, err = os.ReadFile(filepath.Join(dir, "conf", "server.yaml"))
	require.NoError(t, err)
	assert.Contains(t, string(y), "remote.log.task-interval-duration: 1000ms\n")
	assert.Contains(t, string(y), "log.segment.file-size: 1mb\n", "ServerConfig wins over LogTiering")
}

func TestStateRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	c := &Cluster{BootstrapServers: "127.0.0.1:1", Version: "v", Dir: "/nowhere", ownDir: true,
		Procs: []Proc{{Name: "zookeeper", PID: 1 << 30, Log: "/nowhere/log/zk.log"}}}
	require.NoError(t, c.SaveState(path))
	got, err := LoadState(path)
	require.NoError(t, err)
	assert.Equal(t, c.BootstrapServers, got.BootstrapServers)
	assert.Equal(t, c.Procs, got.Procs)
	assert.True(t, got.ownDir)
	assert.False(t, got.Running(), "a PID that does not exist is not running")

	_, err = LoadState(filepath.Join(t.TempDir(), "missing.json"))
	require.ErrorContains(t, err, "no cluster was started")
}

// TestStartStop starts a second, private cluster (the test run's own cluster is not touched),
// checks that every server is alive and the coordinator accepts connections, then stops it and
// checks that every process is gone and the run folder removed.
func TestStartStop(t *testing.T) {
	if !realcluster.Configured() {
		t.Skip("FLUSS_BOOTSTRAP_SERVERS is unset: integration tests need Java and Maven (make test sets it)")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	started := time.Now()
	c, err := Start(ctx, Options{Logf: t.Logf})
	require.NoError(t, err)
	t.Logf("started in %s", time.Since(started))
	require.True(t, c.Running())
	require.Len(t, c.Procs, 3)
	assert.True(t, strings.HasPrefix(c.BootstrapServers, "127.0.0.1:"))
	for _, p := range c.Procs {
		if rss := rssKiB(p.PID); rss > 0 {
			t.Logf("%s pid %d rss %d MiB", p.Name, p.PID, rss/1024)
		}
	}
	procs, dir := c.Procs, c.Dir
	require.NoError(t, c.Stop())
	for _, p := range procs {
		assert.False(t, alive(p.PID), "%s (pid %d) still alive after Stop", p.Name, p.PID)
	}
	_, err = os.Stat(dir)
	assert.True(t, os.IsNotExist(err), "run folder %s not removed", dir)
	require.NoError(t, c.Stop(), "a second Stop is harmless")
}

func rssKiB(pid int) int {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "status"))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
			n, _ := strconv.Atoi(f[1])
			return n
		}
	}
	return 0
}
