package executor

import (
	"context"
	"fmt"
	"io"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/flussql/flussql/engine"
	"github.com/flussql/flussql/fluss/types"
	"github.com/flussql/flussql/parser"
	"github.com/flussql/flussql/planner"
)

// planQuery plans a SELECT for the engine (planner.BuildQuery) and binds its arguments.
func (c *Session) planQuery(ctx context.Context, st parser.Statement, args []planner.Arg) (planner.Plan, error) {
	p, err := planner.BuildQuery(ctx, st, c.catalog, c.session())
	p, err = c.planKv(ctx, p, err, func(s planner.Session) (planner.Plan, error) { return planner.BuildQuery(ctx, st, c.catalog, s) })
	if err != nil {
		return nil, err
	}
	return planner.Bind(p, args)
}

// queryArrow runs a planner.Query for QueryArrow: its reader returns the engine's batches.
func (c *Session) queryArrow(ctx context.Context, q *planner.Query) (ArrowReader, error) {
	cols := q.ResultColumns()
	fields := make([]arrow.Field, len(cols))
	for i, col := range cols {
		f, err := types.ArrowField(col.Name, col.Type)
		if err != nil {
			return nil, err
		}
		fields[i] = f
	}
	// The operators outlive this call: they stop when the reader is closed, and the scans
	// below them take each Next's context.
	octx, cancel := context.WithCancel(context.Background())
	op, inputs, err := c.buildQuery(ctx, octx, q)
	if err != nil {
		cancel()
		return nil, err
	}
	r := &engineArrowReader{schema: arrow.NewSchema(fields, nil), op: op, cancel: cancel}
	for _, in := range inputs {
		switch x := in.(type) {
		case *scanInput:
			r.scans = append(r.scans, x)
		case *kvScanInput:
			r.kvs = append(r.kvs, x)
		case *sharedUser:
			if !slices.Contains(r.shared, x.s) {
				r.shared = append(r.shared, x.s)
			}
		}
	}
	return r, nil
}

// engineArrowReader is an ArrowReader over the engine's result batches.
type engineArrowReader struct {
	schema *arrow.Schema
	op     engine.Operator
	scans  []*scanInput   // the log-scan inputs
	kvs    []*kvScanInput // the KV-scan inputs
	shared []*sharedScan  // the scans several inputs read
	cancel context.CancelFunc
	cur    arrow.RecordBatch
	done   bool
}

func (r *engineArrowReader) Schema() *arrow.Schema { return r.schema }

func (r *engineArrowReader) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
	if r.done {
		return nil, io.EOF
	}
	for _, s := range r.scans {
		s.rows.ctx = ctx
	}
	for _, kv := range r.kvs {
		kv.ctx = ctx
	}
	for _, s := range r.shared {
		s.setContext(ctx)
	}
	b, err := r.op.Next()
	if err == io.EOF {
		r.Close()
		return nil, io.EOF
	}
	if err != nil {
		return nil, err
	}
	// The engine names and types its columns as the schema does; rebuild the batch on the
	// reader's schema so that field metadata and nullability are exactly Schema's.
	for i, col := range b.Columns() {
		if want := r.schema.Field(i).Type; !arrow.TypeEqual(col.DataType(), want) {
			b.Release()
			return nil, fmt.Errorf("flussql: column %d of an engine batch is %s, want %s", i, col.DataType(), want)
		}
	}
	r.cur = array.NewRecordBatch(r.schema, b.Columns(), b.NumRows())
	b.Release()
	return r.cur, nil
}

func (r *engineArrowReader) Close() error {
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
	if !r.done {
		r.done = true
		r.op.Close()
		r.cancel()
	}
	return nil
}
