// Package executor runs statements against a Fluss cluster: it plans them (package
// planner) against a shared catalog cache and carries the plans out — DDL and ACL calls,
// writes with their outcome, lookups, limit scans, log and KV scans, and query-engine
// operator trees (package engine). It keeps the table handles (writers, lookupers) that
// statements reuse. It knows nothing of database/sql: package flussql is a thin adapter
// over it, as the shell and ArrowConn are over flussql.
package executor

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/flussql/flussql/engine"
	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/internal/flinkgw"
	"github.com/flussql/flussql/parser"
	"github.com/flussql/flussql/planner"
)

// Options are the executor's settings (the driver maps its DSN onto them).
type Options struct {
	// RequestTimeout bounds each request whose context has no deadline (0: none).
	RequestTimeout time.Duration
	// QueryMemory bounds the bytes of one query's aggregation, sort and join state.
	QueryMemory int64
	// Writer are the options of the sessions' writers.
	Writer fluss.WriterOptions
	// PartitionAutoCreate lets writes create missing partitions instead of failing.
	PartitionAutoCreate bool
	// NotePlan, when set, is told the plan of each statement before it runs (tracing).
	NotePlan func(ctx context.Context, p planner.Plan)
	// DecorateError, when set, rewrites the error of statement st run in database (the
	// driver explains permission errors with it).
	DecorateError func(st parser.Statement, database string, err error) error
	// Flink, when set, runs what needs a streaming engine through a Flink SQL gateway
	// (flinksession.go); nil refuses it.
	Flink *FlinkOptions
	// Functions are the connector's user-defined functions (nil: none).
	Functions *engine.FunctionSet
}

// Executor holds what the sessions of one cluster share: the wire client, the catalog
// cache and the lookupers. It is safe for concurrent use.
type Executor struct {
	client  *fluss.Client
	catalog *planner.AdminCatalog
	opts    Options

	lookupers       handleCache[*fluss.Lookuper]
	prefixLookupers handleCache[*fluss.PrefixLookuper]
	// gateway is the Flink SQL gateway's client (nil without Options.Flink).
	gateway *flinkgw.Client
}

// New returns an Executor over client and catalog.
func New(client *fluss.Client, catalog *planner.AdminCatalog, opts Options) *Executor {
	e := &Executor{
		client: client, catalog: catalog, opts: opts,
		lookupers:       handleCache[*fluss.Lookuper]{max: maxCachedLookupers},
		prefixLookupers: handleCache[*fluss.PrefixLookuper]{max: maxCachedLookupers},
	}
	if opts.Flink != nil {
		e.gateway = flinkgw.New(opts.Flink.Gateway, nil)
	}
	return e
}

// Client is the wire client the executor runs statements with.
func (e *Executor) Client() *fluss.Client { return e.client }

// Close drops the shared lookupers (the wire client is its owner's to close).
func (e *Executor) Close() {
	e.lookupers.clear()
	e.prefixLookupers.clear()
}

// requestContext applies the request timeout when ctx has no deadline.
func (e *Executor) requestContext(ctx context.Context) (context.Context, context.CancelFunc) {
	if _, ok := ctx.Deadline(); ok || e.opts.RequestTimeout <= 0 {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, e.opts.RequestTimeout)
}

func (e *Executor) notePlan(ctx context.Context, p planner.Plan) {
	if e.opts.NotePlan != nil && p != nil {
		e.opts.NotePlan(ctx, p)
	}
}

// Session is one session over an Executor: a current database, an open transaction, the
// session's writers and its cache of parsed statements. A session is used by one
// goroutine at a time (as a database/sql connection is).
type Session struct {
	ex      *Executor
	client  *fluss.Client
	catalog *planner.AdminCatalog

	mu       sync.Mutex
	database string
	tx       *Tx
	// writers are the session's table writers, reused across statements.
	writers handleCache[closableWriter]
	// parsed caches the statements of unprepared queries by their text.
	parsed stmtCache
	// flink is the session's Flink gateway session, opened at its first Flink statement.
	flink flinkConn
}

// NewSession starts a session whose current database is database.
func (e *Executor) NewSession(database string) *Session {
	return &Session{ex: e, client: e.client, catalog: e.catalog, database: database,
		writers: handleCache[closableWriter]{close: closeWriter}}
}

// Executor is the session's executor.
func (c *Session) Executor() *Executor { return c.ex }

// Database is the session's current database.
func (c *Session) Database() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.database
}

// Reset makes database current again and drops an open transaction (its writes were never
// sent), as for a connection going back to a pool.
func (c *Session) Reset(database string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.database = database
	c.tx = nil
}

// Close ends the session: an open transaction is dropped and the writers are closed
// without waiting (every statement waited for its own rows before it returned).
func (c *Session) Close() {
	c.mu.Lock()
	c.tx = nil
	c.mu.Unlock()
	c.writers.clear()
	c.closeFlink()
}

// Begin starts a transaction: a client-side write batch that Commit sends. ctx is the
// transaction's: Commit honours its deadline.
func (c *Session) Begin(ctx context.Context) (*Tx, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.tx != nil {
		return nil, errors.New("flussql: a transaction is already open on this connection")
	}
	c.tx = &Tx{conn: c, ctx: ctx}
	return c.tx, nil
}

// currentTx returns the open transaction, or nil.
func (c *Session) currentTx() *Tx {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.tx
}

// InTx reports whether a transaction is open.
func (c *Session) InTx() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.tx != nil
}

func (c *Session) session() planner.Session {
	c.mu.Lock()
	defer c.mu.Unlock()
	return planner.Session{Database: c.database, Flink: c.ex.opts.Flink != nil, Functions: c.ex.opts.Functions}
}

// Result is what a statement that returns no rows reports.
type Result struct {
	// RowsAffected is the number of rows written (or buffered, in a transaction).
	RowsAffected int64
	// Counted is false for statements that count no rows (DDL).
	Counted bool
	// JobID is the Flink job a statement submitted (planner.FlinkJob), "" otherwise.
	JobID string
}

func counted(n int64) Result { return Result{RowsAffected: n, Counted: true} }

// Rows is a statement's result: rows in the driver's value representation (integers as
// int64 or their column's Go type, DECIMAL as its string, temporal types as time.Time,
// ARRAY/MAP/ROW as []any / []datum.MapEntry).
type Rows interface {
	// Columns describes the result columns.
	Columns() []planner.ResultColumn
	// Next fills dest with the next row, or returns io.EOF after the last one.
	Next(dest []any) error
	// Close stops the statement and releases its resources.
	Close() error
}
