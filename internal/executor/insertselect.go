package executor

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/parser"
	"github.com/flussql/flussql/planner"
)

// isInsertSelect reports whether st is INSERT / UPSERT INTO … SELECT.
func isInsertSelect(st parser.Statement) bool {
	ins, ok := st.(*parser.Insert)
	return ok && ins.Query != nil
}

// execInsertSelect runs INSERT / UPSERT INTO t … SELECT …: the query runs as a SELECT would
// and its rows stream into the table's writer under one receipt, so the statement has one
// outcome (RowsAffected = rows written, or an error matching exactly one outcome sentinel).
// The request timeout bounds the planning and the final wait for the writes, not the
// reading: a long query keeps streaming as long as ctx allows.
func (c *Session) execInsertSelect(ctx context.Context, st parser.Statement, args []planner.Arg) (Result, error) {
	if c.currentTx() != nil {
		return Result{}, fmt.Errorf("flussql: INSERT … SELECT in a transaction is %w: a transaction holds its rows in memory until Commit, and a query's rows need not fit; run it outside the transaction (on its own it is one statement with one outcome)", ErrNotSupported)
	}
	pctx, cancel := c.ex.requestContext(ctx)
	p, err := c.plan(pctx, st, args)
	cancel()
	if err != nil {
		return Result{}, err
	}
	if fp, ok := p.(*planner.Flink); ok {
		return c.execFlink(ctx, fp)
	}
	is, ok := p.(*planner.InsertSelect)
	if !ok {
		return Result{}, fmt.Errorf("flussql: INSERT … SELECT planned as %T", p)
	}
	return c.runInsertSelect(ctx, is)
}

// runInsertSelect streams the rows of the plan's query into the table.
func (c *Session) runInsertSelect(ctx context.Context, is *planner.InsertSelect) (Result, error) {
	rows, err := c.openSource(ctx, is.Source)
	if err != nil {
		return Result{}, err
	}
	defer rows.Close()
	r := fluss.NewReceipt()
	n, err := c.streamRows(ctx, r, is, rows)
	wctx, cancel := c.ex.requestContext(ctx)
	defer cancel()
	if err := settle(wctx, r, err); err != nil {
		return Result{}, partitionHint(err)
	}
	return counted(n), nil
}

// openSource starts the query of an INSERT … SELECT, as Query would run it.
func (c *Session) openSource(ctx context.Context, src planner.QueryPlan) (Rows, error) {
	switch s := src.(type) {
	case *planner.Scan:
		return c.startScan(ctx, s)
	case *planner.Query:
		return c.startQuery(ctx, s)
	}
	rctx, cancel := c.ex.requestContext(ctx)
	defer cancel()
	rows, err := c.readAll(rctx, src)
	if err != nil {
		return nil, err
	}
	return newSliceRows(src.ResultColumns(), rows), nil
}

// streamRows hands every row of rows to the table's writer under receipt r and returns the
// number handed over. A row that does not convert, or whose partition does not exist (and
// partition_auto_create is off), stops the statement before that row is handed over.
func (c *Session) streamRows(ctx context.Context, r *fluss.Receipt, is *planner.InsertSelect, rows Rows) (int64, error) {
	w := is.Write
	var appendW *fluss.AppendWriter
	var upsertW *fluss.UpsertWriter
	var err error
	rctx, cancel := c.ex.requestContext(ctx) // obtaining a writer asks the server for an id
	if w.Mode == planner.Append {
		appendW, err = c.appendWriter(rctx, w.Table)
	} else {
		upsertW, err = c.upsertWriter(rctx, w)
	}
	cancel()
	if err != nil {
		return 0, err
	}
	parts := &partitionSet{sess: c, w: w}
	dest := make([]any, len(rows.Columns()))
	var n int64
	for {
		if err := ctx.Err(); err != nil {
			return n, fmt.Errorf("flussql: INSERT … SELECT stopped after %d row(s) of the query: %w", n, err)
		}
		if err := rows.Next(dest); err != nil {
			if errors.Is(err, io.EOF) {
				return n, nil
			}
			return n, fmt.Errorf("flussql: INSERT … SELECT: reading row %d of the query: %w", n+1, err)
		}
		row, err := is.Row(dest)
		if err != nil {
			return n, fmt.Errorf("flussql: row %d of the query: %w", n+1, err)
		}
		if err := parts.check(ctx, row); err != nil {
			return n, err
		}
		if appendW != nil {
			err = appendW.AppendWith(ctx, r, row.Any())
		} else {
			err = upsertW.UpsertWith(ctx, r, row.Any())
		}
		if err != nil {
			return n, err
		}
		n++
	}
}

// partitionSet checks the partitions of streamed rows: the partitions known to exist,
// fetched when the first row of a partition not known yet comes.
type partitionSet struct {
	sess  *Session
	w     *planner.Write
	known map[string]bool
}

// check fails for a row whose partition does not exist, with the statement that creates it.
func (p *partitionSet) check(ctx context.Context, row planner.WriteRow) error {
	if !p.w.Table.IsPartitioned() || p.sess.ex.opts.PartitionAutoCreate || p.known[row.Partition()] {
		return nil
	}
	one := *p.w
	one.Rows = []planner.WriteRow{row}
	rctx, cancel := p.sess.ex.requestContext(ctx)
	defer cancel()
	if err := p.sess.checkPartitions(rctx, &one); err != nil {
		return err
	}
	if p.known == nil {
		p.known = map[string]bool{}
	}
	p.known[row.Partition()] = true
	return nil
}
