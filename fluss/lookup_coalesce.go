package fluss

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// Coalescing of concurrent single-key lookups.
const (
	// DefaultLookupCoalesceKeys is the most keys of concurrent Lookup calls
	// merged into one request to a bucket leader (the Java client's default
	// lookup batch size is 128).
	DefaultLookupCoalesceKeys = 128
	// DefaultLookupPipelineDepth is the most coalesced requests in flight
	// to one leader; a Lookup that finds fewer in flight is sent at once.
	DefaultLookupPipelineDepth = 2
)

// lookupCoalescer merges concurrent single-key lookups that go to the same
// leader into one request, without waiting for a batch to fill: a key is
// sent at once while the leader's pipeline has room, and the keys that
// arrive while it is full go together in the next request. Every caller
// gets its own row or error; a caller whose context ends returns at once
// and leaves the others be. A key whose bucket failed with a retriable
// error (a moved leader, an unreachable server) is handed back to its
// caller, which retries it alone with the full retry rules (fanout).
type lookupCoalescer struct {
	t *pkTable
	// send sends one request (Lookuper.send; tests replace it).
	send     func(ctx context.Context, node ServerNode, tableID int64, reqs []*kvBucketReq, routed []routedKey, out [][]any) ([]kvBucketFailure, error)
	maxKeys  int
	maxDepth int

	mu    sync.Mutex
	pipes map[pipeKey]*leaderPipe
}

// pipeKey identifies a leader pipeline: the leader and the table id (a table
// dropped and created again under the same name has a new id).
type pipeKey struct {
	leader  int32
	tableID int64
}

// leaderPipe is the queue of lookups waiting for one leader.
type leaderPipe struct {
	tableID  int64
	queue    []*lookupCall
	inFlight int
}

// lookupCall is one waiting single-key lookup.
type lookupCall struct {
	ctx  context.Context
	key  routedKey
	bt   bucketTarget
	done chan lookupResult // buffered: the sender never blocks
}

// lookupResult answers a lookupCall; retry asks the caller to retry alone.
type lookupResult struct {
	row   []any
	err   error
	retry bool
}

func newLookupCoalescer(t *pkTable, send func(context.Context, ServerNode, int64, []*kvBucketReq, []routedKey, [][]any) ([]kvBucketFailure, error)) *lookupCoalescer {
	return &lookupCoalescer{t: t, send: send, maxKeys: DefaultLookupCoalesceKeys, maxDepth: DefaultLookupPipelineDepth, pipes: map[pipeKey]*leaderPipe{}}
}

// lookup looks one routed key up. retry is true when the key must be looked
// up alone (its leader is unknown, or its bucket failed with a retriable
// error); row and err are then unset.
func (co *lookupCoalescer) lookup(ctx context.Context, key routedKey) (row []any, retry bool, err error) {
	bt, err := co.t.locate(ctx, key.partition, key.bucket)
	if err != nil {
		return nil, true, nil // fanout handles missing partitions, absent leaders and retries
	}
	call := &lookupCall{ctx: ctx, key: key, bt: bt, done: make(chan lookupResult, 1)}
	if p, batch := co.enqueue(call); batch != nil {
		go co.run(p, batch)
	}
	select {
	case r := <-call.done:
		return r.row, r.retry, r.err
	case <-ctx.Done():
		return nil, false, ctx.Err()
	}
}

// enqueue queues call on its leader's pipeline. When the pipeline has room,
// it returns the batch the caller must start sending (call included).
func (co *lookupCoalescer) enqueue(call *lookupCall) (*leaderPipe, []*lookupCall) {
	k := pipeKey{call.bt.leader.ID, call.bt.tableID}
	co.mu.Lock()
	defer co.mu.Unlock()
	p := co.pipes[k]
	if p == nil {
		p = &leaderPipe{tableID: call.bt.tableID}
		co.pipes[k] = p
	}
	p.queue = append(p.queue, call)
	if p.inFlight >= co.maxDepth {
		return p, nil
	}
	p.inFlight++
	return p, co.takeLocked(p)
}

