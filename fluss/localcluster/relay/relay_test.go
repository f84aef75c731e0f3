package relay

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/flussql/flussql/fluss/internal/protocol"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	produce  = int16(protocol.ProduceLog)
	fetch    = int16(protocol.FetchLog)
	metadata = int16(protocol.GetMetadata)
)

// fakeServer is a small Fluss frame server: it answers every request with a success response
// carrying the request id and the request body, after a per-api delay (so pipelined requests
// are answered out of order), and counts what it processed.
type fakeServer struct {
	ln        net.Listener
	delays    map[int16]time.Duration
	processed atomic.Int64
	wg        sync.WaitGroup
	mu        sync.Mutex
	conns     []net.Conn
}

func startFakeServer(t *testing.T, delays map[int16]time.Duration) *fakeServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	s := &fakeServer{ln: ln, delays: delays}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		for {
			nc, err := ln.Accept()
			if err != nil {
				return
			}
			s.mu.Lock()
			s.conns = append(s.conns, nc)
			s.mu.Unlock()
			s.wg.Add(1)
			go s.serve(nc)
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		s.mu.Lock()
		for _, c := range s.conns {
			c.Close()
		}
		s.mu.Unlock()
		s.wg.Wait()
	})
	return s
}

func (s *fakeServer) serve(nc net.Conn) {
	defer s.wg.Done()
	defer nc.Close()
	var wmu sync.Mutex
	var answers sync.WaitGroup
	defer answers.Wait()
	br := bufio.NewReader(nc)
	for {
		frame, err := readFrame(br, 1<<20)
		if err != nil {
			return
		}
		api, id, ok := requestHeader(frame)
		if !ok {
			return
		}
		s.processed.Add(1)
		body := frame[12:]
		answers.Add(1)
		go func() {
			defer answers.Done()
			time.Sleep(s.delays[api])
			wmu.Lock()
			defer wmu.Unlock()
			_, _ = nc.Write(responseFrame(0, id, body))
		}()
	}
}

func (s *fakeServer) addr() string { return s.ln.Addr().String() }

func requestFrame(api int16, id int32, body []byte) []byte {
	b := binary.BigEndian.AppendUint32(nil, uint32(8+len(body)))
	b = binary.BigEndian.AppendUint16(b, uint16(api))
	b = binary.BigEndian.AppendUint16(b, 0)
	b = binary.BigEndian.AppendUint32(b, uint32(id))
	return append(b, body...)
}

func responseFrame(typ byte, id int32, body []byte) []byte {
	b := binary.BigEndian.AppendUint32(nil, uint32(5+len(body)))
	b = append(b, typ)
	b = binary.BigEndian.AppendUint32(b, uint32(id))
	return append(b, body...)
}

// client is one test connection through the relay that collects responses by request id.
type client struct {
	nc   net.Conn
	got  chan response
	done chan struct{}
	err  atomic.Value
}

type response struct {
	id   int32
	body string
	at   time.Time
}

func dial(t *testing.T, addr string) *client {
	t.Helper()
	nc, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	c := &client{nc: nc, got: make(chan response, 1024), done: make(chan struct{})}
	go func() {
		defer close(c.done)
		br := bufio.NewReader(nc)
		for {
			frame, err := readFrame(br, 1<<20)
			if err != nil {
				c.err.Store(err)
				return
			}
			id, _ := responseRequestID(frame)
			c.got <- response{id: id, body: string(frame[9:]), at: time.Now()}
		}
	}()
	t.Cleanup(func() { nc.Close(); <-c.done })
	return c
}

func (c *client) send(t *testing.T, api int16, id int32, body string) {
	t.Helper()
	_, err := c.nc.Write(requestFrame(api, id, []byte(body)))
	require.NoError(t, err)
}

// collect returns the responses that arrive within wait.
func (c *client) collect(wait time.Duration) map[int32]response {
	out := map[int32]response{}
	timeout := time.After(wait)
	for {
		select {
		case r := <-c.got:
			out[r.id] = r
		case <-timeout:
			return out
		}
	}
}

// closed reports whether the connection ended (EOF or reset) within wait.
func (c *client) closed(wait time.Duration) bool {
	select {
	case <-c.done:
		return true
	case <-time.After(wait):
		return false
	}
}

func startRelay(t *testing.T, target string) *Relay {
	t.Helper()
	r, err := Start(target)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, r.Close()) })
	return r
}

