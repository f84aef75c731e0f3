package fluss

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/flussql/flussql/fluss/flusserr"
	"github.com/flussql/flussql/fluss/types"
)

// LatestOffset, used as a start offset, means "the end of the log as of the
// subscription": only rows written afterwards are read. (EarliestOffset
// means the start of the log.)
const LatestOffset int64 = -1

// NoPartition is the partition id of buckets of non-partitioned tables.
const NoPartition int64 = -1

// ErrScannerClosed is returned by calls on a closed LogScanner.
var ErrScannerClosed = errors.New("fluss: log scanner closed")

// TableBucket names one bucket of a table, or of one partition of a
// partitioned table.
type TableBucket struct {
	// PartitionID is the partition's id, NoPartition for non-partitioned tables.
	PartitionID int64
	// Bucket is the bucket number within the table or partition, from 0.
	Bucket int32
}

// String returns e.g. "bucket 3" or "partition 12 bucket 3".
func (b TableBucket) String() string {
	if b.PartitionID == NoPartition {
		return fmt.Sprintf("bucket %d", b.Bucket)
	}
	return fmt.Sprintf("partition %d bucket %d", b.PartitionID, b.Bucket)
}

// ChangeType is the kind of change a log row records.
type ChangeType int8

// Change types. Log tables hold AppendOnly rows; the changelog of a
// primary-key table holds the others.
const (
	AppendOnly   ChangeType = 0 // +A
	Insert       ChangeType = 1 // +I
	UpdateBefore ChangeType = 2 // -U
	UpdateAfter  ChangeType = 3 // +U
	Delete       ChangeType = 4 // -D
)

// String returns Fluss's short form: "+A", "+I", "-U", "+U" or "-D".
func (c ChangeType) String() string {
	switch c {
	case AppendOnly:
		return "+A"
	case Insert:
		return "+I"
	case UpdateBefore:
		return "-U"
	case UpdateAfter:
		return "+U"
	case Delete:
		return "-D"
	}
	return fmt.Sprintf("ChangeType(%d)", int8(c))
}

// ScanBatch is a run of consecutive rows of one bucket, as an Arrow record
// with the scanner's projected columns. Release it when done; its record
// may share memory with the fetch response.
type ScanBatch struct {
	// Bucket is the bucket the rows were read from.
	Bucket TableBucket
	// Partition is the partition name ("" for non-partitioned tables).
	Partition string
	// Record holds the rows, one column per projected column in the
	// order of ScannerOptions.Projection.
	Record arrow.RecordBatch
	// ChangeTypes has one entry per row, or is nil when every row is
	// AppendOnly (always for log tables).
	ChangeTypes []ChangeType
	// BaseOffset is the log offset of row 0; row i has BaseOffset+i.
	BaseOffset int64
	// CommitTime is when the server appended the rows' batch.
	CommitTime time.Time
	// HighWatermark is the bucket's high watermark when it was fetched.
	HighWatermark int64
}

// NumRows returns the number of rows.
func (b *ScanBatch) NumRows() int {
	if b.Record == nil {
		return 0
	}
	return int(b.Record.NumRows())
}

// Offset returns the log offset of row i.
func (b *ScanBatch) Offset(i int) int64 { return b.BaseOffset + int64(i) }

// ChangeType returns the change type of row i.
func (b *ScanBatch) ChangeType(i int) ChangeType {
	if b.ChangeTypes == nil {
		return AppendOnly
	}
	return b.ChangeTypes[i]
}

// Release releases the record. It is safe to call more than once.
func (b *ScanBatch) Release() {
	if b.Record != nil {
		b.Record.Release()
		b.Record = nil
	}
}

