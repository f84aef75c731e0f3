package rpc

import (
	"context"
	"errors"
	"sync"
	"time"
)

// connectGrace is how long a Get whose context ended by the connect timeout
// (cause ErrConnectTimeout) still waits for the dial's own verdict, which
// ends at about the same moment and says more (refused, not answered, ...).
const connectGrace = 250 * time.Millisecond

// Pool keeps one connection per server address (and per lane, see GetLane)
// and reconnects lazily: Get returns the live connection, or dials a new one
// when there is none or the last one failed. It is safe for concurrent use.
//
// Concurrent Gets for the same address share one dial: it runs on its own,
// bounded by Options.DialTimeout (and Close), and each caller waits for its
// outcome only as long as its own context allows. A failed dial fails every
// caller that waited for it at once; no caller dials again in turn behind
// another's failure. A caller whose context ends does not abort the dial
// the others wait for; the connection it yields is kept for later Gets.
type Pool struct {
	opts Options

	ctx    context.Context // ends at Close; aborts dials in flight
	cancel context.CancelFunc

	mu     sync.Mutex
	slots  map[slotKey]*slot
	closed bool
}

// slotKey names a connection: its address and lane.
type slotKey struct {
	addr string
	lane int
}

type slot struct {
	conn     *Conn     // the last connection, nil if none
	dial     *dialCall // the dial in flight, nil if none
	failedAt time.Time // when the last dial failed; zero after a success
}

// dialCall is one dial that every concurrent Get for an address waits for.
type dialCall struct {
	done chan struct{} // closed when conn or err is set
	conn *Conn
	err  error
}

// NewPool returns an empty pool whose connections use opts.
func NewPool(opts Options) *Pool {
	ctx, cancel := context.WithCancel(context.Background())
	return &Pool{opts: opts, ctx: ctx, cancel: cancel, slots: make(map[slotKey]*slot)}
}

// Get returns a usable connection to addr, dialing if needed. Its errors
// are those of Dial, ErrClosed, or a *TimeoutError (API zero) when ctx
// ended while the dial was under way; the caller's request was not sent.
func (p *Pool) Get(ctx context.Context, addr string) (*Conn, error) {
	return p.GetLane(ctx, addr, 0)
}

// GetLane is Get for one of several connections to addr: lane 0 is Get's
// connection, and each other lane has a connection of its own, dialed and
// failing on its own. A server runs the requests of one connection one after
// another (a Fluss server hands each connection to one request processor),
// so requests meant to run in parallel on one server go over different lanes.
func (p *Pool) GetLane(ctx context.Context, addr string, lane int) (*Conn, error) {
	start := time.Now()
	if err := ctx.Err(); err != nil {
		return nil, &TimeoutError{Addr: addr, Err: err, Cause: context.Cause(ctx)}
	}
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, ErrClosed
	}
	key := slotKey{addr, lane}
	s := p.slots[key]
	if s == nil {
		s = &slot{}
		p.slots[key] = s
	}
	if s.conn != nil && s.conn.Err() == nil {
		c := s.conn
		p.mu.Unlock()
		return c, nil
	}
	d := s.dial
	if d == nil {
		d = &dialCall{done: make(chan struct{})}
		s.dial = d
		old := s.conn
		s.conn = nil
		// Dial without ctx's cancellation, so that a caller giving up does
		// not fail the others; its values are kept.
		go p.dial(context.WithoutCancel(ctx), addr, s, d, old)
	}
	p.mu.Unlock()

	select {
	case <-d.done:
		return d.conn, d.err
	case <-ctx.Done():
	}
	if errors.Is(context.Cause(ctx), ErrConnectTimeout) {
		select {
		case <-d.done:
			return d.conn, d.err
		case <-time.After(connectGrace):
		}
	}
	return nil, &TimeoutError{Addr: addr, Err: ctx.Err(), Cause: context.Cause(ctx), Elapsed: time.Since(start)}
}

// dial runs one dial for s and hands its outcome to every waiting Get.
func (p *Pool) dial(ctx context.Context, addr string, s *slot, d *dialCall, old *Conn) {
	if old != nil {
		_ = old.Close() // reap the reader of the failed connection
	}
	ctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(p.ctx, cancel)
	start := time.Now()
	c, err := Dial(ctx, addr, p.opts)
	stop()
	cancel()
	if p.opts.OnDial != nil {
		p.opts.OnDial(addr, time.Since(start), err)
	}

	p.mu.Lock()
	s.dial = nil
	if p.closed {
		if c != nil {
			defer c.Close()
		}
		c, err = nil, ErrClosed
	} else if err == nil {
		s.conn = c
		s.failedAt = time.Time{}
	} else {
		s.failedAt = time.Now()
	}
	d.conn, d.err = c, err
	close(d.done)
	p.mu.Unlock()
}

// FailedWithin reports whether the last dial of Get's connection to addr (lane 0) failed less than d
// ago (and none succeeded since), so callers with a choice of servers can
// ask the others first.
func (p *Pool) FailedWithin(addr string, d time.Duration) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.slots[slotKey{addr, 0}]
	return s != nil && !s.failedAt.IsZero() && time.Since(s.failedAt) < d
}

// Close closes every connection and aborts dials in flight; calls in
// flight fail with ErrClosed and later Gets return ErrClosed.
func (p *Pool) Close() error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil
	}
	p.closed = true
	var conns []*Conn
	for _, s := range p.slots {
		if s.conn != nil {
			conns = append(conns, s.conn)
		}
	}
	p.mu.Unlock()
	p.cancel()
	for _, c := range conns {
		_ = c.Close()
	}
	return nil
}
