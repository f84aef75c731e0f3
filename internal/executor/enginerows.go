package executor

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/flussql/flussql/engine"
	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/planner"
)

// startQuery runs a planner.Query: its source (a scan streamed batch by batch, or the rows
// of a lookup or limit scan as one batch) feeds the engine's operators, whose batches the
// rows convert column by column.
func (c *Session) startQuery(ctx context.Context, q *planner.Query) (Rows, error) {
	op, _, err := c.buildQuery(ctx, ctx, q)
	if err != nil {
		return nil, err
	}
	return &engineRows{baseRows: baseRows{cols: q.ResultColumns()}, op: op}, nil
}

// buildQuery opens the query's inputs (under ctx) and builds its operators
// (under octx); it returns the inputs too, whose context a reader may set
// per call.
func (c *Session) buildQuery(ctx, octx context.Context, q *planner.Query) (engine.Operator, []engine.Operator, error) {
	srcs := q.Inputs
	if q.Source != nil {
		srcs = []planner.QueryPlan{q.Source}
	}
	budget := &engine.Budget{Limit: c.ex.opts.QueryMemory, Setting: "the DSN key query_memory"}
	inputs, err := c.openInputs(ctx, srcs, budget)
	if err != nil {
		return nil, nil, err
	}
	fail := func(err error) (engine.Operator, []engine.Operator, error) {
		for _, in := range inputs {
			in.Close()
		}
		return nil, nil, err
	}
	lookers, err := c.lookers(q)
	if err != nil {
		return fail(err)
	}
	var first engine.Operator
	var more []engine.Operator
	if len(inputs) > 0 {
		first, more = inputs[0], inputs[1:]
	}
	op, err := engine.Build(octx, q.Root, first, engine.Options{Budget: budget, Inputs: more, Lookers: lookers})
	if err != nil {
		return fail(err)
	}
	return op, inputs, nil
}

// queryInput opens one source of a query as an engine input; the state a source holds
// (the changed keys of a union read of a primary-key table) counts in budget.
func (c *Session) queryInput(ctx context.Context, source planner.QueryPlan, budget *engine.Budget) (engine.Operator, error) {
	var err error
	switch src := source.(type) {
	case *planner.Scan:
		if src.Partitioned && len(src.Partitions) == 0 {
			return &batchInput{}, nil // every partition pruned
		}
		in := &scanInput{}
		if src.Virtual != planner.NotVirtual {
			if in.virtual, err = newVirtualBatches(src); err != nil {
				return nil, err
			}
		}
		if in.rows, err = c.openScan(ctx, src, budget); err != nil {
			return nil, err
		}
		in.rows.batchesOnly = true // the engine reads the batches: no row values are made of them
		return in, nil
	case *planner.KvScan:
		return c.openKvScan(ctx, src)
	}
	pctx, cancel := c.ex.requestContext(ctx)
	defer cancel()
	var info *fluss.TableInfo
	var rows [][]any
	switch src := source.(type) {
	case *planner.Lookup:
		info = src.Table
		rows, err = c.lookup(pctx, src.Table, &src.KeySet, &src.Output, false)
	case *planner.PrefixLookup:
		info = src.Table
		rows, err = c.lookup(pctx, src.Table, &src.KeySet, &src.Output, true)
	case *planner.LimitScan:
		info = src.Table
		rows, err = c.limitScanAll(pctx, src)
	default:
		return nil, fmt.Errorf("flussql: a query over %T is %w", src, ErrNotSupported)
	}
	if err != nil {
		return nil, err
	}
	b, err := fluss.NewArrowRowBuilder(nil, info.Schema().Columns)
	if err != nil {
		return nil, err
	}
	defer b.Release()
	for _, r := range rows {
		if err := b.Append(r); err != nil {
			return nil, err
		}
	}
	return &batchInput{batches: []arrow.RecordBatch{b.NewRecordBatch()}}, nil
}

