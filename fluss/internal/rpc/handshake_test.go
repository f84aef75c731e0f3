package rpc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"

	"github.com/flussql/flussql/fluss/internal/protocol"
)

// refusedAddr returns a loopback address where nothing listens: a port
// that was just bound and released.
func refusedAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	return addr
}

// rawServer accepts connections and hands each to serve, which owns it.
// It counts the connections it accepted.
type rawServer struct {
	ln       net.Listener
	mu       sync.Mutex
	accepted int
	conns    []net.Conn
}

func newRawServer(t *testing.T, serve func(net.Conn)) *rawServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	s := &rawServer{ln: ln}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			nc, err := ln.Accept()
			if err != nil {
				return
			}
			s.mu.Lock()
			s.accepted++
			s.conns = append(s.conns, nc)
			s.mu.Unlock()
			wg.Add(1)
			go func() {
				defer wg.Done()
				serve(nc)
			}()
		}
	}()
	t.Cleanup(func() {
		_ = ln.Close()
		s.mu.Lock()
		for _, c := range s.conns {
			_ = c.Close()
		}
		s.mu.Unlock()
		wg.Wait()
	})
	return s
}

func (s *rawServer) addr() string { return s.ln.Addr().String() }

func (s *rawServer) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.accepted
}

// silent reads whatever comes and never writes, until the peer or the
// test closes the connection.
func silent(nc net.Conn) { _, _ = io.Copy(io.Discard, nc) }

// writes sends b after the request arrives, then keeps the connection open
// (hold) or closes it.
func writes(b []byte, hold bool) func(net.Conn) {
	return func(nc net.Conn) {
		buf := make([]byte, 512)
		if _, err := nc.Read(buf); err != nil {
			return
		}
		_, _ = nc.Write(b)
		if hold {
			silent(nc)
			return
		}
		_ = nc.Close()
	}
}

func versionsFrame(t *testing.T, id int32, apis []*protocol.PbApiVersion) []byte {
	t.Helper()
	body, err := proto.Marshal(&protocol.ApiVersionsResponse{ApiVersions: apis, ServerType: proto.Int32(1)})
	require.NoError(t, err)
	return AppendResponse(nil, Response{Type: SuccessResponse, RequestID: id, Body: body})
}

func errorBody(t *testing.T, code int32, msg string) []byte {
	t.Helper()
	b, err := proto.Marshal(&protocol.ErrorResponse{ErrorCode: proto.Int32(code), ErrorMessage: proto.String(msg)})
	require.NoError(t, err)
	return b
}

