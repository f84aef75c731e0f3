package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/flussql/flussql"
)

// env is everything the shell takes from its process, so that tests can run it in-process.
type env struct {
	args           []string
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
	// driver is the database/sql driver name ("fluss").
	driver string
	// Whether the standard streams are terminals.
	stdinTTY, stdoutTTY, stderrTTY bool
	// interrupts delivers Ctrl-C (SIGINT).
	interrupts <-chan struct{}
	// exit ends the process when Ctrl-C arrives while a script waits for input.
	exit func(int)
	// window and flushAfter override the table format's window (tests); 0 means default.
	window     int
	flushAfter time.Duration
}

// Defaults of the table format's window.
const (
	defaultWindow     = 1000
	defaultFlushAfter = time.Second
)

// run is the whole shell; it returns the exit status.
func run(ctx context.Context, e env) int {
	fs := flag.NewFlagSet("flussql", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	dsnFlag := fs.String("dsn", "", "data source name fluss://host:port[/database][?key=value…]")
	var execList execFlags
	fs.Var(&execList, "e", "run these statements, then exit (repeatable: each -e runs in order, as psql's -c)")
	execSQL := new(string)
	file := fs.String("f", "", "run the statements in this file (- is standard input), then exit")
	format := fs.String("format", formatTable, "output format: table, csv, tsv or json")
	echo := fs.Bool("echo", false, "print each statement of a script before its result")
	noPager := fs.Bool("no-pager", false, "never page results (else $PAGER or less -S pages results taller than the terminal)")
	fs.Usage = func() {
		fmt.Fprint(e.stderr, usageText())
		fs.PrintDefaults()
	}
	if err := fs.Parse(e.args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if len(execList) > 0 {
		*execSQL = execList.script()
	}
	usageErr := func(msg string) int {
		fmt.Fprintf(e.stderr, "flussql: %s (flussql -h shows the usage)\n", msg)
		return exitUsage
	}
	switch {
	case fs.NArg() > 0:
		return usageErr(fmt.Sprintf("unexpected argument %q", fs.Arg(0)))
	case !validFormat(*format):
		return usageErr(fmt.Sprintf("--format %q: want table, csv, tsv or json", *format))
	case *execSQL != "" && *file != "":
		return usageErr("give -e or -f, not both")
	}
	interactive := *execSQL == "" && *file == "" && e.stdinTTY && e.stdoutTTY

	p := &progress{}
	if e.stderrTTY {
		p.w = e.stderr
	}
	sh := &shell{
		errw: e.stderr, format: *format, timing: true,
		window: defaultWindow, flushAfter: defaultFlushAfter,
		stdoutTTY: e.stdoutTTY, progress: p, echo: *echo,
	}
	sh.out = newOutput(e.stdout, p)
	sh.stdout = sh.out
	sh.stdoutRaw = clearingWriter{w: e.stdout, p: p}
	sh.getenv = e.getenv
	sh.pager, sh.pagerCmd = pagerAuto, defaultPager
	if *noPager {
		sh.pager = pagerOff
	}
	if pg := e.getenv("PAGER"); pg != "" {
		sh.pagerCmd = pg
	}
	// The pager is for interactive sessions: scripts (-e, -f, piped input) print as they always did.
	if f, ok := e.stdout.(*os.File); ok && interactive {
		sh.terminal = f
	}
	defer func() { _ = sh.closeOutputFile() }()
	if e.window > 0 {
		sh.window = e.window
	}
	if e.flushAfter > 0 {
		sh.flushAfter = e.flushAfter
	}

	var cleanups []func()
	var cleanOnce sync.Once
	cleanup := func() {
		cleanOnce.Do(func() {
			for i := len(cleanups) - 1; i >= 0; i-- {
				cleanups[i]()
			}
		})
	}
	defer cleanup()

	// Ctrl-C cancels what runs; in a script that waits for input it ends the shell.
	done := make(chan struct{})
	defer close(done)
	go func() {
		for {
			select {
			case <-e.interrupts:
				if !sh.interrupt() && !interactive && e.exit != nil {
					cleanup()
					e.exit(exitCancelled)
				}
			case <-done:
				return
			}
		}
	}()

	dsn := *dsnFlag
	if dsn == "" {
		dsn = flussql.DSNFromEnv()
	}
	wait := time.Duration(0)
	if dsn == "" {
		sctx, end := sh.begin(ctx)
		var stop func()
		var err error
		dsn, stop, err = startLocalCluster(sctx, e.stderr)
		end()
		if err != nil {
			fmt.Fprintf(e.stderr, "flussql: %s\n", unprefixed(err))
			return exitError
		}
		cleanups = append(cleanups, stop)
		wait = 60 * time.Second
	}
	cfg, err := flussql.ParseDSN(dsn)
	if err != nil {
		fmt.Fprintf(e.stderr, "flussql: %s\n", unprefixed(err))
		return exitUsage
	}
	sh.database = cfg.Database
	sh.conninfo = connInfo(cfg)
	cctx, end := sh.begin(ctx)
	db, conn, err := connect(cctx, e.driver, dsn, wait)
	end()
	if err != nil {
		fmt.Fprintf(e.stderr, "flussql: cannot connect to %s: %s\n", cfg, unprefixed(err))
		return exitError
	}
	sh.db, sh.conn = db, conn
	sh.catalog = newCatalog(sh.firstColumn)
	cleanups = append(cleanups, func() {
		_ = sh.conn.Close()
		_ = db.Close()
	})

	var r lineReader
	var src source
	switch {
	case *execSQL != "":
		r, src = newPlainReader(strings.NewReader(*execSQL)), source{name: "-e"}
	case *file == "-":
		r, src = newPlainReader(e.stdin), source{name: "<stdin>"}
	case *file != "":
		f, err := os.Open(*file)
		if err != nil {
			fmt.Fprintf(e.stderr, "flussql: %v\n", err)
			return exitError
		}
		defer f.Close()
		r, src = newPlainReader(f), source{name: *file}
	case interactive:
		ed := newEditor(historyPath(e.getenv), sh.complete)
		cleanups = append(cleanups, func() { _ = ed.close() })
		r, src = ed, source{interactive: true}
		fmt.Fprintf(e.stdout, "flussql: connected to %s. \\? for help, \\q or Ctrl-D to leave.\n", cfg)
	default:
		r, src = newPlainReader(e.stdin), source{name: "<stdin>"}
	}
	return sh.loop(ctx, r, src)
}

// unprefixed is err's text without the "flussql: " the driver's errors start with, for a
// line the shell prefixes itself (it printed "flussql: flussql: DSN must start…").
func unprefixed(err error) string {
	return strings.TrimPrefix(err.Error(), "flussql: ")
}
