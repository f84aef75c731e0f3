package fluss

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/flussql/flussql/fluss/flusserr"
	"github.com/flussql/flussql/fluss/internal/protocol"
	"github.com/flussql/flussql/fluss/internal/rpc"
)

// Client is a connection to a Fluss cluster. It keeps one connection per
// server, opened on first use and reopened after a failure, and caches
// cluster and table metadata. It is safe for concurrent use; Close it when
// done.
type Client struct {
	cfg  Config
	pool *rpc.Pool
	meta metadataCache
	log  *slog.Logger

	closeOnce sync.Once
	closed    chan struct{}
}

// Connect connects to the cluster through cfg.BootstrapServers and learns
// its coordinator and tablet servers.
//
// The bootstrap servers are asked at the same time; the first Fluss server
// to answer is used, so a dead address costs nothing when another answers.
// Connect fails only when none answers, and then says why for each address:
// nothing listens there ("connection refused", reported at once), the
// server accepted but did not answer the handshake within
// cfg.ConnectTimeout, the peer is not a Fluss server (reported as soon as
// its first bytes are read), authentication failed, and so on. The causes
// stay in the chain: errors.Is(err, syscall.ECONNREFUSED), errors.As(err,
// &fe) for a *fluss.Error.
//
// Connect waits, retrying with backoff up to cfg.ConnectTimeout, only for a
// cluster that is still starting: a Fluss server answers but lists no
// tablet server yet, or answers with a retriable error code (such as
// LEADER_NOT_AVAILABLE). Transport failures on every address (refused,
// reset, closed, not Fluss, not answered) and permanent answers
// (authentication, authorization, unsupported version) are not waited out.
// ctx bounds everything; when it ends first, the error reads as ctx's
// deadline (errors.Is(err, context.DeadlineExceeded)).
func Connect(ctx context.Context, cfg Config) (*Client, error) {
	cfg = cfg.withDefaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	c := &Client{
		cfg:    cfg,
		meta:   newMetadataCache(),
		log:    cfg.Logger,
		closed: make(chan struct{}),
	}
	opts := cfg.rpcOptions()
	opts.OnDial = c.logDial
	if cfg.Observer != nil {
		opts.OnRequest = c.observeRequest
	}
	c.pool = rpc.NewPool(opts)
	start := time.Now()
	wctx, cancel := context.WithTimeoutCause(ctx, cfg.ConnectTimeout, rpc.ErrConnectTimeout)
	defer cancel()
	backoff := 100 * time.Millisecond
	var waitedFor error // why the last attempt was worth waiting for
	for {
		errs := c.bootstrap(wctx)
		if errs == nil && len(c.meta.clusterState().tablets) == 0 {
			errs = []error{ErrNoTabletServer}
		}
		if errs == nil {
			return c, nil
		}
		worth := worthWaiting(errs)
		if worth {
			waitedFor = connectError(cfg, errs, time.Since(start))
		}
		if !worth || wctx.Err() != nil {
			c.Close()
			if waitedFor != nil && errors.Is(context.Cause(wctx), rpc.ErrConnectTimeout) {
				// The connect timeout ended the wait: report what was waited for.
				return nil, waitedFor
			}
			return nil, connectError(cfg, errs, time.Since(start))
		}
		select {
		case <-time.After(backoff):
		case <-wctx.Done():
		}
		backoff = min(2*backoff, time.Second)
	}
}

// bootstrap asks every bootstrap server for the cluster metadata at once
// and records the first answer. It returns nil on success, else one error
// per bootstrap server, in the configured order.
func (c *Client) bootstrap(ctx context.Context) []error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	addrs := c.cfg.BootstrapServers
	errs := make([]error, len(addrs))
	type answer struct {
		i    int
		resp *protocol.MetadataResponse
		err  error
	}
	answers := make(chan answer, len(addrs))
	for i, a := range addrs {
		go func() {
			var resp protocol.MetadataResponse
			err := c.callAddr(ctx, a, 0, protocol.GetMetadata, &protocol.MetadataRequest{}, &resp)
			answers <- answer{i, &resp, err}
		}()
	}
	for range addrs {
		a := <-answers
		if a.err == nil {
			c.meta.update(a.resp)
			return nil // the others are cancelled; their answers are dropped
		}
		errs[a.i] = a.err
	}
	return errs
}

