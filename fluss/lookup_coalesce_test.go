package fluss

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/flussql/flussql/fluss/flusserr"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// coalesceFake is a coalescer on the failover fake (3 buckets, bucket b led
// by tablet b+1) whose requests go to a test function: it records each
// request's keys per node, holds requests while gate is closed, and answers
// each key with the row [key byte] unless fail says otherwise.
type coalesceFake struct {
	co   *lookupCoalescer
	gate chan struct{}
	// fail, when set, decides a request's fate: a non-nil whole error, or
	// failed buckets.
	fail func(node ServerNode, reqs []*kvBucketReq) (map[int32]error, error)

	mu   sync.Mutex
	sent map[int32][][]byte // node → keys of each request, in order
	// tableID is the fake table's id (pipelines are per leader and table).
	tableID int64
	reqs    map[int32][]int // node → number of keys of each request
}

func newCoalesceFake(t *testing.T, depth int) *coalesceFake {
	_, pk, _ := fanoutFixture(t, 5*time.Second)
	f := &coalesceFake{gate: make(chan struct{}), sent: map[int32][][]byte{}, reqs: map[int32][]int{}}
	close(f.gate)
	f.co = newLookupCoalescer(pk, f.send)
	f.tableID = pk.info.TableID
	f.co.maxDepth = depth
	return f
}

func (f *coalesceFake) send(ctx context.Context, node ServerNode, tableID int64, reqs []*kvBucketReq, routed []routedKey, out [][]any) ([]kvBucketFailure, error) {
	f.mu.Lock()
	gate := f.gate
	f.mu.Unlock()
	<-gate
	n := 0
	f.mu.Lock()
	for _, br := range reqs {
		for _, i := range br.idx {
			f.sent[node.ID] = append(f.sent[node.ID], routed[i].key)
			n++
		}
	}
	f.reqs[node.ID] = append(f.reqs[node.ID], n)
	f.mu.Unlock()
	var bucketErrs map[int32]error
	if f.fail != nil {
		var err error
		if bucketErrs, err = f.fail(node, reqs); err != nil {
			return nil, err
		}
	}
	var failed []kvBucketFailure
	for _, br := range reqs {
		if err := bucketErrs[br.bucket]; err != nil {
			failed = append(failed, kvBucketFailure{br, err})
			continue
		}
		for _, i := range br.idx {
			out[i] = []any{routed[i].key[0]}
		}
	}
	return failed, nil
}

// hold closes the gate: requests wait until the returned func opens it.
func (f *coalesceFake) hold() func() {
	g := make(chan struct{})
	f.mu.Lock()
	f.gate = g
	f.mu.Unlock()
	return func() { close(g) }
}

// queued is the number of calls waiting for node's pipeline.
func (f *coalesceFake) queued(node int32) int {
	f.co.mu.Lock()
	defer f.co.mu.Unlock()
	for k, p := range f.co.pipes {
		if k.leader == node {
			return len(p.queue)
		}
	}
	return 0
}

// waitQueued waits until node's pipeline has n calls queued.
func (f *coalesceFake) waitQueued(t *testing.T, node int32, n int) {
	t.Helper()
	require.Eventually(t, func() bool { return f.queued(node) == n }, 10*time.Second, time.Millisecond,
		"waiting for %d queued lookups on node %d", n, node)
}

type callResult struct {
	row   []any
	retry bool
	err   error
}

// lookupAll runs one lookup per key concurrently and returns their results in key order.
func lookupAll(ctxs []context.Context, co *lookupCoalescer, keys []routedKey) []callResult {
	out := make([]callResult, len(keys))
	var wg sync.WaitGroup
	for i, k := range keys {
		wg.Go(func() {
			row, retry, err := co.lookup(ctxs[i], k)
			out[i] = callResult{row, retry, err}
		})
	}
	wg.Wait()
	return out
}

func key(b byte, bucket int32) routedKey { return routedKey{key: []byte{b}, bucket: bucket} }

