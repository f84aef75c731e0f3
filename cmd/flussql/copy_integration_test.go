package main

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/flusstest/realcluster"
)

// runCluster runs a script through the shell and the real driver against dsn and returns
// the exit code and everything it printed.
func runCluster(t *testing.T, dsn, script string, args ...string) (int, string) {
	t.Helper()
	var out lockedBuffer
	e := env{args: append([]string{"--dsn", dsn}, args...), stdin: strings.NewReader(script), stdout: &out, stderr: &out,
		getenv: func(string) string { return "" }, driver: "fluss", flushAfter: time.Hour}
	code := run(context.Background(), e)
	return code, out.String()
}

// sortedCSV is a query's rows as CSV lines, sorted (a scan's order is not defined).
func sortedCSV(t *testing.T, dsn, query string) []string {
	t.Helper()
	code, out := runCluster(t, dsn, query+";\n", "--format", "csv")
	require.Equal(t, exitOK, code, out)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Regexp(t, `^\(\d+ rows?\)$`, lines[len(lines)-2], out)
	rows := lines[1 : len(lines)-2] // the header; the status and the timing
	slices.Sort(rows)
	return rows
}

// TestClusterCopyRoundTrip: a table's rows go out with \copy … TO in each format and back
// into an empty table with \copy … FROM; both tables then hold the same rows. Also a
// query's rows, and a file larger than one batch.
func TestClusterCopyRoundTrip(t *testing.T) {
	if !realcluster.Configured() {
		t.Skip("FLUSS_BOOTSTRAP_SERVERS is not set")
	}
	dsn, _ := clusterDB(t)
	dir := t.TempDir()
	const columns = `(id INT, name STRING, price DECIMAL(10, 2), ts TIMESTAMP(3), lts TIMESTAMP_LTZ(3), d DATE, ok BOOLEAN, b BYTES, f DOUBLE, big BIGINT, arr ARRAY<INT>, m MAP<STRING, INT>, r ROW<x INT, y STRING>)`
	setup := "CREATE TABLE src " + columns + " WITH ('bucket.num' = '2');\n" +
		`INSERT INTO src VALUES (1, 'a,b "q"', 1.50, TIMESTAMP '2024-01-02 03:04:05.123', TIMESTAMP '2024-01-02 03:04:05.123', DATE '2024-01-02', true, x'00ff', 1.5, 9007199254740993, ARRAY[1, NULL, 3], MAP['k', 1, 'l', NULL], ROW(7, 'in a row')),` +
		` (2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),` +
		` (3, '', -2.25, TIMESTAMP '1999-12-31 23:59:59', TIMESTAMP '1999-12-31 23:59:59', DATE '1999-12-31', false, x'', -0.5, -1, ARRAY[], MAP['', 0], ROW(NULL, '')),` +
		" (4, 'semi;colon', 0, TIMESTAMP '2024-01-02 03:04:05', TIMESTAMP '2024-01-02 03:04:05', DATE '2024-01-02', true, x'41', 1e300, 0, ARRAY[4], MAP['a,b', 2], ROW(-1, 'x\"y'));\n"
	for _, f := range []string{"out.csv", "out.parquet", "out.json"} {
		setup += "CREATE TABLE back_" + strings.TrimPrefix(filepath.Ext(f), ".") + " " + columns + ";\n"
	}
	code, out := runCluster(t, dsn, setup)
	require.Equal(t, exitOK, code, out)
	want := sortedCSV(t, dsn, "SELECT * FROM src")
	require.Len(t, want, 4)

	for _, tc := range []struct{ file, opts string }{
		{file: "out.csv", opts: "(FORMAT csv, HEADER)"},
		{file: "out.parquet"},
		{file: "out.json"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			path := filepath.Join(dir, tc.file)
			back := "back_" + strings.TrimPrefix(filepath.Ext(tc.file), ".")
			code, out := runCluster(t, dsn, "\\copy src TO '"+path+"' "+tc.opts+"\n\\copy "+back+" FROM '"+path+"' "+tc.opts+"\n")
			require.Equal(t, exitOK, code, out)
			assert.Equal(t, 2, strings.Count(out, "COPY 4\n"), out)
			assert.Equal(t, want, sortedCSV(t, dsn, "SELECT * FROM "+back))
		})
	}

	t.Run("query", func(t *testing.T) {
		path := filepath.Join(dir, "query.csv")
		code, out := runCluster(t, dsn, "\\copy (SELECT id, UPPER(name) AS n FROM src WHERE id > 2) TO '"+path+"' (HEADER)\n")
		require.Equal(t, exitOK, code, out)
		assert.Contains(t, out, "COPY 2\n")
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		lines := strings.SplitAfter(string(data), "\n")
		assert.Equal(t, "id,n\n", lines[0])
		rest := strings.Join(lines[1:], "")
		assert.Contains(t, rest, "3,\"\"\n")
		assert.Contains(t, rest, "4,SEMI;COLON\n")
	})

	t.Run("many rows", func(t *testing.T) {
		path := filepath.Join(dir, "many.csv")
		var b strings.Builder
		for i := range 50_000 {
			b.WriteString(strconv.Itoa(i) + ",row " + strconv.Itoa(i) + "\n")
		}
		require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
		code, out := runCluster(t, dsn, "CREATE TABLE many (id INT, s STRING) WITH ('bucket.num' = '3');\n\\copy many FROM '"+path+"'\nSELECT COUNT(*), SUM(id), COUNT(DISTINCT s) FROM many;\n", "--format", "csv")
		require.Equal(t, exitOK, code, out)
		assert.Contains(t, out, "COPY 50000\n")
		assert.Contains(t, out, "50000,1249975000,50000\n")
	})
}

