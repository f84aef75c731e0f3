package main

import (
	"bufio"
	"database/sql"
	"fmt"
	"io"
	"sync/atomic"
	"time"
)

// streamRows writes the rows of a result through w as they arrive and returns how many it
// wrote. A goroutine reads and scans the rows into a small bounded channel, so nothing holds
// the whole result; the loop here writes them, releases the table format's window once it is
// full or flushAfter has passed since its first row (so an unbounded SELECT shows rows while
// it runs), and refreshes the progress line. It returns when the rows end, fail or are
// cancelled through the statement's context (database/sql closes the rows then).
func (s *shell) streamRows(rows *sql.Rows, ncols int, w rowWriter) (int64, error) {
	ch := make(chan []any, 256)
	errc := make(chan error, 1)
	stop := make(chan struct{})
	go func() {
		defer close(ch)
		for rows.Next() {
			vals := make([]any, ncols)
			ptrs := make([]any, ncols)
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				errc <- err
				return
			}
			select {
			case ch <- vals:
			case <-stop:
				errc <- nil
				return
			}
		}
		errc <- rows.Err()
	}()

	var n int64
	var windowTimer <-chan time.Time
	ticker := time.NewTicker(progressEvery)
	defer ticker.Stop()
	werr := func(err error) (int64, error) {
		close(stop)
		_ = rows.Close()
		for range ch { // let the reader finish
		}
		<-errc
		s.progress.clear()
		return n, err
	}
	for {
		select {
		case vals, ok := <-ch:
			if !ok {
				err := <-errc
				s.progress.clear()
				return n, err
			}
			n++
			s.progress.rows = n
			if err := w.row(vals); err != nil {
				return werr(err)
			}
			if w.holding() {
				if windowTimer == nil {
					windowTimer = time.After(s.flushAfter)
				}
			} else if len(ch) == 0 {
				// About to wait for more rows: show what we have.
				if err := s.out.Flush(); err != nil {
					return werr(err)
				}
			}
		case <-windowTimer:
			if err := w.flushWindow(); err != nil {
				return werr(err)
			}
			if err := s.out.Flush(); err != nil {
				return werr(err)
			}
		case <-ticker.C:
			// On a terminal that shows the rows themselves no progress line is needed.
			if w.holding() || !s.stdoutTTY || s.paged.holding() {
				s.progress.show()
			}
		}
	}
}

// progressEvery is how often the progress line is refreshed.
const progressEvery = 250 * time.Millisecond

// progress is the "… N rows read" line on stderr while a scan runs; it is drawn only when
// stderr is a terminal, and cleared before anything else is written.
type progress struct {
	w     io.Writer // nil: no progress line
	start time.Time
	rows  int64
	// scanned counts the rows the query's scans read (flussql.WithScanCounter): more than
	// rows when a filter drops some.
	scanned   atomic.Int64
	visible   bool
	suspended bool // a pager has the screen
}

func (p *progress) reset(now time.Time) {
	p.start, p.rows = now, 0
	p.scanned.Store(0)
}

func (p *progress) show() {
	if p == nil || p.w == nil || p.suspended {
		return
	}
	fmt.Fprintf(p.w, "\r\x1b[K… %s, %s", progressCounts(p.rows, p.scanned.Load()), time.Since(p.start).Round(100*time.Millisecond))
	p.visible = true
}

// progressCounts is "N rows read", or for a scan that has gone through more rows than it
// returned (a filter, a LIMIT) "S rows scanned, N matched".
func progressCounts(rows, scanned int64) string {
	if scanned > rows {
		return fmt.Sprintf("%d rows scanned, %d matched", scanned, rows)
	}
	return fmt.Sprintf("%d rows read", rows)
}

// suspend stops (true) or allows again (false) the progress line.
func (p *progress) suspend(on bool) {
	if p == nil {
		return
	}
	if on {
		p.clear()
	}
	p.suspended = on
}

func (p *progress) clear() {
	if p == nil || !p.visible {
		return
	}
	fmt.Fprint(p.w, "\r\x1b[K")
	p.visible = false
}

// clearingWriter clears the progress line before it writes, so that output on the same
// terminal never lands after a half-drawn progress line.
type clearingWriter struct {
	w io.Writer
	p *progress
}

func (c clearingWriter) Write(b []byte) (int, error) {
	c.p.clear()
	return c.w.Write(b)
}

// newOutput buffers stdout; the shell flushes it whenever it would wait.
func newOutput(w io.Writer, p *progress) *bufio.Writer {
	return bufio.NewWriterSize(clearingWriter{w: w, p: p}, 64<<10)
}
