package fluss

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
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
// buckets that failed with a retriable error (a moved or missing leader, an
// unreachable server, a timeout) after refreshing metadata, until ctx ends
// (see kvRetry).
func (t *pkTable) fanout(ctx context.Context, routed []routedKey, opts fanoutOptions, send kvSendFunc) error {
	pending := make([]int, len(routed))
	for i := range pending {
		pending[i] = i
	}
	r := t.c.newKVRetry(ctx, fmt.Sprintf("looking up %d keys in %s", len(routed), t.path))
	for len(pending) > 0 {
		retry, err := t.fanoutOnce(ctx, routed, pending, opts, send)
		if err != nil && !retryable(err) {
			if ctx.Err() != nil {
				return r.stop(ctx.Err(), err)
			}
			return err
		}
		if len(retry) == 0 {
			return nil
		}
		t.c.invalidateTable(t.path)
		if werr := r.failed(ctx, err); werr != nil {
			return werr
		}
		pending = retry
	}
	return nil
}

// kvRetry paces the attempts of one KV call (lookup, prefix lookup, limit
// scan) that keeps failing with retriable errors: after each failure it
// waits (fetchBackoff: 50 ms doubling up to 1 s, jittered) and lets the
// caller try again, until ctx ends — or, when ctx has no deadline, until
// the client's request timeout has passed since the first attempt. The
// error it then returns names the call, the attempts, how long they took
// and the last error, and matches both ctx's error and the last error.
type kvRetry struct {
	what     string
	start    time.Time
	giveUp   time.Time // zero: ctx's deadline bounds the attempts
	attempts int
	c        *Client
}

func (c *Client) newKVRetry(ctx context.Context, what string) *kvRetry {
	r := &kvRetry{what: what, start: time.Now(), c: c}
	if _, ok := ctx.Deadline(); !ok && c.cfg.RequestTimeout > 0 {
		r.giveUp = r.start.Add(c.cfg.RequestTimeout)
	}
	return r
}

// failed records a failed attempt (err is retriable) and waits before the
// next one. It returns non-nil when there is no next one.
func (r *kvRetry) failed(ctx context.Context, err error) error {
	r.attempts++
	r.c.observeRetry("kv", TablePath{}, r.attempts, err)
	d := fetchBackoff(r.attempts)
	if !r.giveUp.IsZero() && time.Now().Add(d).After(r.giveUp) {
		return &retryError{
			msg:  fmt.Sprintf("fluss: %s: gave up after %d attempts over %s (the request timeout); last error: %v", r.what, r.attempts, r.elapsed(), err),
			errs: []error{err},
		}
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		r.attempts-- // stop counts it again
		return r.stop(ctx.Err(), err)
	}
}

// stop returns the error for a call whose context ended (cause) after the
// attempt that failed with last.
func (r *kvRetry) stop(cause, last error) error {
	r.attempts++
	if last == nil || last == cause {
		return &retryError{
			msg:  fmt.Sprintf("fluss: %s: %v after %d attempts over %s", r.what, cause, r.attempts, r.elapsed()),
			errs: []error{cause},
		}
	}
	return &retryError{
		msg:  fmt.Sprintf("fluss: %s: %v after %d attempts over %s; last error: %v", r.what, cause, r.attempts, r.elapsed(), last),
		errs: []error{cause, last},
	}
}

func (r *kvRetry) elapsed() time.Duration { return time.Since(r.start).Round(time.Millisecond) }

// retryError is the error of a call given up on: its message says why and
// it matches each of errs.
type retryError struct {
	msg  string
	errs []error
}

func (e *retryError) Error() string   { return e.msg }
func (e *retryError) Unwrap() []error { return e.errs }

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
			lastErr = fmt.Errorf("bucket %d of %s: %w", k.bucket, physicalName(t.path, k.partition), err)
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
				lastErr = fmt.Errorf("bucket %d of %s: %w", f.req.bucket, physicalName(t.path, f.req.partition), err)
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
