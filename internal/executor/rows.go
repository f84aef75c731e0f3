package executor

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/types"
	"github.com/flussql/flussql/planner"
)

// baseRows holds the result columns.
type baseRows struct {
	cols []planner.ResultColumn
}

// Columns describes the result columns.
func (r *baseRows) Columns() []planner.ResultColumn { return r.cols }

// sliceRows are rows already in memory in the fluss value model (SHOW, DESCRIBE, lookups,
// limit scans).
type sliceRows struct {
	baseRows
	rows [][]any
	next int
}

func newSliceRows(cols []planner.ResultColumn, rows [][]any) *sliceRows {
	return &sliceRows{baseRows: baseRows{cols: cols}, rows: rows}
}

// Next fills dest with the next row.
func (r *sliceRows) Next(dest []any) error {
	if r.next >= len(r.rows) {
		return io.EOF
	}
	row := r.rows[r.next]
	r.next++
	for i := range dest {
		v, err := valueCell(r.cols[i].Type, row[i])
		if err != nil {
			return err
		}
		dest[i] = v
	}
	return nil
}

// Close drops the rows.
func (r *sliceRows) Close() error { r.rows = nil; return nil }

// scanRows stream a log scan: batches are polled as Next needs them and converted with
// per-column converters built once per batch. Close stops the scan and releases its memory.
type scanRows struct {
	baseRows
	ctx     context.Context
	scanner *fluss.LogScanner
	out     *planner.Output
	res     *planner.Results
	inTypes []types.DataType
	// timeout bounds each fetch of a bounded scan (0: the context alone, for unbounded scans).
	timeout time.Duration
	// more, when set, takes in the next group of buckets once the subscribed ones are read
	// to their end (scangroups.go); it reports false when none is left. stop ends a
	// subscription running in the background.
	more func() (bool, error)
	stop func()
	// lake, for a scan that reads a table's lake, is read before the log (lakescan.go);
	// scanner is nil when the lake alone is read (t$lake).
	lake *lakeRead
	// merge, for the union read of a primary-key table, merges the lake with the changelog
	// read before it (lakemerge.go).
	merge *lakeMerge

	// fast is set when there is no filter and no COUNT: values go straight from Arrow.
	fast bool
	// batchesOnly is set when the batches are handed out whole (QueryArrow, the engine): no row
	// values are made of them.
	batchesOnly bool
	emitted     int64

	batch *fluss.ScanBatch
	row   int
	cells []cellFunc
	tail  [][]any // rows left to emit after the scan ended (COUNT(*))
	ended bool

	closeOnce sync.Once
}

func newScanRows(ctx context.Context, cols []planner.ResultColumn, s *fluss.LogScanner, out *planner.Output, inTypes []types.DataType, timeout time.Duration) *scanRows {
	return &scanRows{
		baseRows: baseRows{cols: cols}, ctx: ctx, scanner: s, out: out, res: out.Begin(),
		inTypes: inTypes, timeout: timeout, fast: out.Filter == nil && !out.Count,
	}
}

// Next fills dest with the next row, fetching from the cluster when the current batch is
// used up. It returns by the query's deadline whatever the servers do, with an error that
// matches the context's error and names the buckets the scan was waiting for.
func (r *scanRows) Next(dest []any) error {
	for {
		if r.ended {
			if len(r.tail) == 0 {
				return io.EOF
			}
			row := r.tail[0]
			r.tail = r.tail[1:]
			return r.fillValues(dest, row)
		}
		if r.limitReached() {
			r.finish()
			continue
		}
		if r.batch == nil || r.row >= r.batch.NumRows() {
			if err := r.fetch(); err != nil {
				if errors.Is(err, io.EOF) {
					r.finish()
					continue
				}
				return err
			}
			continue
		}
		i := r.row
		r.row++
		if r.fast {
			for c, col := range r.out.Columns {
				arr := r.batch.Record.Column(col.Slot)
				if arr.IsNull(i) {
					dest[c] = nil
				} else {
					dest[c] = r.cells[c](i)
				}
			}
			r.emitted++
			return nil
		}
		in, err := fluss.RowValues(r.batch.Record, r.inTypes, i)
		if err != nil {
			return err
		}
		row, err := r.res.Add(in)
		if err != nil {
			return err
		}
		if row != nil {
			return r.fillValues(dest, row)
		}
	}
}

