package authz_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/flussql/flussql/fluss/localcluster"
)

// The cluster's users: admin is the super user, alice and bob have no rights until granted.
const (
	adminPass = "admin-secret"
	alicePass = "alice-pw-3141"
	bobPass   = "bob-pw-2718"
)

// servers is the bootstrap address of the authorizing cluster, "" when the tests skip.
var servers string

// TestMain starts an authorizing cluster of its own when FLUSS_BOOTSTRAP_SERVERS is set (as
// for every integration test; the cluster it names does not authorize, so it is not used),
// or uses FLUSS_AUTHZ_BOOTSTRAP_SERVERS when that names one started with
// `fluss-local-cluster up -sasl admin:admin-secret,alice:alice-pw-3141,bob:bob-pw-2718 -authorizer`.
func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	if v := os.Getenv("FLUSS_AUTHZ_BOOTSTRAP_SERVERS"); v != "" {
		servers = v
		return m.Run()
	}
	if os.Getenv("FLUSS_BOOTSTRAP_SERVERS") == "" {
		return m.Run() // every test skips
	}
	if _, err := exec.LookPath("java"); err != nil {
		fmt.Fprintln(os.Stderr, "authz: java is not installed: cannot start the authorizing cluster")
		return 1
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	cl, err := localcluster.Start(ctx, localcluster.Options{
		SASLUsers:  map[string]string{"admin": adminPass, "alice": alicePass, "bob": bobPass},
		SuperUsers: []string{"admin"},
		Dir:        os.Getenv("FLUSS_AUTHZ_DIR"), // set it to keep the servers' logs
	})
	cancel()
	if err != nil {
		fmt.Fprintln(os.Stderr, "authz: starting the authorizing cluster:", err)
		return 1
	}
	defer func() { _ = cl.Stop() }()
	watch, stopWatch := context.WithCancel(context.Background())
	defer stopWatch()
	go cl.WatchCoordinator(watch, time.Second)
	servers = cl.BootstrapServers
	return m.Run()
}

// needCluster skips the test when there is no authorizing cluster.
func needCluster(t *testing.T) {
	t.Helper()
	if servers == "" {
		t.Skip("FLUSS_BOOTSTRAP_SERVERS is unset: the authorization tests start their own cluster only in integration runs (make test)")
	}
}
