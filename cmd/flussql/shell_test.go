package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql"
)

// lockedBuffer is an io.Writer that tests may read while the shell writes.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
	// onFirstWrite runs (once) before the first write lands.
	onFirstWrite func()
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.onFirstWrite != nil {
		l.onFirstWrite()
		l.onFirstWrite = nil
	}
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// fakeEnv is an env for the fake driver with stdout and stderr into one buffer.
func fakeEnv(out *lockedBuffer, stdin string, args ...string) env {
	return env{
		args:   append([]string{"--dsn", "fluss://127.0.0.1:1/fluss"}, args...),
		stdin:  strings.NewReader(stdin),
		stdout: out, stderr: out,
		getenv: func(string) string { return "" },
		driver: fakeDriverName,
	}
}

func runFake(t *testing.T, stdin string, args ...string) (int, string) {
	t.Helper()
	resetFake()
	var out lockedBuffer
	code := run(context.Background(), fakeEnv(&out, stdin, args...))
	return code, maskTimes(out.String())
}

func TestScriptErrorsCarryTheirPosition(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "bad.sql")
	require.NoError(t, os.WriteFile(script, []byte(""+
		"-- a comment line\n"+
		"SELECT * FROM numbers LIMIT 1;\n"+
		"SELECT id,\n"+
		"  name FORM numbers;\n"+
		"SELECT * FROM numbers;\n"), 0o644))
	for _, tc := range []struct {
		name      string
		args      []string
		stdin     string
		code      int
		want      []string
		lastStmt  string // the last statement the driver saw
		stmtCount int
	}{
		{
			name: "syntax error in -f", args: []string{"-f", script}, code: exitError,
			want:     []string{script + `:4:13: syntax error at "numbers": expected FROM or ','`, "\n    name FORM numbers;\n              ^\n"},
			lastStmt: "SELECT * FROM numbers LIMIT 1", stmtCount: 1,
		},
		{
			name: "runtime error in -e", args: []string{"-e", "SELECT * FROM numbers LIMIT 1;  SELECT * FROM missing; SELECT id FROM numbers"},
			code: exitError, want: []string{"-e:1:33: table fluss.missing does not exist\n"},
			lastStmt: "SELECT * FROM missing", stmtCount: 2,
		},
		{
			name: "statements spanning lines on stdin", stdin: "SELECT * FROM numbers LIMIT 1; SELECT *\nFROM\n missing;\n",
			code: exitError, want: []string{"<stdin>:1:32: table fluss.missing does not exist\n"},
			lastStmt: "SELECT *\nFROM\n missing", stmtCount: 2,
		},
		{
			name: "runtime error after a comment points at the statement", stdin: "-- why\n  SELECT * FROM missing;\n",
			code: exitError, want: []string{"<stdin>:2:3: table fluss.missing does not exist\n"},
			lastStmt: "SELECT * FROM missing", stmtCount: 1,
		},
		{
			name: "unknown backslash command", stdin: `\l` + "\n" + `\bogus` + "\n" + `\l` + "\n",
			code: exitError, want: []string{`<stdin>:2: \bogus: unknown command \bogus; \? lists the commands`},
			lastStmt: "SHOW DATABASES", stmtCount: 1,
		},
		{
			name: "last statement without semicolon runs", args: []string{"-e", "SELECT * FROM numbers LIMIT 2"},
			code: exitOK, want: []string{"(2 rows)\n"}, lastStmt: "SELECT * FROM numbers LIMIT 2", stmtCount: 1,
		},
		{
			name: "every -e runs, in order", args: []string{"-e", "SELECT * FROM numbers LIMIT 2 -- two", "-e", `\l`, "-e", "SELECT * FROM missing"},
			code: exitError, want: []string{"(2 rows)\n", "table fluss.missing does not exist\n"},
			lastStmt: "SELECT * FROM missing", stmtCount: 3,
		},
		{
			name: "unterminated string at the end", args: []string{"-e", "SELECT * FROM numbers WHERE name = 'x"},
			code: exitError, want: []string{"-e:1:"}, stmtCount: 0,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out := runFake(t, tc.stdin, tc.args...)
			assert.Equal(t, tc.code, code, out)
			for _, w := range tc.want {
				assert.Contains(t, out, w)
			}
			stmts := fakeStatements()
			require.Len(t, stmts, tc.stmtCount, "%q", stmts)
			if tc.stmtCount > 0 {
				assert.Equal(t, tc.lastStmt, stmts[len(stmts)-1])
			}
		})
	}
}

