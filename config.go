package flussql

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/flussql/flussql/engine"
	"github.com/flussql/flussql/fluss"
)

// DefaultDatabase is the database a connection uses when the DSN names none; every Fluss
// cluster creates it at first start.
const DefaultDatabase = "fluss"

// Config is a parsed data source name. Build one with ParseDSN or by hand, then use
// NewConnector (or FormatDSN with sql.Open).
//
// The DSN form is
//
//	fluss://[user[:password]@]host:port[,host:port…][/database][?key=value&…]
//
// with these keys (all optional):
//
//	timeout                  per-request deadline when the context has none (default 30s)
//	connect_timeout          dialing, handshake and authentication (default 10s)
//	write_batch_size         bytes per log/KV batch before it is sent (default 1MiB)
//	write_linger             how long a writer waits to fill a batch (default 5ms)
//	write_connections        connections to each tablet server that writes spread their buckets over
//	                         (default 4; a server runs one connection's requests one after another)
//	partition_auto_create    create a missing partition on write instead of failing (default false)
//	partition_wait           how long a write waits for a missing partition before failing (default 5s)
//	query_memory             bytes the state of one query's aggregation, ORDER BY and DISTINCT may hold,
//	                         e.g. 64MiB, 1GiB or 1048576 (default 256MiB)
//	flink_gateway            a Flink SQL gateway (http://host:port) that runs what needs a streaming
//	                         engine: continuous queries and INSERT … SELECT jobs over unbounded scans,
//	                         SHOW JOBS, STOP JOB (default none: those are refused)
//	flink_catalog            the name of the Fluss catalog in the gateway's sessions, created there
//	                         (IF NOT EXISTS) for the DSN's servers (default fluss)
//	flink.<option>           a Flink option for the gateway sessions, e.g.
//	                         flink.execution.checkpointing.interval=10s or flink.pipeline.name=orders
//
// A user name turns SASL/PLAIN authentication on. Config.String and every error hide the password.
type Config struct {
	// Addrs are the bootstrap servers, host:port each.
	Addrs []string
	// User and Password are SASL/PLAIN credentials; empty User means no authentication.
	User, Password string
	// Database is the current database of new connections (USE changes it per connection).
	Database string
	// RequestTimeout bounds each request whose context has no deadline.
	RequestTimeout time.Duration
	// ConnectTimeout bounds dialing, the handshake and authentication.
	ConnectTimeout time.Duration
	// WriteBatchSize is the size in bytes at which a writer sends a batch.
	WriteBatchSize int
	// WriteConnections is how many connections to each tablet server writes spread their
	// buckets over (a server stores the requests of one connection one after another).
	WriteConnections int
	// WriteLinger is how long a writer waits for more rows before sending a batch; NoWait
	// (DSN write_linger=0s) sends at once.
	WriteLinger time.Duration
	// PartitionAutoCreate creates missing partitions on write instead of failing.
	PartitionAutoCreate bool
	// PartitionWait bounds how long a write waits for a missing partition to appear; NoWait
	// (DSN partition_wait=0s) fails at once.
	PartitionWait time.Duration
	// Logger receives the wire client's debug records: connections, metadata refreshes,
	// bucket leader changes, write and fetch retries, partition waits (fluss.Config.Logger).
	// Not part of the DSN; set it on a Config passed to NewConnector. Nil logs nothing.
	Logger *slog.Logger
	// Tracer, when set, is called at the start and end of every statement (see Tracer).
	// Not part of the DSN.
	Tracer Tracer
	// Observer, when set, receives the wire client's measurements for metrics: requests,
	// retries, write batches in flight (fluss.Config.Observer; the module
	// github.com/flussql/flussql/flussotel has an OpenTelemetry one). Not part of the DSN.
	Observer fluss.Observer
	// QueryMemory bounds the bytes the state of one query's aggregation, sort and
	// DISTINCT may hold; a query that needs more fails naming this key.
	QueryMemory int64
	// FlinkGateway is the URL of a Flink SQL gateway (DSN flink_gateway) that runs the
	// statements needing a streaming engine; empty refuses them.
	FlinkGateway string
	// FlinkCatalog is the name of the Fluss catalog in the gateway's sessions (DSN
	// flink_catalog; empty means DefaultFlinkCatalog).
	FlinkCatalog string
	// FlinkOptions are Flink options for the gateway's sessions (DSN flink.<option>=value).
	FlinkOptions map[string]string
}

// DefaultFlinkCatalog is the name of the Fluss catalog in a Flink gateway session.
const DefaultFlinkCatalog = "fluss"

// flinkOptionPrefix starts the DSN keys that are Flink options of the gateway sessions.
const flinkOptionPrefix = "flink."

// NoWait, as Config.WriteLinger or Config.PartitionWait, means not waiting at all (the DSN
// says 0s). A zero value in a Config means the default: NewConnector fills it in.
const NoWait time.Duration = -1

