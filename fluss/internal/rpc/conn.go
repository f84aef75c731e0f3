package rpc

import (
	"bufio"
	"context"
	"errors"
	"fmt"
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
// credentials are set, SASL/PLAIN authentication.
func Dial(ctx context.Context, addr string, opts Options) (*Conn, error) {
	opts = opts.withDefaults()
	ctx, cancel := context.WithTimeout(ctx, opts.DialTimeout)
	defer cancel()
	nc, err := opts.Dial(ctx, "tcp", addr)
	if err != nil {
		return nil, &ConnError{Addr: addr, Op: "dial", Err: err}
	}
	c := newConn(addr, nc, opts)
	if err := c.handshake(ctx); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

func newConn(addr string, nc net.Conn, opts Options) *Conn {
	c := &Conn{
		addr:       addr,
		opts:       opts,
		nc:         nc,
		wsem:       make(chan struct{}, 1),
		pending:    make(map[int32]chan result),
		done:       make(chan struct{}),
		readerDone: make(chan struct{}),
	}
	go c.readLoop()
	return c
}

// handshake asks the server which APIs it serves and negotiates versions.
func (c *Conn) handshake(ctx context.Context) error {
	var resp protocol.ApiVersionsResponse
	req := &protocol.ApiVersionsRequest{
		ClientSoftwareName:    proto.String(c.opts.ClientName),
		ClientSoftwareVersion: proto.String(c.opts.ClientVersion),
	}
	if err := c.roundTrip(ctx, protocol.APIVersions, 0, req, &resp); err != nil {
		return fmt.Errorf("fluss rpc: handshake with %s: %w", c.addr, err)
	}
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
	if c.opts.Credentials != nil {
		return c.authenticate(ctx, *c.opts.Credentials)
	}
	return nil
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
	return c.roundTrip(ctx, api, v, req, resp)
}

func (c *Conn) roundTrip(ctx context.Context, api protocol.APIKey, version int16, req, resp proto.Message) error {
	body, err := proto.Marshal(req)
	if err != nil {
		// Includes missing required fields: never send what the server would drop.
		return fmt.Errorf("fluss rpc: encoding %s request: %w", api, err)
	}
	if _, ok := ctx.Deadline(); !ok && c.opts.RequestTimeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.opts.RequestTimeout)
		defer cancel()
	}

	id, ch, err := c.register()
	if err != nil {
		return err
	}
	frame := AppendRequest(make([]byte, 0, lengthPrefixLen+requestHeaderLen+len(body)),
		RequestHeader{APIKey: api, APIVersion: version, RequestID: id}, body)
	if err := c.write(ctx, frame); err != nil {
		c.unregister(id)
		return c.wrapCtxErr(api, err)
	}
	select {
	case r := <-ch:
		if r.err != nil {
			return r.err
		}
		return decodeResponse(api, r.resp, resp)
	case <-ctx.Done():
		c.unregister(id)
		return &TimeoutError{Addr: c.addr, API: api, Err: ctx.Err()}
	}
}

func (c *Conn) wrapCtxErr(api protocol.APIKey, err error) error {
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return &TimeoutError{Addr: c.addr, API: api, Err: err}
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
func (c *Conn) write(ctx context.Context, frame []byte) error {
	select {
	case c.wsem <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	case <-c.done:
		return c.Err()
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
		return cerr
	}
	return nil
}

func (c *Conn) readLoop() {
	defer close(c.readerDone)
	br := bufio.NewReaderSize(c.nc, 64<<10)
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