func bg(n int) []context.Context {
	out := make([]context.Context, n)
	for i := range out {
		out[i] = context.Background()
	}
	return out
}

// Many callers of one bucket while a request is in flight: what queued goes
// in requests of at most maxKeys keys, every caller gets its own row.
func TestCoalescerMergesQueuedLookups(t *testing.T) {
	f := newCoalesceFake(t, 1)
	release := f.hold()
	first := make(chan callResult, 1)
	go func() {
		row, retry, err := f.co.lookup(context.Background(), key(200, 0))
		first <- callResult{row, retry, err}
	}()
	require.Eventually(t, func() bool {
		f.co.mu.Lock()
		defer f.co.mu.Unlock()
		p := f.co.pipes[pipeKey{1, f.tableID}]
		return p != nil && p.inFlight == 1
	}, 10*time.Second, time.Millisecond)

	const n = 150 // more than one request's worth
	keys := make([]routedKey, n)
	for i := range keys {
		keys[i] = key(byte(i), 0)
	}
	var res []callResult
	done := make(chan struct{})
	go func() { res = lookupAll(bg(n), f.co, keys); close(done) }()
	f.waitQueued(t, 1, n)
	release()
	<-done

	assert.Equal(t, callResult{row: []any{byte(200)}}, <-first)
	for i, r := range res {
		require.NoError(t, r.err, "key %d", i)
		assert.Equal(t, []any{byte(i)}, r.row, "key %d gets its own row", i)
	}
	assert.Equal(t, []int{1, DefaultLookupCoalesceKeys, n - DefaultLookupCoalesceKeys}, f.reqs[1],
		"one request in flight, then the queued keys in requests of at most %d", DefaultLookupCoalesceKeys)
}

// Keys of three buckets on three leaders: each leader gets only its keys,
// and every caller its row — with -race, this also checks the pipelines.
func TestCoalescerMixedBucketsManyCallers(t *testing.T) {
	for _, depth := range []int{1, 2, 4} {
		t.Run(fmt.Sprintf("depth=%d", depth), func(t *testing.T) {
			f := newCoalesceFake(t, depth)
			const n = 600
			keys := make([]routedKey, n)
			for i := range keys {
				keys[i] = key(byte(i%251), int32(i%3))
			}
			res := lookupAll(bg(n), f.co, keys)
			for i, r := range res {
				require.NoError(t, r.err, "key %d", i)
				require.False(t, r.retry)
				require.Equal(t, []any{keys[i].key[0]}, r.row, "key %d", i)
			}
			total := 0
			for node, sent := range f.sent {
				total += len(sent)
				for _, n := range f.reqs[node] {
					assert.LessOrEqual(t, n, DefaultLookupCoalesceKeys)
				}
			}
			assert.Equal(t, n, total, "each key sent once")
			// A request's callers are answered before its pipeline counts it done: wait for
			// every pipeline to go idle (nothing queued, nothing in flight).
			idle := func() bool {
				f.co.mu.Lock()
				defer f.co.mu.Unlock()
				for _, p := range f.co.pipes {
					if p.inFlight != 0 || len(p.queue) != 0 {
						return false
					}
				}
				return true
			}
			assert.Eventually(t, idle, 10*time.Second, time.Millisecond, "every pipeline idle at the end")
		})
	}
}