// worthWaiting reports whether a failed connection attempt may succeed
// later by itself: the cluster is up but still starting.
func worthWaiting(errs []error) bool {
	for _, err := range errs {
		if errors.Is(err, ErrNoTabletServer) {
			return true
		}
		var fe *Error
		if errors.As(err, &fe) && fe.cause == nil && fe.Retriable() {
			return true // a retriable code the server sent
		}
		if errors.As(err, &fe) && fe.Code == flusserr.UnknownServerError && strings.Contains(fe.Message, "is not initialized yet") {
			return true // a coordinator that is starting ("CoordinatorEventProcessor is not initialized yet")
		}
	}
	return false
}

// connectionFailure is the error of a failed Connect: its message lists
// each bootstrap server's reason, and it wraps each of them.
type connectionFailure struct {
	msg  string
	errs []error
}

func (e *connectionFailure) Error() string   { return e.msg }
func (e *connectionFailure) Unwrap() []error { return e.errs }

func connectError(cfg Config, errs []error, waited time.Duration) error {
	through := strings.Join(cfg.BootstrapServers, ", ")
	if len(errs) == 1 && errors.Is(errs[0], ErrNoTabletServer) {
		return &connectionFailure{
			msg:  fmt.Sprintf("fluss: connecting through %s: the cluster reports no tablet server (waited %s)", through, waited.Round(100*time.Millisecond)),
			errs: errs,
		}
	}
	reasons := make([]string, 0, len(errs))
	for _, err := range errs {
		if err != nil {
			reasons = append(reasons, connectReason(err))
		}
	}
	msg := fmt.Sprintf("fluss: connecting through %s: %s", through, strings.Join(reasons, "; "))
	if len(reasons) > 1 {
		msg = fmt.Sprintf("fluss: connecting through %s: no bootstrap server answered: %s", through, strings.Join(reasons, "; "))
	}
	return &connectionFailure{msg: msg, errs: errs}
}

// connectReason states why one address failed, without the "fluss:"
// prefix and, for a transport failure, without the error code name (the
// message itself says what happened).
func connectReason(err error) string {
	var fe *Error
	if errors.As(err, &fe) && fe.Code == flusserr.NetworkException && fe.cause != nil && fe.Message != "" {
		return fe.Message
	}
	return strings.TrimPrefix(err.Error(), "fluss: ")
}

// Close closes every connection. Requests in flight fail; later calls
// return ErrClosed.
func (c *Client) Close() error {
	c.closeOnce.Do(func() {
		close(c.closed)
		_ = c.pool.Close()
	})
	return nil
}

func (c *Client) isClosed() bool {
	select {
	case <-c.closed:
		return true
	default:
		return false
	}
}

// Admin returns the administrative API of the client.
func (c *Client) Admin() *Admin { return &Admin{c: c} }

// ServerNodes returns the coordinator and tablet servers, fetched fresh.
func (c *Client) ServerNodes(ctx context.Context) ([]ServerNode, error) {
	if err := c.refreshCluster(ctx); err != nil {
		return nil, err
	}
	return c.meta.clusterState().nodes(), nil
}

// callNode sends req to node and decodes its answer into resp. The node's
// role is checked against the handshake: a request is never sent to a
// server of another type, which would drop it silently.
func (c *Client) callNode(ctx context.Context, node ServerNode, api protocol.APIKey, req, resp proto.Message) error {
	return c.callAddr(ctx, node.Addr(), node.Type, api, req, resp)
}

// callNodeLane is callNode over the node's connection of that lane (see rpc.Pool.GetLane).
func (c *Client) callNodeLane(ctx context.Context, node ServerNode, lane int, api protocol.APIKey, req, resp proto.Message) error {
	return c.callAddrLane(ctx, node.Addr(), lane, node.Type, api, req, resp)
}

func (c *Client) callAddr(ctx context.Context, addr string, want ServerType, api protocol.APIKey, req, resp proto.Message) error {
	return c.callAddrLane(ctx, addr, 0, want, api, req, resp)
}

