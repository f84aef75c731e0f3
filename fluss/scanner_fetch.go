package fluss

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/flussql/flussql/fluss/flusserr"
	"github.com/flussql/flussql/fluss/internal/protocol"
)

// A fetch round sends one FetchLog request to the leader of every
// subscribed bucket that has rows to read, concurrently, and decodes the
// answers in the background. After a round's results are taken the next
// round starts at once, so the network and decoding overlap the caller's
// work on the batches already returned (one round of prefetch).

// Failover. A fetch that fails with an error a leader change or a restart
// explains (see classifyFetchError) is retried at the same offset: the
// table's cached metadata is dropped, the bucket waits (fetchBackoff:
// exponential from fetchBackoffBase, capped at fetchBackoffCap, jittered)
// and the next round looks its leader up again. Rows are queued only from
// answers that carry them, and the next offset only ever moves past rows
// queued, so a resumed bucket has no gap and no duplicate. A bucket is
// retried until Poll's context ends (Poll then returns an error naming it,
// its offset, its failed attempts and the last cause); other errors end
// Poll at once with the bucket, its offset and the cause.

const (
	fetchBackoffBase = 50 * time.Millisecond
	fetchBackoffCap  = time.Second
	// maxUnknownServerErrors bounds the retries of UNKNOWN_SERVER_ERROR,
	// which a server in the middle of a leader change may answer, but
	// which may as well be permanent.
	maxUnknownServerErrors = 5
)

// endStallTimeout is how long a bounded scan waits for a bucket whose
// leader's high watermark stays below the end offset recorded when the
// scan started (see checkEndLocked). A variable for tests.
var endStallTimeout = 15 * time.Second

// fetchRetry is what to do after a failed fetch.
type fetchRetry int

const (
	fetchFatal        fetchRetry = iota // report it
	fetchRetryRefresh                   // refresh the leader, retry the same offset
	fetchRetryLimited                   // the same, at most maxUnknownServerErrors times in a row
)

// classifyFetchError sorts a fetch error. Retried, after a metadata
// refresh: the leader moved or has none yet (NOT_LEADER_OR_FOLLOWER,
// LEADER_NOT_AVAILABLE, FENCED_LEADER_EPOCH, UNKNOWN_TABLE_OR_BUCKET), the
// leader could not be reached or did not answer in time (NETWORK_EXCEPTION,
// which includes refused dials and dropped connections, REQUEST_TIME_OUT),
// and storage errors of a replica being moved (LOG_STORAGE, KV_STORAGE,
// STORAGE, NOT_ENOUGH_REPLICAS*). UNKNOWN_SERVER_ERROR is retried a few
// times. Everything else — LOG_OFFSET_OUT_OF_RANGE, CORRUPT_MESSAGE,
// authorization, a dropped table or partition, a batch that does not
// decode — is reported. A remote log segment that cannot be opened or read
// is retried a few times too (the next fetch names the segments anew).
func classifyFetchError(err error) fetchRetry {
	var re *remoteIOError
	if errors.As(err, &re) {
		return fetchRetryLimited // a remote file that could not be read (remote_log.go)
	}
	var fe *Error
	if !errors.As(err, &fe) {
		return fetchFatal
	}
	switch fe.Code {
	case flusserr.NotLeaderOrFollower, flusserr.LeaderNotAvailableException, flusserr.FencedLeaderEpochException,
		flusserr.UnknownTableOrBucketException, flusserr.NetworkException, flusserr.RequestTimeOut,
		flusserr.LogStorageException, flusserr.KvStorageException, flusserr.StorageException,
		flusserr.NotEnoughReplicasException, flusserr.NotEnoughReplicasAfterAppendException:
		return fetchRetryRefresh
	case flusserr.UnknownServerError:
		return fetchRetryLimited
	}
	return fetchFatal
}

// fetchBackoff is the wait before retry number attempt (1-based) of a
// bucket: fetchBackoffBase doubled per attempt up to fetchBackoffCap, of
// which a random half is taken off so that buckets spread out.
func fetchBackoff(attempt int) time.Duration {
	d := min(fetchBackoffBase<<min(max(attempt-1, 0), 16), fetchBackoffCap)
	return d/2 + rand.N(d/2+1)
}

type fetchRound struct {
	ctx     context.Context
	cancel  context.CancelFunc
	done    chan struct{}
	results []*bucketFetch
	started time.Time

	// mu guards the progress fields of the results (node, answered),
	// written by the round and read when Poll's context ends.
	mu sync.Mutex
}

// bucketFetch is the outcome of fetching one bucket in a round.
type bucketFetch struct {
	sub       *subscription
	tb        TableBucket
	partition string
	offset    int64 // the fetch offset sent
	end       int64
	next      int64 // the offset to fetch next
	hw        int64 // the high watermark in the answer; -1 if none
	batches   []*ScanBatch
	err       error

	node     *ServerNode // the leader asked (under fetchRound.mu)
	answered bool        // the leader answered or failed (under fetchRound.mu)
}