// ScannerOptions configure a LogScanner.
type ScannerOptions struct {
	// Projection lists the table columns to read, by index, in the order
	// wanted; nil reads every column. The server sends only these columns
	// (ARROW tables); the scanner reorders them. On a table altered with
	// ADD COLUMN, a projection that includes an added column is read by
	// fetching whole batches (the server cannot project batches written
	// before the column existed), and rows written before read it as NULL.
	Projection []int
	// Bounded makes the scanner stop at the end of each bucket as it was
	// when the bucket was subscribed (its high watermark, from
	// ListOffsets): Poll returns io.EOF once every subscribed bucket is
	// read to there. Otherwise Poll waits for new rows until its context
	// ends.
	Bounded bool
	// MaxWait is how long the server holds a fetch with no new data
	// (default 500 ms). Poll may return after it with no batch only when
	// its context ends; it fetches again otherwise.
	MaxWait time.Duration
	// MaxBytes and MaxBucketBytes bound one fetch response and the data
	// of one bucket in it (defaults 16 MiB and 1 MiB, as in Java).
	MaxBytes, MaxBucketBytes int
	// Allocator allocates decoded Arrow buffers (default: Go memory).
	Allocator memory.Allocator
	// Filter, when set, is sent to Fluss 1.0 servers with every fetch if
	// the table keeps statistics of its columns (TableInfo.StatisticsColumns
	// and Predicate.Pushable); the server then skips batches whose
	// statistics rule it out. It only thins the data: returned batches still
	// hold rows that do not match, so the caller filters rows itself. Older
	// servers never get it (see FilterPushed).
	Filter *Predicate
	// Partitions are partitions the caller already knows (from
	// Admin.ListPartitions): subscribing one of them takes its name from
	// here instead of listing the table's partitions again, which costs the
	// server a ZooKeeper read per partition (~50 ms for 200 partitions).
	Partitions []PartitionInfo
	// Contiguous makes subscribing fail with a *LogGapError when a bucket's log
	// starts after the offset it is subscribed at (EarliestOffset counting as
	// offset 0): the rows before the log's start expired (table.log.ttl), so a
	// read that must continue exactly there — a union read after a lake
	// snapshot — would miss them. It costs one ListOffsets request per
	// partition.
	Contiguous bool
}

// ErrEndOffsetUnreachable is wrapped by Poll's error when a bounded scan
// cannot reach the end offset of a bucket: after a leader change, the new
// leader's high watermark stayed below the end recorded when the bucket was
// subscribed, so rows the bucket held then are no longer there.
var ErrEndOffsetUnreachable = errors.New("fluss: the end offset of a bounded scan is no longer in the bucket")

// subscription is one subscribed bucket.
type subscription struct {
	tb        TableBucket
	partition string
	offset    int64 // next fetch offset; EarliestOffset until the first rows
	end       int64 // bounded: stop here; -1 when unbounded

	// Failed fetches (scanner_fetch.go): the next try, the failures in a
	// row, since when, and the last error.
	retryAt      time.Time
	attempts     int
	failingSince time.Time
	lastErr      error
	// A bounded bucket read up to a leader high watermark below end: since
	// when, and that high watermark (checkEndLocked).
	stallSince time.Time
	stallHW    int64
}

func (s *subscription) done() bool { return s.end >= 0 && s.offset >= s.end }

// LogScanner reads the log of a table bucket by bucket: subscribe buckets
// at start offsets, then Poll for batches of rows. It is safe for
// concurrent use, though Poll is meant for one reader; Close it when done,
// which releases every buffered batch.
type LogScanner struct {
	t    *Table
	opts ScannerOptions
	proj *projection
	mem  memory.Allocator

	mu      sync.Mutex
	subs    map[TableBucket]*subscription
	names   map[int64]string // partition id → name
	pending []*ScanBatch
	round   *fetchRound // fetch in flight, if any
	closed  bool
	decs    *decoderPool
	views   schemaViews    // batches of other schema ids (scanner_schema.go)
	remote  remoteDecoding // batches of remote log segments (remote_log.go)

	filterMu sync.Mutex
	filter   scanFilter // scanner_filter.go
	fetchCounters
}

// NewLogScanner returns a scanner of the table's log. It reads log tables
// and the changelogs of primary-key tables.
func (t *Table) NewLogScanner(opts ScannerOptions) (*LogScanner, error) {
	if opts.MaxWait <= 0 {
		opts.MaxWait = 500 * time.Millisecond
	}
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = 16 << 20
	}
	if opts.MaxBucketBytes <= 0 {
		opts.MaxBucketBytes = 1 << 20
	}
	mem := opts.Allocator
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	p, err := newProjection(t.info.Schema(), opts.Projection, t.info.LogFormat())
	if err != nil {
		return nil, err
	}
	s := &LogScanner{t: t, opts: opts, proj: p, mem: mem,
		subs: map[TableBucket]*subscription{}, names: make(map[int64]string, len(opts.Partitions))}
	for _, part := range opts.Partitions {
		s.names[part.ID] = part.Name
	}
	s.decs = newDecoderPool(t, p, mem)
	return s, nil
}

