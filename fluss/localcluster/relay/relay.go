// Package relay is a fault-injecting loopback TCP relay for the Fluss RPC protocol, for
// fault tests against a real cluster (see localcluster.Options.Relays).
//
// A Relay listens on 127.0.0.1 and forwards every accepted connection to one target. It reads
// the Fluss frames that pass (an int32 big-endian length, then the payload; a request payload
// starts with api key int16, api version int16 and request id int32; a response payload with
// a type byte and, for success and error responses, the request id int32), so it knows which
// API each response answers even when requests are pipelined, and can drop or delay
// responses, cut connections, swallow all traffic or refuse new connections.
package relay

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// MaxFrameSize is the largest frame the relay forwards; a connection that announces a larger
// one (or a negative length) is closed.
const MaxFrameSize = 512 << 20

// Relay forwards connections from its loopback address to a target, with faults on demand.
// Its methods are safe for concurrent use.
type Relay struct {
	target string
	ln     net.Listener

	delay     atomic.Int64 // nanoseconds each response is held back
	blackhole atomic.Bool
	refuse    atomic.Bool

	mu        sync.Mutex
	conns     map[*conn]struct{}
	drops     map[int16]int // responses still to drop, by api key
	stats     Stats
	closed    bool
	blackOff  chan struct{} // closed and replaced when Blackhole turns off
	closing   chan struct{}
	wg        sync.WaitGroup
	closeOnce sync.Once
}

// Stats are the relay's counters since Start.
type Stats struct {
	// Accepted counts the connections accepted (refused ones included).
	Accepted int64
	// Refused counts the connections closed at once by RefuseNew.
	Refused int64
	// Requests counts the requests forwarded to the target, by api key.
	Requests map[int16]int64
	// Responses counts the responses forwarded to the client, by api key (-1: a response to
	// no known request, such as a server failure frame).
	Responses map[int16]int64
	// Dropped counts the responses swallowed by DropNextResponse.
	Dropped int64
	// Discarded counts the frames (either way) swallowed by Blackhole.
	Discarded int64
	// Cut counts the connections closed by Cut.
	Cut int64
}

// Start listens on 127.0.0.1:0 and forwards each accepted connection to target (host:port),
// in both directions, until Close.
func Start(target string) (*Relay, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("relay: %w", err)
	}
	r := &Relay{
		target:   target,
		ln:       ln,
		conns:    map[*conn]struct{}{},
		drops:    map[int16]int{},
		stats:    Stats{Requests: map[int16]int64{}, Responses: map[int16]int64{}},
		blackOff: make(chan struct{}),
		closing:  make(chan struct{}),
	}
	r.wg.Add(1)
	go r.acceptLoop()
	return r, nil
}

// Addr returns the relay's address, 127.0.0.1:port.
func (r *Relay) Addr() string { return r.ln.Addr().String() }

// Target returns the address the relay forwards to.
func (r *Relay) Target() string { return r.target }

// Close stops accepting, closes every connection and waits for all of the relay's goroutines.
func (r *Relay) Close() error {
	var err error
	r.closeOnce.Do(func() {
		r.mu.Lock()
		r.closed = true
		close(r.closing)
		conns := r.snapshotLocked()
		r.mu.Unlock()
		err = r.ln.Close()
		for _, c := range conns {
			c.close()
		}
		r.wg.Wait()
	})
	return err
}

// DropNextResponse makes the relay swallow the next response to a request of the given api
// key (on any connection); each call drops one more. The connection stays open and the client
// never gets an answer, although the server processed the request.
func (r *Relay) DropNextResponse(api int16) {
	r.mu.Lock()
	r.drops[api]++
	r.mu.Unlock()
}

// DelayResponses holds back every response that arrives from now on for d before passing it
// to the client (responses keep their order); 0 turns the delay off.
func (r *Relay) DelayResponses(d time.Duration) { r.delay.Store(int64(max(d, 0))) }

// Cut closes every current connection, both to the client and to the target, at once. New
// connections are accepted as before.
func (r *Relay) Cut() {
	r.mu.Lock()
	conns := r.snapshotLocked()
	r.stats.Cut += int64(len(conns))
	r.mu.Unlock()
	for _, c := range conns {
		c.close()
	}
}

