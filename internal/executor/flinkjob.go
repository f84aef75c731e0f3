package executor

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/flussql/flussql/fluss/types"
	"github.com/flussql/flussql/internal/flinkgw"
	"github.com/flussql/flussql/planner"
)

// flinkCloseTimeout bounds closing a gateway operation or session when the statement's
// context is gone.
const flinkCloseTimeout = 10 * time.Second

// execFlink runs a Flink plan for Exec: a job is submitted and waited for until it runs
// (Result.JobID names it), a command runs to its end; a continuous query returns rows and
// is refused here.
func (c *Session) execFlink(ctx context.Context, p *planner.Flink) (Result, error) {
	switch p.Kind {
	case planner.FlinkJob:
		id, err := c.submitFlinkJob(ctx, p)
		return Result{JobID: id}, err
	case planner.FlinkCommand:
		op, err := c.executeFlink(ctx, p, nil)
		if err != nil {
			return Result{}, err
		}
		defer op.Close(context.WithoutCancel(ctx))
		_, err = op.All(ctx)
		return Result{}, err
	}
	return Result{}, fmt.Errorf("flussql: %s over an unbounded scan returns rows (a changelog); run it with Query", p.Statement)
}

// queryFlink runs a Flink plan for Query: a continuous query streams its changelog, a job
// answers with its id (column "job id", as Flink's INSERT does), a command with Flink's rows.
func (c *Session) queryFlink(ctx context.Context, p *planner.Flink) (Rows, error) {
	switch p.Kind {
	case planner.FlinkQuery:
		return c.startFlinkQuery(ctx, p)
	case planner.FlinkJob:
		id, err := c.submitFlinkJob(ctx, p)
		if err != nil {
			return nil, err
		}
		cols := []planner.ResultColumn{{Name: "job id", Type: types.NewString().AsNotNull()}}
		return newSliceRows(cols, [][]any{{id}}), nil
	}
	op, err := c.executeFlink(ctx, p, nil)
	if err != nil {
		return nil, err
	}
	defer op.Close(context.WithoutCancel(ctx))
	rows, err := op.All(ctx)
	if err != nil {
		return nil, err
	}
	conv := newFlinkConverter(op.Columns)
	out := make([][]any, len(rows))
	for i, r := range rows {
		if out[i], err = conv.values(r); err != nil {
			return nil, err
		}
	}
	return &valueRows{baseRows: baseRows{cols: conv.cols}, rows: out}, nil
}

// submitFlinkJob submits an INSERT … SELECT as a Flink job and waits until Flink runs it:
// SHOW JOBS lists it RUNNING. A job that fails or ends first, or a wait cut short, is an
// error matching ErrOutcomeUnknown (the job may have written rows); an error before Flink
// accepted the job matches ErrNotWritten (the caller's writeOutcome).
func (c *Session) submitFlinkJob(ctx context.Context, p *planner.Flink) (string, error) {
	op, err := c.executeFlink(ctx, p, streamingMode)
	if err != nil {
		return "", err
	}
	defer op.Close(context.WithoutCancel(ctx))
	rows, err := op.All(ctx)
	if err != nil {
		return "", err
	}
	id := op.JobID
	if id == "" && len(rows) == 1 && len(rows[0].Fields) == 1 && rows[0].Fields[0] != nil {
		id = *rows[0].Fields[0] // the "job id" column of Flink's INSERT result
	}
	if id == "" {
		return "", &outcomeUnknownError{fmt.Errorf("flussql: Flink accepted %s but named no job (SHOW JOBS lists what runs)", p.Statement)}
	}
	// A job Flink cannot schedule (no free slot) waits in CREATED until Flink gives up
	// minutes later: the wait is bounded by the request timeout when ctx has no deadline.
	wctx, cancel := c.ex.requestContext(ctx)
	defer cancel()
	if err := c.waitJobRunning(wctx, p, id); err != nil {
		// The job was submitted: it may have written rows, or still start.
		return id, &outcomeUnknownError{err}
	}
	return id, nil
}

// waitJobRunning polls SHOW JOBS until job id is RUNNING.
func (c *Session) waitJobRunning(ctx context.Context, p *planner.Flink, id string) error {
	pause := 50 * time.Millisecond
	for {
		status, err := c.jobStatus(ctx, p.Database, id)
		if err != nil {
			return err
		}
		switch status {
		case "RUNNING":
			return nil
		case "FAILED", "FAILING", "CANCELED", "CANCELLING", "FINISHED":
			return &flinkgw.Error{Op: "job " + id, Messages: []string{fmt.Sprintf(
				"the Flink job %s submitted for %s is %s instead of running; its exception is in the JobManager's log and web UI", id, p.Statement, status)}}
		}
		t := time.NewTimer(pause)
		select {
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("flussql: waiting for Flink job %s to run (it was submitted and may still start; SHOW JOBS lists it, STOP JOB ends it): %w", id, ctx.Err())
		case <-t.C:
		}
		pause = min(2*pause, time.Second)
	}
}

// jobStatus returns the status SHOW JOBS gives job id ("" when it is not listed yet).
func (c *Session) jobStatus(ctx context.Context, database, id string) (string, error) {
	s, err := c.flinkSession(ctx, database)
	if err != nil {
		return "", err
	}
	rows, err := runFlink(ctx, s, "SHOW JOBS")
	if err != nil {
		return "", err
	}
	for _, r := range rows {
		f := r.Strings("")
		if len(f) >= 3 && strings.EqualFold(f[0], id) {
			return f[2], nil
		}
	}
	return "", nil
}

// valueRows are rows already converted to driver values (Flink's answers).
type valueRows struct {
	baseRows
	rows [][]any
}

// Next fills dest with the next row.
func (r *valueRows) Next(dest []any) error {
	if len(r.rows) == 0 {
		return io.EOF
	}
	copy(dest, r.rows[0])
	r.rows = r.rows[1:]
	return nil
}

// Close drops the rows.
func (r *valueRows) Close() error { r.rows = nil; return nil }
