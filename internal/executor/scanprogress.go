package executor

import (
	"context"
	"sync/atomic"
)

// scanCounterKey is the context key of WithScanCounter.
type scanCounterKey struct{}

// WithScanCounter returns a context under which the log scans of queries add to n the
// number of rows they read from the cluster, before any filter, projection or LIMIT: with
// the rows a query returns, a progress display (the flussql shell's) shows how many rows a
// filtered scan has gone through. n may be read while the query runs.
func WithScanCounter(ctx context.Context, n *atomic.Int64) context.Context {
	return context.WithValue(ctx, scanCounterKey{}, n)
}

// countScanned adds rows to the context's scan counter, if it has one.
func countScanned(ctx context.Context, rows int) {
	if n, ok := ctx.Value(scanCounterKey{}).(*atomic.Int64); ok {
		n.Add(int64(rows))
	}
}
