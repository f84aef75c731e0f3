package flussql

import (
	"context"
	"database/sql/driver"

	"github.com/flussql/flussql/parser"
)

// stmt is a parsed statement. It is planned at each execution, so it sees schema and
// partition changes made after Prepare.
type stmt struct {
	conn   *conn
	query  string
	parsed parser.Statement
	params parser.Params
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
	if err := s.conn.usable(); err != nil {
		return nil, err
	}
	return s.conn.exec(ctx, s.parsed, args)
}

// QueryContext runs the statement with args and returns its rows.
func (s *stmt) QueryContext(ctx context.Context, args []driver.NamedValue) (driver.Rows, error) {
	if err := s.conn.usable(); err != nil {
		return nil, err
	}
	return s.conn.query(ctx, s.parsed, args)
}

func valuesToNamed(args []driver.Value) []driver.NamedValue {
	out := make([]driver.NamedValue, len(args))
	for i, v := range args {
		out[i] = driver.NamedValue{Ordinal: i + 1, Value: v}
	}
	return out
}
