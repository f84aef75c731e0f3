package fluss

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"

	"github.com/flussql/flussql/fluss/flusserr"
	"github.com/flussql/flussql/fluss/internal/protocol"
	"github.com/flussql/flussql/fluss/internal/rpc"
)

// deadAddr returns a loopback address where nothing listens.
func deadAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	return addr
}

// listen serves every accepted connection with serve until the test ends.
func listen(t *testing.T, serve func(net.Conn)) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	var mu sync.Mutex
	var conns []net.Conn
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			nc, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, nc)
			mu.Unlock()
			wg.Add(1)
			go func() {
				defer wg.Done()
				serve(nc)
			}()
		}
	}()
	t.Cleanup(func() {
		_ = ln.Close()
		mu.Lock()
		for _, c := range conns {
			_ = c.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
	return ln.Addr().String()
}

// silentAddr accepts connections and never writes.
func silentAddr(t *testing.T) string {
	return listen(t, func(nc net.Conn) { _, _ = io.Copy(io.Discard, nc) })
}

// junkAddr answers the first bytes it reads with junk, then holds the connection.
func junkAddr(t *testing.T, junk string) string {
	return listen(t, func(nc net.Conn) {
		buf := make([]byte, 512)
		if _, err := nc.Read(buf); err != nil {
			return
		}
		_, _ = nc.Write([]byte(junk))
		_, _ = io.Copy(io.Discard, nc)
	})
}

// startingServer is a Fluss coordinator stand-in whose metadata lists no
// tablet server for its first noTablets answers, and which answers
// Authenticate with authCode (0: success).
type startingServer struct {
	addr      string
	noTablets int32
	authCode  int32
	metaCalls atomic.Int32
	// coordinator, when set, is the coordinator address the metadata reports
	// (else the server's own).
	coordinator string
}

func newStartingServer(t *testing.T, noTablets, authCode int32) *startingServer {
	s := &startingServer{noTablets: noTablets, authCode: authCode}
	s.addr = listen(t, s.serve)
	return s
}

func (s *startingServer) serve(nc net.Conn) {
	br := bufio.NewReader(nc)
	for {
		p, err := rpc.ReadFrame(br, 1<<20)
		if err != nil {
			return
		}
		h, _, err := rpc.ParseRequest(p)
		if err != nil {
			return
		}
		var resp proto.Message
		switch h.APIKey {
		case protocol.APIVersions:
			var vs []*protocol.PbApiVersion
			for _, k := range []protocol.APIKey{protocol.APIVersions, protocol.GetMetadata, protocol.Authenticate} {
				vs = append(vs, &protocol.PbApiVersion{ApiKey: proto.Int32(int32(k)), MinVersion: proto.Int32(0), MaxVersion: proto.Int32(0)})
			}
			resp = &protocol.ApiVersionsResponse{ApiVersions: vs, ServerType: proto.Int32(1)}
		case protocol.Authenticate:
			if s.authCode != 0 {
				b, _ := proto.Marshal(&protocol.ErrorResponse{ErrorCode: proto.Int32(s.authCode), ErrorMessage: proto.String("Authentication failed: Invalid username or password")})
				_, _ = nc.Write(rpc.AppendResponse(nil, rpc.Response{Type: rpc.ErrorResponse, RequestID: h.RequestID, Body: b}))
				continue
			}
			resp = &protocol.AuthenticateResponse{Challenge: []byte{}}
		case protocol.GetMetadata:
			host, port, _ := net.SplitHostPort(s.addr)
			p, _ := strconv.Atoi(port)
			node := &protocol.PbServerNode{NodeId: proto.Int32(0), Host: proto.String(host), Port: proto.Int32(int32(p))}
			m := &protocol.MetadataResponse{CoordinatorServer: node}
			if s.coordinator != "" {
				ch, cp, _ := net.SplitHostPort(s.coordinator)
				p, _ := strconv.Atoi(cp)
				m.CoordinatorServer = &protocol.PbServerNode{NodeId: proto.Int32(0), Host: proto.String(ch), Port: proto.Int32(int32(p))}
			}
			if s.metaCalls.Add(1) > s.noTablets {
				m.TabletServers = []*protocol.PbServerNode{node}
			}
			resp = m
		default:
			continue
		}
		b, _ := proto.Marshal(resp)
		_, _ = nc.Write(rpc.AppendResponse(nil, rpc.Response{Type: rpc.SuccessResponse, RequestID: h.RequestID, Body: b}))
	}
}

// msgPattern turns a message part into a regular expression: each {0},
// {1}, ... stands for the address of that index, DUR for a duration.
func msgPattern(s string, addrs []string) string {
	p := regexp.QuoteMeta(s)
	for i, a := range addrs {
		p = strings.ReplaceAll(p, regexp.QuoteMeta("{"+strconv.Itoa(i)+"}"), regexp.QuoteMeta(a))
	}
	return strings.ReplaceAll(p, "DUR", `[0-9.]+(µs|ms|s)`)
}

func TestConnectFailures(t *testing.T) {
	const connectTimeout = 400 * time.Millisecond
	tests := []struct {
		name    string
		addrs   func(t *testing.T) []string
		want    []string // message parts (msgPattern)
		is      []error
		notIs   []error
		atLeast time.Duration
		within  time.Duration
	}{
		{
			name:   "refused",
			addrs:  func(t *testing.T) []string { return []string{deadAddr(t)} },
			want:   []string{"fluss: connecting through {0}: dial {0}: connection refused"},
			is:     []error{syscall.ECONNREFUSED, flusserr.NetworkException},
			notIs:  []error{context.DeadlineExceeded, flusserr.RequestTimeOut},
			within: time.Second,
		},
		{
			name:  "every address refused",
			addrs: func(t *testing.T) []string { return []string{deadAddr(t), deadAddr(t)} },
			want: []string{
				"no bootstrap server answered",
				"dial {0}: connection refused; dial {1}: connection refused",
			},
			is:     []error{syscall.ECONNREFUSED, flusserr.NetworkException},
			within: time.Second,
		},
		{
			name:    "accepts and never answers",
			addrs:   func(t *testing.T) []string { return []string{silentAddr(t)} },
			want:    []string{"the server at {0} did not answer the handshake within DUR"},
			is:      []error{flusserr.NetworkException, rpc.ErrConnectTimeout},
			notIs:   []error{context.DeadlineExceeded},
			atLeast: connectTimeout,
			within:  connectTimeout + time.Second,
		},
		{
			name:   "answers junk",
			addrs:  func(t *testing.T) []string { return []string{junkAddr(t, "HTTP/1.1 400 Bad Request\r\n\r\n")} },
			want:   []string{`{0} is not a Fluss server: it answered the handshake with "HTTP/1.1 400 Bad Request\r\n\r\n"`},
			is:     []error{flusserr.NetworkException},
			within: time.Second,
		},
		{
			name: "refused, junk and silent",
			addrs: func(t *testing.T) []string {
				return []string{deadAddr(t), junkAddr(t, "SSH-2.0-OpenSSH_9.6\r\n"), silentAddr(t)}
			},
			want: []string{
				"no bootstrap server answered: dial {0}: connection refused; {1} is not a Fluss server",
				"; the server at {2} did not answer the handshake within DUR",
			},
			is:      []error{syscall.ECONNREFUSED, flusserr.NetworkException},
			atLeast: connectTimeout,
			within:  connectTimeout + time.Second,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			addrs := tt.addrs(t)
			start := time.Now()
			c, err := Connect(context.Background(), Config{BootstrapServers: addrs, ConnectTimeout: connectTimeout})
			elapsed := time.Since(start)
			if c != nil {
				c.Close()
			}
			require.Error(t, err)
			for _, w := range tt.want {
				assert.Regexp(t, msgPattern(w, addrs), err.Error())
			}
			for _, target := range tt.is {
				assert.ErrorIs(t, err, target)
			}
			for _, target := range tt.notIs {
				assert.NotErrorIs(t, err, target)
			}
			var fe *Error
			require.ErrorAs(t, err, &fe)
			assert.Equal(t, flusserr.NetworkException, fe.Code)
			assert.True(t, fe.NotSent, "no connection: nothing was sent")
			assert.GreaterOrEqual(t, elapsed, tt.atLeast)
			assert.Less(t, elapsed, tt.within, "%v", err)
		})
	}
}

func TestConnectSkipsDeadBootstrapServers(t *testing.T) {
	tests := []struct {
		name string
		dead func(t *testing.T) string
	}{
		{"refused", deadAddr},
		{"silent", silentAddr},
		{"junk", func(t *testing.T) string { return junkAddr(t, "220 smtp.example ESMTP\r\n") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			live := newStartingServer(t, 0, 0)
			start := time.Now()
			c, err := Connect(context.Background(), Config{BootstrapServers: []string{tt.dead(t), live.addr}, ConnectTimeout: 10 * time.Second})
			require.NoError(t, err)
			defer c.Close()
			assert.Less(t, time.Since(start), time.Second, "the dead address does not hold Connect")
		})
	}
}

func TestConnectWaitsForStartingCluster(t *testing.T) {
	s := newStartingServer(t, 2, 0)
	c, err := Connect(context.Background(), Config{BootstrapServers: []string{s.addr}, ConnectTimeout: 5 * time.Second})
	require.NoError(t, err)
	defer c.Close()
	assert.Equal(t, int32(3), s.metaCalls.Load(), "asked until a tablet server was listed")

	never := newStartingServer(t, 1<<30, 0)
	start := time.Now()
	_, err = Connect(context.Background(), Config{BootstrapServers: []string{never.addr}, ConnectTimeout: 500 * time.Millisecond})
	elapsed := time.Since(start)
	require.Error(t, err)
	assert.ErrorIs(t, err, ErrNoTabletServer)
	assert.Contains(t, err.Error(), "the cluster reports no tablet server (waited")
	assert.GreaterOrEqual(t, elapsed, 500*time.Millisecond)
	assert.Less(t, elapsed, 2*time.Second)
}

func TestConnectDoesNotWaitOutAuthentication(t *testing.T) {
	s := newStartingServer(t, 0, int32(flusserr.AuthenticateException))
	start := time.Now()
	_, err := Connect(context.Background(), Config{BootstrapServers: []string{s.addr}, Username: "u", Password: "secret-pw", ConnectTimeout: 10 * time.Second})
	assert.Less(t, time.Since(start), time.Second)
	assert.ErrorIs(t, err, ErrAuthentication)
	assert.Contains(t, err.Error(), "Invalid username or password")
	assert.NotContains(t, err.Error(), "secret-pw")
}

func TestConnectCallerDeadline(t *testing.T) {
	addr := silentAddr(t)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := Connect(ctx, Config{BootstrapServers: []string{addr}, ConnectTimeout: 10 * time.Second})
	assert.Less(t, time.Since(start), time.Second)
	require.Error(t, err)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.NotErrorIs(t, err, rpc.ErrConnectTimeout)
	assert.Regexp(t, msgPattern("fluss: connecting through {0}: context deadline exceeded after DUR connecting to {0}", []string{addr}), err.Error())
	assert.NotContains(t, err.Error(), "REQUEST_TIME_OUT")
}

func TestConvertDeadlines(t *testing.T) {
	tests := []struct {
		name     string
		in       error
		want     string
		deadline bool // errors.Is(err, context.DeadlineExceeded)
		timeout  bool // errors.Is(err, flusserr.RequestTimeOut)
		canceled bool
		notSent  bool
	}{
		{
			name:     "caller's deadline",
			in:       &rpc.TimeoutError{Addr: "h:1", API: protocol.CreateTable, Err: context.DeadlineExceeded, Cause: context.DeadlineExceeded, Elapsed: 3 * time.Second, Sent: true},
			want:     "fluss: context deadline exceeded after 3s waiting for CREATE_TABLE(1005) from h:1",
			deadline: true, timeout: true,
		},
		{
			name:     "caller's deadline before the connection",
			in:       &rpc.TimeoutError{Addr: "h:1", Err: context.DeadlineExceeded, Cause: context.DeadlineExceeded, Elapsed: 2500 * time.Millisecond},
			want:     "fluss: context deadline exceeded after 2.5s connecting to h:1",
			deadline: true, timeout: true, notSent: true,
		},
		{
			name:     "request timeout",
			in:       &rpc.TimeoutError{Addr: "h:1", API: protocol.CreateTable, Err: context.DeadlineExceeded, Cause: rpc.ErrRequestTimeout, Elapsed: 30 * time.Second, Sent: true},
			want:     "fluss: REQUEST_TIME_OUT: no answer to CREATE_TABLE(1005) from h:1 within the request timeout (30s)",
			deadline: true, timeout: true,
		},
		{
			name:    "the server's REQUEST_TIME_OUT",
			in:      &rpc.ResponseError{Code: int32(flusserr.RequestTimeOut), Message: "The request time out."},
			want:    "fluss: REQUEST_TIME_OUT: The request time out.",
			timeout: true,
		},
		{
			name:     "cancelled",
			in:       &rpc.TimeoutError{Addr: "h:1", API: protocol.CreateTable, Err: context.Canceled, Cause: context.Canceled, Elapsed: time.Second, Sent: true},
			want:     "fluss: context canceled after 1s waiting for CREATE_TABLE(1005) from h:1",
			canceled: true,
		},
		{
			name:    "refused",
			in:      &rpc.ConnError{Addr: "h:1", Op: "dial", Err: &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}, Msg: "dial h:1: connection refused"},
			want:    "fluss: NETWORK_EXCEPTION: dial h:1: connection refused",
			notSent: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := convertErr(tt.in)
			assert.Equal(t, tt.want, err.Error())
			assert.Equal(t, tt.deadline, errors.Is(err, context.DeadlineExceeded))
			assert.Equal(t, tt.timeout, errors.Is(err, flusserr.RequestTimeOut))
			assert.Equal(t, tt.canceled, errors.Is(err, context.Canceled))
			var fe *Error
			if errors.As(err, &fe) {
				assert.Equal(t, tt.notSent, fe.NotSent)
			}
		})
	}
}