// Blackhole, while on, makes new and existing connections forward nothing either way: what
// arrives is read and discarded, so clients see silence, not a reset. Off forwards again
// (what was discarded stays lost).
func (r *Relay) Blackhole(on bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	was := r.blackhole.Swap(on)
	if was && !on {
		close(r.blackOff)
		r.blackOff = make(chan struct{})
	}
}

// RefuseNew, while on, makes the relay accept new connections and close them at once.
func (r *Relay) RefuseNew(on bool) { r.refuse.Store(on) }

// Stats returns a copy of the counters.
func (r *Relay) Stats() Stats {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := r.stats
	s.Requests = make(map[int16]int64, len(r.stats.Requests))
	for k, v := range r.stats.Requests {
		s.Requests[k] = v
	}
	s.Responses = make(map[int16]int64, len(r.stats.Responses))
	for k, v := range r.stats.Responses {
		s.Responses[k] = v
	}
	return s
}

// Conns returns the number of open connections.
func (r *Relay) Conns() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.conns)
}

func (r *Relay) snapshotLocked() []*conn {
	out := make([]*conn, 0, len(r.conns))
	for c := range r.conns {
		out = append(out, c)
	}
	return out
}

func (r *Relay) acceptLoop() {
	defer r.wg.Done()
	for {
		nc, err := r.ln.Accept()
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue
			}
			return // closed
		}
		r.mu.Lock()
		r.stats.Accepted++
		if r.refuse.Load() || r.closed {
			r.stats.Refused++
			r.mu.Unlock()
			nc.Close()
			continue
		}
		c := &conn{r: r, client: nc, inflight: map[int32]int16{}, done: make(chan struct{})}
		r.conns[c] = struct{}{}
		r.wg.Add(1)
		r.mu.Unlock()
		go c.run()
	}
}

// conn is one relayed connection.
type conn struct {
	r        *Relay
	client   net.Conn
	server   net.Conn // set once dialed; guarded by mu
	mu       sync.Mutex
	inflight map[int32]int16 // request id → api key of requests awaiting a response
	done     chan struct{}
	once     sync.Once
}

// close ends both sides of the connection; run's goroutines then finish.
func (c *conn) close() {
	c.once.Do(func() {
		close(c.done)
		c.client.Close()
		c.mu.Lock()
		if c.server != nil {
			c.server.Close()
		}
		c.mu.Unlock()
	})
}

func (c *conn) run() {
	defer c.r.wg.Done()
	defer func() {
		c.r.mu.Lock()
		delete(c.r.conns, c)
		c.r.mu.Unlock()
	}()
	defer c.close()
	server, err := net.DialTimeout("tcp", c.r.target, 5*time.Second)
	if err != nil {
		// A client of a blackholed relay sees silence even when the target is down.
		c.drainWhileBlackholed()
		return
	}
	c.mu.Lock()
	select {
	case <-c.done:
		c.mu.Unlock()
		server.Close()
		return
	default:
	}
	c.server = server
	c.mu.Unlock()

	queue := make(chan pending, 256)
	var wg sync.WaitGroup
	wg.Add(3)
	go func() { defer wg.Done(); defer c.close(); c.requests(server) }()
	go func() { defer wg.Done(); defer c.close(); defer close(queue); c.responses(server, queue) }()
	go func() { defer wg.Done(); defer c.close(); c.deliver(queue) }()
	wg.Wait()
}

// drainWhileBlackholed reads and discards what the client sends until the blackhole ends or
// the connection closes.
func (c *conn) drainWhileBlackholed() {
	c.r.mu.Lock()
	off := c.r.blackOff
	c.r.mu.Unlock()
	if !c.r.blackhole.Load() {
		return
	}
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		select {
		case <-off:
		case <-c.done:
		}
		c.close()
	}()
	_, _ = io.Copy(io.Discard, c.client)
	c.close()
	<-stopped
}

