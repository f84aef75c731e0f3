package executor

import (
	"context"
	"errors"
	"fmt"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/planner"
)

// Tx is a client-side write batch: writes are checked and planned when executed, kept in
// memory, and sent only by Commit, which waits for every acknowledgement. Rollback
// discards them. It is not atomic: a Commit that fails part-way may have written some
// buckets' rows (the error says so).
type Tx struct {
	conn *Session
	// ctx is Begin's context: database/sql has Commit take none and uses that one "until
	// the transaction is committed or rolled back", so Commit honours its deadline.
	ctx context.Context
	// writes are the buffered writes in order: bound plans, or the rows of a prepared write
	// executed many times in a row (the bulk path), bound into a planner.WriteBuffer.
	writes []txWrite
	rows   int64
	// failed is the error of the first statement that failed in the transaction: it is
	// aborted then, as in PostgreSQL — later statements fail and Commit sends nothing.
	failed error
}

// txWrite is one buffered write: a bound plan w, or the rows in b.
type txWrite struct {
	w *planner.Write
	b *planner.WriteBuffer
}

// plans returns the write as bound plans (b's rows once they are all in).
func (x txWrite) plans() []*planner.Write {
	if x.b != nil {
		return x.b.Writes()
	}
	return []*planner.Write{x.w}
}

// table returns the path of the table written.
func (x txWrite) table() fluss.TablePath {
	if x.b != nil {
		return x.b.Plan().Table.Path
	}
	return x.w.Table.Path
}

// add buffers a bound write plan and reports the rows it will write.
func (t *Tx) add(w *planner.Write) (Result, error) {
	t.writes = append(t.writes, txWrite{w: w})
	t.rows += int64(len(w.Rows))
	return counted(int64(len(w.Rows))), nil
}

// bind binds the rows of the unbound write plan w with args and buffers them, with the
// rows of the executions of w just before (one bound Write, see planner.WriteBuffer), and
// reports the rows it will write. A partitioned table's partitions are checked as add's
// are (by execPlan).
func (t *Tx) bind(ctx context.Context, w *planner.Write, args []planner.Arg) (Result, error) {
	var b *planner.WriteBuffer
	if n := len(t.writes); n > 0 && t.writes[n-1].b != nil && t.writes[n-1].b.Plan() == w {
		b = t.writes[n-1].b
	}
	fresh := b == nil
	if fresh {
		b = planner.NewWriteBuffer(w)
	}
	rows, err := b.Add(args)
	if err != nil {
		return Result{}, err
	}
	if fresh {
		t.writes = append(t.writes, txWrite{b: b})
	}
	if w.Table.IsPartitioned() {
		added := *w
		added.Rows = rows
		if err := t.conn.checkPartitions(ctx, &added); err != nil {
			// The transaction is aborted by this failure (Commit sends nothing).
			return Result{}, writeOutcome(err)
		}
	}
	t.rows += int64(len(rows))
	return counted(int64(len(rows))), nil
}

// Commit sends every buffered write and waits until the server acknowledged them, or until
// BeginTx's context ends (then the unacknowledged rows' outcome is in the error).
func (t *Tx) Commit() error {
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
	ctx, cancel := c.ex.requestContext(t.ctx)
	defer cancel()
	var writes []*planner.Write
	for _, x := range t.writes {
		writes = append(writes, x.plans()...)
	}
	if _, err := c.write(ctx, writes); err != nil {
		return &CommitError{Rows: t.rows, First: t.writes[0].table(), Err: err}
	}
	return nil
}

// CommitError is the error of a Commit whose writes failed: Err is the write's outcome.
type CommitError struct {
	// Rows is the number of buffered rows.
	Rows int64
	// First is the table of the first buffered write (for permission messages).
	First fluss.TablePath
	// Err is the cause, matching one of the outcome sentinels.
	Err error
}

func (e *CommitError) Error() string {
	return fmt.Sprintf("flussql: commit of %d rows failed (a Fluss transaction is a client-side batch, not atomic across buckets): %v", e.Rows, e.Err)
}

// Unwrap returns the cause.
func (e *CommitError) Unwrap() error { return e.Err }

// Rollback discards the buffered writes; nothing of them was sent.
func (t *Tx) Rollback() error {
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
func (c *Session) txAborted() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.tx != nil && c.tx.failed != nil {
		return &txAbortedError{c.tx.failed}
	}
	return nil
}

// txFailed records err, the error of a statement, in the connection's open transaction
// (aborting it) and returns err.
func (c *Session) txFailed(err error) error {
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
