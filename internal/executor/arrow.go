package executor

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/types"
	"github.com/flussql/flussql/parser"
	"github.com/flussql/flussql/planner"
)

// ArrowReader streams record batches (flussql.ArrowReader documents it).
type ArrowReader interface {
	// Schema is the schema of every batch.
	Schema() *arrow.Schema
	// Next returns the next batch, or io.EOF after the last one of a bounded scan.
	Next(ctx context.Context) (arrow.RecordBatch, error)
	// Close stops the scan and releases its memory.
	Close() error
}

// QueryArrow runs a SELECT and returns its result as Arrow record batches: a plain scan
// of a log table returns the server's batches, everything else the engine's.
func (c *Session) QueryArrow(ctx context.Context, query string, args ...any) (ArrowReader, error) {
	st, err := parser.Parse(query)
	if err != nil {
		return nil, err
	}
	named := make([]planner.Arg, len(args))
	for i, a := range args {
		named[i] = planner.Arg{Ordinal: i + 1, Value: a}
	}
	p, err := c.plan(ctx, st, named)
	if err != nil {
		return nil, err
	}
	if scan, ok := p.(*planner.Scan); ok && (scan.Count || scan.Filter != nil && !scan.FilterKeepsBatches) {
		// The server's batches need filtering or counting: let the engine do it.
		if p, err = c.planQuery(ctx, st, named); err != nil {
			return nil, err
		}
	}
	switch p.(type) {
	case *planner.Lookup, *planner.PrefixLookup, *planner.LimitScan:
		// Their rows come back as engine batches, as the interface documents.
		if p, err = c.planQuery(ctx, st, named); err != nil {
			return nil, err
		}
	}
	if q, ok := p.(*planner.Query); ok {
		return c.queryArrow(ctx, q)
	}
	scan, ok := p.(*planner.Scan)
	if !ok {
		return nil, fmt.Errorf("flussql: QueryArrow reads SELECTs; %s plans as %T, run it with Query: %w", parser.StatementKind(st), p, ErrNotSupported)
	}
	rows, err := c.startScan(ctx, scan)
	if err != nil {
		return nil, err
	}
	fields := make([]arrow.Field, len(scan.Columns))
	for i, col := range scan.Columns {
		f, err := types.ArrowField(col.Name, col.Type)
		if err != nil {
			rows.Close()
			return nil, err
		}
		fields[i] = f
	}
	r := &arrowReader{schema: arrow.NewSchema(fields, nil), out: &scan.Output}
	switch rows := rows.(type) {
	case *scanRows:
		rows.batchesOnly = true
		r.rows = rows
	default: // every partition pruned
		rows.Close()
		r.done = true
	}
	return r, nil
}

// AppendArrow appends a record batch to a log table ("table" or "db.table") and waits
// for the acknowledgement.
func (c *Session) AppendArrow(ctx context.Context, table string, rec arrow.RecordBatch) error {
	return writeOutcome(c.appendArrow(ctx, table, rec))
}

func (c *Session) appendArrow(ctx context.Context, table string, rec arrow.RecordBatch) error {
	ctx, cancel := c.ex.requestContext(ctx)
	defer cancel()
	w, err := c.arrowWriter(ctx, table, "AppendArrow")
	if err != nil {
		return err
	}
	// The batch's rows are tracked by a receipt of their own, as a statement's are.
	r := fluss.NewReceipt()
	return settle(ctx, r, w.appendSlices(ctx, r, rec))
}

// AppendArrowReader appends every record batch rdr yields to a log table as one statement
// and waits for the acknowledgement of all of them; it returns the number of rows appended
// (on an error, the number known to be written). Batches are compressed and sent while the
// next ones are read.
func (c *Session) AppendArrowReader(ctx context.Context, table string, rdr array.RecordReader) (int64, error) {
	n, err := c.appendArrowReader(ctx, table, rdr)
	return n, writeOutcome(err)
}

func (c *Session) appendArrowReader(ctx context.Context, table string, rdr array.RecordReader) (int64, error) {
	if rdr == nil {
		return 0, errors.New("flussql: AppendArrowReader needs a record reader")
	}
	rctx, cancel := c.ex.requestContext(ctx)
	w, err := c.arrowWriter(rctx, table, "AppendArrowReader")
	cancel()
	if err != nil {
		return 0, err
	}
	r := fluss.NewReceipt()
	var n int64
	for err == nil && rdr.Next() {
		rec := rdr.RecordBatch()
		// Each record goes whole to one bucket (the writer cuts it at the batch size):
		// while earlier records are in flight, the other buckets are busy anyway. Without
		// a deadline on ctx, each wait (for buffer space here, for the acknowledgements
		// below) is bounded by the request timeout.
		rctx, cancel := c.ex.requestContext(ctx)
		err = w.w.AppendRecordBatchWith(rctx, r, rec)
		cancel()
		if err == nil {
			n += rec.NumRows()
		}
	}
	return c.settleReader(ctx, r, rdr, "AppendArrowReader", n, err)
}

