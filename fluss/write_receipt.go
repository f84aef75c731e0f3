package fluss

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/flussql/flussql/fluss/flusserr"
)

// The outcome of a write. Every row handed to a writer ends in exactly one
// of three states, and a Receipt (or Flush, for rows written without one)
// reports which:
//
//   - written: the server acknowledged the batch that holds it;
//   - not written: the batch provably did not reach the server (it was never
//     sent, or every send failed before a byte left), or the server refused
//     it with an error that means it did not append it. Writing it again
//     cannot duplicate it;
//   - unknown: a send may have reached the server, and no answer came before
//     the caller's deadline or the writer gave up. The rows may or may not
//     be stored. After reporting this the writer sends the batch no more.
//
// A batch that a Receipt gives up on (its context ended) is withdrawn when it
// was never sent, and abandoned otherwise: in neither case is it delivered
// later.

var (
	// ErrNotWritten is matched (errors.Is) by a write error when none of the
	// failed rows was stored: they were never sent or the server refused
	// them. Retrying them cannot duplicate them.
	ErrNotWritten = errors.New("fluss: rows not written")
	// ErrOutcomeUnknown is matched by a write error when some rows were sent
	// but not acknowledged before the deadline or the last retry: they may or
	// may not be stored. The writer does not send them again.
	ErrOutcomeUnknown = errors.New("fluss: outcome unknown: the rows may or may not be stored")
	// ErrPartiallyWritten is matched by a write error when some rows were
	// acknowledged and the others provably not written (a write that spans
	// several buckets is not atomic). WriteError says how many of each.
	ErrPartiallyWritten = errors.New("fluss: rows partially written")
)

// WriteError is the error of a Receipt (or of Flush) whose rows were not all
// written. It counts the rows in each outcome and matches, with errors.Is,
// exactly one of ErrOutcomeUnknown (some rows unknown), ErrPartiallyWritten
// (some written, the rest not) or ErrNotWritten (none written); it also
// matches the cause (a Fluss error code, context.DeadlineExceeded, …).
type WriteError struct {
	// Written, NotWritten and Unknown count the rows in each outcome.
	Written, NotWritten, Unknown int
	// Cause is the reason of the first failure: for unknown rows the reason
	// the answer is missing, else why the rows were not written.
	Cause error
	// Detail names the buckets and attempts, for the message.
	Detail string
}

func (e *WriteError) outcome() error {
	switch {
	case e.Unknown > 0:
		return ErrOutcomeUnknown
	case e.Written > 0:
		return ErrPartiallyWritten
	}
	return ErrNotWritten
}

// Error says how many rows are in which state, then why.
func (e *WriteError) Error() string {
	var b strings.Builder
	total := e.Written + e.NotWritten + e.Unknown
	switch {
	case e.Unknown > 0:
		fmt.Fprintf(&b, "fluss: outcome unknown for %d of %d rows: they were sent but not acknowledged and may or may not be stored (they will not be sent again)", e.Unknown, total)
		if e.NotWritten > 0 {
			fmt.Fprintf(&b, "; %d rows not written", e.NotWritten)
		}
		if e.Written > 0 {
			fmt.Fprintf(&b, "; %d rows written", e.Written)
		}
	case e.Written > 0:
		fmt.Fprintf(&b, "fluss: %d of %d rows not written (%d written; a write across buckets is not atomic)", e.NotWritten, total, e.Written)
	default:
		fmt.Fprintf(&b, "fluss: %d rows not written", e.NotWritten)
	}
	if e.Detail != "" {
		b.WriteString(": ")
		b.WriteString(e.Detail)
	}
	if e.Cause != nil {
		b.WriteString(": ")
		b.WriteString(e.Cause.Error())
	}
	return b.String()
}

// Unwrap returns the outcome sentinel and the cause.
func (e *WriteError) Unwrap() []error {
	if e.Cause == nil {
		return []error{e.outcome()}
	}
	return []error{e.outcome(), e.Cause}
}

// rowOutcome is the state a batch's rows end in.
type rowOutcome uint8

const (
	outcomeWritten rowOutcome = iota
	outcomeNotWritten
	outcomeUnknown
)

// Receipt collects the outcome of the rows written with it, through one or
// more writers (AppendWriter.AppendWith, UpsertWriter.UpsertWith, …), so
// that a caller learns the fate of its own rows and of no one else's. Wait
// sends them and returns nil when all were acknowledged, or a *WriteError.
// A Receipt is safe for concurrent use; use a new one for each unit of work
// whose outcome you want to know (the database/sql driver uses one per
// statement or transaction).
type Receipt struct {
	mu sync.Mutex
	// open maps each batch holding rows of this receipt that has not ended
	// yet to its writer.
	open  map[*writeBatch]*writerCore
	done  chan struct{} // closed while open is empty
	count [3]int        // rows per rowOutcome
	// The first cause for unknown rows and for rows not written, with the
	// bucket and attempts they concern.
	unknownCause, failCause   error
	unknownDetail, failDetail string
	// sentBytes is the receipt's share of the bytes of the batches sent for it (every
	// attempt); reported is how much of it Wait has added to a context's byte counter.
	sentBytes, reported int64
}

// NewReceipt returns an empty Receipt.
func NewReceipt() *Receipt {
	return &Receipt{open: map[*writeBatch]*writerCore{}, done: closedChan()}
}

// track records that b (of core w) holds rows of r. Called with w.mu held.
func (r *Receipt) track(b *writeBatch, w *writerCore) {
	r.mu.Lock()
	if len(r.open) == 0 {
		r.done = make(chan struct{})
	}
	r.open[b] = w
	r.mu.Unlock()
}