func (r *fetchRound) release() {
	for _, f := range r.results {
		for _, b := range f.batches {
			b.Release()
		}
		f.batches = nil
	}
}

// startRoundLocked starts a round over the buckets ready to fetch, or
// returns nil when every bucket is done or backing off.
func (s *LogScanner) startRoundLocked() *fetchRound {
	now := time.Now()
	var fetches []*bucketFetch
	for _, sub := range s.subs {
		if sub.done() || now.Before(sub.retryAt) {
			continue
		}
		fetches = append(fetches, &bucketFetch{sub: sub, tb: sub.tb, partition: sub.partition,
			offset: sub.offset, end: sub.end, next: sub.offset, hw: -1})
	}
	if len(fetches) == 0 {
		return nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	r := &fetchRound{ctx: ctx, cancel: cancel, done: make(chan struct{}), results: fetches, started: now}
	s.round = r
	go s.runRound(r)
	return r
}

func (s *LogScanner) runRound(r *fetchRound) {
	defer close(r.done)
	defer r.cancel()
	c := s.t.c
	byLeader := map[int32][]*bucketFetch{}
	nodes := map[int32]ServerNode{}
	for _, f := range r.results {
		node, err := c.bucketLeader(r.ctx, s.t.Path(), f.partition, f.tb.Bucket)
		if err != nil {
			f.err = err
			r.mu.Lock()
			f.answered = true
			r.mu.Unlock()
			continue
		}
		byLeader[node.ID] = append(byLeader[node.ID], f)
		nodes[node.ID] = node
		r.mu.Lock()
		f.node = &node
		r.mu.Unlock()
	}
	var wg sync.WaitGroup
	for id, group := range byLeader {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.fetchFrom(r.ctx, nodes[id], group)
			r.mu.Lock()
			for _, f := range group {
				f.answered = true
			}
			r.mu.Unlock()
		}()
	}
	wg.Wait()
}

// fetchFrom sends one FetchLog request to a leader and decodes the answer.
func (s *LogScanner) fetchFrom(ctx context.Context, node ServerNode, group []*bucketFetch) {
	table := &protocol.PbFetchLogReqForTable{
		TableId:                   proto.Int64(s.t.info.TableID),
		ProjectionPushdownEnabled: proto.Bool(s.proj.pushdown),
	}
	if s.proj.pushdown {
		for _, c := range s.proj.fetch {
			table.ProjectedFields = append(table.ProjectedFields, int32(c))
		}
	}
	if pb, schemaID := s.fetchFilter(ctx); pb != nil {
		table.FilterPredicate, table.FilterSchemaId = pb, proto.Int32(schemaID)
	}
	for _, f := range group {
		pb := &protocol.PbFetchLogReqForBucket{
			BucketId:      proto.Int32(f.tb.Bucket),
			FetchOffset:   proto.Int64(f.offset),
			MaxFetchBytes: proto.Int32(int32(s.opts.MaxBucketBytes)),
		}
		if f.tb.PartitionID != NoPartition {
			pb.PartitionId = proto.Int64(f.tb.PartitionID)
		}
		table.BucketsReq = append(table.BucketsReq, pb)
	}
	req := &protocol.FetchLogRequest{
		FollowerServerId: proto.Int32(-1),
		MaxBytes:         proto.Int32(int32(s.opts.MaxBytes)),
		TablesReq:        []*protocol.PbFetchLogReqForTable{table},
		MaxWaitMs:        proto.Int32(int32(s.opts.MaxWait / time.Millisecond)),
		MinBytes:         proto.Int32(1),
	}
	var resp protocol.FetchLogResponse
	// The server may hold the request for MaxWait; allow for that.
	rctx, cancel := context.WithTimeout(ctx, s.t.c.cfg.RequestTimeout+s.opts.MaxWait)
	err := s.t.c.callNode(rctx, node, protocol.FetchLog, req, &resp)
	cancel()
	if err != nil {
		for _, f := range group {
			f.err = err
		}
		return
	}
	byKey := make(map[TableBucket]*bucketFetch, len(group))
	for _, f := range group {
		byKey[f.tb] = f
	}
	// Buckets are decoded concurrently, each with its own decoder.
	var wg sync.WaitGroup
	defer wg.Wait()
	for _, t := range resp.GetTablesResp() {
		for _, b := range t.GetBucketsResp() {
			tb := TableBucket{PartitionID: NoPartition, Bucket: b.GetBucketId()}
			if b.PartitionId != nil {
				tb.PartitionID = b.GetPartitionId()
			}
			f := byKey[tb]
			if f == nil {
				continue
			}
			delete(byKey, tb)
			if b.HighWatermark != nil {
				f.hw = b.GetHighWatermark()
			}
			if err := errorFromCode(b.GetErrorCode(), b.GetErrorMessage()); err != nil {
				f.err = err
				continue
			}
			if info := b.GetRemoteLogFetchInfo(); info != nil && len(b.GetRecords()) == 0 {
				// The offset is in tiered storage: read the segments (remote_log.go).
				wg.Add(1)
				go func() {
					defer wg.Done()
					f.batches, f.next, f.err = s.readRemote(ctx, f, info, b.GetHighWatermark())
				}()
				continue
			}
			s.fetched.Add(int64(len(b.GetRecords())))
			wg.Add(1)
			go func() {
				defer wg.Done()
				dec := s.decs.get()
				defer s.decs.put(dec)
				f.batches, f.next, f.err = s.decodeRecords(ctx, dec, f, b.GetRecords(), b.GetHighWatermark())
				// With a filter the server may skip batches past the records
				// it sends; it says how far it scanned.
				if f.err == nil && b.FilteredEndOffset != nil && b.GetFilteredEndOffset() > f.next {
					f.next = b.GetFilteredEndOffset()
					if f.end >= 0 && f.next > f.end {
						f.next = f.end
					}
				}
			}()
		}
	}
	for _, f := range byKey {
		f.err = &Error{Code: flusserr.UnknownTableOrBucketException, Message: "the fetch answer did not mention the bucket"}
	}
}