func TestBackslashCommandsMapToSQL(t *testing.T) {
	code, out := runFake(t, `\l
\dt
\dt other
\d numbers
\dp numbers
\c analytics
\timing off
\x on
SELECT * FROM numbers LIMIT 1;
\q
SELECT 'never' FROM numbers;
`)
	require.Equal(t, exitOK, code, out)
	assert.Equal(t, []string{
		"SHOW DATABASES", "SHOW TABLES", "SHOW TABLES FROM other", "DESCRIBE numbers",
		"SHOW CREATE TABLE numbers", "SHOW PARTITIONS numbers", "USE analytics",
		"SELECT * FROM numbers LIMIT 1",
	}, fakeStatements())
	assert.Contains(t, out, "PRIMARY KEY (`id`) NOT ENFORCED\n) WITH ('bucket.num' = '1')\n", "\\d prints the DDL as text")
	assert.Contains(t, out, `You are now using database "analytics".`)
	assert.Contains(t, out, "-[ RECORD 1 ]")
}

func TestFormatsKeepStdoutPure(t *testing.T) {
	resetFake()
	var stdout, stderr lockedBuffer
	e := fakeEnv(&stdout, "", "--format", "csv", "-e", "INSERT INTO numbers VALUES (1), (2); SELECT * FROM numbers LIMIT 3")
	e.stderr = &stderr
	require.Equal(t, exitOK, run(context.Background(), e))
	assert.Equal(t, ""+
		"id,name,ts\n"+
		"0,name-0,2025-03-05T10:00:00.005Z\n"+
		"1,name-1,2025-03-05T10:00:01.005Z\n"+
		"2,,2025-03-05T10:00:02.005Z\n", stdout.String())
	assert.Equal(t, "OK, 2 rows affected\nTime: <t>\n(3 rows)\nTime: <t>\n", maskTimes(stderr.String()))
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{{"--format", "xml"}, {"-e", "x", "-f", "y"}, {"extra"}, {"--nope"}} {
		code, out := runFake(t, "", args...)
		assert.Equal(t, exitUsage, code, "%v: %s", args, out)
	}
	code, out := runFake(t, "", "-h")
	assert.Equal(t, exitOK, code)
	assert.Contains(t, out, "flussql [--dsn DSN] [-e SQL] [-f FILE] [--format table|csv|tsv|json] [--echo]")
	assert.Contains(t, out, "-format string")

	resetFake()
	var b lockedBuffer
	e := fakeEnv(&b, "")
	e.args = []string{"--dsn", "mysql://x"}
	assert.Equal(t, exitUsage, run(context.Background(), e))
	assert.Contains(t, b.String(), `DSN must start with "fluss://"`)
	assert.NotContains(t, b.String(), "flussql: flussql:", "the error does not stutter")
}

