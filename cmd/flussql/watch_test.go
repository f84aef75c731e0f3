package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseWatch(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want watchSpec
		err  string
	}{
		{args: nil, want: watchSpec{every: 2 * time.Second}},
		{args: []string{"0.5"}, want: watchSpec{every: 500 * time.Millisecond}},
		{args: []string{"i=3", "c=4"}, want: watchSpec{every: 3 * time.Second, count: 4}},
		{args: []string{"count=1", "interval=0"}, want: watchSpec{count: 1}},
		{args: []string{"x"}, err: "not a number of seconds"},
		{args: []string{"-1"}, err: "not a number of seconds"},
		{args: []string{"c=0"}, err: "not a positive whole number"},
		{args: []string{"every=2"}, err: "unknown option"},
	} {
		got, err := parseWatch(tc.args)
		if tc.err != "" {
			assert.ErrorContains(t, err, tc.err, tc.args)
			continue
		}
		require.NoError(t, err, tc.args)
		assert.Equal(t, tc.want, got, tc.args)
	}
}

// TestWatchRunsTheStatement: \watch count=N runs the statement being typed (or the last one)
// N times, each headed by its time and interval.
func TestWatchRunsTheStatement(t *testing.T) {
	code, out := runFake(t, "SELECT id FROM numbers LIMIT 1\n\\watch 0 count=3\n\\watch 0 c=2\n")
	assert.Equal(t, exitOK, code, out)
	assert.Equal(t, 5, strings.Count(out, "(every 0s)\n"), out)
	assert.Equal(t, 5, strings.Count(out, "(1 row)"), out)
	assert.Len(t, fakeStatements(), 5)

	code, out = runFake(t, "\\watch 1\n")
	assert.Equal(t, exitError, code)
	assert.Contains(t, out, `\watch: no statement to run yet`)
}

// TestWatchStopsOnCtrlC: Ctrl-C between two runs ends \watch; in a script with status 130.
func TestWatchStopsOnCtrlC(t *testing.T) {
	resetFake()
	out := &lockedBuffer{}
	interrupts := make(chan struct{})
	e := fakeEnv(out, "SELECT id FROM numbers LIMIT 1\n\\watch 0.05\nSELECT 'never';\n")
	e.interrupts = interrupts
	done := make(chan int)
	go func() { done <- run(context.Background(), e) }()
	require.Eventually(t, func() bool { return strings.Count(out.String(), "(1 row)") >= 2 }, 10*time.Second, 5*time.Millisecond)
	interrupts <- struct{}{}
	select {
	case code := <-done:
		assert.Equal(t, exitCancelled, code)
	case <-time.After(10 * time.Second):
		t.Fatal("Ctrl-C did not stop \\watch")
	}
	assert.NotContains(t, fakeStatements(), "SELECT 'never'")
}
