package executor

import (
	"context"
	"errors"
	"io"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/flussql/flussql/engine"
	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/types"
	"github.com/flussql/flussql/planner"
)

// planKv plans the statement again (build) with the session's KvScan set when its plan p (or
// error err) without it needs a full scan of a primary-key table — refused with
// ErrNeedsFullScan, read with LimitScan, which sees only the first rows of each bucket, or
// a union read of a datalake-enabled one, which the KV scan answers with less work — and
// the connected server offers SCAN_KV. It returns p and err unchanged otherwise.
func (c *Session) planKv(ctx context.Context, p planner.Plan, err error,
	build func(planner.Session) (planner.Plan, error)) (planner.Plan, error) {
	if !errors.Is(err, planner.ErrNeedsFullScan) && !readsLimitScan(p) && !readsLakeMerge(p) {
		return p, err
	}
	if ok, oerr := c.client.OffersKvScan(ctx); oerr != nil || !ok {
		return p, err
	}
	sess := c.session()
	sess.KvScan = true
	return build(sess)
}

// readsLimitScan reports whether p (or the query or EXPLAIN it wraps) reads a LimitScan.
func readsLimitScan(p planner.Plan) bool {
	switch p := p.(type) {
	case *planner.LimitScan:
		return true
	case *planner.Query:
		_, ok := p.Source.(*planner.LimitScan)
		return ok
	case *planner.Explain:
		return readsLimitScan(p.Plan)
	}
	return false
}

// readsLakeMerge reports whether p (or the query or EXPLAIN it wraps) reads a primary-key
// table by a union read of its lake.
func readsLakeMerge(p planner.Plan) bool {
	switch p := p.(type) {
	case *planner.Scan:
		return p.IsLakeMerge()
	case *planner.Query:
		if s, ok := p.Source.(*planner.Scan); ok && s.IsLakeMerge() {
			return true
		}
		for _, in := range p.Inputs {
			if s, ok := in.(*planner.Scan); ok && s.IsLakeMerge() {
				return true
			}
		}
	case *planner.Explain:
		return readsLakeMerge(p.Plan)
	}
	return false
}

// openKvScan starts the KV scan of a query's source as an engine input: batches of the
// projected columns as the server sends them.
func (c *Session) openKvScan(ctx context.Context, p *planner.KvScan) (engine.Operator, error) {
	if p.Partitioned && len(p.Partitions) == 0 {
		return &batchInput{}, nil // every partition pruned
	}
	tbl, err := c.client.TableOf(p.Table)
	if err != nil {
		return nil, err
	}
	opts := fluss.KvScanOptions{Projection: p.Projection}
	if p.Limit >= 0 {
		if p.Limit == 0 {
			return &batchInput{}, nil
		}
		opts.Limit = p.Limit
	}
	for _, part := range p.Partitions {
		opts.Partitions = append(opts.Partitions, part.Name)
	}
	sctx, cancel := c.ex.requestContext(ctx)
	defer cancel()
	s, err := tbl.NewKvScanner(sctx, opts)
	if err != nil {
		return nil, err
	}
	cols := make([]types.Column, len(p.Projection))
	for i, col := range p.Projection {
		cols[i] = p.Table.Schema().Columns[col]
	}
	b, err := fluss.NewArrowRowBuilder(nil, cols)
	if err != nil {
		s.Close()
		return nil, err
	}
	return &kvScanInput{ctx: ctx, scanner: s, builder: b}, nil
}

// kvScanInput feeds a KV scan's batches to the engine, one at a time. Closing it (the
// query's rows closed early, e.g. at its LIMIT) closes the server's scan session.
type kvScanInput struct {
	ctx     context.Context // the query's; the ArrowReader sets each Next's
	scanner *fluss.KvScanner
	builder *fluss.ArrowRowBuilder
	done    bool
}

func (k *kvScanInput) Next() (arrow.RecordBatch, error) {
	if k.done {
		return nil, io.EOF
	}
	rows, err := k.scanner.Next(k.ctx)
	if errors.Is(err, io.EOF) {
		k.Close()
		return nil, io.EOF
	}
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		if err := k.builder.Append(r); err != nil {
			return nil, err
		}
	}
	return k.builder.NewRecordBatch(), nil
}

func (k *kvScanInput) Close() {
	if !k.done {
		k.done = true
		_ = k.scanner.Close()
		k.builder.Release()
	}
}
