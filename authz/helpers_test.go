package authz_test

import (
	"database/sql"
	"database/sql/driver"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql"
)

var driverErrBadConn = driver.ErrBadConn

// propagation bounds how long an ACL change may take to reach the tablet servers (they learn
// it from a ZooKeeper notification).
const propagation = 60 * time.Second

// poll calls f every 100 ms until done reports true or the propagation deadline passes, and
// returns f's last error.
func poll(f func() error, done func(error) bool) (error, bool) {
	deadline := time.Now().Add(propagation)
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		err := f()
		if done(err) {
			return err, true
		}
		if time.Now().After(deadline) {
			return err, false
		}
		<-tick.C
	}
}

// eventually waits until f succeeds.
func eventually(t *testing.T, f func() error, what string) {
	t.Helper()
	err, ok := poll(f, func(err error) bool { return err == nil })
	require.True(t, ok, "%s: still failing after %s: %v", what, propagation, err)
}

// eventuallyDenied waits until f fails with ErrPermissionDenied; a refused write must
// report that nothing was written.
func eventuallyDenied(t *testing.T, f func() error, what string) {
	t.Helper()
	var took time.Duration
	timed := func() error {
		start := time.Now()
		err := f()
		took = time.Since(start)
		return err
	}
	err, ok := poll(timed, func(err error) bool { return errors.Is(err, flussql.ErrPermissionDenied) })
	require.True(t, ok, "%s: not denied after %s, last error: %v", what, propagation, err)
	require.Less(t, took, 5*time.Second, "%s: the refusal took %s (retried?)", what, took)
	if errors.Is(err, flussql.ErrNotWritten) || errors.Is(err, flussql.ErrOutcomeUnknown) || errors.Is(err, flussql.ErrPartiallyWritten) {
		require.ErrorIs(t, err, flussql.ErrNotWritten, "a denied write stored nothing")
	}
}

func mustExec(t *testing.T, db *sql.DB, q string) {
	t.Helper()
	_, err := db.Exec(q)
	require.NoError(t, err, q)
}

func queryRows(t *testing.T, db *sql.DB, q string) [][]string {
	t.Helper()
	rows, err := db.Query(q)
	require.NoError(t, err, q)
	defer rows.Close()
	cols, err := rows.Columns()
	require.NoError(t, err)
	var out [][]string
	for rows.Next() {
		vals := make([]string, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		require.NoError(t, rows.Scan(ptrs...))
		out = append(out, vals)
	}
	require.NoError(t, rows.Err())
	return out
}