func TestDialFailures(t *testing.T) {
	const timeout = 300 * time.Millisecond
	good := versionsFrame(t, 0, allAPIs())
	tests := []struct {
		name    string
		addr    func(t *testing.T) string
		op      string
		is      []error  // errors.Is targets
		notIs   []error  // must not match
		want    []string // message parts; "ADDR" stands for the address
		atLeast time.Duration
		within  time.Duration
	}{
		{
			name:   "refused",
			addr:   refusedAddr,
			op:     "dial",
			is:     []error{syscall.ECONNREFUSED},
			notIs:  []error{context.DeadlineExceeded, ErrConnectTimeout},
			want:   []string{"dial ADDR: connection refused"},
			within: time.Second,
		},
		{
			name:    "accepts and never answers",
			addr:    func(t *testing.T) string { return newRawServer(t, silent).addr() },
			op:      "handshake",
			is:      []error{ErrConnectTimeout},
			notIs:   []error{context.DeadlineExceeded},
			want:    []string{"the server at ADDR did not answer the handshake within DUR"},
			atLeast: timeout,
			within:  timeout + time.Second,
		},
		{
			name: "HTTP server",
			addr: func(t *testing.T) string {
				return newRawServer(t, writes([]byte("HTTP/1.1 400 Bad Request\r\n\r\n"), true)).addr()
			},
			op:     "handshake",
			want:   []string{"ADDR is not a Fluss server", `"HTTP/1.1 400 Bad Request\r\n\r\n"`, "not a Fluss frame"},
			within: time.Second,
		},
		{
			name:   "one junk byte is enough",
			addr:   func(t *testing.T) string { return newRawServer(t, writes([]byte("S"), true)).addr() },
			op:     "handshake",
			want:   []string{"ADDR is not a Fluss server", `"S"`, "starts with 0x53"},
			within: time.Second,
		},
		{
			name:   "unknown response type",
			addr:   func(t *testing.T) string { return newRawServer(t, writes([]byte{0, 0, 0, 9, 7}, true)).addr() },
			op:     "handshake",
			want:   []string{"ADDR is not a Fluss server", "response type 7"},
			within: time.Second,
		},
		{
			name:   "answer to another request",
			addr:   func(t *testing.T) string { return newRawServer(t, writes(versionsFrame(t, 5, allAPIs()), true)).addr() },
			op:     "handshake",
			want:   []string{"ADDR is not a Fluss server", "an answer to request 5"},
			within: time.Second,
		},
		{
			name:   "not an ApiVersions answer",
			addr:   func(t *testing.T) string { return newRawServer(t, writes(versionsFrame(t, 0, nil), true)).addr() },
			op:     "handshake",
			want:   []string{"ADDR is not a Fluss server", "lists no API"},
			within: time.Second,
		},
		{
			name:   "closes before reading the request",
			addr:   func(t *testing.T) string { return newRawServer(t, func(nc net.Conn) { nc.Close() }).addr() },
			op:     "handshake",
			want:   []string{"the server at ADDR closed the connection without answering the handshake"},
			within: time.Second,
		},
		{
			name:   "junk then close",
			addr:   func(t *testing.T) string { return newRawServer(t, writes([]byte("hello\n"), false)).addr() },
			op:     "handshake",
			want:   []string{"ADDR is not a Fluss server", `"hello\n"`},
			within: time.Second,
		},
		{
			name:   "closes without answering",
			addr:   func(t *testing.T) string { return newRawServer(t, writes(nil, false)).addr() },
			op:     "handshake",
			is:     []error{io.EOF},
			want:   []string{"the server at ADDR closed the connection without answering the handshake"},
			within: time.Second,
		},
		{
			name:   "closes in the middle of the answer",
			addr:   func(t *testing.T) string { return newRawServer(t, writes(good[:7], false)).addr() },
			op:     "handshake",
			is:     []error{io.ErrUnexpectedEOF},
			want:   []string{"the server at ADDR closed the connection in the middle of its handshake answer"},
			within: time.Second,
		},
		{
			name:    "stops in the middle of the answer",
			addr:    func(t *testing.T) string { return newRawServer(t, writes(good[:3], true)).addr() },
			op:      "handshake",
			is:      []error{ErrConnectTimeout},
			want:    []string{"the server at ADDR did not answer the handshake within DUR (it sent only \"" + hexEscaped(good[:3]) + "\")"},
			atLeast: timeout,
			within:  timeout + time.Second,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			addr := tt.addr(t)
			start := time.Now()
			c, err := Dial(context.Background(), addr, Options{DialTimeout: timeout})
			elapsed := time.Since(start)
			if c != nil {
				c.Close()
			}
			require.Error(t, err)
			var ce *ConnError
			require.ErrorAs(t, err, &ce)
			assert.Equal(t, tt.op, ce.Op)
			assert.False(t, ce.Sent, "Dial never sends the caller's request")
			for _, target := range tt.is {
				assert.ErrorIs(t, err, target)
			}
			for _, target := range tt.notIs {
				assert.NotErrorIs(t, err, target)
			}
			for _, w := range tt.want {
				assert.Regexp(t, pattern(w, addr), err.Error())
			}
			assert.GreaterOrEqual(t, elapsed, tt.atLeast)
			assert.Less(t, elapsed, tt.within, "%v", err)
		})
	}
}

// pattern turns a message part into a regular expression: ADDR stands for
// the address, DUR for any duration.
func pattern(s, addr string) string {
	p := regexp.QuoteMeta(s)
	p = strings.ReplaceAll(p, "ADDR", regexp.QuoteMeta(addr))
	return strings.ReplaceAll(p, "DUR", `[0-9.]+(µs|ms|s)`)
}

func TestDialRefusesNotFluss(t *testing.T) {
	s := newRawServer(t, writes([]byte("SSH-2.0-OpenSSH_9.6\r\n"), true))
	_, err := Dial(context.Background(), s.addr(), Options{DialTimeout: 5 * time.Second})
	var nf *NotFlussError
	require.ErrorAs(t, err, &nf)
	assert.Equal(t, s.addr(), nf.Addr)
	assert.Equal(t, "SSH-2.0-OpenSSH_9.6\r\n", string(nf.Got))
}