// Schema returns the Arrow schema of the records Poll returns.
func (s *LogScanner) Schema() *arrow.Schema {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.proj.out
}

// ColumnTypes returns the Fluss types of the returned columns, in order.
func (s *LogScanner) ColumnTypes() []types.DataType {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.proj.outTypes)
}

// Subscribe starts reading bucket of a non-partitioned table at offset: an
// offset, EarliestOffset or LatestOffset. Subscribing a bucket again moves
// it to the new offset.
func (s *LogScanner) Subscribe(ctx context.Context, bucket int32, offset int64) error {
	return s.SubscribeBuckets(ctx, map[TableBucket]int64{{PartitionID: NoPartition, Bucket: bucket}: offset})
}

// SubscribePartition starts reading a bucket of one partition (by id, see
// Admin.ListPartitions) at offset.
func (s *LogScanner) SubscribePartition(ctx context.Context, partitionID int64, bucket int32, offset int64) error {
	return s.SubscribeBuckets(ctx, map[TableBucket]int64{{PartitionID: partitionID, Bucket: bucket}: offset})
}

// SubscribeTimestamp starts reading buckets at the first rows committed at
// or after t (ListOffsets by timestamp).
func (s *LogScanner) SubscribeTimestamp(ctx context.Context, buckets []TableBucket, t time.Time) error {
	m := make(map[TableBucket]int64, len(buckets))
	for _, b := range buckets {
		m[b] = LatestOffset // placeholder, resolved below
	}
	return s.subscribe(ctx, m, OffsetAtTimestamp(t), true)
}

// SubscribeBuckets subscribes many buckets at once, each at its offset.
// Offsets that need the server (LatestOffset; EarliestOffset and the end
// offsets in bounded mode) are resolved with one ListOffsets request per
// partition.
func (s *LogScanner) SubscribeBuckets(ctx context.Context, offsets map[TableBucket]int64) error {
	return s.subscribe(ctx, offsets, OffsetSpec{}, false)
}

func (s *LogScanner) subscribe(ctx context.Context, offsets map[TableBucket]int64, spec OffsetSpec, useSpec bool) error {
	if s.isClosed() {
		return ErrScannerClosed
	}
	if err := s.checkPushdown(ctx); err != nil {
		return err
	}
	byPartition := map[int64][]TableBucket{}
	for tb, off := range offsets {
		if tb.PartitionID != NoPartition && !s.t.info.IsPartitioned() {
			return fmt.Errorf("fluss: table %s is not partitioned: %w", s.t.Path(), flusserr.TableNotPartitionedException)
		}
		if tb.PartitionID == NoPartition && s.t.info.IsPartitioned() {
			return fmt.Errorf("fluss: table %s is partitioned: subscribe partition buckets", s.t.Path())
		}
		if off < 0 && off != EarliestOffset && off != LatestOffset {
			return fmt.Errorf("fluss: invalid start offset %d for %s", off, tb)
		}
		byPartition[tb.PartitionID] = append(byPartition[tb.PartitionID], tb)
	}
	names := make(map[int64]string, len(byPartition))
	for pid := range byPartition {
		name, err := s.partitionName(ctx, pid)
		if err != nil {
			return err
		}
		names[pid] = name
	}
	if len(names) > 1 {
		// Once here, not by each of the goroutines below at the same time.
		if _, err := s.t.c.tableMetadata(ctx, s.t.Path()); err != nil {
			return err
		}
		list := make([]string, 0, len(names))
		for _, n := range names {
			list = append(list, n)
		}
		s.t.c.prefetchPartitions(ctx, s.t.Path(), list)
	}
	// Each partition's offsets take ListOffsets requests of their own: resolve a few
	// partitions at a time rather than one after the other (1,000 partitions made 2,000
	// sequential requests before a bounded scan's first row).
	var (
		subs     []*subscription
		mu       sync.Mutex
		firstErr error
		wg       sync.WaitGroup
	)
	sem := make(chan struct{}, subscribeParallelism)
	for pid, tbs := range byPartition {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			got, err := s.resolvePartition(ctx, names[pid], tbs, offsets, spec, useSpec)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				if firstErr == nil {
					firstErr = err
				}
				return
			}
			subs = append(subs, got...)
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrScannerClosed
	}
	for _, sub := range subs {
		s.subs[sub.tb] = sub
		s.dropPendingLocked(sub.tb)
	}
	return nil
}