func TestForwardsPipelinedRequests(t *testing.T) {
	// Produce answers slowest and metadata fastest, so answers come back out of order.
	srv := startFakeServer(t, map[int16]time.Duration{produce: 60 * time.Millisecond, fetch: 30 * time.Millisecond})
	r := startRelay(t, srv.addr())
	c := dial(t, r.Addr())
	apis := []int16{produce, fetch, metadata}
	const n = 60
	var wg sync.WaitGroup
	var mu sync.Mutex
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			mu.Lock()
			defer mu.Unlock()
			c.send(t, apis[i%3], int32(i), string(rune('a'+i%26)))
		}(i)
	}
	wg.Wait()
	got := c.collect(time.Second)
	require.Len(t, got, n)
	for i := 0; i < n; i++ {
		assert.Equal(t, string(rune('a'+i%26)), got[int32(i)].body, "response %d", i)
	}
	st := r.Stats()
	assert.Equal(t, int64(1), st.Accepted)
	assert.Equal(t, map[int16]int64{produce: n / 3, fetch: n / 3, metadata: n / 3}, st.Requests)
	assert.Equal(t, map[int16]int64{produce: n / 3, fetch: n / 3, metadata: n / 3}, st.Responses)
	assert.Zero(t, st.Dropped)
}

func TestDropNextResponse(t *testing.T) {
	tests := []struct {
		name     string
		drops    []int16
		sends    []int16 // api of request i (request id i)
		wantGone []int32
	}{
		{name: "first of the api is dropped", drops: []int16{produce}, sends: []int16{metadata, produce, produce}, wantGone: []int32{1}},
		{name: "two drops drop two", drops: []int16{produce, produce}, sends: []int16{produce, fetch, produce, produce}, wantGone: []int32{0, 2}},
		{name: "another api is untouched", drops: []int16{fetch}, sends: []int16{produce, metadata}},
		{name: "drops of two apis", drops: []int16{fetch, produce}, sends: []int16{produce, fetch, fetch}, wantGone: []int32{0, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := startFakeServer(t, nil)
			r := startRelay(t, srv.addr())
			c := dial(t, r.Addr())
			for _, api := range tt.drops {
				r.DropNextResponse(api)
			}
			for i, api := range tt.sends {
				c.send(t, api, int32(i), "x")
				time.Sleep(10 * time.Millisecond) // keep the answers in order
			}
			got := c.collect(300 * time.Millisecond)
			for i := range tt.sends {
				_, ok := got[int32(i)]
				assert.Equal(t, !contains(tt.wantGone, int32(i)), ok, "response %d", i)
			}
			assert.Equal(t, int64(len(tt.sends)), srv.processed.Load(), "the server processed every request")
			assert.Equal(t, int64(len(tt.wantGone)), r.Stats().Dropped)
			assert.False(t, c.closed(0), "the connection stays open")
			// The connection still works.
			c.send(t, metadata, 100, "after")
			assert.Equal(t, "after", c.collect(200 * time.Millisecond)[100].body)
		})
	}
}

func contains(s []int32, v int32) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

func TestDelayResponses(t *testing.T) {
	srv := startFakeServer(t, nil)
	r := startRelay(t, srv.addr())
	c := dial(t, r.Addr())
	const d = 300 * time.Millisecond
	r.DelayResponses(d)
	sent := time.Now()
	for i := 0; i < 5; i++ {
		c.send(t, fetch, int32(i), "x")
	}
	got := c.collect(d + 500*time.Millisecond)
	require.Len(t, got, 5)
	for id, resp := range got {
		took := resp.at.Sub(sent)
		assert.GreaterOrEqual(t, took, d, "response %d", id)
		assert.Less(t, took, d+250*time.Millisecond, "response %d: pipelined delays do not add up", id)
	}
	r.DelayResponses(0)
	sent = time.Now()
	c.send(t, fetch, 10, "x")
	got = c.collect(200 * time.Millisecond)
	require.Contains(t, got, int32(10))
	assert.Less(t, got[10].at.Sub(sent), 100*time.Millisecond)
}

