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

// Pseudo-terminal tests of what only a terminal has: tab completion, the pager and \e.

const tab = "\t"

// TestTerminalCompletion: Tab completes a keyword, a table after FROM (from SHOW TABLES), a
// column of the table the statement names (from DESCRIBE), and lists the candidates of a
// backslash command on a second Tab; what was completed runs as typed.
func TestTerminalCompletion(t *testing.T) {
	term := startTerminal(t, "fake", "--dsn", "fluss://127.0.0.1:1/fluss", "--no-pager")
	term.expect("fluss> ", 5*time.Second)
	term.send("SEL" + tab)
	term.expect("SELECT ", 5*time.Second)
	term.send("* FROM num" + tab)
	term.expect("numbers ", 5*time.Second)
	term.send("WHERE na" + tab)
	term.expect("name ", 5*time.Second)
	term.send("IS NOT NULL LIMIT 2;\r")
	term.expect("(2 rows)", 5*time.Second)
	term.expect("fluss> ", 5*time.Second)

	term.send(`\d` + tab + tab) // \d, \dt, \d+, \dp: the second Tab lists them
	term.expect(`\dt \d \d+ \dp`, 5*time.Second)
	term.send(" numb" + tab + "\r")
	term.expect("PRIMARY KEY (`id`) NOT ENFORCED", 5*time.Second)
	term.expect("fluss> ", 5*time.Second)
	term.send(ctrlD)
	assert.Equal(t, 0, term.exitCode(5*time.Second))
	term.logTranscript()

	assert.Equal(t, []string{"SELECT * FROM numbers WHERE name IS NOT NULL LIMIT 2;", `\d numbers`},
		strings.Split(strings.TrimSpace(term.history()), "\n"), "history: the completed statements")
}

// TestTerminalPager: a result taller than the terminal (40 rows) goes to $PAGER, a short one
// to the screen; \pset pager off and always change that.
func TestTerminalPager(t *testing.T) {
	paged := filepath.Join(t.TempDir(), "paged")
	term := startTerminalWith(t, "fake", []string{"PAGER=cat >> '" + paged + "'"}, "--dsn", "fluss://127.0.0.1:1/fluss")
	pagerGot := func() string {
		b, _ := os.ReadFile(paged)
		return string(b)
	}
	// waitPaged waits until the pager's record ends with a whole result.
	waitPaged := func(count int) string {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for strings.Count(pagerGot(), "\n\n") < count {
			if time.Now().After(deadline) {
				t.Fatalf("the pager got no %d results; it has:\n%s", count, pagerGot())
			}
			time.Sleep(10 * time.Millisecond)
		}
		return pagerGot()
	}
	term.expect("fluss> ", 5*time.Second)
	term.send(`\timing off` + "\r")
	term.expect("Timing is off.", 5*time.Second)
	term.send("SELECT * FROM numbers LIMIT 100;\r")
	got := waitPaged(1)
	lines := strings.Split(got, "\n")
	require.Len(t, lines, 1+1+100+1+1+1, "header, rule, 100 rows, the count, a blank line:\n%s", got)
	assert.Equal(t, " id | name    | ts", lines[0])
	assert.True(t, strings.HasPrefix(lines[101], " 99 | name-99 | "), lines[101])
	assert.Equal(t, "(100 rows)", lines[102])

	term.send("SELECT * FROM numbers LIMIT 3;\r") // fits: straight to the screen
	term.expect("(3 rows)", 5*time.Second)
	term.send(`\pset pager off` + "\r")
	term.expect("Pager usage is off.", 5*time.Second)
	term.send("SELECT * FROM numbers LIMIT 100;\r")
	term.expect(" 99 | name-99 | ", 5*time.Second)
	term.expect("(100 rows)", 5*time.Second)
	assert.Equal(t, got, pagerGot(), "neither the short result nor one with the pager off was paged")

	term.send(`\pset pager always` + "\r")
	term.expect("Pager is always used.", 5*time.Second)
	term.send("SELECT * FROM numbers LIMIT 1;\r")
	one := strings.TrimPrefix(waitPaged(2), got)
	assert.True(t, strings.HasPrefix(one, " id | name   | ts\n"), one)
	assert.True(t, strings.HasSuffix(one, "\n(1 row)\n\n"), one)
	term.send(ctrlD)
	assert.Equal(t, 0, term.exitCode(5*time.Second))
	term.logTranscript()
}

