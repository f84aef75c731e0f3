package flussgorm_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/flussql/flussql"
	"github.com/flussql/flussql/fluss/flusstest"
)

// TestMain lets the Example functions run everywhere: they read their DSN with
// flussql.DSNFromEnv, which names the real cluster when make test starts one
// (FLUSS_BOOTSTRAP_SERVERS); without one (make unit) TestMain starts the in-memory fake
// cluster of fluss/flusstest and points FLUSS_DSN at it, so that their Output is checked
// either way. Integration tests still skip without FLUSS_BOOTSTRAP_SERVERS.
func TestMain(m *testing.M) {
	if flussql.DSNFromEnv() != "" {
		os.Exit(m.Run())
	}
	c, err := flusstest.Start()
	if err != nil {
		fmt.Fprintln(os.Stderr, "starting the fake cluster for the examples:", err)
		os.Exit(1)
	}
	os.Setenv("FLUSS_DSN", "fluss://"+c.Addr()+"/"+flussql.DefaultDatabase)
	code := m.Run()
	c.Close()
	os.Exit(code)
}
