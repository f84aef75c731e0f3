package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/flussql/flussql"
)

// \copy, as psql's: the rows of a file into a table, or a table's or query's rows into a
// file, read on the client and streamed batch by batch (flussql.CopyFrom / CopyTo):
//
//	\copy t FROM 'file' [WITH] [(FORMAT csv|parquet|json, HEADER [true|false], DELIMITER 'x')]
//	\copy t TO 'file' [(…)]
//	\copy (SELECT …) TO 'file' [(…)]
//
// Without FORMAT the file's extension decides (.parquet, .json/.jsonl/.ndjson, else csv).

// copySpec is one parsed \copy.
type copySpec struct {
	table  string // the table, "" when query is set
	query  string // the SELECT of \copy (SELECT …) TO
	from   bool   // FROM a file (else TO)
	path   string
	format string // csv, parquet or json
	header bool
	delim  rune
}

// Copy file formats.
const (
	copyCSV     = "csv"
	copyParquet = "parquet"
	copyJSON    = "json"
)

// parseCopy reads the arguments of \copy (the text after the command name).
func parseCopy(args string) (copySpec, error) {
	var c copySpec
	rest := strings.TrimSpace(args)
	if rest == "" {
		return c, errors.New(`\copy wants: \copy table FROM 'file' or \copy table|(SELECT …) TO 'file', then an optional (FORMAT csv|parquet|json, HEADER, DELIMITER ',')`)
	}
	if rest[0] == '(' {
		end := queryEnd(rest)
		if end < 0 {
			return c, errors.New(`\copy: the query's parenthesis is not closed`)
		}
		c.query = strings.TrimSpace(rest[1:end])
		if c.query == "" {
			return c, errors.New(`\copy (): the parentheses hold no query`)
		}
		rest = strings.TrimSpace(rest[end+1:])
	} else {
		end := indexTop(rest, 0, func(i int) bool { return rest[i] == ' ' || rest[i] == '\t' })
		if end < 0 {
			return c, fmt.Errorf(`\copy %s: FROM or TO and a file are missing`, rest)
		}
		c.table, rest = rest[:end], strings.TrimSpace(rest[end:])
	}
	word, rest := nextWord(rest)
	switch strings.ToUpper(word) {
	case "FROM":
		c.from = true
		if c.query != "" {
			return c, errors.New(`\copy (query) FROM: a query can only be copied TO a file`)
		}
	case "TO":
	default:
		return c, fmt.Errorf(`\copy: want FROM or TO after the table, got %q`, word)
	}
	path, rest, err := copyFile(rest)
	if err != nil {
		return c, err
	}
	c.path = path
	c.format = formatOfPath(path)
	c.delim = ','
	if w, after := nextWord(rest); strings.EqualFold(w, "WITH") {
		rest = after
	}
	if rest != "" {
		if err := c.options(rest); err != nil {
			return c, err
		}
	}
	return c, nil
}

// queryEnd returns the index of the ')' that closes the '(' s starts with, outside quotes
// ('…', `…`, "…") and comments; -1 when there is none. (closeParen counts < and > as
// brackets, for MAP<K, V>, which a query's comparisons would upset.)
func queryEnd(s string) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\'', '`', '"':
			j := i + 1
			for j < len(s) && (s[j] != c || j+1 < len(s) && s[j+1] == c) {
				if s[j] == c {
					j++ // a doubled quote
				}
				j++
			}
			i = j
		case '-':
			if i+1 < len(s) && s[i+1] == '-' {
				return -1 // a line comment would hide the rest of the line
			}
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// nextWord splits s at its first space.
func nextWord(s string) (string, string) {
	s = strings.TrimSpace(s)
	i := strings.IndexAny(s, " \t(")
	if i < 0 {
		return s, ""
	}
	return s[:i], strings.TrimSpace(s[i:])
}

