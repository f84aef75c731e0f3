package fluss

import (
	"time"

	"github.com/flussql/flussql/fluss/internal/rpc"
)

// Observer receives measurements of what a Client does, for metrics (the
// module github.com/flussql/flussql/flussotel turns them into OpenTelemetry
// metrics). Set one on Config.Observer. Its methods are called on the
// client's own goroutines, some while a writer holds its lock: they must
// be fast, must not block and must not call back into the client. Embed
// NopObserver to implement only some of them.
type Observer interface {
	// RequestDone is called after every request to a server, with its cost
	// and outcome.
	RequestDone(RequestEvent)
	// Retried is called each time the client retries work after a
	// retriable failure (a write batch, a fetch, a metadata request, a
	// key-value call).
	Retried(RetryEvent)
	// WriteBatchesInFlight is called with +1 when a write batch is handed
	// to its bucket's sender and -1 when that bucket is free again
	// (acknowledged, failed, withdrawn or given up).
	WriteBatchesInFlight(delta int)
}

// RequestEvent describes one request, for Observer.RequestDone.
type RequestEvent struct {
	// Server is the address ("host:port") the request went to.
	Server string
	// API is the Fluss name of the request, e.g. "PRODUCE_LOG".
	API string
	// BytesSent is the size of the request frame written (0 if it never
	// left); BytesReceived the size of the answer read (0 without one).
	BytesSent, BytesReceived int
	// Duration is the time from the call to its outcome.
	Duration time.Duration
	// Err is the request's error, nil when the server answered with success.
	Err error
}

// RetryEvent describes one retry, for Observer.Retried.
type RetryEvent struct {
	// Op is what is retried: "write", "fetch", "metadata" or "kv".
	Op string
	// Table is the table's path, "" when the retry concerns no one table.
	Table string
	// Attempt is the number of attempts that have failed so far.
	Attempt int
	// Err is the failure that caused the retry.
	Err error
}

// NopObserver implements Observer and ignores everything; embed it in an
// Observer that needs only some of the methods.
type NopObserver struct{}

// RequestDone does nothing.
func (NopObserver) RequestDone(RequestEvent) {}

// Retried does nothing.
func (NopObserver) Retried(RetryEvent) {}

// WriteBatchesInFlight does nothing.
func (NopObserver) WriteBatchesInFlight(int) {}

// observeRequest is the rpc pool's hook when an Observer is set.
func (c *Client) observeRequest(st rpc.RequestStats) {
	c.cfg.Observer.RequestDone(RequestEvent{
		Server: st.Addr, API: requestAPIName(st), BytesSent: st.Sent, BytesReceived: st.Received,
		Duration: st.Took, Err: convertErr(st.Err),
	})
}

// requestAPIName is the request's Fluss API name without its number.
func requestAPIName(st rpc.RequestStats) string {
	s := st.API.String()
	for i := 0; i < len(s); i++ {
		if s[i] == '(' {
			return s[:i]
		}
	}
	return s
}

// observeRetry tells the Observer, if any, about a retry.
func (c *Client) observeRetry(op string, table TablePath, attempt int, err error) {
	if c.cfg.Observer == nil {
		return
	}
	ev := RetryEvent{Op: op, Attempt: attempt, Err: err}
	if table.Table != "" {
		ev.Table = table.String()
	}
	c.cfg.Observer.Retried(ev)
}

// observeInFlight tells the Observer, if any, about a write batch handed to
// or released by a bucket's sender.
func (c *Client) observeInFlight(delta int) {
	if c.cfg.Observer != nil {
		c.cfg.Observer.WriteBatchesInFlight(delta)
	}
}