// TestRowsStream checks that a long result is written while it is still being read: the
// first bytes reach the output long before the last row is produced, in every format.
func TestRowsStream(t *testing.T) {
	const n = 20000
	for _, format := range []string{formatTable, formatCSV, formatJSON} {
		t.Run(format, func(t *testing.T) {
			resetFake()
			producedAtFirstWrite := int64(-1)
			out := &lockedBuffer{onFirstWrite: func() { producedAtFirstWrite = fakeProduced.Load() }}
			e := fakeEnv(out, "", "--format", format, "-e", "SELECT * FROM numbers LIMIT 20000")
			e.window = 100
			require.Equal(t, exitOK, run(context.Background(), e))
			assert.Greater(t, producedAtFirstWrite, int64(0))
			assert.Less(t, producedAtFirstWrite, int64(n/2), "output started only after %d rows", producedAtFirstWrite)
			lines := strings.Split(out.String(), "\n")
			switch format {
			case formatTable: // header, rule, rows, count, time, blank, ""
				require.Equal(t, n+6, len(lines))
				assert.Equal(t, "(20000 rows)", lines[n+2])
				// The widths come from the first 100 rows: ids up to 99 are two wide.
				assert.Equal(t, " id | name    | ts", lines[0])
				assert.Equal(t, "  9 | name-9  | 2025-03-05T10:00:09.005Z", lines[11])
				assert.Equal(t, " 19999 | name-19999 | 2025-03-05T10:00:19.005Z", lines[n+1])
				assert.Equal(t, " 19997 | NULL    | 2025-03-05T10:00:17.005Z", lines[n-1])
			case formatCSV: // header, rows, count, time, ""
				require.Equal(t, n+4, len(lines))
				assert.Equal(t, "19997,,2025-03-05T10:00:17.005Z", lines[n-2])
			case formatJSON:
				require.Equal(t, n+3, len(lines))
				assert.Equal(t, `{"id":19997,"name":null,"ts":"2025-03-05T10:00:17.005Z"}`, lines[n-3])
			}
		})
	}
}

// TestCtrlCEndsAScript: in a script Ctrl-C cancels the running statement, reports how many
// rows came, and ends the script with status 130; the next statement never runs.
func TestCtrlCEndsAScript(t *testing.T) {
	for _, table := range []string{"endless", "stall"} {
		t.Run(table, func(t *testing.T) {
			resetFake()
			out := &lockedBuffer{}
			interrupts := make(chan struct{})
			e := fakeEnv(out, "SELECT * FROM "+table+";\nSELECT * FROM numbers;\n", "--format", "csv")
			e.interrupts = interrupts
			done := make(chan int)
			go func() { done <- run(context.Background(), e) }()
			if table == "endless" {
				require.Eventually(t, func() bool { return strings.Count(out.String(), "\n") > 20 }, 5*time.Second, 5*time.Millisecond,
					"an unbounded SELECT streams rows while it runs")
			} else {
				require.Eventually(t, func() bool { return len(fakeStatements()) == 1 }, 5*time.Second, time.Millisecond)
			}
			interrupts <- struct{}{}
			select {
			case code := <-done:
				assert.Equal(t, exitCancelled, code)
			case <-time.After(5 * time.Second):
				t.Fatal("Ctrl-C did not stop the statement")
			}
			assert.Regexp(t, `Cancelled after \d+ rows?\.\n$`, out.String())
			assert.Len(t, fakeStatements(), 1)
		})
	}
}

// scriptedReader plays an interactive user: each entry is a line, or errAborted for Ctrl-C
// at the prompt; then io.EOF (Ctrl-D). It records the prompts and the history.
type scriptedReader struct {
	lines   []any
	prompts []string
	history []string
}

func (r *scriptedReader) readLine(prompt string) (string, error) {
	r.prompts = append(r.prompts, prompt)
	if len(r.lines) == 0 {
		return "", io.EOF
	}
	l := r.lines[0]
	r.lines = r.lines[1:]
	if err, ok := l.(error); ok {
		return "", err
	}
	return l.(string), nil
}

func (r *scriptedReader) remember(e string) { r.history = append(r.history, e) }

