package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// recordingPager is a $PAGER that writes what it is given to a file, and that file.
func recordingPager(t *testing.T) (string, string) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "paged")
	return "cat > '" + file + "'", file
}

func newPaged(t *testing.T, limit int, command string, direct *bytes.Buffer) *pagedOutput {
	t.Helper()
	tty, err := os.Create(filepath.Join(t.TempDir(), "terminal"))
	require.NoError(t, err)
	t.Cleanup(func() { tty.Close() })
	var errw bytes.Buffer
	return &pagedOutput{limit: limit, direct: direct, command: command, terminal: tty, errw: &errw, progress: &progress{}}
}

func TestPagedOutput(t *testing.T) {
	lines := func(n int) string {
		var b strings.Builder
		for i := range n {
			b.WriteString(strings.Repeat("x", i) + "\n")
		}
		return b.String()
	}
	for _, tc := range []struct {
		name  string
		limit int
		text  string
		paged bool
	}{
		{name: "fits on the screen", limit: 5, text: lines(5)},
		{name: "one line too many", limit: 5, text: lines(6), paged: true},
		{name: "much taller", limit: 5, text: lines(5000), paged: true},
		{name: "always (limit 0)", limit: 0, text: lines(1), paged: true},
		{name: "nothing at all", limit: 0, text: ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			command, file := recordingPager(t)
			var direct bytes.Buffer
			p := newPaged(t, tc.limit, command, &direct)
			for chunk := range strings.SplitAfterSeq(tc.text, "\n") { // written in pieces, as rows are
				_, err := p.Write([]byte(chunk))
				require.NoError(t, err)
			}
			p.finish()
			got, err := os.ReadFile(file)
			if tc.paged {
				require.NoError(t, err, "the pager ran")
				assert.Equal(t, tc.text, string(got), "the pager got all of it")
				assert.Empty(t, direct.String(), "nothing went to the terminal directly")
			} else {
				assert.True(t, os.IsNotExist(err), "no pager ran")
				assert.Equal(t, tc.text, direct.String())
			}
		})
	}
}

// A pager quit before the end (here: one that reads nothing) makes the writes fail with
// errPagerQuit, so the shell stops the result instead of scanning on.
func TestPagedOutputQuit(t *testing.T) {
	var direct bytes.Buffer
	p := newPaged(t, 0, "exit 0", &direct)
	chunk := []byte(strings.Repeat("row\n", 16<<10))
	var err error
	for range 100 { // the pipe holds far less than 6 MiB
		if _, err = p.Write(chunk); err != nil {
			break
		}
	}
	assert.ErrorIs(t, err, errPagerQuit)
	p.finish()
	assert.False(t, p.progress.suspended, "the progress line is allowed again")
}

func TestProgressCounts(t *testing.T) {
	for _, tc := range []struct {
		rows, scanned int64
		want          string
	}{
		{rows: 5, scanned: 0, want: "5 rows read"}, // not a log scan (the fake driver, a lookup)
		{rows: 5, scanned: 5, want: "5 rows read"}, // no filter
		{rows: 3, scanned: 2048, want: "2048 rows scanned, 3 matched"},
		{rows: 0, scanned: 100, want: "100 rows scanned, 0 matched"},
	} {
		assert.Equal(t, tc.want, progressCounts(tc.rows, tc.scanned))
	}
}

func TestPsetAndEditCommands(t *testing.T) {
	for _, tc := range []struct {
		name, stdin string
		code        int
		want        string
	}{
		{name: "pager off", stdin: `\pset pager off` + "\n", want: "Pager usage is off.\n"},
		{name: "pager on", stdin: `\pset pager on` + "\n", want: "Pager is used for long output.\n"},
		{name: "pager always", stdin: `\pset pager always` + "\n", want: "Pager is always used.\n"},
		{name: "pager toggles", stdin: `\pset pager` + "\n" + `\pset pager` + "\n", want: "Pager usage is off.\nPager is used for long output.\n"},
		{name: "bad pager setting", stdin: `\pset pager sometimes` + "\n", code: exitError,
			want: `<stdin>:1: \pset pager sometimes: \pset pager sometimes: say on, off, auto or always`},
		{name: "other settings", stdin: `\pset border 2` + "\n", code: exitError,
			want: `\pset knows one setting: \pset pager [on|off|auto|always]`},
		{name: "edit in a script", stdin: `\e` + "\n", code: exitError, want: `<stdin>:1: \e: \e needs an interactive terminal`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out := runFake(t, tc.stdin)
			assert.Equal(t, tc.code, code, out)
			assert.Contains(t, out, tc.want)
		})
	}
}
