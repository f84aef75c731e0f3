package fluss

import (
	"context"
	"errors"
	"fmt"
	"sync"
)

// kvBucketReq is the part of one request that goes to one bucket: the
// positions (in the caller's key list) of the keys it carries.
type kvBucketReq struct {
	partition   string
	partitionID *int64
	bucket      int32
	idx         []int
}

// kvBucketFailure is a bucket whose part of a request failed.
type kvBucketFailure struct {
	req *kvBucketReq
	err error
}

// kvSendFunc sends one request with the given bucket parts to node and
// stores the results. It returns the buckets that failed; err is set when
// the whole request failed (then every bucket failed with it).
type kvSendFunc func(ctx context.Context, node ServerNode, tableID int64, reqs []*kvBucketReq) ([]kvBucketFailure, error)

// fanoutOptions tune fanout.
type fanoutOptions struct {
	maxKeysPerRequest int
	maxInFlight       int
	// missingPartition is called for each key whose partition does not
	// exist; when nil that is an error.
	missingPartition func(i int)
}

// fanout sends keys (indexes into routed) to their bucket leaders: it
// groups them per leader, splits them into requests of at most
// maxKeysPerRequest keys, sends those concurrently and retries the keys of
// buckets that failed with a retriable error after refreshing metadata, at
// most kvMaxAttempts times.
func (t *pkTable) fanout(ctx context.Context, routed []routedKey, opts fanoutOptions, send kvSendFunc) error {
	pending := make([]int, len(routed))
	for i := range pending {
		pending[i] = i
	}
	for attempt := 0; len(pending) > 0; attempt++ {
		retry, err := t.fanoutOnce(ctx, routed, pending, opts, send)
		if err != nil && !retryable(err) {
			return err
		}
		if len(retry) == 0 {
			return nil
		}
		if attempt+1 >= kvMaxAttempts {
			return fmt.Errorf("fluss: %s: giving up after %d attempts: %w", t.path, attempt+1, err)
		}
		t.c.invalidateTable(t.path)
		if werr := backoffWait(ctx, attempt); werr != nil {
			return errors.Join(err, werr)
		}
		pending = retry
	}
	return nil
}

type locKey struct {
	partition string
	bucket    int32
}

// fanoutOnce makes one round; it returns the keys to retry and the error
// that made them fail (or a non-retriable error).
func (t *pkTable) fanoutOnce(ctx context.Context, routed []routedKey, pending []int, opts fanoutOptions, send kvSendFunc) ([]int, error) {
	type leaderGroup struct {
		node    ServerNode
		tableID int64
		buckets []*kvBucketReq
	}
	groups := map[int32]*leaderGroup{}
	parts := map[locKey]*kvBucketReq{}
	failedLoc := map[locKey]error{}
	var retry []int
	var lastErr error
	for _, i := range pending {
		k := routed[i]
		lk := locKey{k.partition, k.bucket}
		if br := parts[lk]; br != nil {
			br.idx = append(br.idx, i)
			continue
		}
		if err, ok := failedLoc[lk]; ok {
			if errors.Is(err, ErrPartitionNotExists) {
				opts.missingPartition(i)
			} else {
				retry = append(retry, i)
			}
			continue
		}
		bt, err := t.locate(ctx, k.partition, k.bucket)
		if err != nil {
			if errors.Is(err, ErrPartitionNotExists) && opts.missingPartition != nil {
				failedLoc[lk] = err
				opts.missingPartition(i)
				continue
			}
			if !retryable(err) {
				return nil, err
			}
			failedLoc[lk] = err
			lastErr = err
			retry = append(retry, i)
			continue
		}
		br := &kvBucketReq{partition: k.partition, partitionID: bt.partitionID, bucket: k.bucket, idx: []int{i}}
		parts[lk] = br
		g := groups[bt.leader.ID]
		if g == nil {
			g = &leaderGroup{node: bt.leader, tableID: bt.tableID}
			groups[bt.leader.ID] = g
		}
		g.buckets = append(g.buckets, br)
	}

	type request struct {
		node    ServerNode
		tableID int64
		reqs    []*kvBucketReq
	}
	var requests []request
	for _, g := range groups {
		var cur []*kvBucketReq
		n := 0
		for _, br := range g.buckets {
			for start := 0; start < len(br.idx); {
				take := min(len(br.idx)-start, opts.maxKeysPerRequest-n)
				part := *br
				part.idx = br.idx[start : start+take]
				cur = append(cur, &part)
				n += take
				start += take
				if n == opts.maxKeysPerRequest {
					requests = append(requests, request{g.node, g.tableID, cur})
					cur, n = nil, 0
				}
			}
		}
		if len(cur) > 0 {
			requests = append(requests, request{g.node, g.tableID, cur})
		}
	}

	var (
		mu       sync.Mutex
		wg       sync.WaitGroup
		fatal    error
		inFlight = make(chan struct{}, max(1, opts.maxInFlight))
	)
	for _, r := range requests {
		select {
		case inFlight <- struct{}{}:
		case <-ctx.Done():
			wg.Wait()
			return nil, ctx.Err()
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-inFlight }()
			failed, err := send(ctx, r.node, r.tableID, r.reqs)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				failed = failed[:0]
				for _, br := range r.reqs {
					failed = append(failed, kvBucketFailure{br, err})
				}
			}
			for _, f := range failed {
				err := f.err
				if !retryable(err) {
					if fatal == nil {
						fatal = fmt.Errorf("bucket %d of %s: %w", f.req.bucket, physicalName(t.path, f.req.partition), err)
					}
					continue
				}
				lastErr = err
				retry = append(retry, f.req.idx...)
			}
		}()
	}
	wg.Wait()
	if fatal != nil {
		return nil, fatal
	}
	return retry, lastErr
}
