package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// The writers of \copy … TO: each writes a batch as it arrives. CSV and JSON render values
// as Arrow's ValueStr and JSON marshalling do, which the readers of copy_read.go take
// back; Parquet keeps the Arrow schema in the file, so the types come back as they were.

// parquetRowGroupRows is the most rows one Parquet row group holds (the writer buffers
// one row group).
const parquetRowGroupRows = 128 * 1024

// newCopyWriter returns the writer of c's format for batches of the given schema.
func newCopyWriter(w io.Writer, schema *arrow.Schema, c copySpec) (copyWriter, error) {
	switch c.format {
	case copyParquet:
		props := parquet.NewWriterProperties(parquet.WithCompression(compress.Codecs.Zstd),
			parquet.WithMaxRowGroupLength(parquetRowGroupRows))
		// Only the Writer: pqarrow's Close would close a Closer, and the caller closes the
		// file (and reports that error).
		fw, err := pqarrow.NewFileWriter(schema, struct{ io.Writer }{w}, props, pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
		if err != nil {
			return nil, err
		}
		return &parquetWriter{fw: fw, schema: schema}, nil
	case copyJSON:
		return &jsonLinesWriter{w: bufio.NewWriterSize(w, 1<<20), schema: schema}, nil
	}
	cw := &csvFileWriter{w: bufio.NewWriterSize(w, 1<<20), delim: string(c.delim)}
	if c.header {
		names := make([]string, schema.NumFields())
		for i, f := range schema.Fields() {
			names[i] = cw.field(f.Name)
		}
		if _, err := cw.w.WriteString(strings.Join(names, cw.delim) + "\n"); err != nil {
			return nil, err
		}
	}
	return cw, nil
}

// csvFileWriter writes CSV (RFC 4180): NULL is an empty field, an empty string "".
type csvFileWriter struct {
	w     *bufio.Writer
	delim string
}

func (c *csvFileWriter) field(s string) string {
	if s == "" || strings.ContainsAny(s, c.delim+"\"\r\n") {
		return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
	}
	return s
}

func (c *csvFileWriter) write(rec arrow.RecordBatch) error {
	cols := rec.Columns()
	for i := 0; i < int(rec.NumRows()); i++ {
		for j, col := range cols {
			if j > 0 {
				c.w.WriteString(c.delim)
			}
			if col.IsNull(i) {
				continue
			}
			c.w.WriteString(c.field(col.ValueStr(i)))
		}
		if err := c.w.WriteByte('\n'); err != nil {
			return err
		}
	}
	return c.w.Flush() // a batch at a time: an unbounded scan's file grows as rows arrive
}

func (c *csvFileWriter) close() error { return c.w.Flush() }

// jsonLinesWriter writes JSON Lines: one object per row, keys in column order.
type jsonLinesWriter struct {
	w      *bufio.Writer
	schema *arrow.Schema
	keys   []string
}

func (j *jsonLinesWriter) write(rec arrow.RecordBatch) error {
	if j.keys == nil {
		for _, f := range j.schema.Fields() {
			j.keys = append(j.keys, jsonString(f.Name))
		}
	}
	cols := rec.Columns()
	for i := 0; i < int(rec.NumRows()); i++ {
		j.w.WriteByte('{')
		for k, col := range cols {
			if k > 0 {
				j.w.WriteByte(',')
			}
			j.w.WriteString(j.keys[k])
			j.w.WriteByte(':')
			b, err := json.Marshal(col.GetOneForMarshal(i))
			if err != nil {
				return fmt.Errorf("column %s: %w", j.schema.Field(k).Name, err)
			}
			j.w.Write(b)
		}
		if _, err := j.w.WriteString("}\n"); err != nil {
			return err
		}
	}
	return j.w.Flush() // a batch at a time, as csvFileWriter
}

func (j *jsonLinesWriter) close() error { return j.w.Flush() }

// parquetWriter writes a Parquet file, row group by row group.
type parquetWriter struct {
	fw     *pqarrow.FileWriter
	schema *arrow.Schema
}

func (p *parquetWriter) write(rec arrow.RecordBatch) error {
	if !rec.Schema().Equal(p.schema) { // the same columns under the result's schema
		rec = array.NewRecordBatch(p.schema, rec.Columns(), rec.NumRows())
		defer rec.Release()
	}
	return p.fw.WriteBuffered(rec)
}

func (p *parquetWriter) close() error { return p.fw.Close() }
