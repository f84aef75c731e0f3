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
	data     []byte // encoded batch, once sealed
	lastErr  error  // why the last send failed, when it is retried
	writerID int64  // -1 until first sent idempotently
	seq      int32
	attempts int
	retryAt  time.Time
}

// bucketQueue is the state of one bucket.
type bucketQueue struct {
	target   writeTarget
	open     *writeBatch   // taking rows
	ready    []*writeBatch // closed, in send order
	inflight *writeBatch
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
	errs     []error       // batch failures not yet reported by Flush
	closing  bool
	aborted  bool

	writerID    int64 // -1 when not idempotent
	newWriterID bool  // obtain a new writer id before sending new batches

	wake     chan struct{}
	stop     chan struct{}
	stopped  chan struct{}
	sendCtx  context.Context
	cancelFn context.CancelFunc
	inFlight sync.WaitGroup
}

func newWriterCore(ctx context.Context, c *Client, path TablePath, tableID int64, cfg writerConfig,
	proto writeProtocol, newContent func() (batchContent, error)) (*writerCore, error) {
	w := &writerCore{
		c: c, path: path, tableID: tableID, cfg: cfg, proto: proto, newContent: newContent,
		buckets:  map[bucketKey]*bucketQueue{},
		idle:     closedChan(),
		memFreed: make(chan struct{}),
		writerID: -1,
		wake:     make(chan struct{}, 1),
		stop:     make(chan struct{}),
		stopped:  make(chan struct{}),
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
// target, through fill. It reports whether the batch became full and was
// closed (sticky bucket assignment then moves on). Memory for the row
// must have been reserved.
func (w *writerCore) add(target writeTarget, size int, fill func(batchContent) error) (closed bool, err error) {
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
	if q.open.size >= w.cfg.batchSize {
		w.closeOpenLocked(q)
		w.signal()
		return true, nil
	}
	return false, nil
}

// addBatch queues a complete batch (e.g. a whole Arrow record) for target,
// after any batch already open there. Memory for it must have been
// reserved.
func (w *writerCore) addBatch(target writeTarget, content batchContent, rows, size int) error {
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
	q.ready = append(q.ready, b)
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
		q.open = nil
	}
}

// flush closes every open batch and waits until every batch is completed.
// It returns the failures since the last flush, the first one naming its
// bucket.
func (w *writerCore) flush(ctx context.Context) error {
	w.mu.Lock()
	w.forceAll = true
	idle := w.idle
	w.mu.Unlock()
	w.signal()
	select {
	case <-idle:
	case <-ctx.Done():
		return w.unfinishedError(ctx.Err())
	}
	return w.takeErrors()
}

// unfinishedError wraps cause (the end of a Flush's context) with what is still
// unacknowledged and the last error a retried batch got, so that a Flush that
// runs out of time says why.
func (w *writerCore) unfinishedError(cause error) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	batches, rows := 0, 0
	var worst *writeBatch
	for _, q := range w.buckets {
		all := q.ready
		if q.inflight != nil {
			all = append([]*writeBatch{q.inflight}, all...)
		}
		if q.open != nil {
			all = append(all, q.open)
		}
		for _, b := range all {
			batches++
			rows += b.rows
			if b.lastErr != nil && (worst == nil || b.attempts > worst.attempts) {
				worst = b
			}
		}
	}
	if batches == 0 {
		return cause
	}
	msg := fmt.Sprintf("fluss: %d batches (%d rows) of %s not yet acknowledged", batches, rows, w.path)
	if worst != nil {
		msg += fmt.Sprintf("; last error for %s (sent %d times): %v", worst.target.describe(w.path), worst.attempts, worst.lastErr)
	}
	return fmt.Errorf("%s: %w", msg, cause)
}

// takeErrors returns and clears the recorded batch failures.
func (w *writerCore) takeErrors() error {
	w.mu.Lock()
	errs := w.errs
	w.errs = nil
	w.mu.Unlock()
	switch len(errs) {
	case 0:
		return nil
	case 1:
		return errs[0]
	}
	return fmt.Errorf("%w (and %d more failed batches)", errs[0], len(errs)-1)
}

// close flushes, then stops the sender. When ctx ends first, the batches
// not yet acknowledged are abandoned and reported as failed.
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
	w.closing = true
	if ferr != nil && w.pending > 0 {
		w.aborted = true
	}
	w.mu.Unlock()
	if ferr != nil {
		w.cancelFn() // abandon requests in flight
	}
	close(w.stop)
	<-w.stopped
	w.cancelFn()
	w.inFlight.Wait()
	w.mu.Lock()
	n := w.pending
	w.dropAllLocked()
	w.mu.Unlock()
	if ferr != nil && n > 0 {
		return fmt.Errorf("fluss: closing the writer of %s: %d batches were not acknowledged: %w", w.path, n, ferr)
	}
	return ferr
}

// dropAllLocked releases every batch still held (after the sender stopped).
func (w *writerCore) dropAllLocked() {
	for _, q := range w.buckets {
		for _, b := range append(append([]*writeBatch{q.open}, q.ready...), q.inflight) {
			if b != nil {
				b.content.release()
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