// apply takes the results of a finished round: batches of buckets whose
// subscription is unchanged are queued and their offsets advanced; errors
// are retried later (after a metadata refresh) or returned. It starts the
// next round.
func (s *LogScanner) apply(r *fetchRound) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.round != r {
		return nil // already applied (or the scanner closed)
	}
	s.round = nil
	now := time.Now()
	var firstErr error
	refresh := false
	for _, f := range r.results {
		sub := s.subs[f.tb]
		if sub == nil || sub != f.sub || sub.offset != f.offset || s.closed {
			for _, b := range f.batches {
				b.Release()
			}
			f.batches = nil
			continue
		}
		if f.err != nil {
			sub.attempts++
			sub.lastErr = f.err
			if sub.attempts == 1 {
				sub.failingSince = now
			}
			s.t.c.observeRetry("fetch", s.t.Path(), sub.attempts, f.err)
			s.t.c.debug("fluss: fetch failed", "table", s.t.Path().String(), "bucket", sub.tb.Bucket, "partition", sub.partition,
				"offset", sub.offset, "attempt", sub.attempts, "err", f.err)
			switch classifyFetchError(f.err) {
			case fetchRetryRefresh:
				refresh = true
				sub.retryAt = now.Add(fetchBackoff(sub.attempts))
				continue
			case fetchRetryLimited:
				if sub.attempts <= maxUnknownServerErrors {
					refresh = true
					sub.retryAt = now.Add(fetchBackoff(sub.attempts))
					continue
				}
			}
			if firstErr == nil {
				firstErr = s.bucketErrorLocked(sub, f.err, now)
			}
			continue
		}
		sub.attempts, sub.lastErr, sub.failingSince, sub.retryAt = 0, nil, time.Time{}, time.Time{}
		if err := s.checkEndLocked(sub, f, now); err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		sub.offset = f.next
		s.pending = append(s.pending, f.batches...)
		f.batches = nil
	}
	if refresh {
		s.t.c.invalidateTable(s.t.Path())
	}
	if firstErr == nil && !s.closed && !(s.opts.Bounded && s.allDoneLocked()) {
		s.startRoundLocked() // prefetch
	}
	return firstErr
}

// bucketErrorLocked is the error Poll returns for a bucket that failed
// with err: the bucket, the offset it reached and, after retried failures,
// how many attempts failed over how long.
func (s *LogScanner) bucketErrorLocked(sub *subscription, err error, now time.Time) error {
	retried := ""
	if sub.attempts > 1 {
		retried = fmt.Sprintf(" (attempt %d, failing for %s)", sub.attempts, now.Sub(sub.failingSince).Round(time.Millisecond))
	}
	return fmt.Errorf("fluss: reading %s of %s at offset %d%s: %w",
		describeBucket(sub.tb, sub.partition), s.t.Path(), sub.offset, retried, err)
}

