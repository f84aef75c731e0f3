package flussql

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"

	"github.com/flussql/flussql/planner"
)

// tx is a client-side write batch: writes are checked and planned when executed, kept in
// memory, and sent only by Commit, which waits for every acknowledgement. Rollback
// discards them. It is not atomic: a Commit that fails part-way may have written some
// buckets' rows (the error says so).
type tx struct {
	conn *conn
	// ctx is BeginTx's context: database/sql has Commit take none and uses that one "until
	// the transaction is committed or rolled back", so Commit honours its deadline.
	ctx    context.Context
	writes []*planner.Write
	rows   int64
	// failed is the error of the first statement that failed in the transaction: it is
	// aborted then, as in PostgreSQL — later statements fail and Commit sends nothing.
	failed error
}

var _ driver.Tx = (*tx)(nil)

// add buffers a bound write plan and reports the rows it will write.
func (t *tx) add(w *planner.Write) (driver.Result, error) {
	t.writes = append(t.writes, w)
	t.rows += int64(len(w.Rows))
	return driver.RowsAffected(len(w.Rows)), nil
}

// Commit sends every buffered write and waits until the server acknowledged them, or until
// BeginTx's context ends (then the unacknowledged rows' outcome is in the error).
func (t *tx) Commit() error {
	c := t.conn
	c.mu.Lock()
	if c.tx != t {
		c.mu.Unlock()
		return errors.New("flussql: the transaction is no longer open")
	}
	c.tx = nil
	c.mu.Unlock()
	if t.failed != nil {
		return fmt.Errorf("flussql: the transaction was not committed and nothing of it was sent (its %d buffered rows are discarded), because a statement in it failed: %w",
			t.rows, &notWrittenError{t.failed})
	}
	if len(t.writes) == 0 {
		return nil
	}
	ctx, cancel := c.connector.requestContext(t.ctx)
	defer cancel()
	if _, err := c.write(ctx, t.writes); err != nil {
		if errors.Is(err, ErrPermissionDenied) {
			first := t.writes[0].Table.Path
			err = c.denied("COMMIT", "WRITE", func() string { return aclResourceText("TABLE", first.Database+"."+first.Table) }, err)
		}
		return fmt.Errorf("flussql: commit of %d rows failed (a Fluss transaction is a client-side batch, not atomic across buckets): %w", t.rows, err)
	}
	return nil
}

// Rollback discards the buffered writes; nothing of them was sent.
func (t *tx) Rollback() error {
	c := t.conn
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.tx == t {
		c.tx = nil
	}
	t.writes = nil
	return nil
}

// txAbortedError is the error of a statement run in a transaction that an earlier statement's
// failure aborted.
type txAbortedError struct{ first error }

func (e *txAbortedError) Error() string {
	return "flussql: the transaction is aborted by an earlier failed statement (" + e.first.Error() + "); roll it back"
}
func (e *txAbortedError) Unwrap() []error { return []error{e.first, ErrNotWritten} }

// txAborted returns the error for a statement run in the connection's transaction after a
// statement in it failed, or nil.
func (c *conn) txAborted() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.tx != nil && c.tx.failed != nil {
		return &txAbortedError{c.tx.failed}
	}
	return nil
}

// txFailed records err, the error of a statement, in the connection's open transaction
// (aborting it) and returns err.
func (c *conn) txFailed(err error) error {
	if err == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.tx != nil && c.tx.failed == nil {
		c.tx.failed = err
	}
	return err
}