// takeLocked removes up to maxKeys calls from the pipeline's queue; co.mu is held.
func (co *lookupCoalescer) takeLocked(p *leaderPipe) []*lookupCall {
	n := min(len(p.queue), co.maxKeys)
	batch := make([]*lookupCall, n)
	copy(batch, p.queue)
	rest := copy(p.queue, p.queue[n:])
	clear(p.queue[rest:])
	p.queue = p.queue[:rest]
	return batch
}

// run sends batch, then the calls that queued meanwhile, until the queue is empty.
func (co *lookupCoalescer) run(p *leaderPipe, batch []*lookupCall) {
	for {
		co.sendBatch(p, batch)
		co.mu.Lock()
		if len(p.queue) == 0 {
			p.inFlight--
			co.mu.Unlock()
			return
		}
		batch = co.takeLocked(p)
		co.mu.Unlock()
	}
}

// sendBatch sends one request with the keys of the calls still waiting and
// answers each of them.
func (co *lookupCoalescer) sendBatch(p *leaderPipe, batch []*lookupCall) {
	live := batch[:0]
	for _, c := range batch {
		if c.ctx.Err() == nil { // a caller that left needs no answer
			live = append(live, c)
		}
	}
	if len(live) == 0 {
		return
	}
	ctx, cancel := co.requestContext(live)
	defer cancel()
	// The request's bytes are shared by its callers, not charged to the first one.
	var exchanged atomic.Int64
	ctx = WithByteCounter(ctx, &exchanged)
	defer func() {
		share := exchanged.Load() / int64(len(live))
		for _, c := range live {
			countBytes(c.ctx, share)
		}
	}()
	routed := make([]routedKey, len(live))
	out := make([][]any, len(live))
	var reqs []*kvBucketReq
	parts := make(map[locKey]*kvBucketReq, 4)
	for i, c := range live {
		routed[i] = c.key
		lk := locKey{c.key.partition, c.key.bucket}
		br := parts[lk]
		if br == nil {
			br = &kvBucketReq{partition: c.key.partition, partitionID: c.bt.partitionID, bucket: c.key.bucket}
			parts[lk] = br
			reqs = append(reqs, br)
		}
		br.idx = append(br.idx, i)
	}
	node := live[len(live)-1].bt.leader // the latest address known for the leader
	failed, err := co.send(ctx, node, p.tableID, reqs, routed, out)
	if err != nil {
		failed = failed[:0]
		for _, br := range reqs {
			failed = append(failed, kvBucketFailure{br, err})
		}
	}
	res := make([]lookupResult, len(live))
	invalidate := false
	for _, f := range failed {
		r := lookupResult{retry: true}
		if retryable(f.err) {
			invalidate = true
		} else {
			r = lookupResult{err: fmt.Errorf("bucket %d of %s: %w", f.req.bucket, physicalName(co.t.path, f.req.partition), f.err)}
		}
		for _, i := range f.req.idx {
			res[i] = r
		}
	}
	if invalidate {
		co.t.c.invalidateTable(co.t.path) // the callers locate their buckets again
	}
	for i, c := range live {
		if !res[i].retry && res[i].err == nil {
			res[i].row = out[i]
		}
		c.done <- res[i]
	}
}

// requestContext is the context of a coalesced request: no caller's
// cancellation ends it; it lasts until the latest deadline of the callers,
// or the client's request timeout when one of them has none.
func (co *lookupCoalescer) requestContext(calls []*lookupCall) (context.Context, context.CancelFunc) {
	var latest time.Time
	for _, c := range calls {
		d, ok := c.ctx.Deadline()
		if !ok {
			latest = time.Time{}
			break
		}
		if d.After(latest) {
			latest = d
		}
	}
	base := context.WithoutCancel(calls[0].ctx)
	if !latest.IsZero() {
		return context.WithDeadline(base, latest)
	}
	if rt := co.t.c.cfg.RequestTimeout; rt > 0 {
		return context.WithTimeout(base, rt)
	}
	return context.WithCancel(base)
}