func TestCut(t *testing.T) {
	srv := startFakeServer(t, nil)
	r := startRelay(t, srv.addr())
	c1, c2 := dial(t, r.Addr()), dial(t, r.Addr())
	c1.send(t, metadata, 1, "x")
	c2.send(t, metadata, 1, "x")
	require.Len(t, c1.collect(100*time.Millisecond), 1)
	require.Len(t, c2.collect(100*time.Millisecond), 1)
	r.Cut()
	assert.True(t, c1.closed(time.Second))
	assert.True(t, c2.closed(time.Second))
	assert.Equal(t, int64(2), r.Stats().Cut)
	require.Eventually(t, func() bool { return r.Conns() == 0 }, time.Second, 10*time.Millisecond)
	c3 := dial(t, r.Addr())
	c3.send(t, metadata, 2, "y")
	assert.Equal(t, "y", c3.collect(200 * time.Millisecond)[2].body, "new connections are relayed")
}

func TestBlackhole(t *testing.T) {
	srv := startFakeServer(t, nil)
	r := startRelay(t, srv.addr())
	existing := dial(t, r.Addr())
	existing.send(t, metadata, 1, "x")
	require.Len(t, existing.collect(100*time.Millisecond), 1)

	r.Blackhole(true)
	fresh := dial(t, r.Addr())
	for _, c := range []*client{existing, fresh} {
		c.send(t, produce, 2, "lost")
	}
	for name, c := range map[string]*client{"existing": existing, "new": fresh} {
		assert.Empty(t, c.collect(300*time.Millisecond), "%s connection gets no answer", name)
		assert.False(t, c.closed(0), "%s connection is silent, not closed", name)
	}
	assert.Equal(t, int64(1), srv.processed.Load(), "nothing reached the server")
	assert.Equal(t, int64(2), r.Stats().Discarded)

	r.Blackhole(false)
	for name, c := range map[string]*client{"existing": existing, "new": fresh} {
		c.send(t, metadata, 3, "back")
		assert.Equal(t, "back", c.collect(300 * time.Millisecond)[3].body, "%s connection works again", name)
	}
}

func TestBlackholeHidesADeadTarget(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	target := ln.Addr().String()
	ln.Close() // nothing listens there now
	r := startRelay(t, target)

	c := dial(t, r.Addr())
	assert.True(t, c.closed(time.Second), "without blackhole a dead target closes the client")

	r.Blackhole(true)
	c = dial(t, r.Addr())
	c.send(t, metadata, 1, "x")
	assert.False(t, c.closed(300*time.Millisecond), "with blackhole the client sees silence")
	r.Blackhole(false)
	assert.True(t, c.closed(time.Second), "when the blackhole ends the dead target shows")
}

func TestRefuseNew(t *testing.T) {
	srv := startFakeServer(t, nil)
	r := startRelay(t, srv.addr())
	existing := dial(t, r.Addr())
	// The dial returns once the kernel queued the connection; the relay accepts it a moment
	// later, and a connection it accepts after RefuseNew is refused.
	require.Eventually(t, func() bool { return r.Stats().Accepted == 1 }, 10*time.Second, 5*time.Millisecond,
		"the relay accepts the existing connection")
	r.RefuseNew(true)
	refused := dial(t, r.Addr())
	assert.True(t, refused.closed(time.Second), "a new connection is closed at once")
	existing.send(t, metadata, 1, "x")
	assert.Len(t, existing.collect(200*time.Millisecond), 1, "existing connections keep working")
	r.RefuseNew(false)
	c := dial(t, r.Addr())
	c.send(t, metadata, 1, "y")
	assert.Len(t, c.collect(200*time.Millisecond), 1)
	st := r.Stats()
	assert.Equal(t, int64(3), st.Accepted)
	assert.Equal(t, int64(1), st.Refused)
}

func TestServerFailurePassesThrough(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	go func() {
		nc, err := ln.Accept()
		if err != nil {
			return
		}
		defer nc.Close()
		if _, err := readFrame(nc, 1<<20); err != nil {
			return
		}
		// type 2: no request id
		_, _ = nc.Write(append(binary.BigEndian.AppendUint32(nil, 3), 2, 'n', 'o'))
		_, _ = io.Copy(io.Discard, nc)
	}()
	r := startRelay(t, ln.Addr().String())
	r.DropNextResponse(metadata)
	nc, err := net.Dial("tcp", r.Addr())
	require.NoError(t, err)
	defer nc.Close()
	_, err = nc.Write(requestFrame(metadata, 7, nil))
	require.NoError(t, err)
	require.NoError(t, nc.SetReadDeadline(time.Now().Add(time.Second)))
	frame, err := readFrame(nc, 1<<20)
	require.NoError(t, err)
	assert.Equal(t, []byte{0, 0, 0, 3, 2, 'n', 'o'}, frame)
	assert.Equal(t, int64(1), r.Stats().Responses[-1])
}

