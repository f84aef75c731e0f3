package rpc

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"

	"github.com/flussql/flussql/fluss/internal/protocol"
)

func dialFake(t *testing.T, s *fakeServer, opts Options) *Conn {
	t.Helper()
	c, err := Dial(context.Background(), s.addr(), opts)
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	return c
}

func existsReq(db string) *protocol.DatabaseExistsRequest {
	return &protocol.DatabaseExistsRequest{DatabaseName: proto.String(db)}
}

func TestHandshakeNegotiatesVersions(t *testing.T) {
	s := newFakeServer(t, func(*fakeConn, RequestHeader, []byte) {})
	s.stype = 1
	s.apis = []*protocol.PbApiVersion{
		{ApiKey: proto.Int32(int32(protocol.APIVersions)), MinVersion: proto.Int32(0), MaxVersion: proto.Int32(0)},
		{ApiKey: proto.Int32(int32(protocol.CreateTable)), MinVersion: proto.Int32(0), MaxVersion: proto.Int32(0)},
		{ApiKey: proto.Int32(int32(protocol.Lookup)), MinVersion: proto.Int32(0), MaxVersion: proto.Int32(0)}, // a 0.8 server
		{ApiKey: proto.Int32(int32(protocol.PutKv)), MinVersion: proto.Int32(0), MaxVersion: proto.Int32(2)},  // a 1.0 server
	}
	c := dialFake(t, s, Options{})
	assert.Equal(t, protocol.ServerTypeCoordinator, c.ServerType())

	v, err := c.Version(protocol.CreateTable)
	require.NoError(t, err)
	assert.Equal(t, int16(0), v)
	v, err = c.Version(protocol.PutKv)
	require.NoError(t, err)
	assert.Equal(t, int16(2), v, "PUT_KV v2 with a 1.0 server (the client understands STORAGE_BACKPRESSURE_EXCEPTION); v1 with 0.9 (0..1)")

	_, err = c.Version(protocol.Lookup)
	var ue *UnsupportedAPIError
	require.ErrorAs(t, err, &ue)
	assert.True(t, ue.Listed)
	assert.Contains(t, err.Error(), "LOOKUP(1017) versions 0..0")

	_, err = c.Version(protocol.ProduceLog)
	require.ErrorAs(t, err, &ue)
	assert.False(t, ue.Listed)
	assert.Contains(t, err.Error(), "(coordinator) does not serve PRODUCE_LOG(1014)")
}

func TestCallUnsupportedAPISendsNothing(t *testing.T) {
	var got atomic.Int32
	s := newFakeServer(t, func(*fakeConn, RequestHeader, []byte) { got.Add(1) })
	s.apis = s.apis[:1] // ApiVersions only
	c := dialFake(t, s, Options{})
	err := c.Call(context.Background(), protocol.DatabaseExists, existsReq("x"), &protocol.DatabaseExistsResponse{})
	var ue *UnsupportedAPIError
	require.ErrorAs(t, err, &ue)
	time.Sleep(50 * time.Millisecond)
	assert.Zero(t, got.Load())
}

func TestCallMissingRequiredFieldSendsNothing(t *testing.T) {
	var got atomic.Int32
	s := newFakeServer(t, func(*fakeConn, RequestHeader, []byte) { got.Add(1) })
	c := dialFake(t, s, Options{})
	err := c.Call(context.Background(), protocol.DropDatabase,
		&protocol.DropDatabaseRequest{DatabaseName: proto.String("d")}, &protocol.DropDatabaseResponse{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "required field")
	time.Sleep(50 * time.Millisecond)
	assert.Zero(t, got.Load())
	assert.NoError(t, c.Err(), "a local encoding error leaves the connection usable")
}

// TestPipelinedOutOfOrder sends many requests at once; the server answers
// them in reverse order; each caller must get its own answer.
func TestPipelinedOutOfOrder(t *testing.T) {
	const n = 50
	var mu sync.Mutex
	var held []func()
	s := newFakeServer(t, func(c *fakeConn, h RequestHeader, body []byte) {
		var req protocol.DatabaseExistsRequest
		require.NoError(t, proto.Unmarshal(body, &req))
		name := req.GetDatabaseName()
		mu.Lock()
		held = append(held, func() {
			// exists is true for even-numbered names: the answer identifies the request.
			var i int
			fmt.Sscanf(name, "db%d", &i)
			c.ok(h.RequestID, &protocol.DatabaseExistsResponse{Exists: proto.Bool(i%2 == 0)})
		})
		if len(held) == n {
			for i := len(held) - 1; i >= 0; i-- {
				held[i]()
			}
		}
		mu.Unlock()
	})
	c := dialFake(t, s, Options{})
	var wg sync.WaitGroup
	errs := make([]error, n)
	answers := make([]bool, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var resp protocol.DatabaseExistsResponse
			errs[i] = c.Call(context.Background(), protocol.DatabaseExists, existsReq(fmt.Sprintf("db%d", i)), &resp)
			answers[i] = resp.GetExists()
		}()
	}
	wg.Wait()
	for i := range n {
		require.NoError(t, errs[i])
		assert.Equal(t, i%2 == 0, answers[i], "request %d", i)
	}
}

