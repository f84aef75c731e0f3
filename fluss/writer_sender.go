package fluss

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/flussql/flussql/fluss/flusserr"
	"github.com/flussql/flussql/fluss/internal/protocol"
)

// writeProtocol builds the write requests of one writer kind (ProduceLog
// for log tables, PutKv for primary-key tables) and reads their answers.
type writeProtocol interface {
	api() protocol.APIKey
	// request builds one request carrying the encoded batches.
	request(tableID int64, acks Acks, timeout time.Duration, batches []*writeBatch) proto.Message
	// response returns an empty response message.
	response() proto.Message
	// results lists the per-bucket outcomes of a response.
	results(resp proto.Message) []bucketResult
}

// bucketResult is the outcome for one bucket of a write request.
type bucketResult struct {
	key  bucketKey
	code int32
	msg  string
	// pressure is the bucket's storage pressure a Fluss 1.0 server reports
	// on PUT_KV (0: none).
	pressure float32
}

// runSender is the sender goroutine: it closes batches that have lingered,
// picks the next batch of every bucket with nothing in flight, and sends
// them grouped by leader.
func (w *writerCore) runSender() {
	defer close(w.stopped)
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		next := w.dispatch()
		if !timer.Stop() {
			select {
			case <-timer.C:
			default:
			}
		}
		if !next.IsZero() {
			timer.Reset(max(time.Until(next), time.Millisecond))
		}
		select {
		case <-w.wake:
		case <-timer.C:
		case <-w.stop:
			return
		}
	}
}

// dispatch sends what is ready and returns when it next needs to look
// (zero: when woken).
func (w *writerCore) dispatch() time.Time {
	if w.needsNewWriterID() {
		if err := w.renewWriterID(); err != nil {
			return time.Now().Add(w.cfg.backoff)
		}
	}
	now := time.Now()
	var next time.Time
	later := func(t time.Time) {
		if next.IsZero() || t.Before(next) {
			next = t
		}
	}
	var batches []*writeBatch
	w.mu.Lock()
	force := w.forceAll
	w.forceAll = false
	// closeLingered closes q's open batch once it has lingered, unless a closed batch of
	// q is already waiting: then the open one keeps taking rows until that batch is sent
	// (or it fills up), as in Java's accumulator, instead of every linger period closing
	// another small batch behind the one in flight — with many buckets, a server's cost
	// per batch made writes crawl. force (Flush, memory pressure) closes it regardless.
	closeLingered := func(q *bucketQueue) {
		if q.open == nil {
			return
		}
		if deadline := q.open.created.Add(w.cfg.linger); now.Before(deadline) && !force {
			later(deadline)
		} else if force || len(q.ready) == 0 {
			w.closeOpenLocked(q)
		}
	}
	for _, q := range w.buckets {
		closeLingered(q)
		if q.inflight != nil || len(q.ready) == 0 {
			continue
		}
		if now.Before(q.throttledUntil) {
			later(q.throttledUntil)
			continue
		}
		b := q.ready[0]
		if now.Before(b.retryAt) {
			later(b.retryAt)
			continue
		}
		q.ready = q.ready[1:]
		q.inflight = b
		w.c.observeInFlight(1)
		if w.writerID >= 0 && b.writerID < 0 {
			// First send: the batch takes the bucket's next sequence.
			if q.writerID != w.writerID {
				q.writerID, q.nextSeq = w.writerID, 0
			}
			b.writerID, b.seq = q.writerID, q.nextSeq
		}
		batches = append(batches, b)
		closeLingered(q) // its turn may have come now that the waiting batch is sent
	}
	w.mu.Unlock()
	if len(batches) > 0 {
		w.send(batches)
	}
	return next
}

// send resolves the leaders of the batches and sends one request per
// leader (split at the request size limit), each in its own goroutine.
func (w *writerCore) send(batches []*writeBatch) {
	ctx := w.sendCtx
	byLeader := map[int32][]*writeBatch{}
	nodes := map[int32]ServerNode{}
	for _, b := range batches {
		lctx, cancel := context.WithTimeout(ctx, w.cfg.timeout)
		node, err := w.c.bucketLeader(lctx, w.path, b.target.partition, b.target.bucket)
		cancel()
		if err != nil {
			// Counted as an attempt, so that a bucket without a leader is
			// retried a bounded number of times, with backoff.
			b.attempts++
			w.complete(b, &unsentError{err})
			continue
		}
		byLeader[node.ID] = append(byLeader[node.ID], b)
		nodes[node.ID] = node
	}
	for id, group := range byLeader {
		w.inFlight.Add(1)
		go func() {
			defer w.inFlight.Done()
			w.sendToLeader(ctx, nodes[id], group)
		}()
	}
}

