package main

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
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