// Defaults for the DSN keys, the one table of them: ParseDSN starts from them, NewConnector
// fills them into a Config's zero fields, and the wire client gets the result (its own
// defaults, e.g. a 100 ms linger, never apply to a driver connection).
// The timeouts are the wire client's own (declared once, in package fluss).
const (
	DefaultRequestTimeout = fluss.DefaultRequestTimeout
	DefaultConnectTimeout = fluss.DefaultConnectTimeout
	DefaultWriteBatchSize = 1 << 20
	DefaultWriteLinger    = 5 * time.Millisecond
	// DefaultWriteConnections is the wire client's own default (fluss.DefaultWriteConnections).
	DefaultWriteConnections = fluss.DefaultWriteConnections
	DefaultPartitionWait    = 5 * time.Second
	DefaultQueryMemory      = 256 << 20
)

// maxWriteConnections bounds the DSN's write_connections (each is a socket per server).
const maxWriteConnections = 64

// NewConfig returns a Config for the local default address with every default filled in.
func NewConfig() *Config {
	return &Config{
		Addrs:            []string{"127.0.0.1:9123"},
		Database:         DefaultDatabase,
		RequestTimeout:   DefaultRequestTimeout,
		ConnectTimeout:   DefaultConnectTimeout,
		WriteBatchSize:   DefaultWriteBatchSize,
		WriteLinger:      DefaultWriteLinger,
		WriteConnections: DefaultWriteConnections,
		PartitionWait:    DefaultPartitionWait,
		QueryMemory:      DefaultQueryMemory,
		FlinkCatalog:     DefaultFlinkCatalog,
	}
}

// DSNFromEnv returns $FLUSS_DSN, or a DSN built from $FLUSS_BOOTSTRAP_SERVERS, or "".
func DSNFromEnv() string {
	if dsn := os.Getenv("FLUSS_DSN"); dsn != "" {
		return dsn
	}
	if addrs := os.Getenv("FLUSS_BOOTSTRAP_SERVERS"); addrs != "" {
		return "fluss://" + addrs + "/" + DefaultDatabase
	}
	return ""
}

// dsnKeys are the query keys ParseDSN accepts, for error messages.
var dsnKeys = []string{"connect_timeout", "flink.<option>", "flink_catalog", "flink_gateway", "partition_auto_create", "partition_wait", "query_memory", "timeout", "write_batch_size", "write_connections", "write_linger"}

// ParseDSN parses a fluss:// data source name. Errors name the bad part and never
// contain the password.
func ParseDSN(dsn string) (*Config, error) {
	const scheme = "fluss://"
	if !strings.HasPrefix(dsn, scheme) {
		return nil, fmt.Errorf("flussql: DSN must start with %q, like fluss://127.0.0.1:9123/fluss", scheme)
	}
	rest := dsn[len(scheme):]
	cfg := NewConfig()
	cfg.Addrs = nil

	var query string
	if i := strings.IndexByte(rest, '?'); i >= 0 {
		rest, query = rest[:i], rest[i+1:]
	}
	// The authority ends at the first '/'; the user info ends at its last '@'. FormatDSN
	// percent-escapes '@', ':', '/', '?' and ',' in user names and passwords.
	authority, path, hasPath := strings.Cut(rest, "/")
	hostPath := authority
	if i := strings.LastIndexByte(authority, '@'); i >= 0 {
		userinfo := authority[:i]
		hostPath = authority[i+1:]
		user, pass, hasPass := strings.Cut(userinfo, ":")
		u, err := url.PathUnescape(user)
		if err != nil {
			return nil, errors.New("flussql: DSN user name is not valid percent-encoding")
		}
		p, err := url.PathUnescape(pass)
		if err != nil {
			return nil, errors.New("flussql: DSN password is not valid percent-encoding")
		}
		if u == "" {
			return nil, errors.New("flussql: DSN has credentials but an empty user name")
		}
		cfg.User = u
		if hasPass {
			cfg.Password = p
		}
	}
	if hasPath {
		hostPath += "/" + path
	}
	hosts := hostPath
	if i := strings.IndexByte(hostPath, '/'); i >= 0 {
		hosts = hostPath[:i]
		db, err := url.PathUnescape(hostPath[i+1:])
		if err != nil {
			return nil, fmt.Errorf("flussql: DSN database %q is not valid percent-encoding", hostPath[i+1:])
		}
		if strings.Contains(db, "/") {
			return nil, fmt.Errorf("flussql: DSN path %q names more than a database; write fluss://host:port/database (a database name has no '/')", elide(hostPath[i+1:], maxQuotedInError))
		}
		if db != "" {
			cfg.Database = db
		}
	}
	if hosts == "" {
		return nil, errors.New("flussql: DSN names no server; write fluss://host:port")
	}
	for _, h := range strings.Split(hosts, ",") {
		if _, port, err := net.SplitHostPort(h); err != nil || port == "" {
			return nil, fmt.Errorf("flussql: DSN server %q must be host:port", h)
		} else if n, err := strconv.Atoi(port); err != nil || n <= 0 || n > 65535 {
			return nil, fmt.Errorf("flussql: DSN server %q has a bad port", h)
		}
		cfg.Addrs = append(cfg.Addrs, h)
	}
	if query != "" {
		values, err := url.ParseQuery(query)
		if err != nil {
			return nil, fmt.Errorf("flussql: DSN query: %v", err)
		}
		for key, vs := range values {
			if len(vs) != 1 {
				return nil, fmt.Errorf("flussql: DSN key %q is given %d times", key, len(vs))
			}
			if err := cfg.set(key, vs[0]); err != nil {
				return nil, err
			}
		}
	}
	return cfg, nil
}

