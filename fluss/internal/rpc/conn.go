package rpc

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/flussql/flussql/fluss/internal/protocol"
)

// Default option values.
const (
	DefaultDialTimeout    = 10 * time.Second
	DefaultRequestTimeout = 30 * time.Second
	DefaultClientName     = "flussql"
	DefaultClientVersion  = "0.1.0"
)

// Options configure a connection. The zero value is usable.
type Options struct {
	// ClientName and ClientVersion are sent in ApiVersions.
	ClientName, ClientVersion string
	// Credentials, when set, make the connection authenticate with
	// SASL/PLAIN after the handshake. Leave nil for PLAINTEXT listeners.
	Credentials *Credentials
	// DialTimeout bounds connecting plus the handshake.
	DialTimeout time.Duration
	// RequestTimeout bounds a request whose context has no deadline.
	// Negative means no default bound (not recommended: the server answers
	// some requests with silence).
	RequestTimeout time.Duration
	// MaxFrameSize is the largest response accepted (DefaultMaxFrameSize).
	MaxFrameSize int
	// Dial replaces net.Dialer.DialContext (tests).
	Dial func(ctx context.Context, network, addr string) (net.Conn, error)
	// OnDial, when set, is called after every dial a Pool makes, with its
	// outcome (for logging).
	OnDial func(addr string, took time.Duration, err error)
	// OnRequest, when set, is called after every Call with what it cost:
	// the bytes of the request frame written (0 if it never left) and of
	// the response read, the time from the call to its outcome, and the
	// call's error (for metrics).
	OnRequest func(RequestStats)
}

// RequestStats describe one Call, for Options.OnRequest.
type RequestStats struct {
	Addr           string
	API            protocol.APIKey
	Sent, Received int
	Took           time.Duration
	Err            error
}

func (o Options) withDefaults() Options {
	if o.ClientName == "" {
		o.ClientName = DefaultClientName
	}
	if o.ClientVersion == "" {
		o.ClientVersion = DefaultClientVersion
	}
	if o.DialTimeout == 0 {
		o.DialTimeout = DefaultDialTimeout
	}
	if o.RequestTimeout == 0 {
		o.RequestTimeout = DefaultRequestTimeout
	}
	if o.MaxFrameSize <= 0 {
		o.MaxFrameSize = DefaultMaxFrameSize
	}
	if o.Dial == nil {
		var d net.Dialer
		o.Dial = d.DialContext
	}
	return o
}

// Conn is one connection to a Fluss server. It is safe for concurrent use:
// requests are pipelined and responses matched by request id, so many calls
// may be in flight at once. A Conn that failed stays failed (see Err); open
// a new one to reconnect (Pool does so).
type Conn struct {
	addr string
	opts Options
	nc   net.Conn

	wsem chan struct{} // one writer at a time

	mu      sync.Mutex
	pending map[int32]chan result
	nextID  int32
	err     error // why the connection ended; nil while usable

	done       chan struct{} // closed when the connection ends
	readerDone chan struct{}

	serverType protocol.ServerType
	server     map[protocol.APIKey]protocol.VersionRange
	versions   map[protocol.APIKey]int16
}

type result struct {
	resp Response
	err  error
}

// Dial connects to addr, performs the ApiVersions handshake and, when
// credentials are set, SASL/PLAIN authentication, all within
// opts.DialTimeout and ctx.
//
// Its errors say what happened, as soon as it is known:
//   - nothing listens at addr: a *ConnError (Op "dial") at once, naming
//     addr and "connection refused"; errors.Is(err, syscall.ECONNREFUSED)
//     holds;
//   - the server accepts but does not answer the handshake: a *ConnError
//     (Op "handshake", Err ErrConnectTimeout) when the connect timeout ends;
//   - the peer answers with something that is not a Fluss answer: a
//     *ConnError wrapping a *NotFlussError as soon as the first bytes that
//     cannot be Fluss are read;
//   - ctx ends first: a *TimeoutError with ctx's error and cause.
//
// None of them has Sent set: no request of the caller was written.
func Dial(ctx context.Context, addr string, opts Options) (*Conn, error) {
	opts = opts.withDefaults()
	start := time.Now()
	ctx, cancel := context.WithTimeoutCause(ctx, opts.DialTimeout, ErrConnectTimeout)
	defer cancel()
	nc, err := opts.Dial(ctx, "tcp", addr)
	if err != nil {
		return nil, dialFailure(ctx, addr, err, start)
	}
	resp, rest, err := exchangeVersions(ctx, nc, addr, opts, start)
	if err != nil {
		_ = nc.Close()
		return nil, err
	}
	c := newConn(addr, nc, opts, rest)
	c.applyVersions(resp)
	if opts.Credentials != nil {
		if err := c.authenticate(ctx, *opts.Credentials); err != nil {
			c.Close()
			return nil, err
		}
	}
	return c, nil
}

