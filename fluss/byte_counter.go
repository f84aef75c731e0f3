package fluss

import (
	"context"
	"sync/atomic"
)

// byteCounterKey is the context key of WithByteCounter.
type byteCounterKey struct{}

// WithByteCounter returns a context under which the client adds to n the bytes it
// exchanges with the cluster on behalf of the calls made with that context: the protobuf
// bodies of their requests and answers (metadata, admin calls, fetches of scans, lookups,
// KV scans), a coalesced lookup's request shared evenly by the lookups in it, and for
// writes waited for with Receipt.Wait the receipt's share of the batches sent (every
// attempt counted). Frame headers are not counted. n may be read while the calls run.
func WithByteCounter(ctx context.Context, n *atomic.Int64) context.Context {
	return context.WithValue(ctx, byteCounterKey{}, n)
}

// byteCounter returns the context's counter, or nil.
func byteCounter(ctx context.Context) *atomic.Int64 {
	n, _ := ctx.Value(byteCounterKey{}).(*atomic.Int64)
	return n
}

// countBytes adds n bytes to the context's counter, if it has one.
func countBytes(ctx context.Context, n int64) {
	if c := byteCounter(ctx); c != nil && n > 0 {
		c.Add(n)
	}
}
