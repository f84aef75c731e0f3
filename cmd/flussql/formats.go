package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/flussql/flussql/fluss/datum"
)

// Output formats (--format).
const (
	formatTable = "table"
	formatCSV   = "csv"
	formatTSV   = "tsv"
	formatJSON  = "json"
)

// newRowWriter returns the writer for a format; expanded applies to the table format.
func newRowWriter(format string, expanded bool, w io.Writer, cols []column, window int) (rowWriter, error) {
	switch format {
	case formatTable:
		if expanded {
			return newExpandedWriter(w, cols), nil
		}
		return newTableWriter(w, cols, window), nil
	case formatCSV:
		return newDelimitedWriter(w, cols, ',', csvField)
	case formatTSV:
		return newDelimitedWriter(w, cols, '\t', tsvField)
	case formatJSON:
		return newJSONWriter(w, cols), nil
	}
	return nil, fmt.Errorf("unknown format %q (table, csv, tsv or json)", format)
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// delimitedWriter writes CSV or TSV: a header line with the column names, then one line
// per row, each written as it arrives.
type delimitedWriter struct {
	w     io.Writer
	cols  []column
	sep   byte
	field func(v any, c *column) string
}

func newDelimitedWriter(w io.Writer, cols []column, sep byte, field func(any, *column) string) (*delimitedWriter, error) {
	d := &delimitedWriter{w: w, cols: cols, sep: sep, field: field}
	names := make([]any, len(cols))
	for i, c := range cols {
		names[i] = c.name
	}
	return d, d.row(names)
}

func (d *delimitedWriter) row(vals []any) error {
	var b strings.Builder
	for i, v := range vals {
		if i > 0 {
			b.WriteByte(d.sep)
		}
		var c *column
		if i < len(d.cols) {
			c = &d.cols[i]
		}
		b.WriteString(d.field(v, c))
	}
	b.WriteByte('\n')
	_, err := io.WriteString(d.w, b.String())
	return err
}

func (d *delimitedWriter) flushWindow() error { return nil }
func (d *delimitedWriter) holding() bool      { return false }
func (d *delimitedWriter) finish() error      { return nil }

// csvField renders one CSV field (RFC 4180): NULL is an empty field, an empty string is "",
// and a field with a comma, quote, CR or LF is quoted with doubled quotes.
func csvField(v any, c *column) string {
	s, kind := render(v, c)
	if kind == kindNull {
		return ""
	}
	if s == "" || strings.ContainsAny(s, ",\"\r\n") {
		return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
	}
	return s
}

// tsvField renders one TSV field as PostgreSQL's COPY text format does: NULL is \N, and
// backslash, tab, LF and CR are written \\, \t, \n and \r.
func tsvField(v any, c *column) string {
	s, kind := render(v, c)
	if kind == kindNull {
		return `\N`
	}
	if !strings.ContainsAny(s, "\\\t\n\r") {
		return s
	}
	return strings.NewReplacer(`\`, `\\`, "\t", `\t`, "\n", `\n`, "\r", `\r`).Replace(s)
}

// jsonWriter writes JSON Lines: one object per row, keys in column order, written as the row
// arrives. NULL is null, numbers and booleans are bare (DECIMAL too, digits kept exactly),
// everything else is a string rendered as in the other formats. Non-finite floats are
// the strings "NaN", "Infinity" and "-Infinity". ARRAY and ROW values are JSON arrays, MAP
// values JSON objects (keys as text), their elements rendered by the same rules.
type jsonWriter struct {
	w    io.Writer
	cols []column
	keys []string
}

func newJSONWriter(w io.Writer, cols []column) *jsonWriter {
	j := &jsonWriter{w: w, cols: cols, keys: make([]string, len(cols))}
	for i, c := range cols {
		j.keys[i] = jsonString(c.name)
	}
	return j
}

func (j *jsonWriter) row(vals []any) error {
	var b strings.Builder
	b.WriteByte('{')
	for i, v := range vals {
		if i > 0 {
			b.WriteByte(',')
		}
		var c *column
		key := jsonString("column" + strconv.Itoa(i+1))
		if i < len(j.cols) {
			c, key = &j.cols[i], j.keys[i]
		}
		b.WriteString(key)
		b.WriteByte(':')
		writeJSONValue(&b, v, c)
	}
	b.WriteString("}\n")
	_, err := io.WriteString(j.w, b.String())
	return err
}

func (j *jsonWriter) flushWindow() error { return nil }
func (j *jsonWriter) holding() bool      { return false }
func (j *jsonWriter) finish() error      { return nil }

// jsonString quotes s as a JSON string without HTML escaping.
func jsonString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return strings.TrimSuffix(b.String(), "\n")
}

// writeJSONValue writes one value of column c (nil for an element of an ARRAY, MAP or
// ROW) as JSON: ARRAY and ROW values as arrays, MAP values as objects, scalars as the
// jsonWriter comment says.
func writeJSONValue(b *strings.Builder, v any, c *column) {
	switch x := v.(type) {
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSONValue(b, e, nil)
		}
		b.WriteByte(']')
		return
	case []datum.MapEntry:
		b.WriteByte('{')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			k, _ := render(e.Key, nil)
			b.WriteString(jsonString(k))
			b.WriteByte(':')
			writeJSONValue(b, e.Value, nil)
		}
		b.WriteByte('}')
		return
	}
	s, kind := render(v, c)
	switch {
	case kind == kindNull:
		b.WriteString("null")
	case kind == kindBool, kind == kindNumber && isNumericText(s):
		b.WriteString(s)
	default:
		b.WriteString(jsonString(s))
	}
}