func newConn(addr string, nc net.Conn, opts Options, buffered []byte) *Conn {
	c := &Conn{
		addr:       addr,
		opts:       opts,
		nc:         nc,
		wsem:       make(chan struct{}, 1),
		pending:    make(map[int32]chan result),
		nextID:     handshakeRequestID + 1,
		done:       make(chan struct{}),
		readerDone: make(chan struct{}),
	}
	var r io.Reader = nc
	if len(buffered) > 0 {
		r = io.MultiReader(bytes.NewReader(buffered), nc)
	}
	go c.readLoop(r)
	return c
}

// applyVersions records the server's role and negotiates API versions.
func (c *Conn) applyVersions(resp *protocol.ApiVersionsResponse) {
	c.serverType = protocol.ServerType(resp.GetServerType())
	c.server = make(map[protocol.APIKey]protocol.VersionRange, len(resp.GetApiVersions()))
	c.versions = make(map[protocol.APIKey]int16)
	for _, v := range resp.GetApiVersions() {
		k := protocol.APIKey(v.GetApiKey())
		sr := protocol.VersionRange{Min: int16(v.GetMinVersion()), Max: int16(v.GetMaxVersion())}
		c.server[k] = sr
		if cr, ok := protocol.ClientVersions(k); ok {
			if ver, ok := protocol.Negotiate(cr, sr); ok {
				c.versions[k] = ver
			}
		}
	}
}

// Addr returns the address the connection was dialed with.
func (c *Conn) Addr() string { return c.addr }

// ServerType returns the role the server reported in the handshake.
func (c *Conn) ServerType() protocol.ServerType { return c.serverType }

// Version returns the negotiated version of api, or an
// *UnsupportedAPIError when the server does not serve it in a version this
// client speaks.
func (c *Conn) Version(api protocol.APIKey) (int16, error) {
	if v, ok := c.versions[api]; ok {
		return v, nil
	}
	sr, listed := c.server[api]
	return 0, &UnsupportedAPIError{Addr: c.addr, ServerType: c.serverType, API: api, Server: sr, Listed: listed}
}

// Supports reports whether the server serves api in a version the client speaks.
func (c *Conn) Supports(api protocol.APIKey) bool {
	_, ok := c.versions[api]
	return ok
}

// Err returns why the connection ended, or nil while it is usable.
func (c *Conn) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// Call sends req as api at the negotiated version and decodes the answer
// into resp. It returns a *ResponseError when the server answers with an
// error, and gives up when ctx ends or, if ctx has no deadline, after the
// request timeout.
func (c *Conn) Call(ctx context.Context, api protocol.APIKey, req, resp proto.Message) error {
	v, err := c.Version(api)
	if err != nil {
		return err
	}
	if c.opts.OnRequest == nil {
		return c.roundTrip(ctx, api, v, req, resp, nil)
	}
	st := RequestStats{Addr: c.addr, API: api}
	start := time.Now()
	err = c.roundTrip(ctx, api, v, req, resp, &st)
	st.Took, st.Err = time.Since(start), err
	c.opts.OnRequest(st)
	return err
}

// roundTrip sends one request and waits for its answer; st, when not nil,
// gets the bytes written and read.
func (c *Conn) roundTrip(ctx context.Context, api protocol.APIKey, version int16, req, resp proto.Message, st *RequestStats) error {
	body, err := proto.Marshal(req)
	if err != nil {
		// Includes missing required fields: never send what the server would drop.
		return fmt.Errorf("fluss rpc: encoding %s request: %w", api, err)
	}
	if err := ctx.Err(); err != nil {
		return &TimeoutError{Addr: c.addr, API: api, Err: err, Cause: context.Cause(ctx)}
	}
	start := time.Now()
	if _, ok := ctx.Deadline(); !ok && c.opts.RequestTimeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, c.opts.RequestTimeout, ErrRequestTimeout)
		defer cancel()
	}

	id, ch, err := c.register()
	if err != nil {
		return err
	}
	frame := AppendRequest(make([]byte, 0, lengthPrefixLen+requestHeaderLen+len(body)),
		RequestHeader{APIKey: api, APIVersion: version, RequestID: id}, body)
	sent, own, err := c.write(ctx, frame)
	if sent && st != nil {
		st.Sent = len(frame)
	}
	if err != nil {
		c.unregister(id)
		if !own {
			return err // the connection had already failed
		}
		if ctxErr, cause, ended := endCause(ctx, err); ended {
			return &TimeoutError{Addr: c.addr, API: api, Err: ctxErr, Cause: cause, Elapsed: time.Since(start), Sent: sent}
		}
		return err
	}
	select {
	case r := <-ch:
		if r.err != nil {
			return writtenAnyway(r.err)
		}
		if st != nil {
			st.Received = lengthPrefixLen + len(r.resp.Body)
		}
		return decodeResponse(api, r.resp, resp)
	case <-ctx.Done():
		c.unregister(id)
		return &TimeoutError{Addr: c.addr, API: api, Err: ctx.Err(), Cause: context.Cause(ctx), Elapsed: time.Since(start), Sent: true}
	}
}

