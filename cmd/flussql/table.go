package main

import (
	"io"
	"strings"
	"unicode"

	"github.com/mattn/go-runewidth"
)

// rowWriter writes the rows of one result in one output format. Rows arrive one at a time
// and are never all held: the table format keeps a bounded window to size its columns, the
// others write each row as it comes.
type rowWriter interface {
	// row writes (or, for the table format's window, keeps) one row of scanned values.
	row(vals []any) error
	// flushWindow writes what the table format holds back to size its columns; the columns
	// keep the widths found so far. It is a no-op for the other formats.
	flushWindow() error
	// holding reports whether rows are being held back rather than shown.
	holding() bool
	// finish writes what follows the last row.
	finish() error
}

// tableCell renders a value for the aligned formats (table and expanded): NULL is NULL, a
// string whose text is exactly NULL is shown as "NULL" (quoted) so the two never look alike,
// and control characters are escaped (\n, \t, \r, \x1b, …) so that every row is one line.
func tableCell(v any, c *column) (text string, right bool) {
	s, kind := render(v, c)
	switch kind {
	case kindNull:
		return "NULL", false
	case kindNumber:
		return s, true
	}
	if s == "NULL" {
		return `"NULL"`, false
	}
	return escapeControl(s), false
}

// escapeControl replaces control characters with Go-style escapes.
func escapeControl(s string) string {
	if strings.IndexFunc(s, unicode.IsControl) < 0 {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case unicode.IsControl(r):
			b.WriteString(quoteRune(r))
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func quoteRune(r rune) string {
	const hexdigits = "0123456789abcdef"
	if r < 0x100 {
		return `\x` + string(hexdigits[r>>4]) + string(hexdigits[r&15])
	}
	return `\u` + string(hexdigits[r>>12&15]) + string(hexdigits[r>>8&15]) + string(hexdigits[r>>4&15]) + string(hexdigits[r&15])
}

// tableWriter prints psql-style aligned tables:
//
//	 id | region | value
//	----+--------+-------
//	  1 | US     |   100
//	(1 row)
//
// It holds up to window rows to size the columns, then prints them and streams the rest
// with those widths (a later, wider value widens its own line only).
type tableWriter struct {
	w       io.Writer
	cols    []column
	window  int
	held    [][]cell
	widths  []int
	started bool
	rows    int64
}

type cell struct {
	text  string
	right bool
}

func newTableWriter(w io.Writer, cols []column, window int) *tableWriter {
	t := &tableWriter{w: w, cols: cols, window: window, widths: make([]int, len(cols))}
	for i, c := range cols {
		t.widths[i] = runewidth.StringWidth(escapeControl(c.name))
	}
	return t
}

func (t *tableWriter) row(vals []any) error {
	t.rows++
	cells := make([]cell, len(vals))
	for i, v := range vals {
		var c *column
		if i < len(t.cols) {
			c = &t.cols[i]
		}
		cells[i].text, cells[i].right = tableCell(v, c)
	}
	if t.started {
		return t.line(cells)
	}
	t.held = append(t.held, cells)
	for i, c := range cells {
		if i < len(t.widths) {
			t.widths[i] = max(t.widths[i], runewidth.StringWidth(c.text))
		}
	}
	if len(t.held) >= t.window {
		return t.flushWindow()
	}
	return nil
}

func (t *tableWriter) holding() bool { return !t.started }

func (t *tableWriter) flushWindow() error {
	if t.started {
		return nil
	}
	t.started = true
	header := make([]cell, len(t.cols))
	for i, c := range t.cols {
		header[i] = cell{text: escapeControl(c.name)}
	}
	if err := t.line(header); err != nil {
		return err
	}
	var b strings.Builder
	for i, w := range t.widths {
		if i > 0 {
			b.WriteByte('+')
		}
		b.WriteString(strings.Repeat("-", w+2))
	}
	b.WriteByte('\n')
	if _, err := io.WriteString(t.w, b.String()); err != nil {
		return err
	}
	for _, r := range t.held {
		if err := t.line(r); err != nil {
			return err
		}
	}
	t.held = nil
	return nil
}

// line prints one row of cells with the column widths.
func (t *tableWriter) line(cells []cell) error {
	var b strings.Builder
	for i, c := range cells {
		if i > 0 {
			b.WriteString("|")
		}
		w := 0
		if i < len(t.widths) {
			w = t.widths[i]
		}
		pad := max(w-runewidth.StringWidth(c.text), 0)
		b.WriteByte(' ')
		last := i == len(cells)-1
		switch {
		case c.right:
			b.WriteString(strings.Repeat(" ", pad))
			b.WriteString(c.text)
		case last:
			b.WriteString(c.text) // no trailing blanks
		default:
			b.WriteString(c.text)
			b.WriteString(strings.Repeat(" ", pad))
		}
		if !last {
			b.WriteByte(' ')
		}
	}
	// An empty last cell would leave blanks at the end of the line.
	_, err := io.WriteString(t.w, strings.TrimRight(b.String(), " ")+"\n")
	return err
}

func (t *tableWriter) finish() error {
	if err := t.flushWindow(); err != nil {
		return err
	}
	_, err := io.WriteString(t.w, rowCount(t.rows)+"\n")
	return err
}

// rowCount renders "(1 row)" / "(n rows)".
func rowCount(n int64) string {
	if n == 1 {
		return "(1 row)"
	}
	return "(" + itoa(n) + " rows)"
}

// expandedWriter prints one block per row (\x), which suits wide rows:
//
//	-[ RECORD 1 ]-----
//	id     | 1
//	region | US
type expandedWriter struct {
	w     io.Writer
	cols  []column
	names []string
	width int
	rows  int64
}

func newExpandedWriter(w io.Writer, cols []column) *expandedWriter {
	e := &expandedWriter{w: w, cols: cols, names: make([]string, len(cols))}
	for i, c := range cols {
		e.names[i] = escapeControl(c.name)
		e.width = max(e.width, runewidth.StringWidth(e.names[i]))
	}
	return e
}

func (e *expandedWriter) row(vals []any) error {
	e.rows++
	var b strings.Builder
	title := "-[ RECORD " + itoa(e.rows) + " ]"
	b.WriteString(title)
	b.WriteString(strings.Repeat("-", max(e.width+3-len(title), 0)+4))
	b.WriteByte('\n')
	for i, v := range vals {
		name := ""
		var c *column
		if i < len(e.cols) {
			name, c = e.names[i], &e.cols[i]
		}
		text, _ := tableCell(v, c)
		b.WriteString(name)
		b.WriteString(strings.Repeat(" ", max(e.width-runewidth.StringWidth(name), 0)))
		b.WriteString(" | ")
		b.WriteString(text)
		b.WriteByte('\n')
	}
	_, err := io.WriteString(e.w, b.String())
	return err
}

func (e *expandedWriter) flushWindow() error { return nil }
func (e *expandedWriter) holding() bool      { return false }

func (e *expandedWriter) finish() error {
	_, err := io.WriteString(e.w, rowCount(e.rows)+"\n")
	return err
}
