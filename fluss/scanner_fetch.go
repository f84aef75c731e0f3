package fluss

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/flussql/flussql/fluss/internal/protocol"
)

// A fetch round sends one FetchLog request to the leader of every
// subscribed bucket that has rows to read, concurrently, and decodes the
// answers in the background. After a round's results are taken the next
// round starts at once, so the network and decoding overlap the caller's
// work on the batches already returned (one round of prefetch).

// maxFetchFailures bounds consecutive retriable failures of one bucket
// before Poll reports the error.
const maxFetchFailures = 30

type fetchRound struct {
	ctx     context.Context
	cancel  context.CancelFunc
	done    chan struct{}
	results []*bucketFetch
}

// bucketFetch is the outcome of fetching one bucket in a round.
type bucketFetch struct {
	tb        TableBucket
	partition string
	offset    int64 // the fetch offset sent
	end       int64
	next      int64 // the offset to fetch next
	batches   []*ScanBatch
	err       error
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
		fetches = append(fetches, &bucketFetch{tb: sub.tb, partition: sub.partition, offset: sub.offset, end: sub.end, next: sub.offset})
	}
	if len(fetches) == 0 {
		return nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	r := &fetchRound{ctx: ctx, cancel: cancel, done: make(chan struct{}), results: fetches}
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
			continue
		}
		byLeader[node.ID] = append(byLeader[node.ID], f)
		nodes[node.ID] = node
	}
	var wg sync.WaitGroup
	for id, group := range byLeader {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.fetchFrom(r.ctx, nodes[id], group)
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
			if err := errorFromCode(b.GetErrorCode(), b.GetErrorMessage()); err != nil {
				f.err = err
				continue
			}
			if b.GetRemoteLogFetchInfo() != nil && len(b.GetRecords()) == 0 {
				f.err = fmt.Errorf("fluss: offset %d of %s lies in remote (tiered) log storage, which this client cannot read", f.offset, f.tb)
				continue
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				dec := s.decs.get()
				defer s.decs.put(dec)
				f.batches, f.next, f.err = s.decodeRecords(ctx, dec, f, b.GetRecords(), b.GetHighWatermark())
			}()
		}
	}
	for _, f := range byKey {
		f.err = &Error{Code: CodeUnknownTableOrBucketException, Message: "the fetch answer did not mention the bucket"}
	}
}

// apply takes the results of a finished round: batches of buckets whose
// subscription is unchanged are queued and their offsets advanced; errors
// are retried later or returned. It starts the next round.
func (s *LogScanner) apply(r *fetchRound) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.round != r {
		return nil // already applied (or the scanner closed)
	}
	s.round = nil
	var firstErr error
	stale := false
	for _, f := range r.results {
		sub := s.subs[f.tb]
		if sub == nil || sub.offset != f.offset || s.closed {
			for _, b := range f.batches {
				b.Release()
			}
			continue
		}
		if f.err != nil {
			sub.failures++
			if retriableFetch(f.err) && sub.failures <= maxFetchFailures {
				stale = stale || isStale(f.err)
				sub.retryAt = time.Now().Add(min(time.Duration(sub.failures)*50*time.Millisecond, time.Second))
				continue
			}
			if firstErr == nil {
				firstErr = fmt.Errorf("fluss: reading %s of %s at offset %d: %w", describeBucket(f.tb, f.partition), s.t.Path(), f.offset, f.err)
			}
			continue
		}
		sub.failures = 0
		sub.offset = f.next
		s.pending = append(s.pending, f.batches...)
		f.batches = nil
	}
	if stale {
		s.t.c.invalidateTable(s.t.Path())
	}
	if firstErr == nil && !s.closed && !(s.opts.Bounded && s.allDoneLocked()) {
		s.startRoundLocked() // prefetch
	}
	return firstErr
}

func describeBucket(tb TableBucket, partition string) string {
	if partition == "" {
		return fmt.Sprintf("bucket %d", tb.Bucket)
	}
	return fmt.Sprintf("bucket %d of partition %s", tb.Bucket, partition)
}

// retriableFetch reports whether a fetch error may go away by itself.
func retriableFetch(err error) bool {
	var fe *Error
	if !errors.As(err, &fe) {
		return false
	}
	return fe.Retriable() || fe.Code == CodeNetworkException || fe.Code == CodeRequestTimeOut
}
