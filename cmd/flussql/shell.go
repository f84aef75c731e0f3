package main

import (
	"bufio"
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/flussql/flussql"
	"github.com/flussql/flussql/parser"
	"golang.org/x/term"
)

// shell is one session: a single pinned connection (so USE sticks), the output settings
// and the statement that is running, if any.
type shell struct {
	db   *sql.DB
	conn *sql.Conn
	// database is the current database, shown in the prompt and restored on reconnect.
	database string

	out    *bufio.Writer // where results go: stdout, or the \o file
	stdout *bufio.Writer // stdout, buffered
	// outFile is the \o file, nil when results go to stdout.
	outFile *os.File
	// conninfo describes the connection for \conninfo (addresses, user), no password.
	conninfo string
	errw     io.Writer // stderr
	format   string
	// expanded (\x) prints one block per row in the table format; expandedAuto (\x auto)
	// does when the table would be wider than the terminal.
	expanded, expandedAuto bool
	// vars are the \set variables.
	vars map[string]string
	// timing (\timing) prints how long each statement took.
	timing bool
	// window is how many rows the table format holds to size its columns; flushAfter how
	// long it holds them at most.
	window     int
	flushAfter time.Duration
	stdoutTTY  bool
	progress   *progress
	// echo (--echo) prints each statement of a script before its result.
	echo bool
	// stdoutRaw is what s.stdout writes to (the progress-clearing stdout).
	stdoutRaw io.Writer
	// terminal is standard output when it is a terminal the pager may use, else nil.
	terminal *os.File
	// pager is \pset pager's setting and pagerCmd the command ($PAGER or less -S).
	pager    pagerMode
	pagerCmd string
	// paged is the output of the result being paged, nil when none is.
	paged *pagedOutput
	// getenv reads the process environment ($EDITOR).
	getenv func(string) string
	// lastStatement is the text of the last statement run, for \e.
	lastStatement string
	// typed is the statement being typed (lines before the current one), for completion.
	typed string
	// catalog is what tab completion knows of databases, tables and columns.
	catalog *catalog

	mu     sync.Mutex
	cancel context.CancelFunc // cancels what runs now, nil when idle
}

// errCancelled is what a statement returns when Ctrl-C cancelled it.
var errCancelled = errors.New("cancelled")

// interrupt cancels the running statement (or the cluster start) and reports whether
// something was running.
func (s *shell) interrupt() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cancel == nil {
		return false
	}
	s.cancel()
	return true
}

// begin returns the context of one statement, which Ctrl-C cancels, and its end function.
// Calls nest (\watch around the statements it runs): Ctrl-C cancels the innermost, and
// its end makes the enclosing one cancellable again.
func (s *shell) begin(parent context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancel(parent)
	s.mu.Lock()
	prev := s.cancel
	s.cancel = cancel
	s.mu.Unlock()
	return ctx, func() {
		s.mu.Lock()
		s.cancel = prev
		s.mu.Unlock()
		cancel()
	}
}

// runStatement runs one statement that has been parsed already.
func (s *shell) runStatement(parent context.Context, text string, st parser.Statement) error {
	if parser.ReturnsRows(st) {
		return s.runQuery(parent, text)
	}
	ctx, end := s.begin(parent)
	defer end()
	start := time.Now()
	res, err := s.conn.ExecContext(ctx, text)
	if err != nil {
		return s.failed(ctx, err)
	}
	if changesCatalog(st) {
		s.catalog.reset()
	}
	msg := "OK"
	switch st := st.(type) {
	case *parser.Insert, *parser.Update, *parser.Delete:
		if n, err := res.RowsAffected(); err == nil {
			msg = fmt.Sprintf("OK, %d %s affected", n, plural(n, "row", "rows"))
		}
	case *parser.Use:
		s.database = st.Database
	}
	s.status(msg)
	s.showTiming(start)
	return nil
}

// runQuery runs a statement that returns rows and streams them out.
func (s *shell) runQuery(parent context.Context, text string) error {
	defer s.startPaging()()
	ctx, end := s.begin(parent)
	defer end()
	start := time.Now()
	s.progress.reset(start)
	rows, err := s.conn.QueryContext(flussql.WithScanCounter(ctx, &s.progress.scanned), text)
	if err != nil {
		return s.failed(ctx, err)
	}
	defer rows.Close()
	cols, err := columnsOf(rows)
	if err != nil {
		return s.failed(ctx, err)
	}
	var w rowWriter
	if s.expandedAuto && s.format == formatTable {
		w = newAutoWriter(s.out, cols, s.window, s.terminalWidth())
	} else if w, err = newRowWriter(s.format, s.expanded, s.out, cols, s.window); err != nil {
		return err
	}
	n, err := s.streamRows(rows, len(cols), w)
	if errors.Is(err, errPagerQuit) && ctx.Err() == nil {
		return nil // the pager was quit before the end: the rest is not wanted
	}
	if err != nil {
		// Show what was written before the error or Ctrl-C, then say why it stopped.
		_ = w.flushWindow()
		_ = s.out.Flush()
		if ctx.Err() != nil {
			// Ctrl-C reaches a pager too: one that dies of it (more, cat) took the
			// line with it, and less hides it with its screen when quit. Say it on the
			// terminal once the pager is done as well.
			msg := fmt.Sprintf("Cancelled after %d %s.", n, plural(n, "row", "rows"))
			s.paged.repeatAfter(msg)
			s.status(msg)
			s.checkConn(context.WithoutCancel(ctx))
			return errCancelled
		}
		return s.failed(ctx, err)
	}
	if err := w.finish(); err != nil {
		return ignorePagerQuit(err)
	}
	if s.format != formatTable {
		s.status(rowCount(n))
	}
	s.showTiming(start)
	if s.format == formatTable {
		fmt.Fprintln(s.out) // a blank line after each result
	}
	return ignorePagerQuit(s.out.Flush())
}

