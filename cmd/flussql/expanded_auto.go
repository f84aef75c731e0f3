package main

import "io"

// \x auto, as psql's: a result whose aligned table would be wider than the terminal prints
// expanded (one block per row), any other as a table. The decision is taken on the
// table format's window (the first rows, or those of the first second), which sizes the
// columns anyway; without a terminal (a script, a pipe) the table is kept.

// autoWriter holds a result's window as a table writer does, then hands it to the table
// or the expanded writer.
type autoWriter struct {
	w      io.Writer
	cols   []column
	window int
	width  int // the terminal's width, 0 when unknown
	held   [][]any
	chosen rowWriter
}

func newAutoWriter(w io.Writer, cols []column, window, width int) *autoWriter {
	return &autoWriter{w: w, cols: cols, window: window, width: width}
}

func (a *autoWriter) row(vals []any) error {
	if a.chosen != nil {
		return a.chosen.row(vals)
	}
	a.held = append(a.held, vals)
	if len(a.held) >= a.window {
		return a.flushWindow()
	}
	return nil
}

func (a *autoWriter) holding() bool { return a.chosen == nil }

// flushWindow decides on the held rows and writes them.
func (a *autoWriter) flushWindow() error {
	if a.chosen != nil {
		return a.chosen.flushWindow()
	}
	t := newTableWriter(a.w, a.cols, len(a.held)+1)
	for _, vals := range a.held {
		if err := t.row(vals); err != nil {
			return err
		}
	}
	if a.width > 0 && tableWidth(t.widths) > a.width {
		e := newExpandedWriter(a.w, a.cols)
		a.chosen = e
		for _, vals := range a.held {
			if err := e.row(vals); err != nil {
				return err
			}
		}
		a.held = nil
		return nil
	}
	a.chosen = t
	a.held = nil
	return t.flushWindow()
}

func (a *autoWriter) finish() error {
	if err := a.flushWindow(); err != nil {
		return err
	}
	return a.chosen.finish()
}

// tableWidth is how wide the table format's widest line is for these column widths: a
// blank either side of each value and a | between columns, no blank after the last.
func tableWidth(widths []int) int {
	n := 0
	for _, w := range widths {
		n += w + 3
	}
	return max(n-2, 0)
}
