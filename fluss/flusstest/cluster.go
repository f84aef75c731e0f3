package flusstest

import (
	"bufio"
	"fmt"
	"net"
	"strconv"
	"sync"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/flussql/flussql/fluss/internal/protocol"
	"github.com/flussql/flussql/fluss/internal/rpc"
)

// Cluster is a fake Fluss cluster: a coordinator (node id 0) and tablet servers (node ids
// 1..n) on loopback listeners sharing one in-memory catalog and storage. Its methods are safe
// for concurrent use.
type Cluster struct {
	tb      testing.TB
	coord   *node
	tablets []*node
	cfg     config

	mu          sync.Mutex
	calls       map[APIKey]int
	serverCalls map[serverCall]int
	faults      []*activeFault
	cat         catalog
	// writers counts the writer ids handed out by INIT_WRITER.
	writers int64
	// tableMeta counts the metadata requests naming each table ("db.table").
	tableMeta map[string]int
	onRequest func(api APIKey, node int32, call int)
	// served are the handlers that Serve added, for APIs the fake does not model.
	served  map[APIKey]func(body []byte) (proto.Message, error)
	onFetch func(node, bucket int32, offset int64) int32
	// fetchRows counts each server's bucket answers to FETCH_LOG that carried rows.
	fetchRows map[int32]int
	wg        sync.WaitGroup
}

// Option configures a Cluster in New.
type Option func(*config)

type config struct {
	tablets         int
	batchesPerFetch int
	maxWait         time.Duration
}

// WithTabletServers sets the number of tablet servers (default 1). Bucket b of a table is led
// by tablet server b%n+1 until SetLeader moves it.
func WithTabletServers(n int) Option { return func(c *config) { c.tablets = max(n, 1) } }

// WithBatchesPerFetch bounds the log batches one FETCH_LOG answer carries per bucket (default
// unbounded, up to the request's byte limits), so a scan needs several fetches.
func WithBatchesPerFetch(n int) Option { return func(c *config) { c.batchesPerFetch = n } }

// WithMaxWait caps how long a FETCH_LOG with nothing to send is held (default 20 ms, or the
// request's max_wait_ms when shorter).
func WithMaxWait(d time.Duration) Option { return func(c *config) { c.maxWait = d } }

// New starts a cluster; it is closed when the test ends. The database "fluss" exists, as on
// a fresh real cluster. Errors of the cluster's helpers (a CreateTable that fails) fail tb.
func New(tb testing.TB, opts ...Option) *Cluster {
	tb.Helper()
	c, err := start(tb, opts)
	if err != nil {
		tb.Fatalf("flusstest: %v", err)
	}
	tb.Cleanup(c.Close)
	return c
}

// Start starts a cluster outside a test (an example, a TestMain); the caller closes it.
// Errors of its helpers panic.
func Start(opts ...Option) (*Cluster, error) { return start(nil, opts) }

func start(tb testing.TB, opts []Option) (*Cluster, error) {
	cfg := config{tablets: 1, maxWait: 20 * time.Millisecond}
	for _, o := range opts {
		o(&cfg)
	}
	c := &Cluster{tb: tb, cfg: cfg, calls: map[APIKey]int{}, serverCalls: map[serverCall]int{}, cat: newCatalog(), tableMeta: map[string]int{}, fetchRows: map[int32]int{}}
	var err error
	if c.coord, err = c.listen(0); err != nil {
		return nil, err
	}
	for i := 1; i <= cfg.tablets; i++ {
		n, err := c.listen(int32(i))
		if err != nil {
			c.Close()
			return nil, err
		}
		c.tablets = append(c.tablets, n)
	}
	return c, nil
}

// fatalf fails the test of the cluster, or panics for a cluster of Start.
func (c *Cluster) fatalf(format string, args ...any) {
	if c.tb == nil {
		panic(fmt.Sprintf("flusstest: "+format, args...))
	}
	c.tb.Helper()
	c.tb.Fatalf("flusstest: "+format, args...)
}

func (c *Cluster) helper() {
	if c.tb != nil {
		c.tb.Helper()
	}
}

// Addr returns the coordinator's address, the bootstrap server of a client.
func (c *Cluster) Addr() string { return c.coord.addr }

// TabletAddr returns the address of tablet server id (1..n).
func (c *Cluster) TabletAddr(id int32) string { return c.tablet(id).addr }

// Close stops every server and waits for their goroutines. It is safe to call twice.
func (c *Cluster) Close() {
	if c.coord == nil {
		return
	}
	c.coord.kill()
	for _, n := range c.tablets {
		n.kill()
	}
	c.wg.Wait()
}

