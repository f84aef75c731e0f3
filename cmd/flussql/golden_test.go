package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/flusstest/realcluster"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/shell")

var timeRE = regexp.MustCompile(`Time: [0-9]+\.[0-9]+ ms`)

// watchRE matches the time that heads each run of \watch.
var watchRE = regexp.MustCompile(`(?m)^\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} \S+ \(every`)

// maskTimes replaces what varies from run to run (statement timings, \watch's clock).
func maskTimes(s string) string {
	return watchRE.ReplaceAllString(timeRE.ReplaceAllString(s, "Time: <t>"), "<now> (every")
}

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
	goldenAt(t, filepath.Join("..", "..", "testdata", "shell", name), name, got)
}

// standbyOption is the table option the Fluss 1.0 coordinator adds to every primary-key table it
// creates (CoordinatorService in apache/fluss 1.0: table.kv.standby-replica.enabled = true when
// the request does not set it); 0.9.1 adds none.
const standbyOption = "'table.kv.standby-replica.enabled' = 'true', "

// goldenVariant names the golden file of a cluster session for servers of release line v:
// testdata/shell/<name>.golden for 0.9, <name>.fluss-<major>.<minor>.golden for a newer line
// whose output differs (see TestGoldenVariants).
func goldenVariant(name string, v fluss.ServerVersion) string {
	if !v.AtLeast(1, 0) {
		return name + ".golden"
	}
	return fmt.Sprintf("%s.fluss-%d.%d.golden", name, v.Major, v.Minor)
}

// clusterGolden compares the output of a cluster session with its golden file for the
// server's release line v: the variant when there is one, else the 0.9 file. -update writes
// the 0.9 file on a 0.9 server, and on a newer one the variant when the output differs from
// the 0.9 file (removing a variant that no longer differs).
func clusterGolden(t *testing.T, name string, v fluss.ServerVersion, got string) {
	t.Helper()
	dir := filepath.Join("..", "..", "testdata", "shell")
	base := filepath.Join(dir, name+".golden")
	variant := filepath.Join(dir, goldenVariant(name, v))
	if variant == base {
		goldenAt(t, base, name+".golden", got)
		return
	}
	if *update {
		if want, err := os.ReadFile(base); err == nil && string(want) == got {
			_ = os.Remove(variant)
			return
		}
		goldenAt(t, variant, goldenVariant(name, v), got)
		return
	}
	if _, err := os.Stat(variant); err == nil {
		goldenAt(t, variant, goldenVariant(name, v), got)
		return
	}
	goldenAt(t, base, name+".golden", got)
}

func goldenAt(t *testing.T, path, name, got string) {
	t.Helper()
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
	if !realcluster.Configured() {
		t.Skip("FLUSS_BOOTSTRAP_SERVERS is not set")
	}
	// TIMESTAMP_LTZ values print in the local zone; pin it so the goldens hold anywhere.
	local := time.Local
	time.Local = time.UTC
	t.Cleanup(func() { time.Local = local })

	v := clusterVersion(t)
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
		{name: "psql-habits", script: "shell/psql-habits.sql", code: exitOK},
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
			clusterGolden(t, tc.name, v, got)
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

// clusterVersion returns the release line of the cluster named by FLUSS_BOOTSTRAP_SERVERS,
// detected from its ApiVersions answers; when the launcher said what it ran
// (FLUSS_SERVER_VERSION), the two must agree.
func clusterVersion(t *testing.T) fluss.ServerVersion {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := fluss.Connect(ctx, fluss.Config{BootstrapServers: strings.Split(realcluster.Addr(t), ",")})
	require.NoError(t, err)
	defer c.Close()
	v, err := c.ServerVersion(ctx)
	require.NoError(t, err)
	if launched := os.Getenv("FLUSS_SERVER_VERSION"); launched != "" {
		want, err := fluss.ParseServerVersion(launched)
		require.NoError(t, err)
		require.Equal(t, want, v, "detected from ApiVersions vs FLUSS_SERVER_VERSION=%s", launched)
	}
	return v
}

// TestGoldenVariants checks that every golden file of a newer release line differs from the 0.9
// file only by what that line is known to change: on 1.0, the standby option in the DDL of
// primary-key tables, in SHOW CREATE TABLE's line and in \d's DDL over lines (and the width
// of the tables that show it).
func TestGoldenVariants(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "shell")
	variants, err := filepath.Glob(filepath.Join(dir, "*.fluss-*.golden"))
	require.NoError(t, err)
	known := map[string]func(string) string{
		"fluss-1.0": func(s string) string {
			s = strings.ReplaceAll(s, "  "+strings.TrimSuffix(standbyOption, " ")+"\n", "") // \d's DDL: one option a line
			return strings.ReplaceAll(s, standbyOption, "")
		},
	}
	for _, path := range variants {
		t.Run(filepath.Base(path), func(t *testing.T) {
			name, line, ok := strings.Cut(strings.TrimSuffix(filepath.Base(path), ".golden"), ".fluss-")
			require.True(t, ok)
			undo, ok := known["fluss-"+line]
			require.True(t, ok, "no known difference for Fluss %s", line)
			got, err := os.ReadFile(path)
			require.NoError(t, err)
			want, err := os.ReadFile(filepath.Join(dir, name+".golden"))
			require.NoError(t, err)
			assert.NotEqual(t, string(want), string(got), "a variant that equals the 0.9 file should be removed")
			assert.Equal(t, dropRules(string(want)), dropRules(undo(string(got))))
		})
	}
}

// dropRules removes the rule lines under table headers and the padding of table cells, which
// depend on the widest cell.
func dropRules(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if ruleRE.MatchString(l) {
			continue
		}
		f := strings.Split(l, "|")
		for i := range f {
			f[i] = strings.TrimSpace(f[i])
		}
		out = append(out, strings.Join(f, "|"))
	}
	return strings.Join(out, "\n")
}