func TestDialServerRefusesHandshake(t *testing.T) {
	sf := AppendResponse(nil, Response{Type: ServerFailure, Body: errorBody(t, 3, "frame too large")})
	s := newRawServer(t, writes(sf, true))
	_, err := Dial(context.Background(), s.addr(), Options{DialTimeout: 5 * time.Second})
	var sfe *ServerFailureError
	require.ErrorAs(t, err, &sfe)
	assert.Equal(t, s.addr(), sfe.Addr)
	assert.Equal(t, int32(3), sfe.Code)

	er := AppendResponse(nil, Response{Type: ErrorResponse, RequestID: 0, Body: errorBody(t, 2, "no such version")})
	s = newRawServer(t, writes(er, true))
	_, err = Dial(context.Background(), s.addr(), Options{DialTimeout: 5 * time.Second})
	var re *ResponseError
	require.ErrorAs(t, err, &re)
	assert.Equal(t, int32(2), re.Code)
	assert.Contains(t, err.Error(), s.addr())
}

func TestDialAnswerInPieces(t *testing.T) {
	frame := versionsFrame(t, 0, allAPIs())
	s := newRawServer(t, func(nc net.Conn) {
		buf := make([]byte, 512)
		if _, err := nc.Read(buf); err != nil {
			return
		}
		for len(frame) > 0 {
			k := min(len(frame), 3)
			if _, err := nc.Write(frame[:k]); err != nil {
				return
			}
			frame = frame[k:]
			time.Sleep(200 * time.Microsecond)
		}
		silent(nc)
	})
	c, err := Dial(context.Background(), s.addr(), Options{DialTimeout: 5 * time.Second})
	require.NoError(t, err)
	defer c.Close()
	assert.Equal(t, protocol.ServerTypeCoordinator, c.ServerType())
	assert.True(t, c.Supports(protocol.CreateTable))
}

func TestDialCallerContext(t *testing.T) {
	tests := []struct {
		name   string
		ctx    func() (context.Context, context.CancelFunc)
		is     error
		want   string
		within time.Duration
	}{
		{
			name: "deadline",
			ctx: func() (context.Context, context.CancelFunc) {
				return context.WithTimeout(context.Background(), 200*time.Millisecond)
			},
			is:     context.DeadlineExceeded,
			want:   "context deadline exceeded after DUR waiting for API_VERSIONS(1000) from ADDR",
			within: time.Second,
		},
		{
			name: "cancel",
			ctx: func() (context.Context, context.CancelFunc) {
				ctx, cancel := context.WithCancel(context.Background())
				time.AfterFunc(100*time.Millisecond, cancel)
				return ctx, cancel
			},
			is:     context.Canceled,
			want:   "context canceled after DUR waiting for API_VERSIONS(1000) from ADDR",
			within: time.Second,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newRawServer(t, silent)
			ctx, cancel := tt.ctx()
			defer cancel()
			start := time.Now()
			_, err := Dial(ctx, s.addr(), Options{DialTimeout: 10 * time.Second})
			assert.Less(t, time.Since(start), tt.within)
			var te *TimeoutError
			require.ErrorAs(t, err, &te)
			assert.True(t, te.Caller())
			assert.False(t, te.Sent)
			assert.ErrorIs(t, err, tt.is)
			assert.NotErrorIs(t, err, ErrConnectTimeout)
			assert.Regexp(t, pattern(tt.want, s.addr()), err.Error())
		})
	}
}