// settleReader ends a statement that wrote the batches of rdr (n rows handed to the writer,
// err the first failure): a reader that failed is reported after the rows it gave, and the
// outcome is settled as one statement's — the rows written, or the error with what is known.
func (c *Session) settleReader(ctx context.Context, r *fluss.Receipt, rdr array.RecordReader, caller string, n int64, err error) (int64, error) {
	rctx, cancel := c.ex.requestContext(ctx)
	defer cancel()
	if err == nil {
		if err = rdr.Err(); err != nil {
			err = fmt.Errorf("flussql: %s's reader failed after %d rows: %w", caller, n, err)
			// The rows handed over before the reader failed (a bad line of a file) are on
			// their way: wait for their answers, so that the outcome counts them as
			// written rather than unknown. settle below reads what Wait recorded.
			_ = r.Wait(rctx)
		}
	}
	if err = settle(rctx, r, err); err != nil {
		return int64(r.Written()), err
	}
	return n, nil
}

// TableArrowSchema returns the Arrow schema of a table's rows ("table" or "db.table"), the
// one AppendArrow wants, from the catalog: no scan, no tablet server asked.
func (c *Session) TableArrowSchema(ctx context.Context, table string) (*arrow.Schema, error) {
	name, err := parser.ParseTableName(table)
	if err != nil {
		return nil, fmt.Errorf("flussql: table %q: %w", table, err)
	}
	path := fluss.TablePath{Database: name.Database, Table: name.Name}
	if path.Database == "" {
		path.Database = c.Database()
	}
	rctx, cancel := c.ex.requestContext(ctx)
	defer cancel()
	info, err := c.catalog.Table(rctx, path)
	if err != nil {
		return nil, err
	}
	return types.ToArrowSchema(info.Schema())
}

// arrowTarget is the append writer of a log table and the table's bucket count.
type arrowTarget struct {
	w       *fluss.AppendWriter
	buckets int
}

// arrowWriter returns the session's append writer of a log table named as SQL names it
// ("table", "db.table", backticks), for the API call what.
func (c *Session) arrowWriter(ctx context.Context, table, what string) (arrowTarget, error) {
	name, err := parser.ParseTableName(table)
	if err != nil {
		return arrowTarget{}, fmt.Errorf("flussql: %s's table %q: %w", what, table, err)
	}
	path := fluss.TablePath{Database: name.Database, Table: name.Name}
	if path.Database == "" {
		path.Database = c.Database()
	}
	info, err := c.catalog.Table(ctx, path)
	if err != nil {
		return arrowTarget{}, err
	}
	if info.HasPrimaryKey() {
		return arrowTarget{}, fmt.Errorf("flussql: %s writes log tables; %s has a primary key: %w", what, path, ErrNotSupported)
	}
	w, err := c.appendWriter(ctx, info)
	return arrowTarget{w, info.NumBuckets()}, err
}

// appendSlices hands rec to the writer under receipt r, spread over the table's buckets.
func (t arrowTarget) appendSlices(ctx context.Context, r *fluss.Receipt, rec arrow.RecordBatch) error {
	var err error
	for _, part := range arrowSlices(rec, t.buckets) {
		if err == nil {
			err = t.w.AppendRecordBatchWith(ctx, r, part)
		}
		part.Release()
	}
	return err
}

// minArrowSlice is the fewest rows arrowSlices puts in one slice.
const minArrowSlice = 16_384

// arrowSlices cuts rec into up to buckets slices of at least minArrowSlice rows (retained;
// the caller releases them). AppendArrow waits for its acknowledgement, so a record
// spread over the table's buckets is compressed and stored by all of them at once rather
// than as one batch of one bucket while the others idle.
func arrowSlices(rec arrow.RecordBatch, buckets int) []arrow.RecordBatch {
	n := rec.NumRows()
	parts := min(int64(max(buckets, 1)), max(n/minArrowSlice, 1))
	out := make([]arrow.RecordBatch, 0, parts)
	for i := range parts {
		out = append(out, rec.NewSlice(n*i/parts, n*(i+1)/parts))
	}
	return out
}

type arrowReader struct {
	schema  *arrow.Schema
	out     *planner.Output
	rows    *scanRows
	cur     arrow.RecordBatch
	emitted int64
	done    bool
}

func (r *arrowReader) Schema() *arrow.Schema { return r.schema }

func (r *arrowReader) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
	if r.done || (r.out.Limit >= 0 && r.emitted >= r.out.Limit) {
		r.done = true
		return nil, io.EOF
	}
	r.rows.ctx = ctx
	var b *fluss.ScanBatch
	for b == nil {
		if err := r.rows.fetch(); err != nil {
			if errors.Is(err, io.EOF) {
				r.done = true
			}
			return nil, err
		}
		b = r.rows.batch
		if r.out.Filter != nil {
			// The filter names partition columns only: its answer for the first row is
			// its answer for the whole batch, which holds rows of one partition.
			first, err := fluss.RowValues(b.Record, r.rows.inTypes, 0)
			if err != nil {
				return nil, err
			}
			if keep, err := r.out.Filter.Eval(first); err != nil {
				return nil, err
			} else if !keep {
				b = nil
			}
		}
	}
	n := int64(b.NumRows())
	if r.out.Limit >= 0 && r.emitted+n > r.out.Limit {
		n = r.out.Limit - r.emitted
	}
	cols := make([]arrow.Array, len(r.out.Columns))
	for i, col := range r.out.Columns {
		cols[i] = array.NewSlice(b.Record.Column(col.Slot), 0, n)
	}
	r.cur = array.NewRecordBatch(r.schema, cols, n)
	for _, a := range cols {
		a.Release()
	}
	r.emitted += n
	return r.cur, nil
}

func (r *arrowReader) Close() error {
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
	r.done = true
	if r.rows != nil {
		return r.rows.Close()
	}
	return nil
}
