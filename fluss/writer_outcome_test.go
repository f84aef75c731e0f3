package fluss

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/flusserr"
	"github.com/flussql/flussql/fluss/flusstest"
)

// produceScript scripts the fake's answers to PRODUCE_LOG: every bucket of every request
// gets code (flusserr.None: appended), or no request is answered when silent says so.
type produceScript struct{ f *fakeCluster }

func (p produceScript) set(code flusserr.Code, silent bool) {
	p.f.ClearFaults()
	switch {
	case silent:
		p.f.Inject(flusstest.Fault{API: flusstest.ProduceLog, Action: flusstest.Drop, Times: -1})
	case code != flusserr.None:
		p.f.Inject(flusstest.Fault{API: flusstest.ProduceLog, Action: flusstest.FailBuckets, Code: int32(code), Message: "scripted", Times: -1})
	}
}

// requests counts the PRODUCE_LOG requests the fake received.
func (p produceScript) requests() int { return p.f.Calls(flusstest.ProduceLog) }

// appended counts the rows the fake stored.
func (p produceScript) appended() int64 {
	return p.f.LogEnd("db", "t", "", 0) + p.f.LogEnd("db", "t", "", 1)
}

// outcomeWriter returns an append writer on the fake cluster's two-bucket
// table, with fast retries.
func outcomeWriter(t *testing.T, f *fakeCluster, opts WriterOptions) *AppendWriter {
	t.Helper()
	c := f.connect(t)
	info, err := c.Admin().GetTableInfo(context.Background(), f.path)
	require.NoError(t, err)
	tbl, err := c.TableOf(info)
	require.NoError(t, err)
	if opts.RetryBackoff == 0 {
		opts.RetryBackoff = 10 * time.Millisecond
	}
	w, err := tbl.NewAppendWriter(context.Background(), AppendWriterOptions{WriterOptions: opts})
	require.NoError(t, err)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_ = w.Close(ctx)
	})
	return w
}

func appendRows(t *testing.T, w *AppendWriter, r *Receipt, ids ...int64) {
	t.Helper()
	for _, id := range ids {
		require.NoError(t, w.AppendWith(context.Background(), r, []any{id}))
	}
}

// A failure of one receipt's rows is reported to that receipt only; the next
// receipt, and Flush, report their own rows (the stale failure of an earlier
// statement once leaked into the next Exec).
func TestReceiptReportsOnlyItsOwnRows(t *testing.T) {
	f := newFakeCluster(t)
	script := produceScript{f}
	w := outcomeWriter(t, f, WriterOptions{})

	script.set(flusserr.RecordTooLargeException, false) // refused, not appended, not retriable
	first := NewReceipt()
	appendRows(t, w, first, 1, 2)
	err := first.Wait(context.Background())
	require.Error(t, err)
	assert.ErrorIs(t, err, ErrNotWritten)
	assert.ErrorIs(t, err, flusserr.RecordTooLargeException)
	assert.NotErrorIs(t, err, ErrOutcomeUnknown)
	var we *WriteError
	require.ErrorAs(t, err, &we)
	assert.Equal(t, 2, we.NotWritten)
	assert.Contains(t, err.Error(), "2 rows not written")

	script.set(flusserr.None, false)
	second := NewReceipt()
	appendRows(t, w, second, 3)
	require.NoError(t, second.Wait(context.Background()), "the first receipt's failure must not leak into the second")
	assert.Equal(t, 1, second.Written())
	require.NoError(t, w.Append(context.Background(), []any{int64(4)}))
	require.NoError(t, w.Flush(context.Background()), "nor into Flush")
	assert.Equal(t, int64(2), script.appended())
}

// Rows that were never sent when the deadline came are withdrawn: reported as
// not written, and never delivered afterwards.
func TestReceiptWithdrawsUnsentRows(t *testing.T) {
	f := newFakeCluster(t)
	script := produceScript{f}
	f.setLeaders(-1) // no leader: nothing can be sent
	w := outcomeWriter(t, f, WriterOptions{Retries: 1000})

	r := NewReceipt()
	appendRows(t, w, r, 1, 2, 3)
	ctx, cancel := context.WithTimeout(context.Background(), 400*time.Millisecond)
	defer cancel()
	start := time.Now()
	err := r.Wait(ctx)
	assert.Less(t, time.Since(start), 1400*time.Millisecond, "Wait returns at its deadline")
	require.Error(t, err)
	assert.ErrorIs(t, err, ErrNotWritten)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Contains(t, err.Error(), "never sent (withdrawn)")
	assert.Contains(t, err.Error(), "has no known leader yet")

	f.setLeaders(1) // leaders come back: the withdrawn rows must stay unsent
	next := NewReceipt()
	appendRows(t, w, next, 4)
	require.NoError(t, next.Wait(context.Background()))
	time.Sleep(100 * time.Millisecond)
	assert.Equal(t, int64(1), script.appended(), "only the new row reached the server")
}