func TestCallDeadlines(t *testing.T) {
	s := newFakeServer(t, func(*fakeConn, RequestHeader, []byte) {}) // answers nothing but the handshake
	tests := []struct {
		name   string
		ctx    func() (context.Context, context.CancelFunc)
		opts   Options
		caller bool
		want   string
	}{
		{
			name: "caller's deadline",
			ctx: func() (context.Context, context.CancelFunc) {
				return context.WithTimeout(context.Background(), 150*time.Millisecond)
			},
			caller: true,
			want:   "context deadline exceeded after DUR waiting for DATABASE_EXISTS(1004) from ADDR",
		},
		{
			name:   "default request timeout",
			ctx:    func() (context.Context, context.CancelFunc) { return context.Background(), func() {} },
			opts:   Options{RequestTimeout: 150 * time.Millisecond},
			caller: false,
			want:   "no answer to DATABASE_EXISTS(1004) from ADDR within the request timeout (DUR)",
		},
		{
			name: "caller's deadline with a cause",
			ctx: func() (context.Context, context.CancelFunc) {
				return context.WithTimeoutCause(context.Background(), 150*time.Millisecond, errors.New("statement budget spent"))
			},
			caller: true,
			want:   "context deadline exceeded after DUR waiting for DATABASE_EXISTS(1004) from ADDR (statement budget spent)",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := dialFake(t, s, tt.opts)
			ctx, cancel := tt.ctx()
			defer cancel()
			start := time.Now()
			err := c.Call(ctx, protocol.DatabaseExists, existsReq("d"), &protocol.DatabaseExistsResponse{})
			assert.Less(t, time.Since(start), time.Second)
			var te *TimeoutError
			require.ErrorAs(t, err, &te)
			assert.Equal(t, tt.caller, te.Caller())
			assert.True(t, te.Sent)
			assert.ErrorIs(t, err, context.DeadlineExceeded)
			assert.Regexp(t, pattern(tt.want, s.addr()), err.Error())
		})
	}
}

func TestPoolFailedDialDoesNotSerialise(t *testing.T) {
	const callers = 8
	const timeout = 300 * time.Millisecond
	silentSrv := newRawServer(t, silent)
	tests := []struct {
		name   string
		addr   string
		within time.Duration
		dials  func() int
	}{
		{name: "refused", addr: refusedAddr(t), within: time.Second},
		// One shared dial: 8 callers fail together after one connect timeout, not 8 in turn.
		{name: "silent", addr: silentSrv.addr(), within: timeout + time.Second, dials: silentSrv.count},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := NewPool(Options{DialTimeout: timeout})
			defer p.Close()
			var wg sync.WaitGroup
			errs := make([]error, callers)
			took := make([]time.Duration, callers)
			start := time.Now()
			for i := range callers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					_, errs[i] = p.Get(context.Background(), tt.addr)
					took[i] = time.Since(start)
				}()
			}
			wg.Wait()
			for i := range callers {
				var ce *ConnError
				require.ErrorAs(t, errs[i], &ce)
				assert.False(t, ce.Sent)
				assert.Less(t, took[i], tt.within, "caller %d: %v", i, errs[i])
			}
			if tt.dials != nil {
				assert.Equal(t, 1, tt.dials(), "concurrent callers share one dial")
			}
		})
	}
}

func TestPoolCallerStopsWaitingForSharedDial(t *testing.T) {
	s := newRawServer(t, silent)
	p := NewPool(Options{DialTimeout: 600 * time.Millisecond})
	defer p.Close()

	patient := make(chan error, 1)
	go func() {
		_, err := p.Get(context.Background(), s.addr())
		patient <- err
	}()
	time.Sleep(20 * time.Millisecond)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := p.Get(ctx, s.addr())
	assert.Less(t, time.Since(start), 400*time.Millisecond, "the impatient caller leaves at its own deadline")
	var te *TimeoutError
	require.ErrorAs(t, err, &te)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	// The time in the message is from this Get's start, a little after the context's: any
	// duration (98ms was seen on a loaded machine for the 100 ms deadline).
	assert.Regexp(t, `context deadline exceeded after [0-9.]+(µs|ms|s) connecting to `+regexp.QuoteMeta(s.addr()), err.Error())

	err = <-patient
	assert.ErrorIs(t, err, ErrConnectTimeout, "the other caller gets the dial's own verdict")
	assert.Equal(t, 1, s.count())
}

func TestPoolCloseAbortsDial(t *testing.T) {
	s := newRawServer(t, silent)
	p := NewPool(Options{DialTimeout: 10 * time.Second})
	errc := make(chan error, 1)
	go func() {
		_, err := p.Get(context.Background(), s.addr())
		errc <- err
	}()
	require.Eventually(t, func() bool { return s.count() == 1 }, 2*time.Second, 5*time.Millisecond)
	start := time.Now()
	require.NoError(t, p.Close())
	select {
	case err := <-errc:
		assert.ErrorIs(t, err, ErrClosed)
		assert.Less(t, time.Since(start), time.Second)
	case <-time.After(2 * time.Second):
		t.Fatal("Get still waiting after Close")
	}
}

