// Package realcluster gives integration tests the address of the real Fluss cluster they run
// against: the one named by FLUSS_BOOTSTRAP_SERVERS (make test and
// `go run ./cmd/fluss-local-cluster run -- …` set it). When the variable is unset the test is
// skipped, so that `go test ./...` (make unit) runs the unit tests only.
//
// It imports nothing of the driver, so the tests of every package, the wire client's
// internal ones included, can use it. Tests that need no real cluster use the fake of package
// flusstest instead.
package realcluster

import (
	"os"
	"strings"
	"testing"
)

// EnvVar is the variable that names the real cluster: comma-separated host:port bootstrap
// servers.
const EnvVar = "FLUSS_BOOTSTRAP_SERVERS"

// Configured reports whether a real cluster is named (EnvVar is set and not empty).
func Configured() bool { return os.Getenv(EnvVar) != "" }

// Addr returns the real cluster's bootstrap servers as written in EnvVar ("h1:p1,h2:p2", the
// form a DSN takes), or skips the test when it is unset.
func Addr(tb testing.TB) string {
	tb.Helper()
	v := os.Getenv(EnvVar)
	if v == "" {
		tb.Skip(EnvVar + " is unset: this test needs a Fluss cluster (make test, or go run ./cmd/fluss-local-cluster run -- go test …, starts one)")
	}
	return v
}

// Addrs returns the real cluster's bootstrap servers one by one, or skips the test when
// EnvVar is unset.
func Addrs(tb testing.TB) []string {
	tb.Helper()
	return strings.Split(Addr(tb), ",")
}
