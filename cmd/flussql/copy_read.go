package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// The readers of \copy FROM: each yields record batches of the table's Arrow schema, a
// batch of copyBatchRows rows at a time, so that a file of any size streams through. A
// line that does not fit the table stops the reader with an error that names the line
// and column; the batch it was in is not sent.

// copyBatchRows is how many rows of a CSV or JSON file make one record batch.
const copyBatchRows = 8192

// openCopyReader returns the reader of f in c's format for a table of the given schema.
func openCopyReader(f *os.File, schema *arrow.Schema, c copySpec) (array.RecordReader, error) {
	switch c.format {
	case copyParquet:
		return openParquetReader(f, schema)
	case copyJSON:
		return newRowReader(schema, newJSONLines(f, schema)), nil
	}
	return newRowReader(schema, newCSVLines(f, schema, c)), nil
}

// rowSource appends the next row of a file to the builders of a record (one per column)
// and returns io.EOF after the last one.
type rowSource interface {
	appendRow(cols []array.Builder) error
}

// rowReader is an array.RecordReader over a rowSource.
type rowReader struct {
	refs   atomic.Int64
	schema *arrow.Schema
	src    rowSource
	bld    *array.RecordBuilder
	cur    arrow.RecordBatch
	err    error
	done   bool
}

func newRowReader(schema *arrow.Schema, src rowSource) *rowReader {
	r := &rowReader{schema: schema, src: src, bld: array.NewRecordBuilder(memory.DefaultAllocator, schema)}
	r.refs.Store(1)
	return r
}

func (r *rowReader) Schema() *arrow.Schema          { return r.schema }
func (r *rowReader) RecordBatch() arrow.RecordBatch { return r.cur }

// Record is RecordBatch under its deprecated name (array.RecordReader still asks for it).
func (r *rowReader) Record() arrow.RecordBatch { return r.cur }
func (r *rowReader) Err() error                { return r.err }
func (r *rowReader) Retain()                   { r.refs.Add(1) }

func (r *rowReader) Release() {
	if r.refs.Add(-1) == 0 {
		r.release()
		r.bld.Release()
	}
}

func (r *rowReader) release() {
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
}

func (r *rowReader) Next() bool {
	r.release()
	if r.done {
		return false
	}
	cols := r.bld.Fields()
	n := 0
	for n < copyBatchRows {
		err := r.src.appendRow(cols)
		if errors.Is(err, io.EOF) {
			r.done = true
			break
		}
		if err != nil {
			r.err, r.done = err, true
			for _, b := range cols { // drop the failed batch (its last row may be partial)
				b.NewArray().Release()
			}
			return false
		}
		n++
	}
	if n == 0 {
		return false
	}
	r.cur = r.bld.NewRecordBatch()
	return true
}

// csvLines reads CSV as \copy … (FORMAT csv) writes it: an unquoted empty field is NULL,
// a quoted one ("") the empty string, values as Arrow's ValueStr renders them.
type csvLines struct {
	r      *csvRecords
	schema *arrow.Schema
	header bool
}

func newCSVLines(f io.Reader, schema *arrow.Schema, c copySpec) *csvLines {
	return &csvLines{r: newCSVRecords(f, byte(c.delim)), schema: schema, header: c.header}
}

func (l *csvLines) appendRow(cols []array.Builder) error {
	rec, quoted, line, err := l.r.next()
	if err != nil {
		return err
	}
	if l.header {
		l.header = false
		for i, name := range rec {
			if i < l.schema.NumFields() && !strings.EqualFold(strings.TrimSpace(name), l.schema.Field(i).Name) {
				return fmt.Errorf("line %d: header column %d is %q, the table's is %q (the file's columns must be the table's, in order)", line, i+1, name, l.schema.Field(i).Name)
			}
		}
		if len(rec) != l.schema.NumFields() {
			return fmt.Errorf("line %d: the header has %d columns, the table %d", line, len(rec), l.schema.NumFields())
		}
		return l.appendRow(cols)
	}
	if len(rec) != len(cols) {
		return fmt.Errorf("line %d: %d fields, the table has %d columns", line, len(rec), len(cols))
	}
	for i, v := range rec {
		if v == "" && !quoted[i] {
			cols[i].AppendNull()
			continue
		}
		if err := cols[i].AppendValueFromString(v); err != nil {
			return fmt.Errorf("line %d, column %s (%s): %q: %w", line, l.schema.Field(i).Name, l.schema.Field(i).Type, truncate(v, 60), err)
		}
	}
	return nil
}

// jsonLines reads JSON Lines: one object per line, keys the column names (any order, a
// missing key or null is NULL), values as \copy … (FORMAT json) writes them.
type jsonLines struct {
	r      *bufio.Reader
	schema *arrow.Schema
	index  map[string]int
	line   int
	vals   []json.RawMessage
}

func newJSONLines(f io.Reader, schema *arrow.Schema) *jsonLines {
	l := &jsonLines{r: bufio.NewReaderSize(f, 1<<20), schema: schema, index: map[string]int{}}
	for i, fl := range schema.Fields() {
		l.index[fl.Name] = i
	}
	l.vals = make([]json.RawMessage, schema.NumFields())
	return l
}

