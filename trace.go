package flussql

import (
	"context"
	"database/sql/driver"
	"fmt"
	"reflect"
	"strings"
	"sync/atomic"
	"time"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/internal/executor"
	"github.com/flussql/flussql/planner"
)

// Tracer observes every statement a connection runs, as pgx's QueryTracer does: set one on
// Config.Tracer (it is not part of the DSN). TraceStatementStart is called before the
// statement is parsed; the context it returns is the statement's (so a span started there
// is the parent of what the statement does). TraceStatementEnd is called once when the
// statement is done: for Exec when it returns, for Query when its rows are closed (or
// reach their end), with the rows returned. Both are called on the caller's goroutine;
// a Tracer shared by connections must be safe for concurrent use.
type Tracer interface {
	TraceStatementStart(ctx context.Context, start TraceStart) context.Context
	TraceStatementEnd(ctx context.Context, end TraceEnd)
}

// TraceStart describes a statement about to run.
type TraceStart struct {
	// SQL is the statement text as given.
	SQL string
	// Args is the number of arguments.
	Args int
	// Query is true for Query (rows expected), false for Exec.
	Query bool
}

// TraceEnd describes a statement that is done.
type TraceEnd struct {
	// SQL is the statement text as given.
	SQL string
	// Plan names what ran, e.g. "Write", "Lookup", "Scan", "CreateTable" (planner's plan
	// type); "" when the statement failed before it was planned.
	Plan string
	// Rows is the number of rows written (Exec) or returned (Query).
	Rows int64
	// Bytes is what the statement exchanged with the cluster: the protobuf bodies of its
	// requests and answers, and for a write its rows' share of the batches sent, every
	// attempt counted (see fluss.WithByteCounter). For a Query it counts until the rows close.
	Bytes int64
	// Duration is the time from TraceStatementStart to the end.
	Duration time.Duration
	// Err is the statement's error (for Query, the first of the query's and its rows'
	// errors), nil on success.
	Err error
}

// traceState collects what the statement's code learns (the plan) for TraceEnd.
type traceState struct {
	plan  string
	bytes atomic.Int64
}

type traceKey struct{}

// notePlan records the plan of the statement for its trace, if it is traced.
func notePlan(ctx context.Context, p planner.Plan) {
	if st, ok := ctx.Value(traceKey{}).(*traceState); ok && p != nil {
		st.plan = strings.TrimPrefix(reflect.TypeOf(p).String(), "*planner.")
	}
}

// traceExec runs an Exec through the connector's tracer, if any.
func (c *conn) traceExec(ctx context.Context, query string, nargs int, run func(context.Context) (driver.Result, error)) (driver.Result, error) {
	tr := c.connector.cfg.Tracer
	if tr == nil {
		res, err := run(ctx)
		return res, boundErr(err)
	}
	start := time.Now()
	st := &traceState{}
	ctx = context.WithValue(tr.TraceStatementStart(ctx, TraceStart{SQL: query, Args: nargs}), traceKey{}, st)
	ctx = fluss.WithByteCounter(ctx, &st.bytes)
	res, err := run(ctx)
	var n int64
	if err == nil && res != nil {
		n, _ = res.RowsAffected()
	}
	tr.TraceStatementEnd(ctx, TraceEnd{SQL: query, Plan: st.plan, Rows: n, Bytes: st.bytes.Load(), Duration: time.Since(start), Err: err})
	return res, boundErr(err)
}

// traceQuery runs a Query through the connector's tracer, if any; its end is traced when
// the rows are closed.
func (c *conn) traceQuery(ctx context.Context, query string, nargs int, run func(context.Context) (executor.Rows, error)) (driver.Rows, error) {
	tr := c.connector.cfg.Tracer
	if tr == nil {
		r, err := run(ctx)
		if err != nil {
			return nil, boundErr(err)
		}
		return &rows{rows: r, cols: r.Columns()}, nil
	}
	start := time.Now()
	st := &traceState{}
	ctx = context.WithValue(tr.TraceStatementStart(ctx, TraceStart{SQL: query, Args: nargs, Query: true}), traceKey{}, st)
	ctx = fluss.WithByteCounter(ctx, &st.bytes)
	r, err := run(ctx)
	if err != nil {
		tr.TraceStatementEnd(ctx, TraceEnd{SQL: query, Plan: st.plan, Bytes: st.bytes.Load(), Duration: time.Since(start), Err: err})
		return nil, boundErr(err)
	}
	return &rows{rows: r, cols: r.Columns(), end: func(n int64, err error) {
		tr.TraceStatementEnd(ctx, TraceEnd{SQL: query, Plan: st.plan, Rows: n, Bytes: st.bytes.Load(), Duration: time.Since(start), Err: err})
	}}, nil
}

// String names the trace points for debugging.
func (e TraceEnd) String() string {
	return fmt.Sprintf("%s: plan %s, %d rows, %d bytes, %s, err %v", e.SQL, e.Plan, e.Rows, e.Bytes, e.Duration, e.Err)
}