// TestTerminalNoPagerFlag: with --no-pager a tall result is on the screen and $PAGER never
// runs.
func TestTerminalNoPagerFlag(t *testing.T) {
	paged := filepath.Join(t.TempDir(), "paged")
	term := startTerminalWith(t, "fake", []string{"PAGER=cat >> '" + paged + "'"}, "--dsn", "fluss://127.0.0.1:1/fluss", "--no-pager")
	term.expect("fluss> ", 5*time.Second)
	term.send("SELECT * FROM numbers LIMIT 100;\r")
	term.expect(" 99 | name-99 | ", 5*time.Second)
	term.expect("(100 rows)", 5*time.Second)
	term.send(ctrlD)
	assert.Equal(t, 0, term.exitCode(5*time.Second))
	_, err := os.Stat(paged)
	assert.True(t, os.IsNotExist(err), "the pager never ran")
}

// scriptedEditor is an $EDITOR that appends the file it is given to a record (then a line
// "----") and replaces it with the content of next.
func scriptedEditor(t *testing.T) (editor, record, next string) {
	t.Helper()
	dir := t.TempDir()
	record, next = filepath.Join(dir, "record"), filepath.Join(dir, "next")
	editor = filepath.Join(dir, "editor.sh")
	require.NoError(t, os.WriteFile(editor, []byte("#!/bin/sh\ncat \"$1\" >> '"+record+"'\necho ---- >> '"+record+"'\ncat '"+next+"' > \"$1\"\n"), 0o755))
	return editor, record, next
}

// TestTerminalEdit: \e opens the last statement in $EDITOR and runs what was saved; while a
// statement is being typed it opens that one; saved empty, nothing runs.
func TestTerminalEdit(t *testing.T) {
	editor, record, next := scriptedEditor(t)
	term := startTerminalWith(t, "fake", []string{"EDITOR=" + editor}, "--dsn", "fluss://127.0.0.1:1/fluss", "--no-pager")
	term.expect("fluss> ", 5*time.Second)
	term.send("SELECT * FROM numbers LIMIT 1;\r")
	term.expect("(1 row)", 5*time.Second)
	term.expect("fluss> ", 5*time.Second)

	require.NoError(t, os.WriteFile(next, []byte("SELECT id\n  FROM numbers LIMIT 2;\n"), 0o644))
	term.send(`\e` + "\r")
	term.expect("SELECT id\r\n  FROM numbers LIMIT 2;\r\n", 5*time.Second) // shown, then run
	term.expect("(2 rows)", 5*time.Second)
	term.expect("fluss> ", 5*time.Second)

	require.NoError(t, os.WriteFile(next, []byte("SELECT name FROM numbers LIMIT 3"), 0o644)) // no ';': runs all the same
	term.send("SELECT name\r")
	term.expect("    -> ", 5*time.Second)
	term.send(`\e` + "\r")
	term.expect("(3 rows)", 5*time.Second)
	term.expect("fluss> ", 5*time.Second)

	require.NoError(t, os.WriteFile(next, nil, 0o644))
	term.send(`\e` + "\r")
	term.expect("fluss> ", 5*time.Second)
	term.send("SELECT * FROM numbers LIMIT 4;\r") // the shell goes on as before
	term.expect("(4 rows)", 5*time.Second)
	term.send(ctrlD)
	assert.Equal(t, 0, term.exitCode(5*time.Second))
	term.logTranscript()

	b, err := os.ReadFile(record)
	require.NoError(t, err)
	assert.Equal(t, "SELECT * FROM numbers LIMIT 1;\n----\nSELECT name\n----\nSELECT name FROM numbers LIMIT 3;\n----\n", string(b),
		"what the editor was given: the last statement, the one being typed, the last one again")
	assert.Equal(t, []string{"SELECT * FROM numbers LIMIT 1;", `\e`, "SELECT id FROM numbers LIMIT 2;", `\e`,
		"SELECT name FROM numbers LIMIT 3;", `\e`, "SELECT * FROM numbers LIMIT 4;"},
		strings.Split(strings.TrimSpace(term.history()), "\n"), "history: the edited statements as run")
}