// copyFile reads the file name: 'quoted' (” inside) or a bare word.
func copyFile(s string) (string, string, error) {
	if s == "" {
		return "", "", errors.New(`\copy: the file name is missing (quote it: 'data.csv')`)
	}
	if s[0] != '\'' {
		w, rest := nextWord(s)
		return w, rest, nil
	}
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		if s[i] != '\'' {
			b.WriteByte(s[i])
			continue
		}
		if i+1 < len(s) && s[i+1] == '\'' {
			b.WriteByte('\'')
			i++
			continue
		}
		return b.String(), strings.TrimSpace(s[i+1:]), nil
	}
	return "", "", errors.New(`\copy: the file name's quote is not closed`)
}

// formatOfPath guesses a file's format from its extension.
func formatOfPath(path string) string {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".parquet", ".pq":
		return copyParquet
	case ".json", ".jsonl", ".ndjson":
		return copyJSON
	}
	return copyCSV
}

// options reads the parenthesised option list: FORMAT x, HEADER [bool], DELIMITER 'x'.
func (c *copySpec) options(s string) error {
	if s[0] != '(' || closeParen(s, 0) != len(s)-1 {
		return fmt.Errorf(`\copy: options go in parentheses, e.g. (FORMAT csv, HEADER), got %q`, s)
	}
	for _, opt := range splitTop(s[1:len(s)-1], ',') {
		f := strings.Fields(opt)
		if len(f) == 0 {
			continue
		}
		val := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(opt), f[0]))
		switch strings.ToUpper(f[0]) {
		case "FORMAT":
			switch v := strings.ToLower(strings.Trim(val, "'")); v {
			case copyCSV, copyParquet, copyJSON:
				c.format = v
			default:
				return fmt.Errorf(`\copy: FORMAT %s: want csv, parquet or json`, val)
			}
		case "HEADER":
			switch strings.ToLower(val) {
			case "", "true", "on", "1":
				c.header = true
			case "false", "off", "0":
				c.header = false
			default:
				return fmt.Errorf(`\copy: HEADER %s: want true or false`, val)
			}
		case "DELIMITER":
			d, _, err := copyFile(val)
			if err != nil || len(d) != 1 || !strings.HasPrefix(val, "'") {
				return fmt.Errorf(`\copy: DELIMITER wants one quoted character, e.g. DELIMITER ';', got %s`, val)
			}
			if d[0] >= 0x80 || d[0] == '"' || d[0] == '\n' || d[0] == '\r' {
				return fmt.Errorf(`\copy: %w`, errDelimiter)
			}
			c.delim = rune(d[0])
		default:
			return fmt.Errorf(`\copy: unknown option %s (FORMAT, HEADER and DELIMITER exist)`, f[0])
		}
	}
	if c.format != copyCSV && (c.header || c.delim != ',') {
		return fmt.Errorf(`\copy: HEADER and DELIMITER are for csv, not %s`, c.format)
	}
	return nil
}

// splitTop splits s at sep outside quotes and parentheses.
func splitTop(s string, sep byte) []string {
	var out []string
	start := 0
	for {
		i := indexTop(s, start, func(i int) bool { return s[i] == sep })
		if i < 0 {
			return append(out, s[start:])
		}
		out = append(out, s[start:i])
		start = i + 1
	}
}

// copyCommand is \copy: it parses the line and runs the copy.
func (s *shell) copyCommand(parent context.Context, args string) error {
	c, err := parseCopy(args)
	if err != nil {
		return err
	}
	ctx, end := s.begin(parent)
	defer end()
	start := time.Now()
	s.progress.reset(start)
	if c.from {
		err = s.copyFrom(ctx, c)
	} else {
		err = s.copyTo(ctx, c)
	}
	s.progress.clear()
	if err != nil {
		if ctx.Err() != nil && !c.from {
			return errCancelled // copyTo said how far it got
		}
		if c.from {
			return err // copyFrom's error already says what was written
		}
		return s.failed(ctx, err)
	}
	s.showTiming(start)
	return nil
}

