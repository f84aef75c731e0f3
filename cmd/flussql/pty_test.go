package main

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMain lets the test binary play the flussql command for the pseudo-terminal tests:
// with FLUSSQL_TEST_SHELL=fake it runs the shell over the fake driver, with =real over the
// real one.
func TestMain(m *testing.M) {
	switch os.Getenv("FLUSSQL_TEST_SHELL") {
	case "fake":
		os.Exit(mainWith(fakeDriverName))
	case "real":
		os.Exit(mainWith("fluss"))
	}
	os.Exit(m.Run())
}

// terminal is the shell running on a pseudo-terminal.
type terminal struct {
	t    *testing.T
	cmd  *exec.Cmd
	tty  *os.File
	mu   sync.Mutex
	out  bytes.Buffer
	seen int // offset up to which expect has matched
	done chan error
}

func startTerminal(t *testing.T, mode string, args ...string) *terminal {
	t.Helper()
	return startTerminalWith(t, mode, nil, args...)
}

// startTerminalWith starts the shell on a pseudo-terminal with extra environment variables.
func startTerminalWith(t *testing.T, mode string, extraEnv []string, args ...string) *terminal {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "FLUSSQL_TEST_SHELL="+mode, "TERM=xterm",
		"FLUSSQL_HISTORY="+filepath.Join(t.TempDir(), "history"))
	cmd.Env = append(cmd.Env, extraEnv...)
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 40, Cols: 120})
	require.NoError(t, err)
	term := &terminal{t: t, cmd: cmd, tty: tty, done: make(chan error, 1)}
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := tty.Read(buf)
			term.mu.Lock()
			term.out.Write(buf[:n])
			term.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	go func() { term.done <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill() // only if the test failed before the shell ended
		_ = tty.Close()
	})
	return term
}

func (term *terminal) history() string {
	for _, e := range term.cmd.Env {
		if p, ok := strings.CutPrefix(e, "FLUSSQL_HISTORY="); ok {
			b, _ := os.ReadFile(p)
			return string(b)
		}
	}
	return ""
}