// terminalWidth is the width of the terminal results go to, 0 when they go elsewhere.
func (s *shell) terminalWidth() int {
	if s.terminal == nil || s.outFile != nil {
		return 0
	}
	w, _, err := term.GetSize(int(s.terminal.Fd()))
	if err != nil {
		return 0
	}
	return w
}

// ignorePagerQuit drops errPagerQuit: quitting the pager early is no error.
func ignorePagerQuit(err error) error {
	if errors.Is(err, errPagerQuit) {
		return nil
	}
	return err
}

// queryText runs a query and returns the last column of its first row (SHOW CREATE TABLE's
// DDL for \d), and whether there was a non-NULL one.
func (s *shell) queryText(parent context.Context, text string) (string, bool, error) {
	ctx, end := s.begin(parent)
	defer end()
	var v any
	rows, err := s.conn.QueryContext(ctx, text)
	if err != nil {
		return "", false, s.failed(ctx, err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return "", false, err
	}
	if !rows.Next() {
		return "", false, s.failed(ctx, rows.Err())
	}
	dest := make([]any, len(cols))
	for i := range dest {
		dest[i] = new(any)
	}
	if len(cols) > 0 {
		dest[len(cols)-1] = &v
	}
	if err := rows.Scan(dest...); err != nil {
		return "", false, err
	}
	text, kind := render(v, nil)
	return text, kind != kindNull, rows.Close()
}

// failed turns a driver error into what the shell reports: errCancelled after Ctrl-C; after
// a lost connection it reconnects (the statement is not retried: it may have been applied).
func (s *shell) failed(ctx context.Context, err error) error {
	if err == nil {
		return nil
	}
	if ctx.Err() != nil { // Ctrl-C: whatever the driver made of the cancellation
		s.status("Cancelled.")
		s.checkConn(context.WithoutCancel(ctx))
		return errCancelled
	}
	if errors.Is(err, driver.ErrBadConn) || errors.Is(err, sql.ErrConnDone) {
		if rerr := s.reconnect(context.WithoutCancel(ctx)); rerr == nil {
			return fmt.Errorf("%w (the connection was lost and is open again; the statement may or may not have been applied)", err)
		}
	}
	return err
}

// checkConn makes sure the pinned connection survived a cancelled statement, and opens a
// new one (in the same database) when it did not.
func (s *shell) checkConn(parent context.Context) {
	ctx, cancel := context.WithTimeout(parent, 5*time.Second)
	defer cancel()
	if err := s.conn.PingContext(ctx); err != nil {
		if err := s.reconnect(ctx); err != nil {
			s.errorf("flussql: the connection broke and could not be opened again: %v", err)
		}
	}
}

// reconnect replaces the pinned connection and restores the current database.
func (s *shell) reconnect(ctx context.Context) error {
	if s.conn != nil {
		_ = s.conn.Close()
	}
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return err
	}
	s.conn = conn
	if s.database != "" {
		if _, err := conn.ExecContext(ctx, "USE "+quoteIdent(s.database)); err != nil {
			return err
		}
	}
	return nil
}

// status prints a status line: on stdout for the table format, on stderr for the machine
// formats so that their output stays pure data.
func (s *shell) status(line string) {
	// While a result goes through the pager (or is held back to decide on one), its
	// status lines follow it there: written to the terminal beside it, "(0 rows)" came
	// before a held-back CSV header, and a pager hid "Cancelled after N rows.".
	if s.paged != nil && s.paged.quit {
		_ = s.out.Flush()
		fmt.Fprintln(s.paged.direct, line) // the pager is gone: on the terminal
		return
	}
	if s.format == formatTable || s.paged != nil {
		fmt.Fprintln(s.out, line)
		return
	}
	_ = s.out.Flush()
	fmt.Fprintln(s.errw, line)
}

func (s *shell) showTiming(start time.Time) {
	if s.timing {
		s.status(fmt.Sprintf("Time: %.3f ms", float64(time.Since(start).Microseconds())/1000))
	}
}

// quoteIdent quotes a name with backticks.
func quoteIdent(name string) string {
	return "`" + strings.ReplaceAll(name, "`", "``") + "`"
}

func plural(n int64, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
