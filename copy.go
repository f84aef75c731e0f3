package flussql

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// COPY from Go: CopyFrom loads record batches into a log table, CopyTo streams a query's
// result out as record batches. They are what the shell's \copy does, with the file
// formats left to the caller (arrow-go's arrow/csv, arrow/array's JSON reader and
// parquet/pqarrow all read and write record batches). Both hold one batch at a time.

// CopyFrom loads every record batch rdr yields into a table ("table" or "db.table")
// through conn, as one statement, and returns the number of rows the server acknowledged:
// a log table's rows are appended as ArrowConn.AppendArrowReader does (batches compressed
// and sent while the next are read), a primary-key table's upserted row by row (a key's
// latest row wins). The batches' columns must match the table's in order, names and Arrow
// types (TableArrowSchema gives them; a csv.Reader or JSONReader made with that schema
// yields such batches). On failure — the reader's Err (a bad line of a file), a batch that
// does not match, the server, ctx — the error matches exactly one of ErrNotWritten,
// ErrPartiallyWritten and ErrOutcomeUnknown, and the count is the rows known to be written
// (the rest of what rdr yielded was not written, or for ErrOutcomeUnknown may or may not
// be); rows handed over before the reader failed are waited for. It does not release rdr.
func CopyFrom(ctx context.Context, sc *sql.Conn, table string, rdr array.RecordReader) (int64, error) {
	var n int64
	err := sc.Raw(func(dc any) error {
		c, ok := dc.(*conn)
		if !ok {
			return fmt.Errorf("flussql: CopyFrom needs a flussql connection, got %T: %w", dc, ErrNotSupported)
		}
		if err := c.usable(); err != nil {
			return err
		}
		var err error
		n, err = c.sess.CopyArrowReader(ctx, table, rdr)
		return boundErr(err)
	})
	return n, err
}

// CopyTo runs query (a SELECT, with args as in Query) through conn and hands each record
// batch of its result to fn, in order, until the result ends, fn fails or ctx ends; it
// returns the number of rows handed over. A batch is valid only during its call (Retain it
// to keep it). The schema of every batch is that of the first; fn sees at least one
// batch only when the result has rows, so ask QueryArrowSchema when a file needs its
// header before any row.
func CopyTo(ctx context.Context, conn *sql.Conn, query string, fn func(arrow.RecordBatch) error, args ...any) (int64, error) {
	var n int64
	err := conn.Raw(func(dc any) error {
		ac, ok := dc.(ArrowConn)
		if !ok {
			return fmt.Errorf("flussql: CopyTo needs a flussql connection, got %T: %w", dc, ErrNotSupported)
		}
		r, err := ac.QueryArrow(ctx, query, args...)
		if err != nil {
			return err
		}
		defer r.Close()
		for {
			rec, err := r.Next(ctx)
			if errors.Is(err, io.EOF) {
				return nil
			}
			if err != nil {
				return err
			}
			if err := fn(rec); err != nil {
				return err
			}
			n += rec.NumRows()
		}
	})
	return n, err
}

// TableArrowSchema returns the Arrow schema of a table's rows ("table" or "db.table") from
// the catalog, without a scan: the schema CopyFrom and AppendArrow want, to make a
// csv.Reader or JSONReader with.
func TableArrowSchema(ctx context.Context, sc *sql.Conn, table string) (*arrow.Schema, error) {
	var schema *arrow.Schema
	err := sc.Raw(func(dc any) error {
		c, ok := dc.(*conn)
		if !ok {
			return fmt.Errorf("flussql: TableArrowSchema needs a flussql connection, got %T: %w", dc, ErrNotSupported)
		}
		if err := c.usable(); err != nil {
			return err
		}
		var err error
		schema, err = c.sess.TableArrowSchema(ctx, table)
		return boundErr(err)
	})
	return schema, err
}

// QueryArrowSchema returns the Arrow schema of query's result (a SELECT) without reading
// any of its rows: for "SELECT * FROM t" the schema CopyFrom wants for t. It opens the
// query and closes it at once.
func QueryArrowSchema(ctx context.Context, conn *sql.Conn, query string, args ...any) (*arrow.Schema, error) {
	var schema *arrow.Schema
	err := conn.Raw(func(dc any) error {
		ac, ok := dc.(ArrowConn)
		if !ok {
			return fmt.Errorf("flussql: QueryArrowSchema needs a flussql connection, got %T: %w", dc, ErrNotSupported)
		}
		r, err := ac.QueryArrow(ctx, query, args...)
		if err != nil {
			return err
		}
		schema = r.Schema()
		return r.Close()
	})
	return schema, err
}