// Rows sent without an answer before the deadline have an unknown outcome,
// and the writer does not send them again.
func TestReceiptUnknownWhenSentWithoutAnswer(t *testing.T) {
	f := newFakeCluster(t)
	script := produceScript{f}
	script.set(flusserr.None, true) // requests reach the server; no answer comes back
	w := outcomeWriter(t, f, WriterOptions{DisableIdempotence: true, Acks: AcksLeader, RequestTimeout: 300 * time.Millisecond})

	r := NewReceipt()
	appendRows(t, w, r, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	start := time.Now()
	err := r.Wait(ctx)
	assert.Less(t, time.Since(start), 1500*time.Millisecond)
	require.Error(t, err)
	assert.ErrorIs(t, err, ErrOutcomeUnknown)
	assert.NotErrorIs(t, err, ErrNotWritten)
	assert.Contains(t, err.Error(), "may or may not be stored")
	require.GreaterOrEqual(t, script.requests(), 1)

	script.set(flusserr.None, false)
	next := NewReceipt()
	appendRows(t, w, next, 2)
	require.NoError(t, next.Wait(context.Background()))
	time.Sleep(7 * time.Second / 10) // past the abandoned request's own timeout
	assert.Equal(t, int64(1), script.appended(), "the abandoned row is never sent again")
}

// A server answer that the rows may be stored (REQUEST_TIME_OUT: the leader
// appended, the replicas did not confirm in time), once retries run out, is
// an unknown outcome, not "failed".
func TestFinalFailureAfterPossibleAppendIsUnknown(t *testing.T) {
	f := newFakeCluster(t)
	script := produceScript{f}
	script.set(flusserr.RequestTimeOut, false)
	w := outcomeWriter(t, f, WriterOptions{Retries: 2})

	r := NewReceipt()
	appendRows(t, w, r, 1)
	err := r.Wait(context.Background())
	require.Error(t, err)
	assert.ErrorIs(t, err, ErrOutcomeUnknown)
	assert.ErrorIs(t, err, flusserr.RequestTimeOut)
	assert.Contains(t, err.Error(), "after 3 attempts")
}

// A bucket whose leader cannot be found is retried a bounded number of times
// with backoff, and the error says how often and why.
func TestRetriesWithoutLeaderAreBounded(t *testing.T) {
	f := newFakeCluster(t)
	f.setLeaders(-1)
	w := outcomeWriter(t, f, WriterOptions{Retries: 3})

	r := NewReceipt()
	appendRows(t, w, r, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	start := time.Now()
	err := r.Wait(ctx)
	require.Error(t, err)
	assert.Less(t, time.Since(start), 5*time.Second, "gave up after its retries, not at the deadline")
	assert.ErrorIs(t, err, ErrNotWritten)
	assert.ErrorIs(t, err, flusserr.LeaderNotAvailableException)
	assert.Contains(t, err.Error(), "failed after 4 attempts")
}

// Close returns by its context's deadline even when the server never answers.
func TestCloseHonoursDeadline(t *testing.T) {
	f := newFakeCluster(t)
	script := produceScript{f}
	script.set(flusserr.None, true)
	w := outcomeWriter(t, f, WriterOptions{})
	appendRows(t, w, nil, 1, 2)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	err := w.Close(ctx)
	assert.Less(t, time.Since(start), 1300*time.Millisecond)
	require.Error(t, err)
	assert.True(t, errors.Is(err, ErrOutcomeUnknown) || errors.Is(err, ErrNotWritten), err.Error())
	assert.ErrorIs(t, w.Append(context.Background(), []any{int64(3)}), ErrWriterClosed)
}

// Rows of concurrent receipts on one writer each get their own outcome.
func TestConcurrentReceipts(t *testing.T) {
	f := newFakeCluster(t)
	w := outcomeWriter(t, f, WriterOptions{})
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := NewReceipt()
			for i := 0; i < 50; i++ {
				assert.NoError(t, w.AppendWith(context.Background(), r, []any{int64(g*100 + i)}))
			}
			assert.NoError(t, r.Wait(context.Background()))
			assert.Equal(t, 50, r.Written())
		}()
	}
	wg.Wait()
}