// expect waits until want appears in the output after what earlier expects matched.
func (term *terminal) expect(want string, timeout time.Duration) {
	term.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		term.mu.Lock()
		rest := term.out.String()[term.seen:]
		if i := strings.Index(rest, want); i >= 0 {
			term.seen += i + len(want)
			term.mu.Unlock()
			return
		}
		term.mu.Unlock()
		if time.Now().After(deadline) {
			term.t.Fatalf("waited %s for %q; the terminal shows after the last match:\n%s", timeout, want, rest)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// logTranscript shows what the terminal received (go test -v), escapes quoted.
func (term *terminal) logTranscript() {
	term.mu.Lock()
	defer term.mu.Unlock()
	if testing.Verbose() {
		term.t.Logf("terminal transcript:\n%s", strings.ReplaceAll(fmt.Sprintf("%q", term.out.String()), `\r\n`, "\\r\\n\n"))
	}
}

func (term *terminal) send(s string) {
	term.t.Helper()
	_, err := io.WriteString(term.tty, s)
	require.NoError(term.t, err)
}

func (term *terminal) exitCode(timeout time.Duration) int {
	term.t.Helper()
	select {
	case err := <-term.done:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		require.NoError(term.t, err)
		return 0
	case <-time.After(timeout):
		term.t.Fatal("the shell did not exit")
		return -1
	}
}

const (
	ctrlC = "\x03"
	ctrlD = "\x04"
)

// TestTerminalSession drives the interactive shell over the fake driver on a real
// pseudo-terminal: prompt, a multi-line statement, progress and Ctrl-C cancelling an
// endless SELECT without leaving, Ctrl-C clearing the line being typed, history, Ctrl-D.
func TestTerminalSession(t *testing.T) {
	term := startTerminal(t, "fake", "--dsn", "fluss://127.0.0.1:1/fluss", "--no-pager") // rows stream to the screen
	term.expect("connected to fluss://127.0.0.1:1/fluss", 5*time.Second)
	term.expect("fluss> ", 5*time.Second)
	term.send("SELECT id,\r")
	term.expect("    -> ", 5*time.Second)
	term.send("  name FROM numbers LIMIT 2;\r")
	term.expect("  1 | name-1 | 2025-03-05T10:00:01.005Z\r\n(2 rows)", 5*time.Second)
	term.expect("fluss> ", 5*time.Second)

	term.send("SELECT * FROM endless;\r")
	term.expect("rows read", 5*time.Second)    // the progress line while the window fills
	term.expect("\r\n 100\r\n", 5*time.Second) // rows stream out
	term.send(ctrlC)
	term.expect("Cancelled after ", 5*time.Second)
	term.expect("fluss> ", 5*time.Second)

	term.send("SELECT nothing") // Ctrl-C at the prompt drops the line and keeps the shell
	term.send(ctrlC)
	term.expect("fluss> ", 5*time.Second)
	term.send(`\dt` + "\r")
	term.expect(" numbers\r\n(2 rows)", 5*time.Second)
	term.expect("fluss> ", 5*time.Second)
	term.send(ctrlD)
	assert.Equal(t, 0, term.exitCode(5*time.Second))
	term.logTranscript()

	assert.Equal(t, []string{"SELECT id, name FROM numbers LIMIT 2;", "SELECT * FROM endless;", `\dt`},
		strings.Split(strings.TrimSpace(term.history()), "\n"), "history")
}

// TestTerminalSessionCluster is the same walk against the real cluster: a multi-line
// statement, an unbounded SELECT that streams until Ctrl-C, Ctrl-C at the prompt, Ctrl-D.
func TestTerminalSessionCluster(t *testing.T) {
	dsn, db := clusterDB(t)
	term := startTerminal(t, "real", "--dsn", dsn, "--no-pager")
	term.expect(db+"> ", 30*time.Second)
	term.send("CREATE TABLE events (id INT, region STRING)\r")
	term.expect("    -> ", 5*time.Second)
	term.send("  WITH ('bucket.num' = '1');\r")
	term.expect("OK", 30*time.Second)
	term.send("INSERT INTO events VALUES (1, 'US'), (2, 'EU');\r")
	term.expect("OK, 2 rows affected", 30*time.Second)
	term.send("SELECT * FROM events /*+ OPTIONS('scan.bounded' = 'false') */;\r")
	term.expect("  2 | EU", 30*time.Second)
	time.Sleep(300 * time.Millisecond) // it keeps waiting for rows…
	term.send(ctrlC)                   // …until Ctrl-C
	term.expect("Cancelled after 2 rows.", 30*time.Second)
	term.expect(db+"> ", 5*time.Second)
	term.send("SELECT broken FROM")
	term.send(ctrlC)
	term.expect(db+"> ", 5*time.Second)
	term.send("SHOW TABLES;\r")
	term.expect(" events\r\n(1 row)", 30*time.Second)
	term.send(ctrlD)
	assert.Equal(t, 0, term.exitCode(30*time.Second))
	term.logTranscript()
}

// clusterDB skips without FLUSS_BOOTSTRAP_SERVERS; else it creates a database of its own,
// dropped at the end, and returns a DSN that uses it.
func clusterDB(t *testing.T) (dsn, db string) {
	t.Helper()
	addrs := os.Getenv("FLUSS_BOOTSTRAP_SERVERS")
	if addrs == "" {
		t.Skip("FLUSS_BOOTSTRAP_SERVERS is not set")
	}
	db = fmt.Sprintf("flussql_shell_%07d_%06d", os.Getpid(), time.Now().UnixNano()%1_000_000) // fixed width: table widths in goldens depend on it
	pool, err := sql.Open("fluss", "fluss://"+addrs+"/fluss")
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err = pool.ExecContext(ctx, "CREATE DATABASE "+db)
	require.NoError(t, err)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_, err := pool.ExecContext(ctx, "DROP DATABASE IF EXISTS "+db+" CASCADE")
		assert.NoError(t, err)
		_ = pool.Close()
	})
	return "fluss://" + addrs + "/" + db, db
}
