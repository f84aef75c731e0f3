package fluss

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"strconv"
	"sync"
	"time"

	"google.golang.org/protobuf/proto"

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

	closeOnce sync.Once
	closed    chan struct{}
}

// Connect connects to the cluster through cfg.BootstrapServers and learns
// its coordinator and tablet servers. A cluster that is still starting is
// waited for, up to cfg.ConnectTimeout.
func Connect(ctx context.Context, cfg Config) (*Client, error) {
	cfg = cfg.withDefaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	c := &Client{
		cfg:    cfg,
		pool:   rpc.NewPool(cfg.rpcOptions()),
		meta:   newMetadataCache(),
		closed: make(chan struct{}),
	}
	wctx, cancel := context.WithTimeout(ctx, cfg.ConnectTimeout)
	defer cancel()
	backoff := 100 * time.Millisecond
	for {
		err := c.refreshCluster(wctx)
		if err == nil && len(c.meta.clusterState().tablets) == 0 {
			err = errNoTabletServer
		}
		if err == nil {
			return c, nil
		}
		if permanentConnectError(err) || wctx.Err() != nil {
			c.Close()
			return nil, fmt.Errorf("fluss: connecting to %v: %w", cfg.BootstrapServers, err)
		}
		select {
		case <-time.After(backoff):
		case <-wctx.Done():
		}
		backoff = min(2*backoff, time.Second)
	}
}

// permanentConnectError reports errors that waiting will not fix.
func permanentConnectError(err error) bool {
	return errors.Is(err, ErrAuthentication) || errors.Is(err, ErrUnsupportedVersion) ||
		errors.Is(err, ErrAuthorization)
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

func (c *Client) callAddr(ctx context.Context, addr string, want ServerType, api protocol.APIKey, req, resp proto.Message) error {
	if c.isClosed() {
		return ErrClosed
	}
	conn, err := c.pool.Get(ctx, addr)
	if err != nil {
		return convertErr(err)
	}
	if want != 0 && serverTypeOf(conn.ServerType()) != want {
		c.meta.invalidateCluster()
		return &Error{Code: CodeNetworkException, NotSent: true,
			Message: fmt.Sprintf("%s answered as %s, expected %s (stale metadata)", addr, conn.ServerType(), want)}
	}
	err = convertErr(conn.Call(ctx, api, req, resp))
	var fe *Error
	if errors.As(err, &fe) && fe.Code == CodeNetworkException {
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

// callCoordinator sends req to the coordinator (DDL). It retries once on a
// fresh coordinator address when nothing reached the old one.
func (c *Client) callCoordinator(ctx context.Context, api protocol.APIKey, req, resp proto.Message) error {
	var err error
	for attempt := 0; attempt < 2; attempt++ {
		var node ServerNode
		node, err = c.coordinator(ctx)
		if err != nil {
			return err
		}
		err = c.callNode(ctx, node, api, req, resp)
		var fe *Error
		if !errors.As(err, &fe) || !fe.NotSent {
			return err
		}
	}
	return err
}

// callAnyServer sends a read-only request to a random tablet server, then
// to others and the coordinator if servers cannot be reached. Only for
// requests that are safe to repeat.
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
		err := c.callNode(ctx, n, api, req, resp)
		var fe *Error
		if err == nil || !errors.As(err, &fe) || fe.Code != CodeNetworkException || ctx.Err() != nil {
			return err
		}
		errs = append(errs, err)
	}
	if len(errs) == 0 {
		return errNoTabletServer
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
			return ServerNode{}, &Error{Code: CodeNetworkException, NotSent: true, Message: "the cluster reports no coordinator"}
		}
	}
	return *cl.coordinator, nil
}

func joinHostPort(host string, port int) string {
	return net.JoinHostPort(host, strconv.Itoa(port))
}