func TestErrorResponse(t *testing.T) {
	s := newFakeServer(t, func(c *fakeConn, h RequestHeader, _ []byte) {
		c.fail(h.RequestID, 7, "Table 'fluss.nope' does not exist.")
	})
	c := dialFake(t, s, Options{})
	err := c.Call(context.Background(), protocol.GetTableInfo,
		&protocol.GetTableInfoRequest{TablePath: &protocol.PbTablePath{DatabaseName: proto.String("fluss"), TableName: proto.String("nope")}},
		&protocol.GetTableInfoResponse{})
	var re *ResponseError
	require.ErrorAs(t, err, &re)
	assert.Equal(t, int32(7), re.Code)
	assert.Equal(t, "Table 'fluss.nope' does not exist.", re.Message)
	assert.NoError(t, c.Err())
}

func TestSilenceEndsAtDeadline(t *testing.T) {
	late := make(chan func(), 1)
	s := newFakeServer(t, func(c *fakeConn, h RequestHeader, _ []byte) {
		if h.APIKey == protocol.CreateTable { // dropped, answered only later
			late <- func() { c.ok(h.RequestID, &protocol.CreateTableResponse{}) }
			return
		}
		c.ok(h.RequestID, &protocol.DatabaseExistsResponse{Exists: proto.Bool(true)})
	})
	c := dialFake(t, s, Options{})

	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	err := c.Call(ctx, protocol.CreateTable, &protocol.CreateTableRequest{
		TablePath:      &protocol.PbTablePath{DatabaseName: proto.String("d"), TableName: proto.String("t")},
		TableJson:      []byte("{}"),
		IgnoreIfExists: proto.Bool(false),
	}, &protocol.CreateTableResponse{})
	assert.Less(t, time.Since(start), 2*time.Second)
	var te *TimeoutError
	require.ErrorAs(t, err, &te)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Contains(t, err.Error(), "CREATE_TABLE(1005)")

	// The late answer is discarded and the connection keeps working.
	(<-late)()
	var resp protocol.DatabaseExistsResponse
	require.NoError(t, c.Call(context.Background(), protocol.DatabaseExists, existsReq("d"), &resp))
	assert.True(t, resp.GetExists())
}

func TestDefaultRequestTimeout(t *testing.T) {
	s := newFakeServer(t, func(*fakeConn, RequestHeader, []byte) {})
	c := dialFake(t, s, Options{RequestTimeout: 80 * time.Millisecond})
	start := time.Now()
	err := c.Call(context.Background(), protocol.DatabaseExists, existsReq("d"), &protocol.DatabaseExistsResponse{})
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Less(t, time.Since(start), 2*time.Second)
}

func TestCloseFailsInFlight(t *testing.T) {
	received := make(chan struct{}, 10)
	s := newFakeServer(t, func(*fakeConn, RequestHeader, []byte) { received <- struct{}{} })
	c, err := Dial(context.Background(), s.addr(), Options{RequestTimeout: -1})
	require.NoError(t, err)

	errc := make(chan error, 3)
	for range 3 {
		go func() {
			errc <- c.Call(context.Background(), protocol.DatabaseExists, existsReq("d"), &protocol.DatabaseExistsResponse{})
		}()
	}
	for range 3 {
		<-received
	}
	require.NoError(t, c.Close())
	for range 3 {
		select {
		case err := <-errc:
			assert.ErrorIs(t, err, ErrClosed)
		case <-time.After(2 * time.Second):
			t.Fatal("call still blocked after Close")
		}
	}
	select {
	case <-c.readerDone:
	default:
		t.Fatal("reader goroutine still running after Close")
	}
	assert.ErrorIs(t, c.Call(context.Background(), protocol.DatabaseExists, existsReq("d"), &protocol.DatabaseExistsResponse{}), ErrClosed)
	assert.NoError(t, c.Close(), "Close is idempotent")
}