// TestTerminalFeaturesCluster walks completion, the progress of a filtered scan, \d and the
// pager against the real cluster through the real driver.
func TestTerminalFeaturesCluster(t *testing.T) {
	dsn, db := clusterDB(t)
	paged := filepath.Join(t.TempDir(), "paged")
	term := startTerminalWith(t, "real", []string{"PAGER=cat >> '" + paged + "'"}, "--dsn", dsn)
	term.expect(db+"> ", 30*time.Second)
	term.send("CREATE TABLE events (id INT, region STRING) WITH ('bucket.num' = '1');\r")
	term.expect("OK", 30*time.Second)
	term.send("INSERT INTO events VALUES (1, 'US'), (2, 'EU');\r")
	term.expect("OK, 2 rows affected", 30*time.Second)

	// Completion from the catalog: the table, then its column.
	term.send("SELECT * FROM ev" + tab)
	term.expect("events ", 30*time.Second)
	term.send("WHERE reg" + tab)
	term.expect("region ", 30*time.Second)
	term.send("= 'EU';\r")
	term.expect("  2 | EU\r\n(1 row)", 30*time.Second)
	// The catalog is kept, and fetched again after DDL: a new table completes.
	term.send("CREATE TABLE evidence (k STRING) WITH ('bucket.num' = '1');\r")
	term.expect("OK", 30*time.Second)
	term.send("SELECT * FROM evi" + tab + "LIMIT 1;\r")
	term.expect("(0 rows)", 30*time.Second)

	// The progress line of a filtered scan: rows scanned and rows matched.
	term.send("SELECT * FROM events /*+ OPTIONS('scan.bounded' = 'false') */ WHERE id = 99;\r")
	term.expect("2 rows scanned, 0 matched", 30*time.Second)
	term.send(ctrlC)
	term.expect("Cancelled after 0 rows.", 30*time.Second)

	// \d: the DDL over lines.
	term.send(`\d events` + "\r")
	term.expect(" region | STRING", 30*time.Second)
	term.expect("CREATE TABLE "+db+".events (\r\n  id INT,\r\n  region STRING\r\n)\r\nWITH (\r\n  'bucket.num' = '1',\r\n", 30*time.Second)

	// The pager: 62 rows do not fit on 40 lines.
	var values []string
	for i := 3; i <= 62; i++ {
		values = append(values, "("+strconv.Itoa(i)+", 'XX')")
	}
	term.send("INSERT INTO events VALUES " + strings.Join(values, ", ") + ";\r")
	term.expect("OK, 60 rows affected", 30*time.Second)
	term.send("SELECT * FROM events;\r")
	deadline := time.Now().Add(30 * time.Second)
	for {
		b, _ := os.ReadFile(paged)
		if strings.Contains(string(b), "(62 rows)\n") {
			assert.True(t, strings.HasPrefix(string(b), " id | region\n----+--------\n"), string(b))
			break
		}
		require.False(t, time.Now().After(deadline), "the pager got no result; it has:\n%s", b)
		time.Sleep(20 * time.Millisecond)
	}
	term.send(ctrlD)
	assert.Equal(t, 0, term.exitCode(30*time.Second))
	term.logTranscript()
}

// TestTerminalPagerQuitEarly: a pager quit before the end of an endless result (here one that
// reads one byte and exits) stops the result quietly; the shell goes on and exits with 0.
func TestTerminalPagerQuitEarly(t *testing.T) {
	term := startTerminalWith(t, "fake", []string{"PAGER=head -c 1 > /dev/null"}, "--dsn", "fluss://127.0.0.1:1/fluss")
	term.expect("fluss> ", 5*time.Second)
	term.send("SELECT * FROM endless;\r")
	term.send("SELECT * FROM numbers LIMIT 2;\r") // typed ahead: runs once the endless one stopped
	term.expect("(2 rows)", 10*time.Second)
	term.send(ctrlD)
	assert.Equal(t, 0, term.exitCode(5*time.Second), "not killed by SIGPIPE")
	term.logTranscript()
	term.mu.Lock()
	defer term.mu.Unlock()
	assert.NotContains(t, term.out.String(), "ERROR")
	assert.NotContains(t, term.out.String(), "broken pipe")
}

// TestTerminalScriptNotPaged: -e prints a tall result on the terminal as it always did.
func TestTerminalScriptNotPaged(t *testing.T) {
	paged := filepath.Join(t.TempDir(), "paged")
	term := startTerminalWith(t, "fake", []string{"PAGER=cat >> '" + paged + "'"}, "--dsn", "fluss://127.0.0.1:1/fluss",
		"-e", "SELECT * FROM numbers LIMIT 100")
	term.expect(" 99 | name-99 | ", 5*time.Second)
	term.expect("(100 rows)", 5*time.Second)
	assert.Equal(t, 0, term.exitCode(5*time.Second))
	_, err := os.Stat(paged)
	assert.True(t, os.IsNotExist(err), "the pager never ran")
}