// subscribeParallelism bounds the partitions whose start and end offsets subscribe
// resolves at the same time.
const subscribeParallelism = 8

// resolvePartition resolves the start (and, bounded, end) offsets of buckets of one
// partition (name "" for a non-partitioned table) into subscriptions.
func (s *LogScanner) resolvePartition(ctx context.Context, name string, tbs []TableBucket, offsets map[TableBucket]int64,
	spec OffsetSpec, useSpec bool) ([]*subscription, error) {
	var err error
	subs := make([]*subscription, 0, len(tbs))
	ids := make([]int32, len(tbs))
	for i, tb := range tbs {
		ids[i] = tb.Bucket
	}
	start := map[int32]int64{}
	var needEarliest, needLatest bool
	for _, tb := range tbs {
		switch offsets[tb] {
		case EarliestOffset:
			needEarliest = needEarliest || s.opts.Bounded || s.opts.Contiguous
		case LatestOffset:
			needLatest = true
		}
	}
	admin := s.t.c.Admin()
	if useSpec {
		if start, err = admin.ListOffsets(ctx, s.t.Path(), name, ids, spec); err != nil {
			return nil, err
		}
	}
	var earliest, latest map[int32]int64
	if needEarliest || s.opts.Contiguous {
		if earliest, err = admin.ListOffsets(ctx, s.t.Path(), name, ids, OffsetEarliest()); err != nil {
			return nil, err
		}
	}
	if needLatest || s.opts.Bounded {
		if latest, err = admin.ListOffsets(ctx, s.t.Path(), name, ids, OffsetLatest()); err != nil {
			return nil, err
		}
	}
	if s.opts.Contiguous {
		if err := checkContiguous(s.t.Path(), name, tbs, offsets, earliest); err != nil {
			return nil, err
		}
	}
	for _, tb := range tbs {
		sub := &subscription{tb: tb, partition: name, offset: offsets[tb], end: -1, stallHW: -1}
		switch {
		case useSpec:
			sub.offset = start[tb.Bucket]
		case sub.offset == EarliestOffset && earliest != nil:
			sub.offset = earliest[tb.Bucket]
		case sub.offset == LatestOffset:
			sub.offset = latest[tb.Bucket]
		}
		if s.opts.Bounded {
			sub.end = latest[tb.Bucket]
		}
		subs = append(subs, sub)
	}
	return subs, nil
}

// partitionName returns the name of a partition id ("" for NoPartition).
func (s *LogScanner) partitionName(ctx context.Context, id int64) (string, error) {
	if id == NoPartition {
		return "", nil
	}
	s.mu.Lock()
	name, ok := s.names[id]
	s.mu.Unlock()
	if ok {
		return name, nil
	}
	parts, err := s.t.c.Admin().ListPartitions(ctx, s.t.Path(), nil)
	if err != nil {
		return "", err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range parts {
		s.names[p.ID] = p.Name
	}
	if name, ok = s.names[id]; !ok {
		return "", &Error{Code: flusserr.PartitionNotExists, NotSent: true,
			Message: fmt.Sprintf("table %s has no partition with id %d", s.t.Path(), id)}
	}
	return name, nil
}

// Unsubscribe stops reading a bucket of a non-partitioned table and drops
// its buffered batches.
func (s *LogScanner) Unsubscribe(bucket int32) {
	s.UnsubscribePartition(NoPartition, bucket)
}

// UnsubscribePartition stops reading a bucket of a partition.
func (s *LogScanner) UnsubscribePartition(partitionID int64, bucket int32) {
	s.mu.Lock()
	defer s.mu.Unlock()
	tb := TableBucket{PartitionID: partitionID, Bucket: bucket}
	delete(s.subs, tb)
	s.dropPendingLocked(tb)
}

// Subscriptions returns the subscribed buckets and their next offsets
// (EarliestOffset for a bucket still waiting for its first rows).
func (s *LogScanner) Subscriptions() map[TableBucket]int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[TableBucket]int64, len(s.subs))
	for tb, sub := range s.subs {
		out[tb] = sub.offset
	}
	return out
}

