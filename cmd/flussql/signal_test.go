package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/flusstest/realcluster"
)

// TestSignalStopsLocalCluster: a shell that started its own local cluster (no DSN given) and
// is then killed with SIGTERM stops that cluster first — no server process is left running
// and its run folder is gone. It needs what the cluster needs (Java, the jars), so it runs
// where the integration tests run.
func TestSignalStopsLocalCluster(t *testing.T) {
	if !realcluster.Configured() {
		t.Skip("FLUSS_BOOTSTRAP_SERVERS is unset: this test starts a local cluster like the integration tests")
	}
	cmd := exec.Command(os.Args[0])
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "FLUSS_DSN=") && !strings.HasPrefix(kv, "FLUSS_BOOTSTRAP_SERVERS=") {
			env = append(env, kv)
		}
	}
	cmd.Env = append(env, "FLUSSQL_TEST_SHELL=real", "FLUSSQL_HISTORY="+filepath.Join(t.TempDir(), "history"))
	stdin, err := cmd.StdinPipe() // kept open: the shell waits for statements
	require.NoError(t, err)
	defer stdin.Close()
	stderr, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	defer func() { _ = cmd.Process.Kill() }()

	folder := make(chan string, 1)
	go func() {
		re := regexp.MustCompile(`\(run folder (\S+)\); it stops when the shell exits`)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				folder <- m[1]
			}
		}
	}()
	var dir string
	select {
	case dir = <-folder:
	case <-time.After(2 * time.Minute):
		t.Fatal("the shell did not report a started local cluster within 2 minutes")
	}
	require.NotEmpty(t, serverPIDs(dir), "the cluster's servers run")

	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	err = cmd.Wait()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit)
	assert.Equal(t, 128+int(syscall.SIGTERM), exit.ExitCode())
	assert.Empty(t, serverPIDs(dir), "no server of the shell's cluster is left running")
	_, err = os.Stat(dir)
	assert.True(t, os.IsNotExist(err), "the run folder %s is removed", dir)
}

// serverPIDs lists the processes whose command line names dir (the cluster's servers).
func serverPIDs(dir string) []string {
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	var out []string
	for _, p := range procs {
		b, err := os.ReadFile(p)
		if err == nil && strings.Contains(string(b), dir) {
			out = append(out, filepath.Base(filepath.Dir(p)))
		}
	}
	return out
}