// checkEndLocked guards a bounded bucket against waiting forever for an end
// offset that no longer exists. The end is the high watermark the leader
// reported when the scan started; a new leader elected from the in-sync
// replicas has every row below it, but its high watermark may lag for a
// moment. When the leader's high watermark stays below the end, with the
// bucket read up to it and no rows coming, for endStallTimeout (or rises
// no more in that time), the rows between them are gone (an unclean leader
// change) and the scan fails with ErrEndOffsetUnreachable rather than
// return fewer rows than the bucket held when it started. A rising high
// watermark restarts the wait.
func (s *LogScanner) checkEndLocked(sub *subscription, f *bucketFetch, now time.Time) error {
	if sub.end < 0 || f.next != f.offset || f.hw < 0 || f.hw >= sub.end || f.offset < f.hw {
		sub.stallSince, sub.stallHW = time.Time{}, -1
		return nil
	}
	if sub.stallSince.IsZero() || f.hw > sub.stallHW {
		sub.stallSince, sub.stallHW = now, f.hw
		return nil
	}
	if waited := now.Sub(sub.stallSince); waited >= endStallTimeout {
		return fmt.Errorf("fluss: reading %s of %s: read to offset %d, the leader's high watermark %d has not reached the scan's end offset %d in %s (rows %d..%d are no longer in the bucket): %w",
			describeBucket(sub.tb, sub.partition), s.t.Path(), sub.offset, f.hw, sub.end, waited.Round(time.Millisecond),
			f.hw, sub.end-1, ErrEndOffsetUnreachable)
	}
	return nil
}

func describeBucket(tb TableBucket, partition string) string {
	if partition == "" {
		return fmt.Sprintf("bucket %d", tb.Bucket)
	}
	return fmt.Sprintf("bucket %d of partition %s", tb.Bucket, partition)
}

// scanStoppedError is Poll's error when its context ends: it matches the
// context's error and the last fetch error of a failing bucket, if any.
type scanStoppedError struct {
	msg   string
	cause error
	last  error
}

func (e *scanStoppedError) Error() string { return e.msg }

func (e *scanStoppedError) Unwrap() []error {
	if e.last == nil {
		return []error{e.cause}
	}
	return []error{e.cause, e.last}
}

// maxStoppedBuckets bounds how many buckets a scanStoppedError describes.
const maxStoppedBuckets = 4

// stoppedError describes where a scan stood when Poll's context ended with
// cause: the buckets that were failing (offset, attempts, for how long, the
// last error), then the buckets waiting for a leader's answer (which
// server, since when), then the buckets waiting for their end offset.
func (s *LogScanner) stoppedError(cause error, r *fetchRound) error {
	now := time.Now()
	s.mu.Lock()
	subs := make([]*subscription, 0, len(s.subs))
	for _, sub := range s.subs {
		if !sub.done() {
			subs = append(subs, sub)
		}
	}
	slices.SortFunc(subs, func(a, b *subscription) int {
		if c := cmp.Compare(a.tb.PartitionID, b.tb.PartitionID); c != 0 {
			return c
		}
		return cmp.Compare(a.tb.Bucket, b.tb.Bucket)
	})
	var failing, waiting, stalled []string
	var last error
	for _, sub := range subs {
		name := describeBucket(sub.tb, sub.partition)
		switch {
		case sub.attempts > 0:
			failing = append(failing, fmt.Sprintf("%s at offset %d: %d failed attempts over %s, last error: %v",
				name, sub.offset, sub.attempts, now.Sub(sub.failingSince).Round(time.Millisecond), sub.lastErr))
			if last == nil {
				last = sub.lastErr
			}
		case !sub.stallSince.IsZero():
			stalled = append(stalled, fmt.Sprintf("%s at offset %d: waiting %s for the leader's high watermark %d to reach the end offset %d",
				name, sub.offset, now.Sub(sub.stallSince).Round(time.Millisecond), sub.stallHW, sub.end))
		}
	}
	if r != nil {
		r.mu.Lock()
		for _, f := range r.results {
			if f.answered || f.sub.attempts > 0 {
				continue
			}
			name := describeBucket(f.tb, f.partition)
			if f.node == nil {
				waiting = append(waiting, fmt.Sprintf("%s at offset %d: looking up its leader for %s",
					name, f.offset, now.Sub(r.started).Round(time.Millisecond)))
			} else {
				waiting = append(waiting, fmt.Sprintf("%s at offset %d: no answer for %s from its leader, tablet server %d at %s",
					name, f.offset, now.Sub(r.started).Round(time.Millisecond), f.node.ID, f.node.Addr()))
			}
		}
		r.mu.Unlock()
	}
	s.mu.Unlock()
	var parts []string
	for _, group := range [][]string{failing, waiting, stalled} {
		parts = append(parts, group...)
	}
	msg := fmt.Sprintf("fluss: scan of %s stopped: %v", s.t.Path(), cause)
	if len(parts) > maxStoppedBuckets {
		parts = append(parts[:maxStoppedBuckets], fmt.Sprintf("and %d more", len(parts)-maxStoppedBuckets))
	}
	if len(parts) > 0 {
		msg += "; " + strings.Join(parts, "; ")
	}
	return &scanStoppedError{msg: msg, cause: cause, last: last}
}