// TestInteractiveSemantics drives the interactive loop directly: errors do not end the
// session, Ctrl-C at the prompt drops the statement being typed, a multi-line statement
// gets the continuation prompt and one history entry, Ctrl-D leaves with status 0.
func TestInteractiveSemantics(t *testing.T) {
	resetFake()
	var out lockedBuffer
	e := fakeEnv(&out, "")
	sh := &shell{errw: &out, format: formatTable, window: 10, flushAfter: time.Hour, progress: &progress{}, database: "fluss"}
	sh.out = newOutput(&out, sh.progress)
	var err error
	sh.db, sh.conn, err = connect(context.Background(), e.driver, "fake", 0)
	require.NoError(t, err)
	defer sh.db.Close()
	r := &scriptedReader{lines: []any{
		"SELECT * FORM numbers;",
		"SELECT * FROM missing;",
		"SELECT id",
		errAborted, // Ctrl-C drops "SELECT id"
		"SELECT id, name",
		"  FROM numbers",
		"  LIMIT 2;",
		`\c analytics`,
		"SELECT id FROM numbers LIMIT 1; SELECT",
	}}
	code := sh.loop(context.Background(), r, source{interactive: true})
	assert.Equal(t, exitOK, code)
	assert.Equal(t, []string{
		"fluss> ", "fluss> ", "fluss> ", "    -> ", "fluss> ", "    -> ", "    -> ", "fluss> ", "analytics> ", "        -> ",
	}, r.prompts)
	assert.Equal(t, []string{
		"SELECT * FORM numbers;", "SELECT * FROM missing;", "SELECT id, name FROM numbers LIMIT 2;",
		`\c analytics`, "SELECT id FROM numbers LIMIT 1;",
	}, r.history)
	assert.Equal(t, []string{"SELECT * FROM missing", "SELECT id, name\n  FROM numbers\n  LIMIT 2", "USE analytics", "SELECT id FROM numbers LIMIT 1"},
		fakeStatements(), "the statement interrupted at the prompt never ran, nor the one left open at Ctrl-D")
	assert.Contains(t, out.String(), "ERROR at line 1, column 10: syntax error at \"FORM\"")
	assert.Contains(t, out.String(), "  SELECT * FORM numbers;\n           ^\n")
	assert.Contains(t, out.String(), "ERROR: table fluss.missing does not exist\n")
	assert.Contains(t, out.String(), "(2 rows)\n")
}

// closedPipe is a stdout whose reader went away (as with `flussql -e … | head`): every write
// fails with EPIPE.
type closedPipe struct{}

func (closedPipe) Write([]byte) (int, error) {
	return 0, &os.PathError{Op: "write", Path: "/dev/stdout", Err: syscall.EPIPE}
}

// A shell whose output pipe was closed says nothing about it on stderr.
func TestClosedOutputPipeIsQuiet(t *testing.T) {
	resetFake()
	var errs lockedBuffer
	e := fakeEnv(&errs, "", "-e", "SELECT * FROM numbers; SELECT * FROM numbers")
	e.stdout = closedPipe{}
	run(context.Background(), e)
	assert.NotContains(t, errs.String(), "broken pipe")
	assert.Empty(t, errs.String())
}

// \i runs a file's statements in the session, \o sends results to a file and back,
// \conninfo names the connection without the password, and quit ends the input.
func TestSessionCommands(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "inc.sql")
	require.NoError(t, os.WriteFile(script, []byte("SELECT * FROM numbers LIMIT 1;\n"), 0o644))
	outFile := filepath.Join(dir, "out.txt")
	code, out := runFake(t, `\i `+script+"\n"+
		`\o `+outFile+"\n"+
		"SELECT * FROM numbers LIMIT 2;\n"+
		`\o`+"\n"+
		`\conninfo`+"\n"+
		"help\n"+
		"quit\n"+
		"SELECT * FROM numbers LIMIT 3;\n")
	assert.Equal(t, exitOK, code)
	assert.Contains(t, out, "(1 row)", `\i ran the file's statement`)
	assert.NotContains(t, out, "(2 rows)", `\o kept the result off stdout`)
	assert.NotContains(t, out, "(3 rows)", "quit ended the input")
	assert.Contains(t, out, `You are connected to database "fluss" through 127.0.0.1:1 without authentication.`)
	assert.Contains(t, out, `\? for the shell's commands`)
	written, err := os.ReadFile(outFile)
	require.NoError(t, err)
	assert.Contains(t, string(written), "(2 rows)")
	assert.Contains(t, string(written), "name-1")

	_, out = runFake(t, `\i `+filepath.Join(dir, "missing.sql")+"\n")
	assert.Contains(t, out, "missing.sql: no such file or directory")
}

func TestConnInfoHidesThePassword(t *testing.T) {
	cfg, err := flussql.ParseDSN("fluss://alice:pw-secret@127.0.0.1:9123,127.0.0.1:9124/db")
	require.NoError(t, err)
	got := connInfo(cfg)
	assert.Equal(t, `127.0.0.1:9123, 127.0.0.1:9124 as user "alice" (SASL/PLAIN)`, got)
	assert.NotContains(t, got, "pw-secret")
}