// copyFrom loads a file into a table.
func (s *shell) copyFrom(ctx context.Context, c copySpec) error {
	schema, err := flussql.TableArrowSchema(ctx, s.conn, c.table)
	if err != nil {
		return s.failed(ctx, err)
	}
	f, err := os.Open(c.path)
	if err != nil {
		return err
	}
	defer f.Close()
	rdr, err := openCopyReader(f, schema, c)
	if err != nil {
		return fmt.Errorf("%s: %w", c.path, err)
	}
	defer rdr.Release()
	counted := &countingReader{RecordReader: rdr, p: s.progress}
	n, err := flussql.CopyFrom(ctx, s.conn, c.table, counted)
	if err != nil {
		if ctx.Err() != nil {
			s.status(copyOutcome(n, err) + " Cancelled.")
			s.checkConn(context.WithoutCancel(ctx))
			return errCancelled
		}
		return &copyError{err: err, n: n, fileErr: rdr.Err(), path: c.path}
	}
	s.status(fmt.Sprintf("COPY %d", n))
	return nil
}

// copyOutcome says what a failed \copy FROM left in the table, by the write outcome
// contract: n rows known to be written, and whether the others were not written or may
// have been.
func copyOutcome(n int64, err error) string {
	rows := func(n int64) string { return fmt.Sprintf("%d %s", n, plural(n, "row", "rows")) }
	switch {
	case errors.Is(err, flussql.ErrOutcomeUnknown):
		return fmt.Sprintf("COPY: %s written; the outcome of the rows sent after them is unknown (they may or may not be stored), the rest of the file was not written.", rows(n))
	case errors.Is(err, flussql.ErrPartiallyWritten) || n > 0:
		return fmt.Sprintf("COPY: %s written; the rest of the file was not written.", rows(n))
	}
	return "COPY: no rows written."
}

// copyError is a failed \copy FROM: the cause — the file's, naming the line, when the
// file was at fault — and what the table got (copyOutcome). It wraps the driver's error,
// which matches one of flussql.ErrNotWritten, ErrPartiallyWritten and ErrOutcomeUnknown.
type copyError struct {
	err     error
	n       int64
	fileErr error
	path    string
}

func (e *copyError) Error() string {
	cause := e.err.Error()
	if e.fileErr != nil {
		cause = e.path + ": " + e.fileErr.Error()
	}
	return cause + "\n" + copyOutcome(e.n, e.err)
}

func (e *copyError) Unwrap() error { return e.err }

// countingReader counts the rows a copy reads and draws the progress line (on a terminal)
// as it goes; it is called from the writer's goroutine only.
type countingReader struct {
	array.RecordReader
	p    *progress
	last time.Time
}

func (c *countingReader) Next() bool {
	if !c.RecordReader.Next() {
		return false
	}
	c.p.rows += c.RecordBatch().NumRows()
	if now := time.Now(); now.Sub(c.last) >= progressEvery {
		c.last = now
		c.p.show()
	}
	return true
}

// copyTo writes a table's or a query's rows to a file.
func (s *shell) copyTo(ctx context.Context, c copySpec) error {
	query := c.query
	if query == "" {
		query = "SELECT * FROM " + c.table
	}
	schema, err := flussql.QueryArrowSchema(ctx, s.conn, query)
	if err != nil {
		return err
	}
	f, err := os.Create(c.path)
	if err != nil {
		return err
	}
	w, err := newCopyWriter(f, schema, c)
	if err != nil {
		_ = f.Close()
		return fmt.Errorf("%s: %w", c.path, err)
	}
	var last time.Time
	n, err := flussql.CopyTo(ctx, s.conn, query, func(rec arrow.RecordBatch) error {
		if err := w.write(rec); err != nil {
			return fmt.Errorf("writing %s: %w", c.path, err)
		}
		s.progress.rows += rec.NumRows()
		if now := time.Now(); now.Sub(last) >= progressEvery {
			last = now
			s.progress.show()
		}
		return nil
	})
	if cerr := w.close(); err == nil && cerr != nil {
		err = fmt.Errorf("writing %s: %w", c.path, cerr)
	}
	if cerr := f.Close(); err == nil && cerr != nil {
		err = cerr
	}
	if err != nil {
		s.progress.clear()
		if ctx.Err() != nil {
			s.status(fmt.Sprintf("COPY: %d %s written to %s before Ctrl-C.", n, plural(n, "row", "rows"), c.path))
		}
		return err
	}
	s.status(fmt.Sprintf("COPY %d", n))
	return nil
}

// copyWriter writes record batches to a file in one format.
type copyWriter interface {
	write(rec arrow.RecordBatch) error
	close() error
}
