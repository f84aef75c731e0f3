package rpc

import (
	"context"
	"sync"
)

// Pool keeps one connection per server address and reconnects lazily: Get
// returns the live connection, or dials a new one when there is none or the
// last one failed. It is safe for concurrent use; concurrent Gets for the
// same address share one dial.
type Pool struct {
	opts Options

	mu     sync.Mutex
	slots  map[string]*slot
	closed bool
}

// slot serialises dialing for one address. lock is a one-token channel so
// that waiting for it respects the caller's context.
type slot struct {
	lock chan struct{}
	conn *Conn
}

// NewPool returns an empty pool whose connections use opts.
func NewPool(opts Options) *Pool {
	return &Pool{opts: opts, slots: make(map[string]*slot)}
}

// Get returns a usable connection to addr, dialing if needed.
func (p *Pool) Get(ctx context.Context, addr string) (*Conn, error) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, ErrClosed
	}
	s := p.slots[addr]
	if s == nil {
		s = &slot{lock: make(chan struct{}, 1)}
		p.slots[addr] = s
	}
	p.mu.Unlock()

	select {
	case s.lock <- struct{}{}:
	case <-ctx.Done():
		return nil, &ConnError{Addr: addr, Op: "dial", Err: ctx.Err()}
	}
	defer func() { <-s.lock }()

	p.mu.Lock()
	old := s.conn
	p.mu.Unlock()
	if old != nil && old.Err() == nil {
		return old, nil
	}
	if old != nil {
		_ = old.Close() // reap the reader of the failed connection
	}
	c, err := Dial(ctx, addr, p.opts)
	p.mu.Lock()
	closed := p.closed
	switch {
	case err != nil:
		s.conn = nil
	case !closed:
		s.conn = c
	}
	p.mu.Unlock()
	if err != nil {
		return nil, err
	}
	if closed {
		_ = c.Close()
		return nil, ErrClosed
	}
	return c, nil
}

// Close closes every connection; calls in flight fail with ErrClosed and
// later Gets return ErrClosed.
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
	for _, c := range conns {
		_ = c.Close()
	}
	return nil
}
