package flussql

import (
	"context"
	"database/sql/driver"

	"github.com/flussql/flussql/internal/executor"
)

// stmt is a prepared statement (executor.Prepared): planned at each execution, so it sees
// schema and partition changes made after Prepare, with the unbound plan of a write or a
// lookup kept while the table's metadata stays the same.
type stmt struct {
	conn  *conn
	query string
	p     *executor.Prepared
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
func (s *stmt) NumInput() int { return s.p.Params().NumInput() }

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
	return s.conn.traceExec(ctx, s.query, len(args), func(ctx context.Context) (driver.Result, error) {
		if err := s.conn.usable(); err != nil {
			return nil, err
		}
		return driverResult(s.p.Exec(ctx, plannerArgs(args)))
	})
}

// QueryContext runs the statement with args and returns its rows.
func (s *stmt) QueryContext(ctx context.Context, args []driver.NamedValue) (driver.Rows, error) {
	return s.conn.traceQuery(ctx, s.query, len(args), func(ctx context.Context) (executor.Rows, error) {
		if err := s.conn.usable(); err != nil {
			return nil, err
		}
		return s.p.Query(ctx, plannerArgs(args))
	})
}

func valuesToNamed(args []driver.Value) []driver.NamedValue {
	out := make([]driver.NamedValue, len(args))
	for i, v := range args {
		out[i] = driver.NamedValue{Ordinal: i + 1, Value: v}
	}
	return out
}
