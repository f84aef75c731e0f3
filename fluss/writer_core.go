package fluss

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// This file is the accumulator of the write path shared by the table
// writers (append now, upsert next): rows are grouped per bucket into
// batches, batches are closed when full or when they have lingered, and a
// sender (writer_sender.go) ships them to the bucket leaders. Each bucket has
// at most one batch in flight, so batch sequences stay in order without the
// reordering logic of Java's IdempotenceManager; different buckets are sent
// concurrently, batches of one leader share a request.

// ErrWriterClosed is returned by writes to a closed writer, and for rows
// still buffered when Close gave up waiting for them.
var ErrWriterClosed = errors.New("fluss: writer closed")

// batchContent is what a writer puts into a batch: rows in its own format
// (Arrow builders for log tables, KV records for primary-key tables).
type batchContent interface {
	// seal encodes the complete batch (header included) with no writer id
	// and no sequence. It is called once, outside the writer's lock.
	seal() ([]byte, error)
	// setWriterState stamps a writer id and batch sequence into an encoded
	// batch and fixes its CRC.
	setWriterState(data []byte, writerID int64, seq int32) error
	// release frees the content's memory.
	release()
}

// writeTarget names the bucket a row goes to.
type writeTarget struct {
	partitionID int64  // -1 for non-partitioned tables
	partition   string // partition name, "" for non-partitioned tables
	bucket      int32
}

func (t writeTarget) key() bucketKey { return bucketKey{t.partitionID, t.bucket} }

// lane is the connection (of n to its leader) that the bucket's batches are sent over: the
// same one for each of them, with the buckets of a table spread evenly.
func (t writeTarget) lane(n int) int {
	h := uint64(t.partitionID+1)*0x9E3779B97F4A7C15 + uint64(uint32(t.bucket))
	return int(h % uint64(n))
}

// bucketKey identifies a bucket of the table in maps.
type bucketKey struct {
	partitionID int64
	bucket      int32
}

// describe names the bucket in errors.
func (t writeTarget) describe(path TablePath) string {
	if t.partition == "" {
		return fmt.Sprintf("bucket %d of %s", t.bucket, path)
	}
	return fmt.Sprintf("bucket %d of partition %s of %s", t.bucket, t.partition, path)
}

// writeBatch is one batch of one bucket.
type writeBatch struct {
	target   writeTarget
	content  batchContent
	rows     int
	size     int // estimated bytes, held from the buffer memory
	created  time.Time
	data     []byte     // encoded batch, once sealed
	seal     *sealState // its encoding in the background, once started (see startSealLocked)
	lastErr  error      // why the last send failed, when it is retried
	writerID int64      // -1 until first sent idempotently
	seq      int32
	attempts int
	// sentBytes counts the encoded bytes of every send of the batch.
	sentBytes int64
	retryAt   time.Time
	// shares lists the receipts whose rows the batch holds, with their row
	// counts, in the order the rows came.
	shares []receiptShare
	// maybeStored is set once a send may have reached the server without a
	// definite answer: from then on the batch can no longer be withdrawn.
	maybeStored bool
	// abandoned: its receipts gave up on it while it was in flight; it is not
	// sent again.
	abandoned bool
	// sending is set (under the writer's lock) at the moment a request
	// carrying the batch is handed to the network, and cleared when the
	// request returns: before that, an in-flight batch (its leader still
	// being looked up, or being encoded) can still be withdrawn.
	sending bool
	ended   bool
}

// receiptShare is the rows of one receipt in a batch.
type receiptShare struct {
	r    *Receipt
	rows int
}

// bucketQueue is the state of one bucket.
type bucketQueue struct {
	target   writeTarget
	open     *writeBatch   // taking rows
	ready    []*writeBatch // closed, in send order
	inflight *writeBatch
	// throttledUntil holds the next batch back after the server reported
	// storage pressure (see writerCore.throttle).
	throttledUntil time.Time
	// The writer id the sequences below belong to, and the next sequence.
	writerID int64
	nextSeq  int32
}