// OnRequest sets a function called for every request before it is answered (nil: none),
// with its API, the server it came to and its number among the cluster's requests of that
// API (1 for the first). It runs on the request's goroutine; it may call the Cluster's
// methods, e.g. to move a leader after the n-th metadata request.
func (c *Cluster) OnRequest(f func(api APIKey, node int32, call int)) {
	c.mu.Lock()
	c.onRequest = f
	c.mu.Unlock()
}

// ServerCalls returns how many requests of api server id (0: the coordinator) received.
func (c *Cluster) ServerCalls(api APIKey, id int32) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.serverCalls[serverCall{api, id}]
}

// Connections returns how many client connections server id (0: the coordinator) has open.
func (c *Cluster) Connections(id int32) int {
	n := c.node(id)
	n.mu.Lock()
	defer n.mu.Unlock()
	return len(n.conns)
}

// OnFetch sets a function called for each bucket of each FETCH_LOG request (nil: none),
// with the server, the bucket and the fetch offset, before the bucket is answered; a code
// other than 0 is answered for the bucket instead of rows. It runs without the cluster's
// lock: it may call the Cluster's methods (move a leader, kill a server).
func (c *Cluster) OnFetch(f func(node, bucket int32, offset int64) int32) {
	c.mu.Lock()
	c.onFetch = f
	c.mu.Unlock()
}

// FetchesWithRows returns how many bucket answers with rows server id has sent to FETCH_LOG
// requests.
func (c *Cluster) FetchesWithRows(id int32) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.fetchRows[id]
}

// MetadataCalls returns how many metadata requests named table db.name.
func (c *Cluster) MetadataCalls(db, name string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.tableMeta[db+"."+name]
}

// Calls returns how many requests of api the cluster has received (answered or not).
func (c *Cluster) Calls(api APIKey) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.calls[api]
}

// Kill makes server id (0: the coordinator) refuse connections and closes the ones it has,
// as when its process dies; Revive brings it back on the same port when it is free.
func (c *Cluster) Kill(id int32) { c.node(id).kill() }

// Revive restarts a killed server on its old address.
func (c *Cluster) Revive(id int32) {
	n := c.node(id)
	ln, err := net.Listen("tcp", n.addr)
	if err != nil {
		c.fatalf("reviving server %d on %s: %v", id, n.addr, err)
		return
	}
	n.mu.Lock()
	n.ln, n.dead = ln, false
	n.mu.Unlock()
	c.accept(n)
}

// Freeze makes server id read requests and never answer them (frozen true), as a stopped
// process does, or answer again (false).
func (c *Cluster) Freeze(id int32, frozen bool) {
	n := c.node(id)
	n.mu.Lock()
	n.frozen = frozen
	n.mu.Unlock()
}

// CutConnections closes every open connection of server id from the server side.
func (c *Cluster) CutConnections(id int32) { c.node(id).cut() }

func (c *Cluster) node(id int32) *node {
	if id == 0 {
		return c.coord
	}
	return c.tablet(id)
}

func (c *Cluster) tablet(id int32) *node {
	if id < 1 || int(id) > len(c.tablets) {
		c.fatalf("no tablet server %d (the cluster has %d)", id, len(c.tablets))
	}
	return c.tablets[id-1]
}

// node is one server: its listener and its open connections.
type node struct {
	id     int32
	addr   string
	mu     sync.Mutex
	ln     net.Listener
	conns  map[net.Conn]bool
	dead   bool
	frozen bool
}

func (c *Cluster) listen(id int32) (*node, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("listen: %w", err)
	}
	n := &node{id: id, ln: ln, addr: ln.Addr().String(), conns: map[net.Conn]bool{}}
	c.accept(n)
	return n, nil
}

func (c *Cluster) accept(n *node) {
	n.mu.Lock()
	ln := n.ln
	n.mu.Unlock()
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		for {
			nc, err := ln.Accept()
			if err != nil {
				return
			}
			n.mu.Lock()
			if n.dead {
				n.mu.Unlock()
				nc.Close()
				continue
			}
			n.conns[nc] = true
			n.mu.Unlock()
			c.wg.Add(1)
			go c.serveConn(n, nc)
		}
	}()
}

func (n *node) kill() {
	n.mu.Lock()
	n.dead = true
	n.ln.Close()
	n.mu.Unlock()
	n.cut()
}

func (n *node) cut() {
	n.mu.Lock()
	defer n.mu.Unlock()
	for nc := range n.conns {
		nc.Close()
	}
}

func (n *node) isFrozen() bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.frozen
}

func (n *node) pb() *protocol.PbServerNode {
	host, port, _ := net.SplitHostPort(n.addr)
	p, _ := strconv.Atoi(port)
	return &protocol.PbServerNode{NodeId: proto.Int32(n.id), Host: proto.String(host), Port: proto.Int32(int32(p))}
}

