package fluss

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/flussql/flussql/fluss/flusstest"
)

// exampleServers are the bootstrap servers the Example functions of package fluss_test
// connect to (exported to them through export_test.go): the real cluster when make test
// starts one (FLUSS_BOOTSTRAP_SERVERS), else the in-memory fake cluster of fluss/flusstest
// that TestMain starts, so that their Output is checked either way.
var exampleServers []string

// TestMain starts the fake cluster for the examples when no real one is configured.
func TestMain(m *testing.M) {
	if v := os.Getenv("FLUSS_BOOTSTRAP_SERVERS"); v != "" {
		exampleServers = strings.Split(v, ",")
		os.Exit(m.Run())
	}
	c, err := flusstest.Start()
	if err != nil {
		fmt.Fprintln(os.Stderr, "starting the fake cluster for the examples:", err)
		os.Exit(1)
	}
	exampleServers = []string{c.Addr()}
	code := m.Run()
	c.Close()
	os.Exit(code)
}