// TestUnreachableCoordinatorCostsOneConnectTimeout checks that a DDL call
// whose coordinator does not answer is not dialed again at the same address.
func TestUnreachableCoordinatorCostsOneConnectTimeout(t *testing.T) {
	const connectTimeout = 300 * time.Millisecond
	tests := []struct {
		name   string
		coord  func(t *testing.T) string
		want   string
		within time.Duration
	}{
		{"refused", deadAddr, "dial {0}: connection refused", 500 * time.Millisecond},
		{"silent", silentAddr, "the server at {0} did not answer the handshake within DUR", 2*connectTimeout - 50*time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			coord := tt.coord(t)
			s := &startingServer{coordinator: coord}
			s.addr = listen(t, s.serve)
			c, err := Connect(context.Background(), Config{BootstrapServers: []string{s.addr}, ConnectTimeout: connectTimeout})
			require.NoError(t, err)
			defer c.Close()
			start := time.Now()
			err = c.Admin().CreateDatabase(context.Background(), "db", DatabaseDescriptor{}, false)
			elapsed := time.Since(start)
			require.Error(t, err)
			assert.Less(t, elapsed, tt.within)
			assert.Regexp(t, msgPattern(tt.want, []string{coord}), err.Error())
			var fe *Error
			require.ErrorAs(t, err, &fe)
			assert.Equal(t, flusserr.NetworkException, fe.Code)
			assert.True(t, fe.NotSent)
		})
	}
}

// A coordinator that is still starting answers UNKNOWN_SERVER_ERROR "… is not initialized
// yet": Connect waits for it, as for a cluster without tablet servers; other unknown server
// errors are not waited out.
func TestConnectWaitsForAStartingCoordinator(t *testing.T) {
	starting := &Error{Code: flusserr.UnknownServerError, Message: "java.lang.IllegalStateException: CoordinatorEventProcessor is not initialized yet.\n\tat org.apache.fluss…"}
	other := &Error{Code: flusserr.UnknownServerError, Message: "java.lang.NullPointerException"}
	assert.True(t, worthWaiting([]error{starting}))
	assert.True(t, worthWaiting([]error{other, starting}))
	assert.False(t, worthWaiting([]error{other}))
}