// writerCore is the accumulator and its sender.
type writerCore struct {
	c          *Client
	path       TablePath
	tableID    int64
	cfg        writerConfig
	proto      writeProtocol
	newContent func() (batchContent, error)

	mu       sync.Mutex
	buckets  map[bucketKey]*bucketQueue
	pending  int           // batches not yet completed
	idle     chan struct{} // closed when pending drops to 0; replaced when it rises
	memUsed  int
	memFreed chan struct{} // closed and replaced whenever memory is released
	forceAll bool          // close every open batch now (flush, memory pressure)
	// deflt collects the rows written without a receipt since the last Flush.
	deflt   *Receipt
	closing bool

	writerID    int64 // -1 when not idempotent
	newWriterID bool  // obtain a new writer id before sending new batches

	wake     chan struct{}
	stop     chan struct{}
	stopped  chan struct{}
	sendCtx  context.Context
	cancelFn context.CancelFunc
	inFlight sync.WaitGroup
	// sealSlots bounds the batches encoded at once; sealing counts the
	// encodings running in the background.
	sealSlots chan struct{}
	sealing   sync.WaitGroup
}

func newWriterCore(ctx context.Context, c *Client, path TablePath, tableID int64, cfg writerConfig,
	proto writeProtocol, newContent func() (batchContent, error)) (*writerCore, error) {
	w := &writerCore{
		c: c, path: path, tableID: tableID, cfg: cfg, proto: proto, newContent: newContent,
		buckets:   map[bucketKey]*bucketQueue{},
		deflt:     NewReceipt(),
		idle:      closedChan(),
		memFreed:  make(chan struct{}),
		writerID:  -1,
		wake:      make(chan struct{}, 1),
		stop:      make(chan struct{}),
		stopped:   make(chan struct{}),
		sealSlots: newSealSlots(),
	}
	if cfg.idempotent {
		id, err := w.initWriter(ctx)
		if err != nil {
			return nil, err
		}
		w.writerID = id
	}
	w.sendCtx, w.cancelFn = context.WithCancel(context.Background())
	go w.runSender()
	return w, nil
}

func closedChan() chan struct{} {
	ch := make(chan struct{})
	close(ch)
	return ch
}