// A caller whose context ends while queued returns its context's error at
// once; its key is not sent, and the others are answered.
func TestCoalescerCancelledCallerLeavesOthers(t *testing.T) {
	f := newCoalesceFake(t, 1)
	release := f.hold()
	go f.co.lookup(context.Background(), key(100, 0)) // occupies the pipeline
	require.Eventually(t, func() bool {
		f.co.mu.Lock()
		defer f.co.mu.Unlock()
		p := f.co.pipes[pipeKey{1, f.tableID}]
		return p != nil && p.inFlight == 1
	}, 10*time.Second, time.Millisecond)

	ctxs := bg(3)
	cctx, cancel := context.WithCancel(context.Background())
	ctxs[1] = cctx
	keys := []routedKey{key(1, 0), key(2, 0), key(3, 0)}
	var res []callResult
	done := make(chan struct{})
	go func() { res = lookupAll(ctxs, f.co, keys); close(done) }()
	f.waitQueued(t, 1, 3)
	cancel()
	release()
	<-done

	assert.ErrorIs(t, res[1].err, context.Canceled)
	assert.Equal(t, []any{byte(1)}, res[0].row)
	assert.Equal(t, []any{byte(3)}, res[2].row)
	assert.NotContains(t, f.sent[1], []byte{2}, "the cancelled caller's key is not sent")
}

// A server error for one batch or one bucket reaches only the callers in it;
// a retriable one hands the keys back to be retried alone.
func TestCoalescerErrorsReachOnlyTheirCallers(t *testing.T) {
	fatal := &Error{Code: flusserr.InvalidTableException, Message: "boom"}
	tests := []struct {
		name string
		fail func(node ServerNode, reqs []*kvBucketReq) (map[int32]error, error)
		// want: per bucket, "row", "error" or "retry"
		want map[int32]string
	}{
		{"whole request to node 2 fails", func(node ServerNode, _ []*kvBucketReq) (map[int32]error, error) {
			if node.ID == 2 {
				return nil, fatal
			}
			return nil, nil
		}, map[int32]string{0: "row", 1: "error", 2: "row"}},
		{"bucket 2 fails", func(ServerNode, []*kvBucketReq) (map[int32]error, error) {
			return map[int32]error{2: fatal}, nil
		}, map[int32]string{0: "row", 1: "row", 2: "error"}},
		{"bucket 0 has a new leader", func(ServerNode, []*kvBucketReq) (map[int32]error, error) {
			return map[int32]error{0: &Error{Code: flusserr.NotLeaderOrFollower}}, nil
		}, map[int32]string{0: "retry", 1: "row", 2: "row"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newCoalesceFake(t, 2)
			f.fail = tt.fail
			var keys []routedKey
			for i := range 90 {
				keys = append(keys, key(byte(i), int32(i%3)))
			}
			res := lookupAll(bg(len(keys)), f.co, keys)
			for i, r := range res {
				switch tt.want[keys[i].bucket] {
				case "row":
					require.NoError(t, r.err, "key %d", i)
					require.Equal(t, []any{keys[i].key[0]}, r.row)
				case "error":
					require.True(t, errors.Is(r.err, fatal), "key %d: %v", i, r.err)
					assert.Contains(t, r.err.Error(), fmt.Sprintf("bucket %d of db.failover", keys[i].bucket))
					assert.Nil(t, r.row)
				case "retry":
					require.NoError(t, r.err)
					assert.True(t, r.retry, "key %d is retried alone", i)
				}
			}
		})
	}
}

// A leader that never answers: a Lookup returns by its context's deadline, or without one
// after the client's request timeout, with an error that names the bucket and matches
// context.DeadlineExceeded.
func TestLookupCoalescedFrozenLeader(t *testing.T) {
	_, pk, _ := fanoutFixture(t, 300*time.Millisecond)
	frozen := make(chan struct{})
	t.Cleanup(func() { close(frozen) })
	l := &Lookuper{t: pk}
	l.co = newLookupCoalescer(pk, func(ctx context.Context, _ ServerNode, _ int64, _ []*kvBucketReq, _ []routedKey, _ [][]any) ([]kvBucketFailure, error) {
		<-frozen
		return nil, nil
	})

	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err := l.lookupRouted(ctx, key(1, 1))
	require.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Contains(t, err.Error(), "looking up a key in bucket 1 of db.failover")

	_, err = l.lookupRouted(context.Background(), key(2, 2))
	require.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Contains(t, err.Error(), "bucket 2 of db.failover: gave up after 300ms (the request timeout)")
}