// sendToLeader encodes the batches that are not yet encoded (in parallel)
// and sends them in requests of at most the maximum request size.
func (w *writerCore) sendToLeader(ctx context.Context, node ServerNode, group []*writeBatch) {
	var wg sync.WaitGroup
	encoded := make([]error, len(group))
	for i, b := range group {
		if b.seal != nil {
			encoded[i] = b.awaitSeal()
			continue
		}
		if b.data != nil {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.data, encoded[i] = b.content.seal()
		}()
	}
	wg.Wait()
	var ok []*writeBatch
	for i, b := range group {
		if encoded[i] != nil {
			w.complete(b, &permanentError{fmt.Errorf("encoding the batch: %w", encoded[i])})
			continue
		}
		if b.writerID >= 0 {
			if err := b.content.setWriterState(b.data, b.writerID, b.seq); err != nil {
				w.complete(b, &permanentError{err})
				continue
			}
		}
		ok = append(ok, b)
	}
	if w.cfg.lanes <= 1 {
		w.requests(ctx, node, 0, ok)
		return
	}
	byLane := map[int][]*writeBatch{}
	for _, b := range ok {
		l := b.target.lane(w.cfg.lanes)
		byLane[l] = append(byLane[l], b)
	}
	for l, group := range byLane {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.requests(ctx, node, l, group)
		}()
	}
	wg.Wait()
}

// requests sends the batches over the node's connection of that lane, in requests of at
// most the maximum request size, one after another.
func (w *writerCore) requests(ctx context.Context, node ServerNode, lane int, batches []*writeBatch) {
	for len(batches) > 0 {
		n, size := 0, 0
		for n < len(batches) && (n == 0 || size+len(batches[n].data) <= w.cfg.maxRequest) {
			size += len(batches[n].data)
			n++
		}
		w.request(ctx, node, lane, batches[:n])
		batches = batches[n:]
	}
}

// request sends one write request and completes its batches. Batches that
// every waiting receipt gave up on before the request left are not sent.
func (w *writerCore) request(ctx context.Context, node ServerNode, lane int, batches []*writeBatch) {
	w.mu.Lock()
	live := batches[:0:0]
	for _, b := range batches {
		if b.abandoned {
			w.inflightDoneLocked(b)
			w.finishLocked(b)
			continue
		}
		b.attempts++
		b.sending = true
		b.sentBytes += int64(len(b.data))
		live = append(live, b)
	}
	w.mu.Unlock()
	if batches = live; len(batches) == 0 {
		w.signal()
		return
	}
	req := w.proto.request(w.tableID, w.cfg.acks, w.cfg.timeout, batches)
	resp := w.proto.response()
	wait := w.cfg.timeout + 5*time.Second
	for _, b := range batches {
		wait = min(wait, max(time.Until(b.created.Add(w.cfg.delivery)), time.Second))
	}
	rctx, cancel := context.WithTimeout(ctx, wait)
	err := w.c.callNodeLane(rctx, node, lane, w.proto.api(), req, resp)
	cancel()
	if err != nil {
		for _, b := range batches {
			w.complete(b, err)
		}
		return
	}
	byKey := make(map[bucketKey]*writeBatch, len(batches))
	for _, b := range batches {
		byKey[b.target.key()] = b
	}
	for _, r := range w.proto.results(resp) {
		b := byKey[r.key]
		if b == nil {
			continue
		}
		delete(byKey, r.key)
		switch {
		case r.code == int32(flusserr.StorageBackpressureException):
			w.throttle(r.key, 1)
		case r.pressure > 0:
			w.throttle(r.key, r.pressure)
		}
		w.complete(b, errorFromCode(r.code, r.msg))
	}
	for _, b := range byKey {
		w.complete(b, &Error{Code: flusserr.UnknownTableOrBucketException, Message: "the server's answer did not mention the bucket"})
	}
}

// permanentError marks a failure on the client's side that no retry can
// fix; nothing was sent.
type permanentError struct{ err error }

func (e *permanentError) Error() string { return e.err.Error() }
func (e *permanentError) Unwrap() error { return e.err }

// unsentError marks a failure before a request was sent (no leader known).
type unsentError struct{ err error }

func (e *unsentError) Error() string { return e.err.Error() }
func (e *unsentError) Unwrap() error { return e.err }

// inflightDoneLocked frees b's bucket for its next batch.
func (w *writerCore) inflightDoneLocked(b *writeBatch) {
	if q := w.buckets[b.target.key()]; q.inflight == b {
		q.inflight = nil
		w.c.observeInFlight(-1)
	}
}

