package flussql

import (
	"database/sql/driver"
	"errors"
	"fmt"

	"github.com/flussql/flussql/internal/executor"
)

// tx is a client-side write batch (executor.Tx): writes are checked and planned when
// executed, kept in memory, and sent only by Commit, which waits for every
// acknowledgement. Rollback discards them. It is not atomic: a Commit that fails part-way
// may have written some buckets' rows (the error says so).
type tx struct {
	conn *conn
	tx   *executor.Tx
}

var _ driver.Tx = (*tx)(nil)

// Commit sends every buffered write and waits until the server acknowledged them, or until
// BeginTx's context ends (then the unacknowledged rows' outcome is in the error).
func (t *tx) Commit() error {
	err := t.tx.Commit()
	var ce *executor.CommitError
	if errors.As(err, &ce) {
		cause := ce.Err
		if errors.Is(cause, ErrPermissionDenied) {
			first := ce.First
			cause = denied(t.conn.connector.cfg.User, "COMMIT", "WRITE", func() string { return aclResourceText("TABLE", first.Database+"."+first.Table) }, cause)
		}
		return boundErr(fmt.Errorf("flussql: commit of %d rows failed (a Fluss transaction is a client-side batch, not atomic across buckets): %w", ce.Rows, cause))
	}
	return boundErr(err)
}

// Rollback discards the buffered writes; nothing of them was sent.
func (t *tx) Rollback() error { return t.tx.Rollback() }
