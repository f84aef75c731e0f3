package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTerminalCopyCluster: \copy at a terminal draws its progress line, says COPY n, and
// Ctrl-C stops a \copy … TO of an unbounded scan, saying how many rows the file got; the
// file holds them, whole lines.
func TestTerminalCopyCluster(t *testing.T) {
	dsn, db := clusterDB(t)
	dir := t.TempDir()
	in := filepath.Join(dir, "in.csv")
	var b strings.Builder
	for i := range 30_000 {
		b.WriteString(strconv.Itoa(i) + ",r" + strconv.Itoa(i%7) + "\n")
	}
	require.NoError(t, os.WriteFile(in, []byte(b.String()), 0o644))
	term := startTerminalWith(t, "real", nil, "--dsn", dsn, "--no-pager")
	term.expect(db+"> ", 30*time.Second)
	term.send("CREATE TABLE t (id INT, region STRING) WITH ('bucket.num' = '2');\r")
	term.expect("OK", 30*time.Second)
	term.send(`\copy t FROM '` + in + `'` + "\r")
	term.expect(" rows read, ", 30*time.Second)
	term.expect("COPY 30000\r\n", 60*time.Second)

	out := filepath.Join(dir, "out.csv")
	term.send(`\copy (SELECT * FROM t /*+ OPTIONS('scan.bounded' = 'false') */) TO '` + out + `'` + "\r")
	deadline := time.Now().Add(60 * time.Second)
	for {
		data, _ := os.ReadFile(out)
		if strings.Count(string(data), "\n") >= 30_000 {
			break
		}
		require.False(t, time.Now().After(deadline), "the file did not get the rows")
		time.Sleep(50 * time.Millisecond)
	}
	term.send(ctrlC)
	term.expect("COPY: 30000 rows written to "+out+" before Ctrl-C.", 30*time.Second)
	term.expect(db+"> ", 30*time.Second)
	data, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.Equal(t, 30_000, strings.Count(string(data), "\n"))
	assert.True(t, strings.HasSuffix(string(data), "\n"), "whole lines")
	term.send(ctrlD)
	assert.Equal(t, 0, term.exitCode(30*time.Second))
}