func (r *scanRows) limitReached() bool {
	if r.fast {
		return r.out.Limit >= 0 && r.emitted >= r.out.Limit
	}
	return r.res.Done()
}

func (r *scanRows) fillValues(dest []any, row []any) error {
	for i := range dest {
		v, err := valueCell(r.cols[i].Type, row[i])
		if err != nil {
			return err
		}
		dest[i] = v
	}
	return nil
}

// deadlineMargin is how much earlier than the query's deadline a scan stops waiting for
// the cluster: database/sql answers Rows.Err with the bare context error once the deadline
// has passed, so the scan's own error — which names the buckets that were failing or
// silent, their offsets and the last failure — must reach Next before that.
const deadlineMargin = 50 * time.Millisecond

// pollContext is the context of one Poll: the query's, ending a little before its
// deadline (deadlineMargin, at most a tenth of the time left), and for bounded scans
// ending after the fetch timeout without rows.
func (r *scanRows) pollContext() (context.Context, context.CancelFunc) {
	ctx, cancels := r.ctx, []context.CancelFunc(nil)
	if dl, ok := ctx.Deadline(); ok {
		margin := min(time.Until(dl)/10, deadlineMargin)
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, dl.Add(-max(margin, 0)))
		cancels = append(cancels, cancel)
	}
	if r.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, r.timeout,
			fmt.Errorf("no rows for %s, the DSN's timeout: %w", r.timeout, context.DeadlineExceeded))
		cancels = append(cancels, cancel)
	}
	return ctx, func() {
		for _, c := range cancels {
			c()
		}
	}
}

// fetch replaces the current batch with the next non-empty one. A scan whose bucket
// leader fails resumes on the new leader (fluss.LogScanner.Poll); when the query's
// context ends first, or a bounded scan gets no rows for the fetch timeout, the error
// matches the context's error and says which buckets were failing or waiting, at which
// offsets, and the last failure.
func (r *scanRows) fetch() error {
	if r.batch != nil {
		r.batch.Release()
		r.batch = nil
	}
	for {
		b, err := r.poll()
		if err != nil {
			return err
		}
		if b.NumRows() == 0 {
			b.Release()
			continue
		}
		r.batch, r.row = b, 0
		countScanned(r.ctx, b.NumRows())
		if r.fast && !r.batchesOnly {
			r.cells = r.cells[:0]
			for _, col := range r.out.Columns {
				cell, err := batchCells(col.Type, b.Record.Column(col.Slot))
				if err != nil {
					return err
				}
				r.cells = append(r.cells, cell)
			}
		}
		return nil
	}
}

// poll returns the next batch: the lake's first, then the log's (for the union read of a
// primary-key table, the merge's: pollMerged).
func (r *scanRows) poll() (*fluss.ScanBatch, error) {
	if r.merge != nil {
		return r.pollMerged()
	}
	if r.lake != nil && r.lake.scan != nil {
		b, err := r.lake.next(r.ctx)
		if !errors.Is(err, io.EOF) {
			return b, err
		}
		r.lake.close()
	}
	return r.pollLog()
}

// pollLog returns the log's next batch, taking in the next group of buckets when the
// subscribed ones are read to their end (scangroups.go), or io.EOF after the last.
func (r *scanRows) pollLog() (*fluss.ScanBatch, error) {
	for {
		if r.scanner == nil {
			return nil, io.EOF
		}
		ctx, cancel := r.pollContext()
		b, err := r.scanner.Poll(ctx)
		cancel()
		if errors.Is(err, io.EOF) && r.more != nil {
			more, err := r.more()
			if err != nil {
				return nil, err
			}
			if more {
				continue
			}
			return nil, io.EOF
		}
		return b, err
	}
}

// finish ends the scan and queues the rows to emit after the input (COUNT(*)).
func (r *scanRows) finish() {
	if r.ended {
		return
	}
	r.ended = true
	if !r.fast {
		r.tail = r.res.Finish()
	}
	r.release()
}

func (r *scanRows) release() {
	r.closeOnce.Do(func() {
		if r.stop != nil {
			r.stop()
		}
		if r.batch != nil {
			r.batch.Release()
			r.batch = nil
		}
		r.lake.close()
		r.merge.release()
		if r.scanner != nil {
			_ = r.scanner.Close()
		}
	})
}

// Close stops the scan at once and releases every buffered batch.
func (r *scanRows) Close() error {
	r.ended = true
	r.tail = nil
	r.release()
	return nil
}