func TestPoolDialsAgainAfterFailure(t *testing.T) {
	addr := refusedAddr(t)
	p := NewPool(Options{DialTimeout: time.Second})
	defer p.Close()
	_, err := p.Get(context.Background(), addr)
	require.ErrorIs(t, err, syscall.ECONNREFUSED)

	// Something now listens there: the next Get dials afresh.
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Skipf("port %s was taken meanwhile: %v", addr, err)
	}
	s := &fakeServer{t: t, ln: ln, apis: allAPIs(), stype: 2, handle: func(*fakeConn, RequestHeader, []byte) {}}
	s.wg.Add(1)
	go s.serve()
	t.Cleanup(s.close)
	c, err := p.Get(context.Background(), addr)
	require.NoError(t, err)
	assert.Equal(t, protocol.ServerTypeTabletServer, c.ServerType())
}

func TestParseHandshake(t *testing.T) {
	good := versionsFrame(t, 0, allAPIs())
	tests := []struct {
		name  string
		in    []byte
		n     int    // bytes used; 0 means more are needed (when want is "")
		want  string // error text; "" for none
		errAs any
	}{
		{name: "empty", in: nil},
		{name: "partial length", in: good[:2]},
		{name: "length only", in: good[:4]},
		{name: "partial header", in: good[:7]},
		{name: "whole", in: good, n: len(good)},
		{name: "whole and more", in: append(append([]byte(nil), good...), 1, 2, 3), n: len(good)},
		{name: "text", in: []byte("H"), want: "starts with 0x48"},
		{name: "huge length", in: []byte{0, 0x20, 0, 0}, want: "length prefix 2097152"},
		{name: "negative length", in: []byte{0xff, 0xff, 0xff, 0xff}, want: "length prefix -1"},
		{name: "empty frame", in: []byte{0, 0, 0, 0}, want: "an empty frame"},
		{name: "short success", in: []byte{0, 0, 0, 3, 0}, want: "shorter than a response header"},
		{name: "bad type", in: []byte{0, 0, 0, 9, 0x7f}, want: "response type 127"},
		{name: "wrong id", in: []byte{0, 0, 0, 9, 0, 0, 0, 0, 1}, want: "an answer to request 1"},
		{name: "body not protobuf", in: []byte{0, 0, 0, 6, 0, 0, 0, 0, 0, 0xff}, want: "not an ApiVersions answer"},
		{name: "server failure", in: AppendResponse(nil, Response{Type: ServerFailure, Body: errorBody(t, -1, "boom")}), errAs: new(*ServerFailureError)},
		{name: "error response", in: AppendResponse(nil, Response{Type: ErrorResponse, Body: errorBody(t, 46, "no")}), errAs: new(*ResponseError)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, n, err := ParseHandshake(tt.in)
			switch {
			case tt.errAs != nil:
				require.ErrorAs(t, err, tt.errAs)
			case tt.want != "":
				var nf *NotFlussError
				require.ErrorAs(t, err, &nf)
				assert.Contains(t, err.Error(), tt.want)
			default:
				require.NoError(t, err)
				assert.Equal(t, tt.n, n)
				assert.Equal(t, tt.n > 0, resp != nil)
			}
		})
	}
}

func TestContextOverBeforeTheCall(t *testing.T) {
	s := newFakeServer(t, func(*fakeConn, RequestHeader, []byte) {})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	p := NewPool(Options{})
	defer p.Close()
	_, err := p.Get(ctx, s.addr())
	assert.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, "fluss rpc: context canceled before connecting to "+s.addr(), err.Error())
	assert.Zero(t, s.accepted.Load(), "no dial for a caller that is gone")

	c := dialFake(t, s, Options{})
	err = c.Call(ctx, protocol.DatabaseExists, existsReq("d"), &protocol.DatabaseExistsResponse{})
	var te *TimeoutError
	require.ErrorAs(t, err, &te)
	assert.False(t, te.Sent)
	assert.Equal(t, "fluss rpc: context canceled before sending DATABASE_EXISTS(1004) to "+s.addr(), err.Error())
}

// hexEscaped writes b as the error messages quote bytes: \xNN each.
func hexEscaped(b []byte) string {
	var sb strings.Builder
	for _, c := range b {
		fmt.Fprintf(&sb, "\\x%02x", c)
	}
	return sb.String()
}
