package fluss

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strings"
	"time"

	"github.com/flussql/flussql/fluss/internal/rpc"
)

// Default configuration values.
const (
	DefaultRequestTimeout = 30 * time.Second
	DefaultConnectTimeout = 10 * time.Second
	DefaultClientID       = "flussql"
)

// Config configures a Client.
type Config struct {
	// BootstrapServers lists host:port addresses of any Fluss servers
	// (coordinator or tablet servers); the rest of the cluster is learned
	// from them.
	BootstrapServers []string
	// Username and Password turn on SASL/PLAIN authentication when Username
	// is set. Leave them empty for PLAINTEXT listeners.
	Username, Password string
	// ClientID is sent to servers as the client software name.
	ClientID string
	// RequestTimeout bounds every request whose context has no deadline.
	// The server answers some misrouted or malformed requests with silence,
	// so a bound is always applied (default 30 s).
	RequestTimeout time.Duration
	// ConnectTimeout bounds opening a connection, its handshake and
	// authentication (default 10 s), and the wait for a starting cluster
	// to report its tablet servers in Connect.
	ConnectTimeout time.Duration
	// MaxResponseSize is the largest response frame accepted (default 256 MiB).
	MaxResponseSize int
	// Logger receives debug records of what the client does behind the
	// caller's calls: connections, metadata refreshes, bucket leader
	// changes, write and fetch retries, partition waits. Nil: nothing is
	// logged. Passwords never appear in them.
	Logger *slog.Logger
	// Observer, when set, receives measurements for metrics: every request
	// (server, API, bytes, duration, error), every retry and the write
	// batches in flight (see Observer). Nil: nothing is measured.
	Observer Observer
}

// String describes the configuration without the password.
func (c Config) String() string {
	user := ""
	if c.Username != "" {
		user = c.Username + ":****@"
	}
	return fmt.Sprintf("fluss.Config{%s%s}", user, strings.Join(c.BootstrapServers, ","))
}

func (c Config) withDefaults() Config {
	if c.ClientID == "" {
		c.ClientID = DefaultClientID
	}
	if c.RequestTimeout <= 0 {
		c.RequestTimeout = DefaultRequestTimeout
	}
	if c.ConnectTimeout <= 0 {
		c.ConnectTimeout = DefaultConnectTimeout
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	return c
}

func (c Config) validate() error {
	if len(c.BootstrapServers) == 0 {
		return errors.New("fluss: Config.BootstrapServers is empty")
	}
	for _, a := range c.BootstrapServers {
		if _, _, err := net.SplitHostPort(a); err != nil {
			return fmt.Errorf("fluss: bootstrap server %q: %w", a, err)
		}
	}
	if c.Username == "" && c.Password != "" {
		return errors.New("fluss: Config.Password is set but Username is empty")
	}
	return nil
}

func (c Config) rpcOptions() rpc.Options {
	o := rpc.Options{
		ClientName:     c.ClientID,
		DialTimeout:    c.ConnectTimeout,
		RequestTimeout: c.RequestTimeout,
		MaxFrameSize:   c.MaxResponseSize,
	}
	if c.Username != "" {
		o.Credentials = &rpc.Credentials{Username: c.Username, Password: c.Password}
	}
	return o
}