// TestClusterCopyBadLine: a file with a bad line stops \copy with an error that names the
// line, says what the table got by the write outcome contract, and the table holds
// exactly the rows it says were written; the script stops with status 1.
func TestClusterCopyBadLine(t *testing.T) {
	if !realcluster.Configured() {
		t.Skip("FLUSS_BOOTSTRAP_SERVERS is not set")
	}
	dsn, _ := clusterDB(t)
	path := filepath.Join(t.TempDir(), "bad.csv")
	var b strings.Builder
	const good = 200_000
	for i := range good {
		b.WriteString(strconv.Itoa(i) + ",x\n")
	}
	b.WriteString("oops,x\n")
	require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
	code, out := runCluster(t, dsn, "CREATE TABLE t (id INT, s STRING);\n\\copy t FROM '"+path+"'\nSELECT 1;\n")
	assert.Equal(t, exitError, code, out)
	assert.Contains(t, out, "bad.csv: line 200001, column id (int32): \"oops\"")
	assert.NotContains(t, out, "(1 row)", "the script stops at the error")
	m := regexp.MustCompile(`COPY: (no rows|(\d+) rows?) written`).FindStringSubmatch(out)
	require.NotNil(t, m, out)
	written := 0
	if m[2] != "" {
		written, _ = strconv.Atoi(m[2])
	}
	assert.NotContains(t, out, "unknown", "nothing was lost in flight")
	assert.Equal(t, []string{strconv.Itoa(written)}, sortedCSV(t, dsn, "SELECT COUNT(*) FROM t"),
		"the table holds what the outcome says:\n%s", out)
	assert.Less(t, written, good, "the batch with the bad line is not written")

	// A primary-key table is upserted: a key's last row wins; a bad line fails its batch.
	dir := t.TempDir()
	goodFile, badFile := filepath.Join(dir, "good.json"), filepath.Join(dir, "bad.csv")
	require.NoError(t, os.WriteFile(goodFile, []byte(`{"id": 1, "s": "first"}`+"\n"+`{"id": 2, "s": "two"}`+"\n"+`{"s": "last", "id": 1}`+"\n"), 0o644))
	require.NoError(t, os.WriteFile(badFile, []byte("3,three\n4,four,extra\n"), 0o644))
	code, out = runCluster(t, dsn, "CREATE TABLE pk (id INT, s STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket.num' = '2');\n"+
		"\\copy pk FROM '"+goodFile+"'\nSELECT * FROM pk WHERE id IN (1, 2, 3) ORDER BY id;\n\\copy pk FROM '"+badFile+"'\n")
	assert.Equal(t, exitError, code)
	assert.Contains(t, out, "COPY 3\n")
	assert.Contains(t, out, "  1 | last\n  2 | two\n(2 rows)")
	assert.Contains(t, out, "bad.csv: line 2: 3 fields, the table has 2 columns\nCOPY: no rows written.")
	code, out = runCluster(t, dsn, "SELECT * FROM pk WHERE id IN (3, 4);\n")
	assert.Equal(t, exitOK, code)
	assert.Contains(t, out, "(0 rows)", "nothing of the bad file was written")
}