func (w *writerCore) signal() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// reserve takes size bytes of buffer memory, waiting while it is used up.
// A row larger than the whole buffer is let through when nothing else is
// buffered.
func (w *writerCore) reserve(ctx context.Context, size int) error {
	for {
		w.mu.Lock()
		if w.closing {
			w.mu.Unlock()
			return ErrWriterClosed
		}
		if w.memUsed+size <= w.cfg.bufferMemory || w.memUsed == 0 {
			w.memUsed += size
			w.mu.Unlock()
			return nil
		}
		freed := w.memFreed
		w.forceAll = true // send what is open rather than wait for linger
		w.mu.Unlock()
		w.signal()
		select {
		case <-freed:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// releaseLocked returns buffer memory.
func (w *writerCore) releaseLocked(size int) {
	w.memUsed -= size
	close(w.memFreed)
	w.memFreed = make(chan struct{})
}

// add puts one row of the given estimated size into the open batch of
// target, through fill, for receipt r (nil: the writer's Flush receipt). It
// reports whether the batch became full and was closed (sticky bucket
// assignment then moves on). Memory for the row must have been reserved.
func (w *writerCore) add(target writeTarget, size int, r *Receipt, fill func(batchContent) error) (closed bool, err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closing {
		w.releaseLocked(size)
		return false, ErrWriterClosed
	}
	q := w.queueLocked(target)
	if q.open == nil {
		content, err := w.newContent()
		if err != nil {
			w.releaseLocked(size)
			return false, err
		}
		q.open = w.newBatchLocked(target, content)
		w.signal() // the sender must learn the linger deadline
	}
	if err := fill(q.open.content); err != nil {
		w.releaseLocked(size)
		return false, err
	}
	q.open.rows++
	q.open.size += size
	w.shareLocked(q.open, r, 1)
	if q.open.size >= w.cfg.batchSize {
		w.closeOpenLocked(q)
		w.signal()
		return true, nil
	}
	return false, nil
}

// addBatch queues a complete batch (e.g. a whole Arrow record) for target,
// after any batch already open there, for receipt r (nil: the Flush
// receipt). Memory for it must have been reserved.
func (w *writerCore) addBatch(target writeTarget, content batchContent, rows, size int, r *Receipt) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closing {
		w.releaseLocked(size)
		content.release()
		return ErrWriterClosed
	}
	q := w.queueLocked(target)
	w.closeOpenLocked(q)
	b := w.newBatchLocked(target, content)
	b.rows, b.size = rows, size
	w.shareLocked(b, r, rows)
	q.ready = append(q.ready, b)
	w.startSealLocked(b)
	w.signal()
	return nil
}

func (w *writerCore) queueLocked(target writeTarget) *bucketQueue {
	q := w.buckets[target.key()]
	if q == nil {
		q = &bucketQueue{target: target, writerID: -1}
		w.buckets[target.key()] = q
	}
	return q
}

func (w *writerCore) newBatchLocked(target writeTarget, content batchContent) *writeBatch {
	if w.pending == 0 {
		w.idle = make(chan struct{})
	}
	w.pending++
	return &writeBatch{target: target, content: content, created: time.Now(), writerID: -1, seq: -1}
}

func (w *writerCore) closeOpenLocked(q *bucketQueue) {
	if q.open != nil {
		q.ready = append(q.ready, q.open)
		w.startSealLocked(q.open)
		q.open = nil
	}
}

// shareLocked counts rows of receipt r (nil: the Flush receipt) in b.
func (w *writerCore) shareLocked(b *writeBatch, r *Receipt, rows int) {
	if r == nil {
		r = w.deflt
	}
	if n := len(b.shares); n > 0 && b.shares[n-1].r == r {
		b.shares[n-1].rows += rows
		return
	}
	for i := range b.shares {
		if b.shares[i].r == r {
			b.shares[i].rows += rows
			return
		}
	}
	b.shares = append(b.shares, receiptShare{r: r, rows: rows})
	r.track(b, w)
}

// settleLocked gives every receipt with rows in b its outcome; later calls
// for b do nothing.
func (w *writerCore) settleLocked(b *writeBatch, o rowOutcome, cause error, detail string) {
	for _, s := range b.shares {
		var bytes int64
		if b.rows > 0 {
			bytes = b.sentBytes * int64(s.rows) / int64(b.rows)
		}
		s.r.settle(b, s.rows, bytes, o, cause, detail)
	}
	b.shares = nil
}

// sendNow closes every open batch so that the sender ships it without
// waiting for the linger time.
func (w *writerCore) sendNow() {
	w.mu.Lock()
	w.forceAll = true
	w.mu.Unlock()
	w.signal()
}

// flush sends the rows written without a receipt since the last flush and
// waits for their outcome (see Receipt.Wait).
func (w *writerCore) flush(ctx context.Context) error {
	w.mu.Lock()
	r := w.deflt
	w.deflt = NewReceipt()
	w.mu.Unlock()
	return r.Wait(ctx)
}

// giveUp ends b for the receipts waiting on it: a batch that provably never
// reached the server is withdrawn (not written); one that may have is
// abandoned (outcome unknown) and never sent again. cause is why (the end
// of the caller's context).
func (w *writerCore) giveUp(b *writeBatch, cause error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if b.ended {
		return
	}
	if b.lastErr != nil {
		cause = fmt.Errorf("%w (after %d attempts; last error: %v)", cause, b.attempts, b.lastErr)
	}
	where := b.target.describe(w.path)
	q := w.buckets[b.target.key()]
	switch {
	case q.inflight == b && !b.sending && !b.maybeStored:
		// The sender holds it but has not sent it (it is looking the leader up
		// or encoding): it will see abandoned and not send it.
		b.abandoned = true
		w.settleLocked(b, outcomeNotWritten, cause, where+": never sent (withdrawn before its request left)")
	case q.inflight == b:
		// The sender owns it until its request returns; complete ends it.
		b.abandoned = true
		w.settleLocked(b, outcomeUnknown, cause, where+": a request carrying the rows is in flight")
	case !b.maybeStored:
		w.unqueueLocked(q, b)
		w.settleLocked(b, outcomeNotWritten, cause, where+": never sent (withdrawn)")
		w.finishLocked(b)
	default:
		w.unqueueLocked(q, b)
		w.settleLocked(b, outcomeUnknown, cause, fmt.Sprintf("%s: sent %d times without an acknowledgement", where, b.attempts))
		if b.writerID >= 0 {
			// The server's sequence state for this writer id is unknown now.
			w.newWriterID = true
		}
		w.finishLocked(b)
	}
}

// unqueueLocked removes b from its bucket's open slot or ready queue.
func (w *writerCore) unqueueLocked(q *bucketQueue, b *writeBatch) {
	if q.open == b {
		q.open = nil
		return
	}
	for i, r := range q.ready {
		if r == b {
			q.ready = append(q.ready[:i:i], q.ready[i+1:]...)
			return
		}
	}
}

// giveUpAll gives up every batch the writer holds.
func (w *writerCore) giveUpAll(cause error) {
	w.mu.Lock()
	var all []*writeBatch
	for _, q := range w.buckets {
		if q.inflight != nil {
			all = append(all, q.inflight)
		}
		all = append(all, q.ready...)
		if q.open != nil {
			all = append(all, q.open)
		}
	}
	w.mu.Unlock()
	for _, b := range all {
		w.giveUp(b, cause)
	}
}

// close sends what is buffered and waits for every outcome, then stops the
// sender. When ctx ends first, batches never sent are withdrawn and the
// others abandoned (see Receipt.Wait): close returns by ctx's deadline. It
// returns the outcome of the rows written without a receipt.
func (w *writerCore) close(ctx context.Context) error {
	w.mu.Lock()
	if w.closing {
		w.mu.Unlock()
		<-w.stopped
		return nil
	}
	w.mu.Unlock()
	ferr := w.flush(ctx)
	w.mu.Lock()
	w.forceAll = true
	idle := w.idle
	w.mu.Unlock()
	w.signal()
	select {
	case <-idle:
	case <-ctx.Done():
		w.giveUpAll(ctx.Err())
	}
	w.mu.Lock()
	w.closing = true
	w.mu.Unlock()
	// Abandon whatever is still in flight (only batches every receipt gave
	// up on) and wake a sender blocked on metadata or a writer id.
	w.cancelFn()
	close(w.stop)
	<-w.stopped
	w.inFlight.Wait()
	w.mu.Lock()
	w.dropAllLocked()
	w.mu.Unlock()
	w.sealing.Wait() // the encodings of dropped batches free their content
	return ferr
}

// dropAllLocked releases every batch still held (after the sender stopped).
func (w *writerCore) dropAllLocked() {
	for _, q := range w.buckets {
		for _, b := range append(append([]*writeBatch{q.open}, q.ready...), q.inflight) {
			if b != nil && !b.ended {
				o := outcomeNotWritten
				if b.maybeStored {
					o = outcomeUnknown
				}
				w.settleLocked(b, o, ErrWriterClosed, b.target.describe(w.path)+": the writer closed")
				b.ended = true
				w.releaseContentLocked(b)
				w.releaseLocked(b.size)
			}
		}
		q.open, q.ready, q.inflight = nil, nil, nil
	}
	w.pending = 0
	select {
	case <-w.idle:
	default:
		close(w.idle)
	}
}
