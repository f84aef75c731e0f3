package flussql_test

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/flusstest"
)

// openFake starts a fake cluster and opens it with database fluss; dsnOptions are appended
// to the DSN ("timeout=2s"). The pool is closed when the test ends.
func openFake(t *testing.T, dsnOptions string, opts ...flusstest.Option) (*sql.DB, *flusstest.Cluster) {
	t.Helper()
	fc := flusstest.New(t, opts...)
	dsn := "fluss://" + fc.Addr() + "/fluss"
	if dsnOptions != "" {
		dsn += "?" + dsnOptions
	}
	db, err := sql.Open("fluss", dsn)
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	return db, fc
}

// fakeCtx is a context for one statement against the fake.
func fakeCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// mustExec runs statements that must succeed.
func mustExec(t *testing.T, db *sql.DB, stmts ...string) {
	t.Helper()
	for _, s := range stmts {
		_, err := db.ExecContext(fakeCtx(t), s)
		require.NoError(t, err, s)
	}
}

// shortCtx is a context for a statement expected to fail by its deadline.
func shortCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 1500*time.Millisecond)
	t.Cleanup(cancel)
	return ctx
}