// maxFrame bounds a request frame; the driver's batches are far smaller.
const maxFrame = 64 << 20

// serveConn reads the requests of one connection and answers each in a goroutine of its own
// (a fetch may be held while later requests are answered, as on the real server).
func (c *Cluster) serveConn(n *node, nc net.Conn) {
	defer c.wg.Done()
	var wmu sync.Mutex
	var reqs sync.WaitGroup
	defer func() {
		nc.Close()
		reqs.Wait()
		n.mu.Lock()
		delete(n.conns, nc)
		n.mu.Unlock()
	}()
	br := bufio.NewReader(nc)
	for {
		p, err := rpc.ReadFrame(br, maxFrame)
		if err != nil {
			return
		}
		if n.isFrozen() {
			continue
		}
		h, body, err := rpc.ParseRequest(p)
		if err != nil {
			return
		}
		reqs.Add(1)
		go func() {
			defer reqs.Done()
			resp, ok := c.respond(n, nc, h, body)
			if !ok || n.isFrozen() {
				return
			}
			wmu.Lock()
			_, _ = nc.Write(resp)
			wmu.Unlock()
		}()
	}
}

// respond runs the faults and the handler of one request and returns the response frame,
// or false for no answer.
func (c *Cluster) respond(n *node, nc net.Conn, h rpc.RequestHeader, body []byte) ([]byte, bool) {
	f, call, hook := c.count(h.APIKey, n.id)
	if hook != nil {
		hook(h.APIKey, n.id, call)
	}
	req := &request{node: n, api: h.APIKey, body: body}
	if f != nil {
		switch f.Action {
		case Delay:
			time.Sleep(f.Delay)
		case Drop, Cut:
			if f.Apply {
				_, _ = c.handle(req)
			}
			if f.Action == Cut {
				nc.Close()
			}
			return nil, false
		case Fail:
			return errorFrame(h.RequestID, f.Code, f.message()), true
		case FailBuckets:
			req.bucketCode, req.bucketMsg = f.Code, f.message()
		case Empty:
			resp, err := c.handle(req)
			if err != nil || resp == nil {
				break
			}
			proto.Reset(resp)
			b, _ := proto.Marshal(resp)
			return rpc.AppendResponse(nil, rpc.Response{Type: rpc.SuccessResponse, RequestID: h.RequestID, Body: b}), true
		}
	}
	resp, err := c.handle(req)
	if err != nil {
		se, _ := err.(*serverError)
		if se == nil {
			se = &serverError{code: codeUnknownServerError, msg: err.Error()}
		}
		return errorFrame(h.RequestID, se.code, se.msg), true
	}
	if resp == nil {
		return nil, false
	}
	b, err := proto.Marshal(resp)
	if err != nil {
		return errorFrame(h.RequestID, codeUnknownServerError, err.Error()), true
	}
	return rpc.AppendResponse(nil, rpc.Response{Type: rpc.SuccessResponse, RequestID: h.RequestID, Body: b}), true
}

func errorFrame(id, code int32, msg string) []byte {
	b, _ := proto.Marshal(&protocol.ErrorResponse{ErrorCode: proto.Int32(code), ErrorMessage: proto.String(msg)})
	return rpc.AppendResponse(nil, rpc.Response{Type: rpc.ErrorResponse, RequestID: id, Body: b})
}

// request is one decoded request on its way to a handler.
type request struct {
	node *node
	api  APIKey
	body []byte
	// bucketCode, when not 0, is answered for every bucket of the request (FailBuckets).
	bucketCode int32
	bucketMsg  string
}

// serverError is an error a handler answers with an ErrorResponse frame.
type serverError struct {
	code int32
	msg  string
}

func (e *serverError) Error() string { return e.msg }

func errorf(code int32, msg string) error { return &serverError{code: code, msg: msg} }

// Serve makes the tablet servers list api in their ApiVersions answers and answer its
// requests with f, for an API the fake does not model (e.g. SCAN_KV of Fluss 1.0): f gets the
// request body and returns the response, or an error (an *Error-like server error from
// ServerError becomes the error answer; nil, nil means no answer). Call it before the client
// connects, so that the handshake lists the API.
func (c *Cluster) Serve(api APIKey, f func(body []byte) (proto.Message, error)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.served == nil {
		c.served = map[APIKey]func([]byte) (proto.Message, error){}
	}
	c.served[api] = f
}

// ServerError returns the error a Serve handler returns to answer with a Fluss error code.
func ServerError(code int32, msg string) error { return errorf(code, msg) }
