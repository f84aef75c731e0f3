package flussql

import (
	"context"
	"database/sql/driver"
	"fmt"
	"io"
	"reflect"
	"strings"
	"time"

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
	// Duration is the time from TraceStatementStart to the end.
	Duration time.Duration
	// Err is the statement's error (for Query, the first of the query's and its rows'
	// errors), nil on success.
	Err error
}

// traceState collects what the statement's code learns (the plan) for TraceEnd.
type traceState struct {
	plan string
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
		return run(ctx)
	}
	start := time.Now()
	st := &traceState{}
	ctx = context.WithValue(tr.TraceStatementStart(ctx, TraceStart{SQL: query, Args: nargs}), traceKey{}, st)
	res, err := run(ctx)
	var n int64
	if err == nil && res != nil {
		n, _ = res.RowsAffected()
	}
	tr.TraceStatementEnd(ctx, TraceEnd{SQL: query, Plan: st.plan, Rows: n, Duration: time.Since(start), Err: err})
	return res, err
}

// traceQuery runs a Query through the connector's tracer, if any; its end is traced when
// the rows are closed.
func (c *conn) traceQuery(ctx context.Context, query string, nargs int, run func(context.Context) (driver.Rows, error)) (driver.Rows, error) {
	tr := c.connector.cfg.Tracer
	if tr == nil {
		return run(ctx)
	}
	start := time.Now()
	st := &traceState{}
	ctx = context.WithValue(tr.TraceStatementStart(ctx, TraceStart{SQL: query, Args: nargs, Query: true}), traceKey{}, st)
	rows, err := run(ctx)
	if err != nil {
		tr.TraceStatementEnd(ctx, TraceEnd{SQL: query, Plan: st.plan, Duration: time.Since(start), Err: err})
		return nil, err
	}
	return &tracedRows{Rows: rows, end: func(n int64, err error) {
		tr.TraceStatementEnd(ctx, TraceEnd{SQL: query, Plan: st.plan, Rows: n, Duration: time.Since(start), Err: err})
	}}, nil
}

// tracedRows counts the rows of a traced query and reports its end once: at io.EOF, an
// error of Next, or Close. It passes the column-type interfaces of the rows through.
type tracedRows struct {
	driver.Rows
	n    int64
	err  error
	end  func(int64, error)
	done bool
	// mapErr, when set, rewrites the errors of Next (not io.EOF).
	mapErr func(error) error
}

func (r *tracedRows) Next(dest []driver.Value) error {
	err := r.Rows.Next(dest)
	if err != nil && err != io.EOF && r.mapErr != nil {
		err = r.mapErr(err)
	}
	switch {
	case err == nil:
		r.n++
	case err == io.EOF:
		r.finish()
	default:
		r.err = err
		r.finish()
	}
	return err
}

func (r *tracedRows) Close() error {
	err := r.Rows.Close()
	if r.err == nil {
		r.err = err
	}
	r.finish()
	return err
}

func (r *tracedRows) finish() {
	if !r.done {
		r.done = true
		r.end(r.n, r.err)
	}
}

// ColumnTypeScanType passes through driver.RowsColumnTypeScanType.
func (r *tracedRows) ColumnTypeScanType(i int) reflect.Type {
	if t, ok := r.Rows.(driver.RowsColumnTypeScanType); ok {
		return t.ColumnTypeScanType(i)
	}
	return reflect.TypeFor[any]()
}

// ColumnTypeDatabaseTypeName passes through driver.RowsColumnTypeDatabaseTypeName.
func (r *tracedRows) ColumnTypeDatabaseTypeName(i int) string {
	if t, ok := r.Rows.(driver.RowsColumnTypeDatabaseTypeName); ok {
		return t.ColumnTypeDatabaseTypeName(i)
	}
	return ""
}

// ColumnTypeNullable passes through driver.RowsColumnTypeNullable.
func (r *tracedRows) ColumnTypeNullable(i int) (nullable, ok bool) {
	if t, ok := r.Rows.(driver.RowsColumnTypeNullable); ok {
		return t.ColumnTypeNullable(i)
	}
	return false, false
}

// ColumnTypeLength passes through driver.RowsColumnTypeLength.
func (r *tracedRows) ColumnTypeLength(i int) (int64, bool) {
	if t, ok := r.Rows.(driver.RowsColumnTypeLength); ok {
		return t.ColumnTypeLength(i)
	}
	return 0, false
}

// ColumnTypePrecisionScale passes through driver.RowsColumnTypePrecisionScale.
func (r *tracedRows) ColumnTypePrecisionScale(i int) (int64, int64, bool) {
	if t, ok := r.Rows.(driver.RowsColumnTypePrecisionScale); ok {
		return t.ColumnTypePrecisionScale(i)
	}
	return 0, 0, false
}

// String names the trace points for debugging.
func (e TraceEnd) String() string {
	return fmt.Sprintf("%s: plan %s, %d rows, %s, err %v", e.SQL, e.Plan, e.Rows, e.Duration, e.Err)
}
