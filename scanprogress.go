package flussql

import (
	"context"
	"sync/atomic"

	"github.com/flussql/flussql/internal/executor"
)

// WithScanCounter returns a context under which the log scans of queries add to n the
// number of rows they read from the cluster, before any filter, projection or LIMIT: with
// the rows a query returns, a progress display (the flussql shell's) shows how many rows a
// filtered scan has gone through. n may be read while the query runs.
func WithScanCounter(ctx context.Context, n *atomic.Int64) context.Context {
	return executor.WithScanCounter(ctx, n)
}