// settle records the end of b for the rows of r in it. Called with the
// batch's writer lock held; a batch settles once per receipt.
func (r *Receipt) settle(b *writeBatch, rows int, bytes int64, o rowOutcome, cause error, detail string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.open[b]; !ok {
		return
	}
	delete(r.open, b)
	r.count[o] += rows
	r.sentBytes += bytes
	switch o {
	case outcomeUnknown:
		if r.unknownCause == nil {
			r.unknownCause, r.unknownDetail = cause, detail
		}
	case outcomeNotWritten:
		if r.failCause == nil {
			r.failCause, r.failDetail = cause, detail
		}
	}
	if len(r.open) == 0 {
		close(r.done)
	}
}

// Wait sends every row written with r that is still buffered and waits
// until each has an outcome. It returns nil when every row was
// acknowledged, else a *WriteError. When ctx ends first, the rows still
// buffered are withdrawn (not written) and those already sent are abandoned
// (unknown): Wait always returns by ctx's deadline, and nothing of r is sent
// after it returned.
func (r *Receipt) Wait(ctx context.Context) error {
	r.mu.Lock()
	done := r.done
	cores := map[*writerCore]bool{}
	for _, w := range r.open {
		cores[w] = true
	}
	r.mu.Unlock()
	for w := range cores {
		w.sendNow()
	}
	select {
	case <-done:
	case <-ctx.Done():
		r.giveUp(ctx.Err())
	}
	r.mu.Lock()
	unreported := r.sentBytes - r.reported
	r.reported = r.sentBytes
	r.mu.Unlock()
	countBytes(ctx, unreported)
	return r.Err()
}

// SentBytes returns the receipt's share of the encoded bytes of the batches sent so far for
// its rows, every attempt counted (a batch holding rows of several receipts is shared by
// rows).
func (r *Receipt) SentBytes() int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.sentBytes
}

// giveUp ends every batch of r that is still open: withdrawn when it was
// never sent, abandoned (outcome unknown) otherwise.
func (r *Receipt) giveUp(cause error) {
	r.mu.Lock()
	open := make(map[*writeBatch]*writerCore, len(r.open))
	for b, w := range r.open {
		open[b] = w
	}
	r.mu.Unlock()
	for b, w := range open {
		w.giveUp(b, cause)
	}
}

// Err returns the outcome so far of the rows that have one: nil if none
// failed, else a *WriteError. Rows still in flight are not counted.
func (r *Receipt) Err() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.count[outcomeNotWritten] == 0 && r.count[outcomeUnknown] == 0 {
		return nil
	}
	e := &WriteError{Written: r.count[outcomeWritten], NotWritten: r.count[outcomeNotWritten], Unknown: r.count[outcomeUnknown]}
	if e.Unknown > 0 {
		e.Cause, e.Detail = r.unknownCause, r.unknownDetail
	} else {
		e.Cause, e.Detail = r.failCause, r.failDetail
	}
	return e
}

// Written returns the number of rows acknowledged so far.
func (r *Receipt) Written() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.count[outcomeWritten]
}

// maybeStored reports whether a send that failed with err may still have
// stored the batch: anything but a refusal the server answered for the
// bucket, or a failure before a byte left.
func maybeStored(err error) bool {
	var pe *permanentError
	var ue *unsentError
	if errors.As(err, &pe) || errors.As(err, &ue) {
		return false
	}
	var fe *Error
	if !errors.As(err, &fe) {
		return true // context ends, unknown errors: assume the bytes left
	}
	if fe.NotSent {
		return false
	}
	switch fe.Code {
	case flusserr.NotLeaderOrFollower:
		// Not a proof: with acks=all the leader appends first and waits for its followers
		// (DelayedWrite); when it loses the leadership meanwhile the wait ends with
		// NOT_LEADER_OR_FOLLOWER (Replica.checkEnoughReplicasReachOffset in Fluss 0.9.1), and
		// the follower that took over may hold the rows. A retry under the same writer id and
		// sequence is safe (the server answers DUPLICATE_SEQUENCE); giving up is "unknown".
		return true
	case flusserr.UnknownTableOrBucketException, flusserr.RecordTooLargeException,
		flusserr.CorruptMessage, flusserr.CorruptRecordException, flusserr.InvalidTableException, flusserr.InvalidRequiredAcks,
		flusserr.NotEnoughReplicasException, flusserr.OutOfOrderSequenceException, flusserr.UnknownWriterIDException,
		flusserr.PartitionNotExists, flusserr.AuthorizationException, flusserr.TableNotExist, flusserr.SchemaNotExist,
		flusserr.LeaderNotAvailableException, flusserr.FencedLeaderEpochException, flusserr.NonPrimaryKeyTableException,
		flusserr.InvalidTargetColumn, flusserr.InvalidColumnProjection, flusserr.DeletionDisabledException,
		flusserr.UnsupportedVersion, flusserr.InvalidProducerIDException,
		// Fluss 1.0 refusals before anything is written: storage under pressure, a disk
		// over its write limit, too many requests for historical partitions.
		flusserr.StorageBackpressureException, flusserr.DiskWriteLocked, flusserr.HistoricalPartitionThrottled:
		return false
	}
	// REQUEST_TIME_OUT (the leader appended, replicas did not confirm in
	// time), NOT_ENOUGH_REPLICAS_AFTER_APPEND, storage errors, transport
	// failures after the request was written, unknown codes.
	return true
}