func (s *LogScanner) dropPendingLocked(tb TableBucket) {
	kept := s.pending[:0]
	for _, b := range s.pending {
		if b.Bucket == tb {
			b.Release()
			continue
		}
		kept = append(kept, b)
	}
	clear(s.pending[len(kept):])
	s.pending = kept
}

func (s *LogScanner) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

// Poll returns the next batch of rows. It fetches from the bucket leaders
// when nothing is buffered and waits for new rows until ctx ends. In
// bounded mode it returns io.EOF once every subscribed bucket was read to
// its end offset (at once if nothing is subscribed). The caller must
// Release the batch.
//
// A bucket whose leader fails, moves or cannot be reached is read again
// from the same offset on its new leader, so the rows returned have no gap
// and no duplicate; it is retried, with growing pauses of up to a second,
// until ctx ends. When ctx ends Poll returns an error that matches ctx's
// error and its cause (errors.Is, context.Cause) and names the buckets that were failing (offset,
// attempts, last error, which it matches too) or waiting for an answer.
// Errors that retrying cannot fix (a dropped table, an offset out of
// range, a corrupt batch, ErrEndOffsetUnreachable) are returned at once,
// naming the bucket and offset.
func (s *LogScanner) Poll(ctx context.Context) (*ScanBatch, error) {
	for {
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			return nil, ErrScannerClosed
		}
		if len(s.pending) > 0 {
			b := s.pending[0]
			s.pending[0] = nil
			s.pending = s.pending[1:]
			s.mu.Unlock()
			s.reportBytes(ctx)
			return b, nil
		}
		if s.opts.Bounded && s.allDoneLocked() {
			s.mu.Unlock()
			s.reportBytes(ctx)
			return nil, io.EOF
		}
		if len(s.subs) == 0 {
			s.mu.Unlock()
			return nil, errors.New("fluss: Poll on a log scanner with no subscribed bucket")
		}
		round := s.round
		if round == nil {
			round = s.startRoundLocked()
		}
		var wait time.Duration
		if round == nil {
			wait = s.nextRetryLocked()
		}
		s.mu.Unlock()
		if round == nil {
			// every bucket is backing off after an error
			if err := sleepCtx(ctx, wait); err != nil {
				return nil, s.stoppedError(context.Cause(ctx), nil)
			}
			continue
		}
		select {
		case <-round.done:
		case <-ctx.Done():
			return nil, s.stoppedError(context.Cause(ctx), round) // the round stays in flight for the next Poll
		}
		if err := s.apply(round); err != nil {
			return nil, err
		}
	}
}

// nextRetryLocked returns how long until the first bucket backing off may
// be fetched again.
func (s *LogScanner) nextRetryLocked() time.Duration {
	var first time.Time
	for _, sub := range s.subs {
		if !sub.done() && (first.IsZero() || sub.retryAt.Before(first)) {
			first = sub.retryAt
		}
	}
	return min(max(time.Until(first), time.Millisecond), fetchBackoffCap)
}

func (s *LogScanner) allDoneLocked() bool {
	for _, sub := range s.subs {
		if !sub.done() {
			return false
		}
	}
	return true
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Close stops the scanner: a fetch in flight is cancelled and every
// buffered batch released. Later calls return nil.
func (s *LogScanner) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	round := s.round
	s.round = nil
	for _, b := range s.pending {
		b.Release()
	}
	s.pending = nil
	s.mu.Unlock()
	if round != nil {
		round.cancel()
		<-round.done
		round.release()
	}
	s.remote.close()
	s.decs.close()
	s.views.close()
	return nil
}