// limitScanAll reads up to p.Limit rows (LIMIT + OFFSET) from every bucket of every
// partition left after pruning, unfiltered: the engine filters and limits them.
func (c *Session) limitScanAll(ctx context.Context, p *planner.LimitScan) ([][]any, error) {
	tbl, err := c.client.TableOf(p.Table)
	if err != nil {
		return nil, err
	}
	if p.Limit <= 0 {
		return nil, nil
	}
	partitions := []string{""}
	if p.Partitioned {
		partitions = partitions[:0]
		for _, part := range p.Partitions {
			partitions = append(partitions, part.Name)
		}
	}
	var out [][]any
	for _, part := range partitions {
		for b := 0; b < p.Buckets; b++ {
			rows, err := tbl.LimitScan(ctx, part, int32(b), int(min(p.Limit, fluss.MaxLimitScan)))
			if err != nil {
				return nil, err
			}
			out = append(out, rows...)
		}
	}
	return out, nil
}

// scanInput feeds a log scan's batches to the engine, one at a time, so that a
// streaming query holds no more than the scan itself does.
type scanInput struct {
	rows *scanRows
	// virtual builds the batches of t$changelog or t$binlog from the scan's; nil for a
	// plain scan.
	virtual *virtualBatches
}

func (s *scanInput) Next() (arrow.RecordBatch, error) {
	for {
		if s.rows.ended {
			return nil, io.EOF
		}
		if err := s.rows.fetch(); err != nil {
			if errors.Is(err, io.EOF) {
				s.Close()
				return nil, io.EOF
			}
			return nil, err
		}
		if s.virtual != nil {
			rec, err := s.virtual.convert(s.rows.ctx, s.rows.batch)
			if err != nil || rec.NumRows() > 0 {
				return rec, err
			}
			rec.Release() // a $binlog batch ending in an update_before: read on
			continue
		}
		rec := s.rows.batch.Record
		rec.Retain()
		return rec, nil
	}
}

func (s *scanInput) Close() {
	_ = s.rows.Close()
	if s.virtual != nil {
		s.virtual.close()
	}
}

// batchInput feeds batches already in memory.
type batchInput struct {
	batches []arrow.RecordBatch
}

func (b *batchInput) Next() (arrow.RecordBatch, error) {
	if len(b.batches) == 0 {
		return nil, io.EOF
	}
	rec := b.batches[0]
	b.batches = b.batches[1:]
	return rec, nil
}

func (b *batchInput) Close() {
	for _, r := range b.batches {
		r.Release()
	}
	b.batches = nil
}

// engineRows are the rows of a planner.Query: the engine's result batches, converted
// with per-column converters built once per batch.
type engineRows struct {
	baseRows
	op     engine.Operator
	batch  arrow.RecordBatch
	row    int
	cells  []cellFunc
	closed bool
}

// Next fills dest with the next row.
func (r *engineRows) Next(dest []any) error {
	for r.batch == nil || r.row >= int(r.batch.NumRows()) {
		if r.closed {
			return io.EOF
		}
		r.releaseBatch()
		b, err := r.op.Next()
		if err == io.EOF {
			r.Close()
			return io.EOF
		}
		if err != nil {
			return err
		}
		r.batch, r.row = b, 0
		r.cells = r.cells[:0]
		for i, col := range r.cols {
			cell, err := arrowCell(col.Type, b.Column(i))
			if err != nil {
				return err
			}
			r.cells = append(r.cells, cell)
		}
	}
	i := r.row
	r.row++
	for c := range dest {
		if r.batch.Column(c).IsNull(i) {
			dest[c] = nil
		} else {
			dest[c] = r.cells[c](i)
		}
	}
	return nil
}

func (r *engineRows) releaseBatch() {
	if r.batch != nil {
		r.batch.Release()
		r.batch = nil
	}
}

// Close stops the query and releases its batches and state.
func (r *engineRows) Close() error {
	r.releaseBatch()
	if !r.closed {
		r.closed = true
		r.op.Close()
	}
	return nil
}