func (c *Client) callAddrLane(ctx context.Context, addr string, lane int, want ServerType, api protocol.APIKey, req, resp proto.Message) error {
	if c.isClosed() {
		return ErrClosed
	}
	conn, err := c.pool.GetLane(ctx, addr, lane)
	if err != nil {
		// No connection: the request was not written.
		err = convertErr(err)
		var fe *Error
		if errors.As(err, &fe) {
			fe.NotSent = true
		}
		return err
	}
	if want != 0 && serverTypeOf(conn.ServerType()) != want {
		c.meta.invalidateCluster()
		return &Error{Code: flusserr.NetworkException, NotSent: true,
			Message: fmt.Sprintf("%s answered as %s, expected %s (stale metadata)", addr, conn.ServerType(), want)}
	}
	err = convertErr(conn.Call(ctx, api, req, resp))
	if byteCounter(ctx) != nil {
		n := proto.Size(req)
		if err == nil {
			n += proto.Size(resp)
		}
		countBytes(ctx, int64(n))
	}
	var fe *Error
	if errors.As(err, &fe) && fe.Code == flusserr.NetworkException {
		c.meta.invalidateCluster()
	}
	return err
}

func serverTypeOf(t protocol.ServerType) ServerType {
	switch t {
	case protocol.ServerTypeCoordinator:
		return CoordinatorServer
	case protocol.ServerTypeTabletServer:
		return TabletServer
	}
	return 0
}

// callCoordinator sends req to the coordinator (DDL). When nothing reached
// it, the cluster metadata is refreshed and the request retried once, but
// only if the coordinator is now at another address: the same address
// would fail the same way (a refused or unanswered connection) and, for a
// server that does not answer, cost another connect timeout.
func (c *Client) callCoordinator(ctx context.Context, api protocol.APIKey, req, resp proto.Message) error {
	var err error
	tried := ""
	for attempt := 0; attempt < 2; attempt++ {
		node, cerr := c.coordinator(ctx)
		if cerr != nil {
			if err != nil {
				return err
			}
			return cerr
		}
		if node.Addr() == tried {
			return err
		}
		tried = node.Addr()
		err = c.callNode(ctx, node, api, req, resp)
		var fe *Error
		if !errors.As(err, &fe) || !fe.NotSent || ctx.Err() != nil {
			return err
		}
		c.meta.invalidateCluster()
	}
	return err
}

// adminLane is the connection (rpc.Pool.GetLane) to a tablet server that callAnyServer's
// requests take. A server runs one connection's requests one after another, and some of
// these are slow on the server (LIST_PARTITION_INFOS reads ZooKeeper once per partition:
// ~250 ms for 1,000 partitions): on the connection of the fetches, writes and lookups (lane 0)
// they would hold those up.
const adminLane = -1

// callAnyServer sends a read-only request to a random tablet server, then
// to others and the coordinator if servers cannot be reached, over their
// adminLane connections. Only for requests that are safe to repeat.
func (c *Client) callAnyServer(ctx context.Context, api protocol.APIKey, req, resp proto.Message) error {
	cl, err := c.cluster(ctx)
	if err != nil {
		return err
	}
	nodes := cl.tabletList()
	rand.Shuffle(len(nodes), func(i, j int) { nodes[i], nodes[j] = nodes[j], nodes[i] })
	if cl.coordinator != nil {
		nodes = append(nodes, *cl.coordinator)
	}
	var errs []error
	for _, n := range nodes {
		err := c.callNodeLane(ctx, n, adminLane, api, req, resp)
		var fe *Error
		if err == nil || !errors.As(err, &fe) || fe.Code != flusserr.NetworkException || ctx.Err() != nil {
			return err
		}
		errs = append(errs, err)
	}
	if len(errs) == 0 {
		return ErrNoTabletServer
	}
	return errors.Join(errs...)
}

// coordinator returns the coordinator node, refreshing metadata if needed.
func (c *Client) coordinator(ctx context.Context) (ServerNode, error) {
	cl, err := c.cluster(ctx)
	if err != nil {
		return ServerNode{}, err
	}
	if cl.coordinator == nil {
		if err := c.refreshCluster(ctx); err != nil {
			return ServerNode{}, err
		}
		if cl = c.meta.clusterState(); cl.coordinator == nil {
			return ServerNode{}, &Error{Code: flusserr.NetworkException, NotSent: true, Message: "the cluster reports no coordinator"}
		}
	}
	return *cl.coordinator, nil
}

func joinHostPort(host string, port int) string {
	return net.JoinHostPort(host, strconv.Itoa(port))
}
