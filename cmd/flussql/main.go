// Command flussql is an interactive SQL shell for Apache Fluss.
//
// Usage:
//
//	flussql [--dsn DSN] [-e SQL] [-f FILE] [--format table|csv|tsv|json] [--echo] [--no-pager]
//
// The DSN (fluss://host:port[/database][?key=value…]) comes from --dsn, else $FLUSS_DSN,
// else $FLUSS_BOOTSTRAP_SERVERS; with none of them flussql starts a local Fluss cluster
// (Java 17+ and Maven needed) and stops it on exit.
//
// With -e it runs the given statements (every -e, in order), with -f those of FILE ("-" is standard input), and
// stops at the first error with exit status 1 (130 when Ctrl-C ended it); piped standard
// input is a script too. --echo prints each statement of a script before its result. Otherwise it reads statements from the terminal, with line editing
// and history ($FLUSSQL_HISTORY, default ~/.flussql_history). Statements end with ';'.
// Ctrl-C cancels the running statement, Ctrl-D leaves. Tab completes keywords, backslash
// commands, databases, tables and columns. A result taller than the terminal goes through
// $PAGER (default less -S; \pset pager off or --no-pager turn it off). \e edits the last
// statement in $EDITOR (default vi) and runs it. \? lists the backslash commands:
// \l, \dt [db], \d[+] t, \dp t, \c db, \timing, \x [auto], \format, \pset pager, \e, \i, \o,
// \copy (files in and out: csv, parquet, json), \watch, \g, \set, \echo, \!, \h, \q.
//
// Output: aligned tables with the row count and time (NULL prints as NULL, the string
// "NULL" as "NULL" with its quotes); for scripts csv (NULL is an empty field, an empty
// string is ""), tsv (NULL is \N) and json (one object per line), their status lines on
// stderr. Bytes print as 0x-hex, times in RFC 3339. Rows stream: a long scan shows its
// progress on a terminal (rows scanned and rows matched when a filter drops rows), and an
// unbounded SELECT runs until Ctrl-C.
//
// Flags:
package main

import (
	"context"
	_ "embed"
	"os"
	"os/signal"
	"strings"
	"syscall"

	_ "github.com/flussql/flussql" // the "fluss" database/sql driver
	"golang.org/x/term"
)

//go:embed main.go
var mainSource string

// usageText is the doc comment above, which is also --help.
func usageText() string {
	var b strings.Builder
	for _, l := range strings.Split(mainSource, "\n") {
		if strings.HasPrefix(l, "package ") {
			break
		}
		l = strings.TrimPrefix(strings.TrimPrefix(l, "//"), " ")
		if strings.HasPrefix(l, "\t") {
			l = "  " + l[1:]
		}
		b.WriteString(l + "\n")
	}
	return b.String()
}

func main() {
	os.Exit(mainWith("fluss"))
}

// mainWith runs the shell on the process's standard streams with the named driver.
func mainWith(driverName string) int {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	defer signal.Stop(sig)
	// Signals that end the process: stop a local cluster the shell started first, then die
	// with the usual status (128 + the signal's number). With SIGPIPE caught, a write to a
	// closed pipe also fails with EPIPE instead of killing the process on the spot.
	fatal := make(chan os.Signal, 1)
	signal.Notify(fatal, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGPIPE)
	defer signal.Stop(fatal)
	stdoutTTY := term.IsTerminal(int(os.Stdout.Fd()))
	go func() {
		s := <-fatal
		// With standard output on a terminal, a SIGPIPE comes from a pager that was quit
		// before the end of a result (the shell then stops that result), not from stdout.
		for s == syscall.SIGPIPE && stdoutTTY {
			s = <-fatal
		}
		runFatalCleanup()
		code := 1
		if n, isSys := s.(syscall.Signal); isSys {
			code = 128 + int(n)
		}
		os.Exit(code)
	}()
	interrupts := make(chan struct{}, 1)
	go func() {
		for range sig {
			select {
			case interrupts <- struct{}{}:
			default:
			}
		}
	}()
	return run(context.Background(), env{
		args:       os.Args[1:],
		stdin:      os.Stdin,
		stdout:     os.Stdout,
		stderr:     os.Stderr,
		getenv:     os.Getenv,
		driver:     driverName,
		stdinTTY:   term.IsTerminal(int(os.Stdin.Fd())),
		stdoutTTY:  stdoutTTY,
		stderrTTY:  term.IsTerminal(int(os.Stderr.Fd())),
		interrupts: interrupts,
		exit:       os.Exit,
	})
}