func TestBadFrameClosesConnection(t *testing.T) {
	srv := startFakeServer(t, nil)
	r := startRelay(t, srv.addr())
	c := dial(t, r.Addr())
	_, err := c.nc.Write([]byte{0xff, 0xff, 0xff, 0xff}) // negative length
	require.NoError(t, err)
	assert.True(t, c.closed(time.Second))
}

// TestCloseLeavesNoGoroutines closes a relay with connections in every state (relaying,
// delayed responses queued, blackholed, to a dead target) and checks that all of the relay's
// goroutines are gone.
func TestCloseLeavesNoGoroutines(t *testing.T) {
	srv := startFakeServer(t, nil)
	time.Sleep(50 * time.Millisecond)
	before := runtime.NumGoroutine()

	r, err := Start(srv.addr())
	require.NoError(t, err)
	var conns []net.Conn
	for i := 0; i < 3; i++ {
		nc, err := net.Dial("tcp", r.Addr())
		require.NoError(t, err)
		conns = append(conns, nc)
	}
	r.DelayResponses(time.Hour)
	_, err = conns[0].Write(requestFrame(fetch, 1, []byte("held")))
	require.NoError(t, err)
	r.Blackhole(true)
	_, err = conns[1].Write(requestFrame(fetch, 1, []byte("lost")))
	require.NoError(t, err)
	require.Eventually(t, func() bool { return r.Conns() == 3 }, time.Second, 10*time.Millisecond)
	time.Sleep(100 * time.Millisecond)

	done := make(chan error, 1)
	go func() { done <- r.Close() }()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not return")
	}
	for _, nc := range conns {
		require.NoError(t, nc.SetReadDeadline(time.Now().Add(time.Second)))
		_, err := nc.Read(make([]byte, 1))
		assert.True(t, errors.Is(err, io.EOF) || isReset(err), "client sees the close: %v", err)
		nc.Close()
	}
	_, err = net.DialTimeout("tcp", r.Addr(), time.Second)
	assert.Error(t, err, "the listener is closed")
	require.NoError(t, r.Close(), "a second Close is harmless")

	// The fake server's per-connection goroutines end when it sees the closes.
	deadline := time.Now().Add(3 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		buf := make([]byte, 1<<20)
		t.Fatalf("%d goroutines before Start, %d after Close:\n%s", before, n, buf[:runtime.Stack(buf, true)])
	}
}

func isReset(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && !op.Timeout() && !errors.Is(err, os.ErrDeadlineExceeded)
}

func TestReadFrame(t *testing.T) {
	tests := []struct {
		name    string
		in      []byte
		want    []byte
		wantErr error
	}{
		{name: "empty payload", in: []byte{0, 0, 0, 0}, want: []byte{0, 0, 0, 0}},
		{name: "payload", in: []byte{0, 0, 0, 2, 'a', 'b', 'c'}, want: []byte{0, 0, 0, 2, 'a', 'b'}},
		{name: "clean end", in: nil, wantErr: io.EOF},
		{name: "short prefix", in: []byte{0, 0}, wantErr: io.ErrUnexpectedEOF},
		{name: "short payload", in: []byte{0, 0, 0, 5, 'a'}, wantErr: io.ErrUnexpectedEOF},
		{name: "negative length", in: []byte{0x80, 0, 0, 0}, wantErr: errFrame},
		{name: "over the limit", in: []byte{0, 1, 0, 0}, wantErr: errFrame},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := readFrame(bytes.NewReader(tt.in), 1024)
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestHeaders(t *testing.T) {
	api, id, ok := requestHeader(requestFrame(produce, 42, []byte("b")))
	assert.True(t, ok)
	assert.Equal(t, produce, api)
	assert.Equal(t, int32(42), id)
	_, _, ok = requestHeader([]byte{0, 0, 0, 2, 1, 2})
	assert.False(t, ok)

	for _, typ := range []byte{0, 1} {
		id, ok := responseRequestID(responseFrame(typ, -7, nil))
		assert.True(t, ok)
		assert.Equal(t, int32(-7), id)
	}
	_, ok = responseRequestID(responseFrame(2, 1, nil))
	assert.False(t, ok, "a server failure carries no request id")
	_, ok = responseRequestID([]byte{0, 0, 0, 1, 0})
	assert.False(t, ok)
}