func TestServerFailureFailsAll(t *testing.T) {
	var count atomic.Int32
	s := newFakeServer(t, func(c *fakeConn, h RequestHeader, _ []byte) {
		if count.Add(1) == 2 {
			b, _ := proto.Marshal(&protocol.ErrorResponse{ErrorCode: proto.Int32(-1), ErrorMessage: proto.String("frame too big")})
			c.reply(Response{Type: ServerFailure, Body: b})
		}
	})
	c := dialFake(t, s, Options{})
	errc := make(chan error, 2)
	for range 2 {
		go func() {
			errc <- c.Call(context.Background(), protocol.DatabaseExists, existsReq("d"), &protocol.DatabaseExistsResponse{})
		}()
	}
	for range 2 {
		err := <-errc
		var sf *ServerFailureError
		require.ErrorAs(t, err, &sf)
		assert.Equal(t, "frame too big", sf.Message)
	}
	assert.Error(t, c.Err())
}

func TestPeerCloseFailsInFlightAndPoolReconnects(t *testing.T) {
	var s *fakeServer
	var first atomic.Bool
	s = newFakeServer(t, func(c *fakeConn, h RequestHeader, _ []byte) {
		if first.CompareAndSwap(false, true) {
			go s.dropConns()
			return
		}
		c.ok(h.RequestID, &protocol.DatabaseExistsResponse{Exists: proto.Bool(true)})
	})
	p := NewPool(Options{})
	defer p.Close()

	c1, err := p.Get(context.Background(), s.addr())
	require.NoError(t, err)
	err = c1.Call(context.Background(), protocol.DatabaseExists, existsReq("d"), &protocol.DatabaseExistsResponse{})
	var ce *ConnError
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, "read", ce.Op)

	c2, err := p.Get(context.Background(), s.addr())
	require.NoError(t, err)
	assert.NotSame(t, c1, c2)
	var resp protocol.DatabaseExistsResponse
	require.NoError(t, c2.Call(context.Background(), protocol.DatabaseExists, existsReq("d"), &resp))
	assert.True(t, resp.GetExists())
	assert.Equal(t, int32(2), s.accepted.Load())

	c3, err := p.Get(context.Background(), s.addr())
	require.NoError(t, err)
	assert.Same(t, c2, c3, "a healthy connection is reused")

	require.NoError(t, p.Close())
	assert.ErrorIs(t, c2.Err(), ErrClosed)
	_, err = p.Get(context.Background(), s.addr())
	assert.ErrorIs(t, err, ErrClosed)
}

func TestPoolConcurrentGetDialsOnce(t *testing.T) {
	s := newFakeServer(t, func(*fakeConn, RequestHeader, []byte) {})
	p := NewPool(Options{})
	defer p.Close()
	var wg sync.WaitGroup
	conns := make([]*Conn, 8)
	for i := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := p.Get(context.Background(), s.addr())
			assert.NoError(t, err)
			conns[i] = c
		}()
	}
	wg.Wait()
	for _, c := range conns {
		assert.Same(t, conns[0], c)
	}
	assert.Equal(t, int32(1), s.accepted.Load())
}

// Each lane of an address is a connection of its own: reused, and failing alone.
func TestPoolLanes(t *testing.T) {
	s := newFakeServer(t, func(c *fakeConn, h RequestHeader, _ []byte) {
		c.ok(h.RequestID, &protocol.DatabaseExistsResponse{Exists: proto.Bool(true)})
	})
	p := NewPool(Options{})
	defer p.Close()
	ctx := context.Background()
	get := func(lane int) *Conn {
		c, err := p.GetLane(ctx, s.addr(), lane)
		require.NoError(t, err)
		return c
	}
	c0, c1, c2 := get(0), get(1), get(2)
	assert.NotSame(t, c0, c1)
	assert.NotSame(t, c1, c2)
	plain, err := p.Get(ctx, s.addr())
	require.NoError(t, err)
	assert.Same(t, c0, plain, "lane 0 is Get's connection")
	assert.Same(t, c1, get(1), "a lane's healthy connection is reused")
	assert.Equal(t, int32(3), s.accepted.Load())

	require.NoError(t, c1.Close())
	fresh := get(1)
	assert.NotSame(t, c1, fresh, "a failed lane dials again")
	assert.NoError(t, c0.Err(), "the other lanes are untouched")
	assert.NoError(t, c2.Err())
	var resp protocol.DatabaseExistsResponse
	require.NoError(t, fresh.Call(ctx, protocol.DatabaseExists, existsReq("d"), &resp))
	assert.Equal(t, int32(4), s.accepted.Load())

	require.NoError(t, p.Close())
	for _, c := range []*Conn{c0, fresh, c2} {
		assert.ErrorIs(t, c.Err(), ErrClosed, "Close closes every lane")
	}
}

