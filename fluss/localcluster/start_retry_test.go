package localcluster

import (
	"context"
	"net"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/flusstest/realcluster"
)

// TestStartRetriesTakenPort: a port chosen for the coordinator is taken by another process
// before the coordinator binds it (as when clusters start side by side); Start notices
// "Address already in use" and starts the cluster again on new ports.
func TestStartRetriesTakenPort(t *testing.T) {
	if !realcluster.Configured() {
		t.Skip("FLUSS_BOOTSTRAP_SERVERS is unset: integration tests need Java and Maven (make test sets it)")
	}
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer taken.Close()
	calls := 0
	pickPorts = func(n int) ([]int, error) {
		calls++
		ports, err := freePorts(n)
		if err == nil && calls == 1 {
			ports[1] = taken.Addr().(*net.TCPAddr).Port // the coordinator's client port
		}
		return ports, err
	}
	t.Cleanup(func() { pickPorts = freePorts })
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	c, err := Start(ctx, Options{Logf: t.Logf})
	require.NoError(t, err, "started on the second ports")
	defer func() { assert.NoError(t, c.Stop()) }()
	assert.Equal(t, 2, calls, "one start refused by the taken port, one on new ports")
	assert.NotEqual(t, taken.Addr().String(), c.BootstrapServers)
}