// writtenAnyway is the error of a request whose frame was written whole when the connection
// then failed. The failure may be another request's: a write that hit its deadline before
// writing a byte fails the connection with Sent false, and every request waiting for an
// answer gets that error — but their frames left, and the server may act on them, so for
// them it must read as sent. (It read as never sent: a write batch whose request had reached
// the server was then reported not written and its sequence used again.)
func writtenAnyway(err error) error {
	var ce *ConnError
	if errors.As(err, &ce) && !ce.Sent {
		sent := *ce
		sent.Sent = true
		return &sent
	}
	return err
}

func decodeResponse(api protocol.APIKey, r Response, resp proto.Message) error {
	switch r.Type {
	case SuccessResponse:
		if err := proto.Unmarshal(r.Body, resp); err != nil {
			return fmt.Errorf("fluss rpc: decoding %s response: %w", api, err)
		}
		return nil
	case ErrorResponse:
		var e protocol.ErrorResponse
		if err := proto.Unmarshal(r.Body, &e); err != nil {
			return fmt.Errorf("fluss rpc: decoding %s error response: %w", api, err)
		}
		return &ResponseError{Code: e.GetErrorCode(), Message: e.GetErrorMessage()}
	}
	return fmt.Errorf("%w: unexpected %s", ErrMalformedFrame, r.Type)
}

func (c *Conn) register() (int32, chan result, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return 0, nil, c.err
	}
	id := c.nextID
	c.nextID++
	ch := make(chan result, 1)
	c.pending[id] = ch
	return id, ch, nil
}

func (c *Conn) unregister(id int32) {
	c.mu.Lock()
	delete(c.pending, id)
	c.mu.Unlock()
}

// write sends one whole frame; a frame is never interleaved with another.
// A failed or partial write breaks the stream, so it ends the connection.
// sent reports whether any byte of frame was written, own whether err is
// this write's failure (not an earlier one that ended the connection).
func (c *Conn) write(ctx context.Context, frame []byte) (sent, own bool, err error) {
	select {
	case c.wsem <- struct{}{}:
	case <-ctx.Done():
		return false, true, ctx.Err()
	case <-c.done:
		return false, false, c.Err()
	}
	defer func() { <-c.wsem }()
	if dl, ok := ctx.Deadline(); ok {
		_ = c.nc.SetWriteDeadline(dl)
	} else {
		_ = c.nc.SetWriteDeadline(time.Time{})
	}
	n, err := c.nc.Write(frame)
	if err != nil {
		cerr := &ConnError{Addr: c.addr, Op: "write", Sent: n > 0, Err: err}
		c.fail(cerr)
		return n > 0, true, cerr
	}
	return true, true, nil
}

func (c *Conn) readLoop(r io.Reader) {
	defer close(c.readerDone)
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		payload, err := ReadFrame(br, c.opts.MaxFrameSize)
		if err != nil {
			c.fail(&ConnError{Addr: c.addr, Op: "read", Sent: true, Err: err})
			return
		}
		r, err := ParseResponse(payload)
		if err != nil {
			c.fail(&ConnError{Addr: c.addr, Op: "read", Sent: true, Err: err})
			return
		}
		if r.Type == ServerFailure {
			var e protocol.ErrorResponse
			sf := &ServerFailureError{Addr: c.addr, Code: -1, Message: "undecodable server failure"}
			if proto.Unmarshal(r.Body, &e) == nil {
				sf.Code, sf.Message = e.GetErrorCode(), e.GetErrorMessage()
			}
			c.fail(sf)
			return
		}
		c.mu.Lock()
		ch, ok := c.pending[r.RequestID]
		delete(c.pending, r.RequestID)
		c.mu.Unlock()
		if ok {
			ch <- result{resp: r}
		}
		// A response nobody waits for belongs to a request that timed out.
	}
}

// fail ends the connection once: it records err, closes the socket and
// fails every request in flight with err.
func (c *Conn) fail(err error) {
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return
	}
	c.err = err
	pending := c.pending
	c.pending = make(map[int32]chan result)
	close(c.done)
	c.mu.Unlock()
	_ = c.nc.Close()
	for _, ch := range pending {
		ch <- result{err: err}
	}
}

// Close closes the connection. Requests in flight fail with ErrClosed.
// Close waits for the reader goroutine to exit and is idempotent.
func (c *Conn) Close() error {
	c.fail(ErrClosed)
	<-c.readerDone
	return nil
}
