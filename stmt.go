package flussql

import (
	"context"
	"database/sql/driver"
	"sync"

	"github.com/flussql/flussql/parser"
	"github.com/flussql/flussql/planner"
)

// stmt is a parsed statement. It is planned at each execution, so it sees schema and
// partition changes made after Prepare.
type stmt struct {
	conn   *conn
	query  string
	parsed parser.Statement
	params parser.Params

	// write is the unbound plan of a prepared INSERT/UPSERT/DELETE/UPDATE, kept while the
	// catalog returns the same table metadata, so that executing it many times (the bulk
	// path) binds arguments without planning again.
	mu      sync.Mutex
	write   *planner.Write
	writeDB string
	// plans keeps the unbound plan of a lookup query.
	plans lookupPlanCache
}

var (
	_ driver.Stmt             = (*stmt)(nil)
	_ driver.StmtExecContext  = (*stmt)(nil)
	_ driver.StmtQueryContext = (*stmt)(nil)
)

// Close releases nothing: a statement holds no server resources.
func (s *stmt) Close() error { return nil }

// NumInput is the number of ? placeholders, or -1 with :name placeholders (database/sql
// then leaves the check to the driver).
func (s *stmt) NumInput() int { return s.params.NumInput() }

// Exec runs the statement (database/sql uses ExecContext).
func (s *stmt) Exec(args []driver.Value) (driver.Result, error) {
	return s.ExecContext(context.Background(), valuesToNamed(args))
}

// Query runs the statement (database/sql uses QueryContext).
func (s *stmt) Query(args []driver.Value) (driver.Rows, error) {
	return s.QueryContext(context.Background(), valuesToNamed(args))
}

// ExecContext runs the statement with args.
func (s *stmt) ExecContext(ctx context.Context, args []driver.NamedValue) (driver.Result, error) {
	return s.conn.traceExec(ctx, s.query, len(args), func(ctx context.Context) (driver.Result, error) { return s.exec(ctx, args) })
}

func (s *stmt) exec(ctx context.Context, args []driver.NamedValue) (driver.Result, error) {
	if err := s.conn.usable(); err != nil {
		return nil, err
	}
	if err := s.conn.txAborted(); err != nil {
		return nil, err
	}
	if res, ok, err := s.execCached(ctx, args); ok {
		return res, s.conn.txFailed(writeOutcome(err))
	}
	res, err := s.conn.exec(ctx, s.parsed, args)
	return res, s.conn.txFailed(err)
}

// execCached runs a write through the cached plan; ok is false when there is none (yet),
// or when the table's metadata changed since it was planned.
func (s *stmt) execCached(ctx context.Context, args []driver.NamedValue) (driver.Result, bool, error) {
	if !isWrite(s.parsed) {
		return nil, false, nil
	}
	c := s.conn
	c.mu.Lock()
	inTx := c.tx != nil
	c.mu.Unlock()
	if !inTx {
		// In a transaction the write is only buffered (Commit sends it, under the
		// transaction's context); the catalog's and the partition check's requests get the
		// client's request timeout on their own. A timer per buffered row cost ~15 % of a
		// prepared INSERT's time.
		var cancel context.CancelFunc
		ctx, cancel = c.connector.requestContext(ctx)
		defer cancel()
	}
	db := c.session().Database
	s.mu.Lock()
	w := s.write
	if s.writeDB != db {
		w = nil
	}
	s.mu.Unlock()
	if w != nil {
		if info, err := c.catalog.Table(ctx, w.Table.Path); err != nil || info != w.Table {
			w = nil
		}
	}
	if w == nil {
		p, err := planner.Build(ctx, s.parsed, c.catalog, c.session())
		if err != nil {
			return nil, true, err
		}
		built, ok := p.(*planner.Write)
		if !ok {
			return nil, false, nil
		}
		w = built
		s.mu.Lock()
		s.write, s.writeDB = w, db
		s.mu.Unlock()
	}
	notePlan(ctx, w)
	bound, err := planner.Bind(w, plannerArgs(args))
	if err != nil {
		return nil, true, err
	}
	res, err := c.execPlan(ctx, bound)
	return res, true, err
}

// QueryContext runs the statement with args and returns its rows.
func (s *stmt) QueryContext(ctx context.Context, args []driver.NamedValue) (driver.Rows, error) {
	return s.conn.traceQuery(ctx, s.query, len(args), func(ctx context.Context) (driver.Rows, error) {
		if err := s.conn.usable(); err != nil {
			return nil, err
		}
		return s.conn.queryWith(ctx, s.parsed, args, &s.plans)
	})
}

func valuesToNamed(args []driver.Value) []driver.NamedValue {
	out := make([]driver.NamedValue, len(args))
	for i, v := range args {
		out[i] = driver.NamedValue{Ordinal: i + 1, Value: v}
	}
	return out
}
