package flussql

import (
	"context"
	"database/sql/driver"
	"fmt"
	"sync"
	"time"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/internal/executor"
	"github.com/flussql/flussql/internal/sqlkind"
	"github.com/flussql/flussql/parser"
	"github.com/flussql/flussql/planner"
)

// conn is one database/sql connection: a session (current database, open transaction)
// over the Connector's shared wire client.
type conn struct {
	connector *Connector
	client    *fluss.Client
	sess      *executor.Session

	mu     sync.Mutex
	closed bool
}

var (
	_ driver.Conn               = (*conn)(nil)
	_ driver.ConnPrepareContext = (*conn)(nil)
	_ driver.ConnBeginTx        = (*conn)(nil)
	_ driver.ExecerContext      = (*conn)(nil)
	_ driver.QueryerContext     = (*conn)(nil)
	_ driver.Pinger             = (*conn)(nil)
	_ driver.SessionResetter    = (*conn)(nil)
	_ driver.Validator          = (*conn)(nil)
	_ driver.NamedValueChecker  = (*conn)(nil)
)

func newConn(c *Connector, ex *executor.Executor) *conn {
	return &conn{connector: c, client: ex.Client(), sess: ex.NewSession(c.cfg.Database)}
}

// Prepare parses the statement; planning happens at execution, against fresh metadata.
func (c *conn) Prepare(query string) (driver.Stmt, error) {
	return c.PrepareContext(context.Background(), query)
}

// PrepareContext parses the statement. Parse errors carry line and column.
func (c *conn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	if err := c.usable(); err != nil {
		return nil, err
	}
	p, err := c.sess.Prepare(query)
	if err != nil {
		return nil, boundErr(err)
	}
	return &stmt{conn: c, query: query, p: p}, nil
}

// Close ends the session; an open transaction is rolled back (its writes were never sent).
func (c *conn) Close() error {
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	c.sess.Close()
	return nil
}

// Begin starts a transaction.
func (c *conn) Begin() (driver.Tx, error) {
	return c.BeginTx(context.Background(), driver.TxOptions{})
}

// BeginTx starts a client-side write batch: INSERT/UPSERT/DELETE/UPDATE in the transaction
// are checked and buffered, nothing is sent before Commit, and Commit sends them all and
// waits for every acknowledgement. It is not atomic across buckets. Only the default
// isolation level is accepted, and read-only transactions are refused (reads do not see
// the buffered writes either way). A statement that fails in the transaction aborts it, as
// in PostgreSQL: later statements fail, and Commit sends nothing and returns that first
// error (matching ErrNotWritten). Other statements (DDL) run at once, outside the batch.
func (c *conn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	if err := c.usable(); err != nil {
		return nil, err
	}
	if opts.Isolation != driver.IsolationLevel(0) {
		return nil, fmt.Errorf("flussql: isolation level %d is %w: a transaction is a client-side write batch", opts.Isolation, ErrNotSupported)
	}
	if opts.ReadOnly {
		return nil, fmt.Errorf("flussql: read-only transactions are %w: a transaction is a client-side write batch", ErrNotSupported)
	}
	t, err := c.sess.Begin(ctx)
	if err != nil {
		return nil, err
	}
	return &tx{conn: c, tx: t}, nil
}

// Ping checks that the cluster answers a metadata request and that the DSN's database
// exists.
func (c *conn) Ping(ctx context.Context) error {
	if err := c.usable(); err != nil {
		return err
	}
	ctx, cancel := c.connector.requestContext(ctx)
	defer cancel()
	if _, err := c.client.ServerNodes(ctx); err != nil {
		return err
	}
	if db := c.connector.cfg.Database; db != "" {
		ok, err := c.client.Admin().DatabaseExists(ctx, db)
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("flussql: the database %q named by the DSN (its path, /%s) does not exist: create it (CREATE DATABASE %s) or name another in the DSN: %w",
				db, db, parser.QuoteIdent(db), fluss.ErrDatabaseNotExist)
		}
	}
	return nil
}

// ResetSession is called before a pooled connection is reused: it restores the DSN's
// database and drops a transaction left open.
func (c *conn) ResetSession(ctx context.Context) error {
	if err := c.usable(); err != nil {
		return err
	}
	c.sess.Reset(c.connector.cfg.Database)
	return nil
}

// IsValid reports whether the connection may go back to the pool.
func (c *conn) IsValid() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return !c.closed
}

// CheckNamedValue accepts every argument type the planner converts (Go integers of every
// size, floats, strings, []byte, bool, time.Time, nil, the fluss value types, and slices,
// maps and structs for ARRAY, MAP and ROW columns) and lets database/sql handle
// driver.Valuer values.
func (c *conn) CheckNamedValue(nv *driver.NamedValue) error {
	switch nv.Value.(type) {
	case nil, bool, string, []byte, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64,
		float32, float64, time.Time:
		return nil
	}
	if sqlkind.OfValue(nv.Value) != nil { // the fluss value types: datum.Decimal, datum.Date, …
		return nil
	}
	if isNestedArg(nv.Value) { // ARRAY, MAP and ROW values; the planner converts them per column
		return nil
	}
	return driver.ErrSkip
}

func (c *conn) usable() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return driver.ErrBadConn
	}
	return nil
}

// A connection never reports driver.ErrBadConn for a failed statement: it is a session
// over the Connector's shared wire client, which reconnects to each server by itself, so a
// dead or unreachable server does not make the session unusable — and database/sql would
// run the statement again on another connection (an INSERT twice, a failing SELECT three
// times over). Only a closed connection reports ErrBadConn (usable).

// ExecContext runs a statement that returns no rows.
func (c *conn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	return c.traceExec(ctx, query, len(args), func(ctx context.Context) (driver.Result, error) { return c.execText(ctx, query, args) })
}

func (c *conn) execText(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	if err := c.usable(); err != nil {
		return nil, err
	}
	return driverResult(c.sess.ExecText(ctx, query, plannerArgs(args)))
}

// driverResult is the database/sql form of an executor result.
func driverResult(res executor.Result, err error) (driver.Result, error) {
	if err != nil {
		return nil, err
	}
	if res.JobID != "" {
		return jobResult(res.JobID), nil
	}
	if !res.Counted {
		return driver.ResultNoRows, nil
	}
	return driver.RowsAffected(res.RowsAffected), nil
}

// QueryContext runs a statement that returns rows.
func (c *conn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	return c.traceQuery(ctx, query, len(args), func(ctx context.Context) (executor.Rows, error) {
		if err := c.usable(); err != nil {
			return nil, err
		}
		return c.sess.QueryText(ctx, query, plannerArgs(args))
	})
}

// plannerArgs converts database/sql arguments for planner.Bind.
func plannerArgs(args []driver.NamedValue) []planner.Arg {
	out := make([]planner.Arg, len(args))
	for i, a := range args {
		out[i] = planner.Arg{Ordinal: a.Ordinal, Name: a.Name, Value: a.Value}
	}
	return out
}

// jobResult is the result of a statement Flink runs as a job: it counts no rows (the job
// writes until it is stopped). Run the statement with QueryRow to read the job's id
// (column "job id"), or list the jobs with SHOW JOBS.
type jobResult string

// LastInsertId is not supported.
func (r jobResult) LastInsertId() (int64, error) {
	return 0, fmt.Errorf("flussql: the statement runs as Flink job %s, which has no insert id", string(r))
}

// RowsAffected is 0: the job's rows are written after the statement returns.
func (jobResult) RowsAffected() (int64, error) { return 0, nil }
