package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTerminalCSVStatusAfterHeader: in csv format on a terminal, with the pager on auto,
// a result is held back to decide on the pager; its status line printed beside it came
// before the held-back header ("(0 rows)" above "id,name,ts"). It now follows the result.
func TestTerminalCSVStatusAfterHeader(t *testing.T) {
	paged := filepath.Join(t.TempDir(), "paged")
	term := startTerminalWith(t, "fake", []string{"PAGER=cat >> '" + paged + "'"}, "--dsn", "fluss://127.0.0.1:1/fluss", "--format", "csv")
	term.expect("fluss> ", 5*time.Second)
	term.send(`\timing off` + "\r")
	term.expect("Timing is off.", 5*time.Second)
	term.send("SELECT * FROM numbers LIMIT 0;\r")
	term.expect("(0 rows)", 5*time.Second)
	term.send(ctrlD)
	assert.Equal(t, 0, term.exitCode(5*time.Second))
	term.mu.Lock()
	out := term.out.String()
	term.mu.Unlock()
	header, status := strings.Index(out, "id,name,ts"), strings.Index(out, "(0 rows)")
	assert.True(t, header >= 0 && header < status, "the header comes before the status line:\n%s", out)
}

// TestTerminalPagerCtrlC: Ctrl-C on an unbounded scan whose result goes through the pager
// says "Cancelled after N rows." on the terminal, whether the pager dies of the Ctrl-C
// (cat, more: the line used to be lost with it) or outlives it (less, here a pager that
// ignores SIGINT: the line used to be only in the pager, which hides it when quit).
func TestTerminalPagerCtrlC(t *testing.T) {
	for _, tc := range []struct{ name, pager string }{
		{name: "the pager dies", pager: "cat >> '%s'"},
		{name: "the pager lives on", pager: "trap '' INT; cat >> '%s'"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			paged := filepath.Join(t.TempDir(), "paged")
			term := startTerminalWith(t, "fake", []string{"PAGER=" + fmt.Sprintf(tc.pager, paged)}, "--dsn", "fluss://127.0.0.1:1/fluss")
			term.expect("fluss> ", 5*time.Second)
			term.send("SELECT * FROM endless;\r")
			require.Eventually(t, func() bool {
				b, _ := os.ReadFile(paged)
				return strings.Count(string(b), "\n") > 100
			}, 10*time.Second, 10*time.Millisecond, "the pager gets the rows")
			term.send(ctrlC)
			term.expect("Cancelled after ", 10*time.Second)
			term.expect("fluss> ", 10*time.Second)
			term.send(ctrlD)
			assert.Equal(t, 0, term.exitCode(5*time.Second))
			term.mu.Lock()
			out := term.out.String()
			term.mu.Unlock()
			assert.Regexp(t, `Cancelled after \d+ rows\.\r?\n`, out)
		})
	}
}
