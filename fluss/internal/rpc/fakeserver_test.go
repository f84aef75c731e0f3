package rpc

import (
	"bufio"
	"net"
	"sync"
	"sync/atomic"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/flussql/flussql/fluss/internal/protocol"
)

// fakeServer is a loopback TCP server speaking Fluss framing. Each request
// goes to handle, which may write any number of frames (or none) with reply.
type fakeServer struct {
	t      *testing.T
	ln     net.Listener
	apis   []*protocol.PbApiVersion
	stype  int32
	handle func(s *fakeConn, h RequestHeader, body []byte)

	accepted atomic.Int32
	wg       sync.WaitGroup
	mu       sync.Mutex
	conns    []net.Conn
}

type fakeConn struct {
	nc  net.Conn
	wmu sync.Mutex
}

func (c *fakeConn) reply(r Response) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, _ = c.nc.Write(AppendResponse(nil, r))
}

func (c *fakeConn) ok(id int32, m proto.Message) {
	b, err := proto.Marshal(m)
	if err != nil {
		panic(err)
	}
	c.reply(Response{Type: SuccessResponse, RequestID: id, Body: b})
}

func (c *fakeConn) fail(id int32, code int32, msg string) {
	b, _ := proto.Marshal(&protocol.ErrorResponse{ErrorCode: proto.Int32(code), ErrorMessage: proto.String(msg)})
	c.reply(Response{Type: ErrorResponse, RequestID: id, Body: b})
}

// allAPIs lists every API the client knows at the client's versions.
func allAPIs() []*protocol.PbApiVersion {
	var out []*protocol.PbApiVersion
	for k := protocol.APIKey(1000); k < 1100; k++ {
		if v, ok := protocol.ClientVersions(k); ok {
			out = append(out, &protocol.PbApiVersion{ApiKey: proto.Int32(int32(k)), MinVersion: proto.Int32(0), MaxVersion: proto.Int32(int32(v.Max))})
		}
	}
	return out
}

func newFakeServer(t *testing.T, handle func(s *fakeConn, h RequestHeader, body []byte)) *fakeServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &fakeServer{t: t, ln: ln, apis: allAPIs(), stype: 2, handle: handle}
	s.wg.Add(1)
	go s.serve()
	t.Cleanup(s.close)
	return s
}

func (s *fakeServer) addr() string { return s.ln.Addr().String() }

func (s *fakeServer) serve() {
	defer s.wg.Done()
	for {
		nc, err := s.ln.Accept()
		if err != nil {
			return
		}
		s.accepted.Add(1)
		s.mu.Lock()
		s.conns = append(s.conns, nc)
		s.mu.Unlock()
		s.wg.Add(1)
		go s.serveConn(&fakeConn{nc: nc})
	}
}

func (s *fakeServer) serveConn(c *fakeConn) {
	defer s.wg.Done()
	defer c.nc.Close()
	br := bufio.NewReader(c.nc)
	for {
		p, err := ReadFrame(br, 1<<20)
		if err != nil {
			return
		}
		h, body, err := ParseRequest(p)
		if err != nil {
			return
		}
		if h.APIKey == protocol.APIVersions {
			c.ok(h.RequestID, &protocol.ApiVersionsResponse{ApiVersions: s.apis, ServerType: proto.Int32(s.stype)})
			continue
		}
		s.handle(c, h, body)
	}
}

// dropConns closes every accepted connection from the server side.
func (s *fakeServer) dropConns() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.conns {
		_ = c.Close()
	}
	s.conns = nil
}

func (s *fakeServer) close() {
	_ = s.ln.Close()
	s.dropConns()
	s.wg.Wait()
}