// requests forwards request frames from the client to the server.
func (c *conn) requests(server net.Conn) {
	br := bufio.NewReaderSize(c.client, 64<<10)
	for {
		frame, err := readFrame(br, MaxFrameSize)
		if err != nil {
			return
		}
		if c.r.blackhole.Load() {
			c.r.count(func(s *Stats) { s.Discarded++ })
			continue
		}
		api, id, ok := requestHeader(frame)
		if ok {
			c.mu.Lock()
			c.inflight[id] = api
			c.mu.Unlock()
			c.r.count(func(s *Stats) { s.Requests[api]++ })
		}
		if _, err := server.Write(frame); err != nil {
			return
		}
	}
}

// pending is a response frame waiting to be delivered.
type pending struct {
	frame []byte
	api   int16
	due   time.Time
}

// responses reads response frames from the server, drops the ones DropNextResponse asked
// for and queues the rest for deliver.
func (c *conn) responses(server net.Conn, queue chan<- pending) {
	br := bufio.NewReaderSize(server, 64<<10)
	for {
		frame, err := readFrame(br, MaxFrameSize)
		if err != nil {
			return
		}
		api := int16(-1)
		if id, ok := responseRequestID(frame); ok {
			c.mu.Lock()
			if a, found := c.inflight[id]; found {
				api = a
				delete(c.inflight, id)
			}
			c.mu.Unlock()
		}
		if c.r.blackhole.Load() {
			c.r.count(func(s *Stats) { s.Discarded++ })
			continue
		}
		if api >= 0 && c.r.takeDrop(api) {
			continue
		}
		p := pending{frame: frame, api: api}
		if d := time.Duration(c.r.delay.Load()); d > 0 {
			p.due = time.Now().Add(d)
		}
		select {
		case queue <- p:
		case <-c.done:
			return
		}
	}
}

// deliver writes queued responses to the client, each not before it is due.
func (c *conn) deliver(queue <-chan pending) {
	timer := time.NewTimer(0)
	defer timer.Stop()
	<-timer.C
	for p := range queue {
		if wait := time.Until(p.due); !p.due.IsZero() && wait > 0 {
			timer.Reset(wait)
			select {
			case <-timer.C:
			case <-c.done:
				return
			}
		}
		if c.r.blackhole.Load() {
			c.r.count(func(s *Stats) { s.Discarded++ })
			continue
		}
		if _, err := c.client.Write(p.frame); err != nil {
			return
		}
		c.r.count(func(s *Stats) { s.Responses[p.api]++ })
	}
}

// takeDrop reports whether a response to api is to be dropped, and counts it.
func (r *Relay) takeDrop(api int16) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.drops[api] == 0 {
		return false
	}
	r.drops[api]--
	r.stats.Dropped++
	return true
}

func (r *Relay) count(f func(*Stats)) {
	r.mu.Lock()
	f(&r.stats)
	r.mu.Unlock()
}

// errFrame is returned for a frame length the relay does not forward.
var errFrame = errors.New("relay: bad frame length")

// readFrame reads one whole frame, length prefix included. A negative length or one above
// limit is an error; nothing is allocated for it.
func readFrame(r io.Reader, limit int) ([]byte, error) {
	var prefix [4]byte
	if _, err := io.ReadFull(r, prefix[:]); err != nil {
		return nil, err
	}
	n := int32(binary.BigEndian.Uint32(prefix[:]))
	if n < 0 || int64(n) > int64(limit) {
		return nil, fmt.Errorf("%w: %d", errFrame, n)
	}
	frame := make([]byte, 4+int(n))
	copy(frame, prefix[:])
	if _, err := io.ReadFull(r, frame[4:]); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	return frame, nil
}

// requestHeader returns the api key and request id of a whole request frame; ok is false
// when the payload is shorter than the 8-byte request header.
func requestHeader(frame []byte) (api int16, id int32, ok bool) {
	if len(frame) < 4+8 {
		return 0, 0, false
	}
	return int16(binary.BigEndian.Uint16(frame[4:6])), int32(binary.BigEndian.Uint32(frame[8:12])), true
}

// responseRequestID returns the request id of a whole response frame; ok is false for a
// server failure frame (type 2, no id), an unknown type or a payload too short.
func responseRequestID(frame []byte) (id int32, ok bool) {
	if len(frame) < 4+5 {
		return 0, false
	}
	switch frame[4] {
	case 0, 1:
		return int32(binary.BigEndian.Uint32(frame[5:9])), true
	}
	return 0, false
}