func saslServer(t *testing.T, retriable int) (*fakeServer, *atomic.Int32) {
	var other atomic.Int32
	var left = int32(retriable)
	s := newFakeServer(t, func(c *fakeConn, h RequestHeader, body []byte) {
		if h.APIKey != protocol.Authenticate {
			other.Add(1)
			c.ok(h.RequestID, &protocol.DatabaseExistsResponse{Exists: proto.Bool(true)})
			return
		}
		var req protocol.AuthenticateRequest
		require.NoError(t, proto.Unmarshal(body, &req))
		switch {
		case req.GetProtocol() != "PLAIN":
			c.fail(h.RequestID, 46, "Authenticate protocol not match")
		case atomic.AddInt32(&left, -1) >= 0:
			c.fail(h.RequestID, 51, "try again")
		case string(req.GetToken()) == "\x00admin\x00admin-secret":
			c.ok(h.RequestID, &protocol.AuthenticateResponse{Challenge: []byte{}})
		default:
			c.fail(h.RequestID, 46, "Authentication failed: Invalid username or password")
		}
	})
	return s, &other
}

func TestSASLPlain(t *testing.T) {
	s, _ := saslServer(t, 2)
	c := dialFake(t, s, Options{Credentials: &Credentials{Username: "admin", Password: "admin-secret"}})
	var resp protocol.DatabaseExistsResponse
	require.NoError(t, c.Call(context.Background(), protocol.DatabaseExists, existsReq("d"), &resp))
}

func TestSASLWrongPassword(t *testing.T) {
	s, other := saslServer(t, 0)
	_, err := Dial(context.Background(), s.addr(), Options{Credentials: &Credentials{Username: "admin", Password: "wrong"}})
	var re *ResponseError
	require.ErrorAs(t, err, &re)
	assert.Equal(t, int32(46), re.Code)
	assert.Contains(t, err.Error(), "Invalid username or password")
	assert.NotContains(t, err.Error(), "wrong")
	assert.Zero(t, other.Load())
}

func TestSASLNotServed(t *testing.T) {
	s := newFakeServer(t, func(*fakeConn, RequestHeader, []byte) {})
	s.apis = s.apis[:1]
	_, err := Dial(context.Background(), s.addr(), Options{Credentials: &Credentials{Username: "a", Password: "b"}})
	var ue *UnsupportedAPIError
	require.True(t, errors.As(err, &ue), "got %v", err)
}

// TestOtherWriteFailureLeavesWrittenRequestsSent: when the connection fails because of
// another request's write that wrote nothing (Sent false), a request whose frame was already
// written and awaits its answer fails as sent — the server may have acted on it. A write
// batch in such a request used to be reported as never sent (not written) although stored.
func TestOtherWriteFailureLeavesWrittenRequestsSent(t *testing.T) {
	received := make(chan struct{}, 1)
	s := newFakeServer(t, func(*fakeConn, RequestHeader, []byte) { received <- struct{}{} }) // never answers
	c := dialFake(t, s, Options{RequestTimeout: -1})
	errc := make(chan error, 1)
	go func() {
		errc <- c.Call(context.Background(), protocol.DatabaseExists, existsReq("d"), &protocol.DatabaseExistsResponse{})
	}()
	<-received // the frame is written whole and the call waits for its answer
	c.fail(&ConnError{Addr: c.addr, Op: "write", Sent: false, Err: errors.New("i/o timeout")})
	select {
	case err := <-errc:
		var ce *ConnError
		require.ErrorAs(t, err, &ce)
		assert.True(t, ce.Sent, "the waiting request's frame was written: %v", err)
	case <-time.After(2 * time.Second):
		t.Fatal("call still blocked after the connection failed")
	}
}
