// Package flussql is a database/sql driver for Apache Fluss, registered as "fluss":
//
//	db, err := sql.Open("fluss", "fluss://127.0.0.1:9123/fluss")
//
// Statements are written in flussql's SQL dialect (package parser), planned against the
// cluster's catalog (package planner) and executed with the pure-Go wire client (package
// fluss). See README.md for the dialect, the DSN keys and the type table.
package flussql

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/flussql/flussql/engine"
	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/internal/executor"
	"github.com/flussql/flussql/parser"
	"github.com/flussql/flussql/planner"
)

func init() {
	sql.Register("fluss", Driver{})
}

// Driver is the database/sql driver for Fluss. Use it through sql.Open("fluss", dsn), or
// build a Connector with NewConnector and sql.OpenDB.
type Driver struct{}

var (
	_ driver.Driver        = Driver{}
	_ driver.DriverContext = Driver{}
	_ driver.Connector     = (*Connector)(nil)
	_ io.Closer            = (*Connector)(nil)
)

// Open opens a connection for the DSN; database/sql prefers OpenConnector.
func (d Driver) Open(dsn string) (driver.Conn, error) {
	c, err := d.OpenConnector(dsn)
	if err != nil {
		return nil, err
	}
	return c.Connect(context.Background())
}

// OpenConnector parses the DSN and returns a Connector for it.
func (Driver) OpenConnector(dsn string) (driver.Connector, error) {
	cfg, err := ParseDSN(dsn)
	if err != nil {
		return nil, err
	}
	return NewConnector(cfg)
}

// Connector opens connections to one Fluss cluster. All connections of a sql.DB share the
// Connector's wire client (one TCP connection per server, multiplexed) and its catalog
// cache; each connection keeps its own current database and transaction. Close (called by
// sql.DB.Close) closes the wire client.
type Connector struct {
	cfg Config

	mu     sync.Mutex
	client *fluss.Client
	// ex runs the statements of every connection: it holds the catalog cache and the
	// lookupers, shared so that concurrent lookups of a table are merged into requests per
	// bucket leader (see fluss.Lookuper.Lookup).
	ex     *executor.Executor
	closed bool
	// funcs are the user-defined functions (RegisterFunction) of every statement run through
	// the connector.
	funcs engine.FunctionSet
}

// catalogTTL is how long table metadata and partition lists are cached between
// statements; DDL through this connector invalidates them at once. A partition list used in
// the ttl after its own is refreshed in the background (planner.AdminCatalog), so it may be
// up to twice this old.
const catalogTTL = 5 * time.Second

// NewConnector returns a Connector for cfg (copied). It does not contact the cluster: the
// first connection does.
func NewConnector(cfg *Config) (*Connector, error) {
	if cfg == nil {
		return nil, fmt.Errorf("flussql: NewConnector needs a Config")
	}
	c := *cfg
	c.Addrs = append([]string(nil), cfg.Addrs...)
	if len(c.Addrs) == 0 {
		return nil, fmt.Errorf("flussql: Config.Addrs is empty; set at least one host:port")
	}
	c.normalize()
	return &Connector{cfg: c}, nil
}

// Config returns a copy of the connector's configuration.
func (c *Connector) Config() Config {
	cfg := c.cfg
	cfg.Addrs = append([]string(nil), c.cfg.Addrs...)
	return cfg
}

// Driver returns the Driver.
func (c *Connector) Driver() driver.Driver { return Driver{} }

// Connect returns a new connection; the wire client is created on first use. A failure to
// reach the cluster returns driver.ErrBadConn wrapped with the cause only when database/sql
// may retry (nothing reached the server).
func (c *Connector) Connect(ctx context.Context) (driver.Conn, error) {
	ex, err := c.executor(ctx)
	if err != nil {
		return nil, err
	}
	return newConn(c, ex), nil
}

// executor returns the shared executor, connecting its wire client on first use.
func (c *Connector) executor(ctx context.Context) (*executor.Executor, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil, fmt.Errorf("flussql: the connector is closed")
	}
	if c.ex != nil {
		return c.ex, nil
	}
	client, err := fluss.Connect(ctx, fluss.Config{
		BootstrapServers: c.cfg.Addrs,
		Username:         c.cfg.User,
		Password:         c.cfg.Password,
		RequestTimeout:   c.cfg.RequestTimeout,
		ConnectTimeout:   c.cfg.ConnectTimeout,
		ClientID:         "flussql",
		Logger:           c.cfg.Logger,
		Observer:         c.cfg.Observer,
	})
	if err != nil {
		return nil, fmt.Errorf("flussql: connecting to %s: %w", strings.Join(c.cfg.Addrs, ","), err)
	}
	c.client = client
	c.ex = executor.New(client, planner.NewAdminCatalog(client.Admin(), catalogTTL), executor.Options{
		RequestTimeout:      c.cfg.RequestTimeout,
		QueryMemory:         c.cfg.QueryMemory,
		Writer:              writerOptionsOf(c.cfg),
		PartitionAutoCreate: c.cfg.PartitionAutoCreate,
		NotePlan:            notePlan,
		DecorateError: func(st parser.Statement, database string, err error) error {
			return flinkError(permissionError(c.cfg.User, st, database, err))
		},
		Flink:     flinkOptions(&c.cfg),
		Functions: &c.funcs,
	})
	return c.ex, nil
}

// writerOptionsOf maps a normalized Config onto the wire client's writer options (NoWait is
// negative there too: no linger, no wait for a partition).
func writerOptionsOf(cfg Config) fluss.WriterOptions {
	return fluss.WriterOptions{
		BatchSize:               cfg.WriteBatchSize,
		Linger:                  cfg.WriteLinger,
		Connections:             cfg.WriteConnections,
		MissingPartitionTimeout: cfg.PartitionWait,
		AutoCreatePartitions:    cfg.PartitionAutoCreate,
	}
}

// Close closes the shared wire client; connections still open fail afterwards.
func (c *Connector) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	if c.client == nil {
		return nil
	}
	c.ex.Close()
	err := c.client.Close()
	c.client, c.ex = nil, nil
	return err
}

// requestContext applies the DSN's timeout when ctx has no deadline.
func (c *Connector) requestContext(ctx context.Context) (context.Context, context.CancelFunc) {
	if _, ok := ctx.Deadline(); ok || c.cfg.RequestTimeout <= 0 {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, c.cfg.RequestTimeout)
}