// complete records the outcome of one send of b: done, retried later, or
// failed for good — not written when no send may have reached the server,
// unknown otherwise.
func (w *writerCore) complete(b *writeBatch, err error) {
	var fe *Error
	isFluss := errors.As(err, &fe)
	if isFluss && fe.Code == flusserr.DuplicateSequenceException {
		err = nil // the server already has this batch
	}
	var invalidate bool
	defer func() {
		if invalidate { // after the writer's lock is released
			w.c.invalidateTable(w.path)
		}
	}()
	w.mu.Lock()
	defer w.signal()
	defer w.mu.Unlock()
	// abandoned is set by giveUp under the lock: read it (and decide) under it too.
	retriable := err != nil && !b.abandoned && w.retriable(err, b)
	invalidate = retriable && isFluss && (fe.InvalidMetadata() || fe.Code == flusserr.NetworkException)
	q := w.buckets[b.target.key()]
	w.inflightDoneLocked(b)
	b.sending = false
	if err != nil && maybeStored(err) {
		b.maybeStored = true
	}
	switch {
	case err == nil:
		if b.writerID >= 0 && b.writerID == q.writerID {
			q.nextSeq = nextSequence(q.nextSeq)
		}
		w.settleLocked(b, outcomeWritten, nil, "")
		w.finishLocked(b)
	case retriable:
		if isFluss && fe.Code == flusserr.UnknownWriterIDException {
			// The server forgot the writer: start over with a new id; the
			// batch was not appended.
			w.newWriterID = true
			b.writerID, b.seq = -1, -1
		}
		b.retryAt = time.Now().Add(w.backoff(b.attempts))
		b.lastErr = err
		w.c.observeRetry("write", w.path, b.attempts, err)
		w.c.debug("fluss: write batch retried", "table", w.path.String(), "target", b.target.describe(w.path), "rows", b.rows,
			"attempt", b.attempts, "backoff", w.backoff(b.attempts), "err", err)
		q.ready = append([]*writeBatch{b}, q.ready...)
	default:
		if w.writerID >= 0 {
			// The server may or may not hold this batch: later batches must
			// not reuse its sequence under this writer id.
			w.newWriterID = true
		}
		o := outcomeNotWritten
		if b.maybeStored {
			o = outcomeUnknown
		}
		w.settleLocked(b, o, err, fmt.Sprintf("writing %d rows to %s failed after %d attempts", b.rows, b.target.describe(w.path), b.attempts))
		w.finishLocked(b)
	}
}

// retriable reports whether b should be sent again after err.
func (w *writerCore) retriable(err error, b *writeBatch) bool {
	var pe *permanentError
	if errors.As(err, &pe) || w.sendCtx.Err() != nil || b.attempts > w.cfg.retries ||
		time.Since(b.created)+w.backoff(b.attempts) > w.cfg.delivery {
		return false
	}
	var fe *Error
	if !errors.As(err, &fe) {
		return false
	}
	return fe.Retriable() || fe.Code == flusserr.NetworkException || fe.Code == flusserr.RequestTimeOut ||
		fe.Code == flusserr.UnknownWriterIDException
}

func (w *writerCore) backoff(attempts int) time.Duration {
	d := w.cfg.backoff
	for i := 1; i < attempts && d < 20*w.cfg.backoff; i++ {
		d *= 2
	}
	return min(d, 20*w.cfg.backoff)
}

// finishLocked releases a completed batch.
func (w *writerCore) finishLocked(b *writeBatch) {
	b.ended = true
	w.releaseContentLocked(b)
	b.data = nil
	w.releaseLocked(b.size)
	w.pending--
	if w.pending == 0 {
		close(w.idle)
	}
}

// throttle holds the next batch of a bucket back after a Fluss 1.0 server reported storage
// pressure p on PUT_KV, for maxThrottle·p² (p = 1: the write was refused with
// STORAGE_BACKPRESSURE_EXCEPTION, the whole maxThrottle), as the Java client does: the
// server's RocksDB catches up instead of being hammered. A statement whose deadline comes
// first gets its unsent batches withdrawn (not written), as for any wait.
func (w *writerCore) throttle(key bucketKey, p float32) {
	d := time.Duration(float64(w.cfg.maxThrottle) * float64(p) * float64(p))
	if d <= 0 {
		return
	}
	w.mu.Lock()
	if q := w.buckets[key]; q != nil {
		q.throttledUntil = time.Now().Add(d)
	}
	w.mu.Unlock()
	w.c.debug("fluss: write throttled by storage pressure", "table", w.path.String(), "bucket", key.bucket, "pressure", p, "for", d)
}
