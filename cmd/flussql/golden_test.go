package main

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/shell")

var timeRE = regexp.MustCompile(`Time: [0-9]+\.[0-9]+ ms`)

// maskTimes replaces what varies from run to run (statement timings).
func maskTimes(s string) string { return timeRE.ReplaceAllString(s, "Time: <t>") }

// partitionsRE matches the table SHOW PARTITIONS prints; partition ids are the server's
// and differ from run to run.
var partitionsRE = regexp.MustCompile(`(?m)^ partition +\| id\n-+\+-+\n(?: \S+ +\| +\d+\n)*`)

// maskPartitionIDs shows partition ids as <id>, the table aligned again.
func maskPartitionIDs(s string) string {
	return partitionsRE.ReplaceAllStringFunc(s, func(block string) string {
		lines := strings.Split(strings.TrimSuffix(block, "\n"), "\n")[2:]
		var b strings.Builder
		w := newTableWriter(&b, []column{newColumn("partition", "STRING"), newColumn("id", "STRING")}, len(lines)+1)
		for _, l := range lines {
			_ = w.row([]any{strings.Fields(l)[0], "<id>"})
		}
		_ = w.flushWindow()
		return b.String()
	})
}

var ruleRE = regexp.MustCompile(`^-+(\+-+)*$`)

// sortTableRows sorts the rows of every aligned table in s. The dialect has no ORDER BY and
// a scan reads partitions and buckets concurrently, so the order of rows from different
// partitions is not defined; the cluster goldens compare rows as sorted sets.
func sortTableRows(s string) string {
	lines := strings.Split(s, "\n")
	for i := 0; i < len(lines); i++ {
		if !ruleRE.MatchString(lines[i]) {
			continue
		}
		j := i + 1
		for j < len(lines) && !strings.HasPrefix(lines[j], "(") {
			j++
		}
		slices.Sort(lines[i+1 : j])
		i = j
	}
	return strings.Join(lines, "\n")
}

// golden compares got with testdata/shell/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("..", "..", "testdata", "shell", name)
	if *update {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "no golden file; run go test ./cmd/flussql -update and review it")
	assert.Equal(t, string(want), got, "golden %s differs; rerun with -update if the change is intended", name)
}

// TestFakeSessionGolden runs testdata/shell/fake-session.sql through the fake driver: the
// look of every output path that needs no cluster.
func TestFakeSessionGolden(t *testing.T) {
	script, err := os.ReadFile(filepath.Join("..", "..", "testdata", "shell", "fake-session.sql"))
	require.NoError(t, err)
	code, out := runFake(t, string(script))
	assert.Equal(t, exitError, code, "the script ends with an error")
	golden(t, "fake-session.golden", out)
}

// TestClusterSessions runs scripted sessions against the real cluster through the real
// driver and compares the output with testdata/shell/*.golden. Each runs in a database of
// its own, shown as $DB (the demo: as fluss, the database it is written for).
func TestClusterSessions(t *testing.T) {
	if os.Getenv("FLUSS_BOOTSTRAP_SERVERS") == "" {
		t.Skip("FLUSS_BOOTSTRAP_SERVERS is not set")
	}
	// TIMESTAMP_LTZ values print in the local zone; pin it so the goldens hold anywhere.
	local := time.Local
	time.Local = time.UTC
	t.Cleanup(func() { time.Local = local })

	for _, tc := range []struct {
		name   string
		script string // under testdata
		asFile bool   // -f instead of standard input
		args   []string
		code   int
	}{
		{name: "session", script: "shell/session.sql", code: exitError},
		{name: "nested-and-alter", script: "shell/nested-and-alter.sql", code: exitError},
		{name: "partitioned-tables", script: "demo/partitioned-tables.sql", asFile: true, code: exitOK, args: []string{"--echo"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dsn, db := clusterDB(t)
			raw, err := os.ReadFile(filepath.Join("..", "..", "testdata", tc.script))
			require.NoError(t, err)
			script := strings.ReplaceAll(string(raw), "$DB", db)
			shownAs := "$DB"
			if tc.asFile {
				script = strings.ReplaceAll(string(raw), "fluss.", db+".")
				shownAs = "fluss"
			}
			var out lockedBuffer
			e := env{args: append([]string{"--dsn", dsn}, tc.args...), stdin: strings.NewReader(script), stdout: &out, stderr: &out,
				getenv: func(string) string { return "" }, driver: "fluss", flushAfter: time.Hour}
			path := filepath.Join(t.TempDir(), filepath.Base(tc.script))
			if tc.asFile {
				require.NoError(t, os.WriteFile(path, []byte(script), 0o644))
				e.args = append(e.args, "-f", path)
			}
			code := run(context.Background(), e)
			got := strings.ReplaceAll(sortTableRows(maskPartitionIDs(maskTimes(out.String()))), db, shownAs)
			got = strings.ReplaceAll(got, path, "testdata/"+tc.script)
			assert.Equal(t, tc.code, code, got)
			golden(t, tc.name+".golden", got)
		})
	}
}

// TestClusterExitCodes: -e stops at the first error with status 1 and names the position.
func TestClusterExitCodes(t *testing.T) {
	dsn, _ := clusterDB(t)
	var out lockedBuffer
	e := env{args: []string{"--dsn", dsn, "-e", "SHOW TABLES;\n  SELECT * FROM no_such_table; SHOW TABLES"},
		stdout: &out, stderr: &out, getenv: func(string) string { return "" }, driver: "fluss"}
	assert.Equal(t, exitError, run(context.Background(), e))
	assert.Contains(t, out.String(), "-e:2:3: ")
	assert.Contains(t, out.String(), "no_such_table")
	assert.Equal(t, 1, strings.Count(out.String(), "(0 rows)"), "nothing runs after the error:\n%s", out.String())
}

func TestMaskPartitionIDs(t *testing.T) {
	in := "x\n partition | id\n-----------+-----\n region=EU | 101\n region=US |  99\n(2 rows)\n"
	assert.Equal(t, "x\n partition | id\n-----------+------\n region=EU | <id>\n region=US | <id>\n(2 rows)\n", maskPartitionIDs(in))
}

func TestSortTableRows(t *testing.T) {
	in := "SELECT;\n id | r\n----+----\n  2 | EU\n  1 | US\n(2 rows)\nOK\n z\n---\n b\n a\n(2 rows)\n"
	assert.Equal(t, "SELECT;\n id | r\n----+----\n  1 | US\n  2 | EU\n(2 rows)\nOK\n z\n---\n a\n b\n(2 rows)\n", sortTableRows(in))
}
