package flussql

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// ArrowConn is implemented by flussql's driver connections. Reach it with sql.Conn.Raw to
// read a log-table scan as the Arrow record batches the server sent, without converting
// rows:
//
//	conn, _ := db.Conn(ctx)
//	err := conn.Raw(func(dc any) error {
//		r, err := dc.(flussql.ArrowConn).QueryArrow(ctx, "SELECT id, name FROM t WHERE region = 'US'")
//		if err != nil {
//			return err
//		}
//		defer r.Close()
//		for {
//			rec, err := r.Next(ctx)
//			if err == io.EOF {
//				return nil
//			} else if err != nil {
//				return err
//			}
//			use(rec) // valid until the next call to Next or Close; Retain it to keep it
//		}
//	})
type ArrowConn interface {
	// QueryArrow runs a SELECT. A plain scan of a log table (columns, a WHERE on partition
	// columns, LIMIT) returns the server's batches unchanged; everything else the query
	// language has (filters, expressions, aggregates, ORDER BY, DISTINCT, lookups of
	// primary-key tables) returns the engine's result batches. Projection, partition
	// pruning, hints and placeholders work as in Query.
	QueryArrow(ctx context.Context, query string, args ...any) (ArrowReader, error)
	// AppendArrow appends a record batch to a log table ("table" or "db.table") and waits
	// for the server's acknowledgement. The batch's columns must match the table's columns
	// in order, names and Arrow types (see fluss/types.ToArrowSchema). It is the fastest
	// way to load rows.
	AppendArrow(ctx context.Context, table string, rec arrow.RecordBatch) error
	// AppendArrowReader appends every record batch rdr yields to a log table as one
	// statement, the way pgx's CopyFrom loads rows: batches are compressed and sent while
	// the next ones are read, and it returns when the server has acknowledged all of them,
	// with the number of rows appended. It is the fastest way to load many batches. The
	// batches must match the table as for AppendArrow. A failure — the reader's Err, a
	// batch that does not match, the server, ctx — stops it, and its error matches
	// exactly one of ErrNotWritten, ErrPartiallyWritten and ErrOutcomeUnknown, as an Exec's
	// does; the count is then the rows known to be written. Without a deadline on ctx,
	// each wait (for buffer space, for the last acknowledgements) is bounded by the DSN's
	// timeout. It does not release rdr.
	AppendArrowReader(ctx context.Context, table string, rdr array.RecordReader) (int64, error)
}

// ArrowReader streams record batches whose columns are the select list's, named as
// written.
type ArrowReader interface {
	// Schema is the schema of every batch.
	Schema() *arrow.Schema
	// Next returns the next batch, or io.EOF after the last one of a bounded scan. A
	// bucket whose leader fails is read on from the same offset on its new leader; when
	// ctx ends first, Next returns by its deadline an error that matches ctx's error and
	// names the buckets it was waiting for. The batch is released by the following Next
	// or by Close.
	Next(ctx context.Context) (arrow.RecordBatch, error)
	// Close stops the scan and releases its memory.
	Close() error
}

var _ ArrowConn = (*conn)(nil)

// QueryArrow implements ArrowConn.
func (c *conn) QueryArrow(ctx context.Context, query string, args ...any) (ArrowReader, error) {
	if err := c.usable(); err != nil {
		return nil, err
	}
	r, err := c.sess.QueryArrow(ctx, query, args...)
	if err != nil {
		return nil, boundErr(err)
	}
	return r, nil
}

// AppendArrow implements ArrowConn.
func (c *conn) AppendArrow(ctx context.Context, table string, rec arrow.RecordBatch) error {
	if err := c.usable(); err != nil {
		return err
	}
	return boundErr(c.sess.AppendArrow(ctx, table, rec))
}

// AppendArrowReader implements ArrowConn.
func (c *conn) AppendArrowReader(ctx context.Context, table string, rdr array.RecordReader) (int64, error) {
	if err := c.usable(); err != nil {
		return 0, err
	}
	n, err := c.sess.AppendArrowReader(ctx, table, rdr)
	return n, boundErr(err)
}