func (c *Config) set(key, value string) error {
	var err error
	dur := func(d *time.Duration) {
		var v time.Duration
		if v, err = time.ParseDuration(value); err == nil && v <= 0 {
			err = errors.New("must be positive")
		}
		if err == nil {
			*d = v
		}
	}
	switch key {
	case "timeout":
		dur(&c.RequestTimeout)
	case "connect_timeout":
		dur(&c.ConnectTimeout)
	case "write_linger":
		c.WriteLinger, err = waitDuration(value, c.WriteLinger)
	case "partition_wait":
		c.PartitionWait, err = waitDuration(value, c.PartitionWait)
	case "write_batch_size":
		var n int
		if n, err = strconv.Atoi(value); err == nil && n <= 0 {
			err = errors.New("must be positive")
		}
		if err == nil {
			c.WriteBatchSize = n
		}
	case "write_connections":
		var n int
		if n, err = strconv.Atoi(value); err == nil && (n <= 0 || n > maxWriteConnections) {
			err = fmt.Errorf("must be 1 to %d", maxWriteConnections)
		}
		if err == nil {
			c.WriteConnections = n
		}
	case "partition_auto_create":
		c.PartitionAutoCreate, err = strconv.ParseBool(value)
	case "query_memory":
		var n int64
		if n, err = parseBytes(value); err == nil {
			c.QueryMemory = n
		}
	case "flink_gateway":
		c.FlinkGateway, err = gatewayURL(value)
	case "flink_catalog":
		if value == "" {
			err = errors.New("must name a catalog")
		}
		c.FlinkCatalog = value
	default:
		if opt, ok := strings.CutPrefix(key, flinkOptionPrefix); ok && opt != "" {
			if c.FlinkOptions == nil {
				c.FlinkOptions = map[string]string{}
			}
			c.FlinkOptions[opt] = value
			return nil
		}
		return fmt.Errorf("flussql: unknown DSN key %q; known keys: %s", key, strings.Join(dsnKeys, ", "))
	}
	if err != nil {
		return fmt.Errorf("flussql: DSN key %s=%q: %v", key, value, err)
	}
	return nil
}

// FormatDSN renders the Config as a DSN that ParseDSN turns back into an equal Config.
// Keys at their default values are left out. The result contains the password: use
// String to print a Config.
func (c *Config) FormatDSN() string {
	return c.format(true)
}

// String renders the DSN with the password replaced by "xxxxx". It has a value receiver so
// that fmt's %v and %+v of a Config, not only of a *Config, hide the password.
func (c Config) String() string {
	return c.format(false)
}

// GoString is String, so that %#v hides the password too.
func (c Config) GoString() string { return c.String() }