func (l *jsonLines) appendRow(cols []array.Builder) error {
	var text []byte
	for {
		b, err := l.r.ReadBytes('\n')
		if len(b) == 0 && err != nil {
			return err // io.EOF at the end
		}
		l.line++
		if t := strings.TrimSpace(string(b)); t != "" {
			text = []byte(t)
			break
		}
		if err != nil {
			return err
		}
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(text, &obj); err != nil {
		return fmt.Errorf("line %d: not a JSON object: %w", l.line, err)
	}
	clear(l.vals)
	for k, v := range obj {
		i, ok := l.index[k]
		if !ok {
			return fmt.Errorf("line %d: key %q is not a column of the table", l.line, truncate(k, 60))
		}
		l.vals[i] = v
	}
	for i, v := range l.vals {
		if v == nil || string(v) == "null" {
			cols[i].AppendNull()
			continue
		}
		if err := cols[i].UnmarshalJSON(append(append([]byte{'['}, v...), ']')); err != nil {
			return fmt.Errorf("line %d, column %s (%s): %s: %w", l.line, l.schema.Field(i).Name, l.schema.Field(i).Type, truncate(string(v), 60), err)
		}
	}
	return nil
}

// truncate shortens s for an error message.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// openParquetReader reads a Parquet file row group by row group. Its columns are matched
// to the table's by name; a column of another type is cast (an INT32 file column into a
// BIGINT table column, say).
func openParquetReader(f *os.File, schema *arrow.Schema) (array.RecordReader, error) {
	pf, err := file.NewParquetReader(f)
	if err != nil {
		return nil, err
	}
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: copyBatchRows}, memory.DefaultAllocator)
	if err != nil {
		_ = pf.Close()
		return nil, err
	}
	fileSchema, err := fr.Schema()
	if err != nil {
		_ = pf.Close()
		return nil, err
	}
	indices := make([]int, schema.NumFields())
	for i, want := range schema.Fields() {
		found := fileSchema.FieldIndices(want.Name)
		if len(found) != 1 {
			_ = pf.Close()
			return nil, fmt.Errorf("the file has no column %q (it has %s)", want.Name, fieldNames(fileSchema))
		}
		// The record reader takes leaf column indices; the table's columns are flat or
		// nested, so look the leaf up through the manifest.
		indices[i] = found[0]
	}
	leaves, err := leafIndices(fr, indices)
	if err != nil {
		_ = pf.Close()
		return nil, err
	}
	rr, err := fr.GetRecordReader(context.Background(), leaves, nil)
	if err != nil {
		_ = pf.Close()
		return nil, err
	}
	return &castReader{RecordReader: rr, schema: schema, closer: pf}, nil
}

// leafIndices turns top-level field indices into the leaf column indices that select
// them.
func leafIndices(fr *pqarrow.FileReader, fields []int) ([]int, error) {
	var out []int
	for _, i := range fields {
		if i >= len(fr.Manifest.Fields) {
			return nil, fmt.Errorf("column %d is not in the file's manifest", i)
		}
		out = append(out, leavesOf(fr.Manifest.Fields[i])...)
	}
	return out, nil
}

func leavesOf(f pqarrow.SchemaField) []int {
	if f.IsLeaf() {
		return []int{f.ColIndex}
	}
	var out []int
	for _, c := range f.Children {
		out = append(out, leavesOf(c)...)
	}
	return out
}

func fieldNames(s *arrow.Schema) string {
	names := make([]string, s.NumFields())
	for i, f := range s.Fields() {
		names[i] = f.Name
	}
	return strings.Join(names, ", ")
}

// castReader yields the batches of a Parquet record reader in the table's schema: columns
// in the table's order, cast where the types differ.
type castReader struct {
	array.RecordReader
	schema *arrow.Schema
	closer io.Closer
	cur    arrow.RecordBatch
	err    error
}

func (c *castReader) Schema() *arrow.Schema          { return c.schema }
func (c *castReader) RecordBatch() arrow.RecordBatch { return c.cur }

// Record is RecordBatch under its deprecated name.
func (c *castReader) Record() arrow.RecordBatch { return c.cur }

func (c *castReader) Err() error {
	if c.err != nil {
		return c.err
	}
	return c.RecordReader.Err()
}

func (c *castReader) Release() {
	if c.cur != nil {
		c.cur.Release()
		c.cur = nil
	}
	c.RecordReader.Release()
	if c.closer != nil {
		_ = c.closer.Close()
		c.closer = nil
	}
}

func (c *castReader) Next() bool {
	if c.cur != nil {
		c.cur.Release()
		c.cur = nil
	}
	if c.err != nil || !c.RecordReader.Next() {
		return false
	}
	rec := c.RecordReader.RecordBatch()
	got := rec.Schema()
	cols := make([]arrow.Array, c.schema.NumFields())
	defer func() {
		for _, a := range cols {
			if a != nil {
				a.Release()
			}
		}
	}()
	for i, want := range c.schema.Fields() {
		j := got.FieldIndices(want.Name)
		if len(j) != 1 {
			c.err = fmt.Errorf("the file's batch has no column %q", want.Name)
			return false
		}
		col := rec.Column(j[0])
		if arrow.TypeEqual(col.DataType(), want.Type) {
			col.Retain()
			cols[i] = col
			continue
		}
		cast, err := compute.CastToType(context.Background(), col, want.Type)
		if err != nil {
			c.err = fmt.Errorf("column %s: the file's %s does not convert to the table's %s: %w", want.Name, col.DataType(), want.Type, err)
			return false
		}
		cols[i] = cast
	}
	c.cur = array.NewRecordBatch(c.schema, cols, rec.NumRows())
	return true
}
