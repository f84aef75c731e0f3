package fluss_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/flusstest/realcluster"
)

// bootstrap returns FLUSS_BOOTSTRAP_SERVERS or skips the test.
func bootstrap(t *testing.T) []string {
	t.Helper()
	v := realcluster.Addr(t)
	return strings.Split(v, ",")
}

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// connect opens a client to the test cluster, closed when the test ends.
func connect(t *testing.T) *fluss.Client {
	t.Helper()
	c, err := fluss.Connect(testCtx(t), fluss.Config{BootstrapServers: bootstrap(t), RequestTimeout: 20 * time.Second})
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	return c
}

// uniqueName returns a name no other test run uses.
func uniqueName(prefix string) string {
	return fmt.Sprintf("%s_%d_%04d", prefix, time.Now().UnixNano()%1e10, rand.IntN(10000))
}

// tempDatabase creates a database dropped (with its tables) when the test ends.
func tempDatabase(t *testing.T, admin *fluss.Admin) string {
	t.Helper()
	name := uniqueName("it")
	require.NoError(t, admin.CreateDatabase(testCtx(t), name, fluss.DatabaseDescriptor{Comment: "flussql test"}, false))
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_ = admin.DropDatabase(ctx, name, true, true)
	})
	return name
}

// runPython runs testdata/interop/<script> with the official Python client
// against the test cluster and returns its standard output. It skips the
// test when python3, pyfluss or pyarrow is missing.
func runPython(t *testing.T, script string, args ...string) []byte {
	t.Helper()
	servers := bootstrap(t)
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed: skipping the pyfluss interop test")
	}
	if err := exec.Command("python3", "-c", "import fluss, pyarrow; fluss.FlussConnection").Run(); err != nil {
		t.Skip("pyfluss or pyarrow is not installed (pip install -r testdata/interop/requirements.txt): skipping the interop test")
	}
	path, err := filepath.Abs(filepath.Join("testdata", "interop", script))
	require.NoError(t, err)
	cmd := exec.CommandContext(testCtx(t), "python3", append([]string{path}, args...)...)
	cmd.Env = append(os.Environ(), "FLUSS_BOOTSTRAP_SERVERS="+strings.Join(servers, ","))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "%s %v: %s", script, args, stderr.String())
	return out
}

// serverVersion returns the release line of the test cluster, detected from its ApiVersions
// answers. When the launcher said what it ran (FLUSS_SERVER_VERSION), the two must agree.
func serverVersion(t *testing.T, c *fluss.Client) fluss.ServerVersion {
	t.Helper()
	v, err := c.ServerVersion(testCtx(t))
	require.NoError(t, err)
	if launched := os.Getenv("FLUSS_SERVER_VERSION"); launched != "" {
		want, err := fluss.ParseServerVersion(launched)
		require.NoError(t, err)
		require.Equal(t, want, v, "detected from ApiVersions vs FLUSS_SERVER_VERSION=%s", launched)
	}
	return v
}