func (c *Config) format(withPassword bool) string {
	var b strings.Builder
	b.WriteString("fluss://")
	if c.User != "" {
		b.WriteString(escapeUserinfo(c.User))
		if c.Password != "" {
			b.WriteByte(':')
			if withPassword {
				b.WriteString(escapeUserinfo(c.Password))
			} else {
				b.WriteString("xxxxx")
			}
		}
		b.WriteByte('@')
	}
	b.WriteString(strings.Join(c.Addrs, ","))
	b.WriteByte('/')
	b.WriteString(url.PathEscape(c.Database))
	q := map[string]string{}
	if c.RequestTimeout != DefaultRequestTimeout && c.RequestTimeout > 0 {
		q["timeout"] = c.RequestTimeout.String()
	}
	if c.ConnectTimeout != DefaultConnectTimeout && c.ConnectTimeout > 0 {
		q["connect_timeout"] = c.ConnectTimeout.String()
	}
	if c.WriteBatchSize != DefaultWriteBatchSize && c.WriteBatchSize > 0 {
		q["write_batch_size"] = strconv.Itoa(c.WriteBatchSize)
	}
	if c.WriteLinger != DefaultWriteLinger && c.WriteLinger != 0 {
		q["write_linger"] = max(c.WriteLinger, 0).String()
	}
	if c.WriteConnections != DefaultWriteConnections && c.WriteConnections > 0 {
		q["write_connections"] = strconv.Itoa(c.WriteConnections)
	}
	if c.PartitionAutoCreate {
		q["partition_auto_create"] = "true"
	}
	if c.PartitionWait != DefaultPartitionWait && c.PartitionWait != 0 {
		q["partition_wait"] = max(c.PartitionWait, 0).String()
	}
	if c.QueryMemory != DefaultQueryMemory && c.QueryMemory > 0 {
		q["query_memory"] = engine.FormatBytes(c.QueryMemory)
	}
	if c.FlinkGateway != "" {
		q["flink_gateway"] = c.FlinkGateway
	}
	if c.FlinkCatalog != "" && c.FlinkCatalog != DefaultFlinkCatalog {
		q["flink_catalog"] = c.FlinkCatalog
	}
	for k, v := range c.FlinkOptions {
		q[flinkOptionPrefix+k] = v
	}
	if len(q) > 0 {
		keys := make([]string, 0, len(q))
		for k := range q {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for i, k := range keys {
			if i == 0 {
				b.WriteByte('?')
			} else {
				b.WriteByte('&')
			}
			b.WriteString(url.QueryEscape(k) + "=" + url.QueryEscape(q[k]))
		}
	}
	return b.String()
}

// waitDuration parses a wait of the DSN: 0 is NoWait, a negative one is refused.
func waitDuration(value string, old time.Duration) (time.Duration, error) {
	v, err := time.ParseDuration(value)
	switch {
	case err != nil:
		return old, err
	case v < 0:
		return old, errors.New("must not be negative (0s: do not wait)")
	case v == 0:
		return NoWait, nil
	}
	return v, nil
}

// normalize fills the zero fields of a Config with the defaults (mysql's Config does the
// same in NewConnector), so a hand-built Config means what the DSN's defaults mean.
func (c *Config) normalize() {
	if c.Database == "" {
		c.Database = DefaultDatabase
	}
	if c.RequestTimeout <= 0 {
		c.RequestTimeout = DefaultRequestTimeout
	}
	if c.ConnectTimeout <= 0 {
		c.ConnectTimeout = DefaultConnectTimeout
	}
	if c.WriteBatchSize <= 0 {
		c.WriteBatchSize = DefaultWriteBatchSize
	}
	if c.WriteConnections <= 0 {
		c.WriteConnections = DefaultWriteConnections
	}
	if c.WriteLinger == 0 {
		c.WriteLinger = DefaultWriteLinger
	} else if c.WriteLinger < 0 {
		c.WriteLinger = NoWait
	}
	if c.PartitionWait == 0 {
		c.PartitionWait = DefaultPartitionWait
	} else if c.PartitionWait < 0 {
		c.PartitionWait = NoWait
	}
	if c.QueryMemory <= 0 {
		c.QueryMemory = DefaultQueryMemory
	}
	if c.FlinkCatalog == "" {
		c.FlinkCatalog = DefaultFlinkCatalog
	}
}

// gatewayURL checks a flink_gateway value: an http(s) URL with a host and port, or
// host:port (read as http://host:port).
func gatewayURL(v string) (string, error) {
	if !strings.Contains(v, "://") {
		v = "http://" + v
	}
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Port() == "" || u.Hostname() == "" {
		return "", errors.New("must be the SQL gateway's URL, http://host:port")
	}
	return strings.TrimRight(v, "/"), nil
}

// parseBytes reads a positive size: digits with an optional unit B, KiB, MiB or
// GiB (also KB, MB, GB for the same powers of two), case-insensitive.
func parseBytes(s string) (int64, error) {
	units := []struct {
		suffix string
		n      int64
	}{{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30}, {"kb", 1 << 10}, {"mb", 1 << 20}, {"gb", 1 << 30}, {"b", 1}}
	num, mult := strings.ToLower(strings.TrimSpace(s)), int64(1)
	for _, u := range units {
		if strings.HasSuffix(num, u.suffix) {
			num, mult = strings.TrimSpace(strings.TrimSuffix(num, u.suffix)), u.n
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	switch {
	case err != nil:
		return 0, errors.New("want a size such as 256MiB, 1GiB or 1048576")
	case n <= 0:
		return 0, errors.New("must be positive")
	case n > (1<<62)/mult:
		return 0, errors.New("is too large")
	}
	return n * mult, nil
}

// escapeUserinfo percent-escapes what would end or split the user info.
func escapeUserinfo(s string) string {
	r := strings.NewReplacer("%", "%25", "@", "%40", ":", "%3A", "/", "%2F", "?", "%3F", ",", "%2C")
	return r.Replace(s)
}
