package flussql

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseDSN(t *testing.T) {
	tests := []struct {
		dsn     string
		want    func(c *Config)
		wantErr string
	}{
		{dsn: "fluss://127.0.0.1:9123", want: func(c *Config) {}},
		{dsn: "fluss://127.0.0.1:9123/", want: func(c *Config) {}},
		{dsn: "fluss://127.0.0.1:9123/sales", want: func(c *Config) { c.Database = "sales" }},
		{dsn: "fluss://a:1,b:2/db", want: func(c *Config) { c.Addrs = []string{"a:1", "b:2"}; c.Database = "db" }},
		{dsn: "fluss://[::1]:9123/db", want: func(c *Config) { c.Addrs = []string{"[::1]:9123"}; c.Database = "db" }},
		{dsn: "fluss://alice:s%40cr%3At@127.0.0.1:9123/db", want: func(c *Config) {
			c.User, c.Password, c.Database = "alice", "s@cr:t", "db"
		}},
		{dsn: "fluss://alice@127.0.0.1:9123", want: func(c *Config) { c.User = "alice" }},
		{dsn: "fluss://127.0.0.1:9123/db?timeout=2s&connect_timeout=1s&write_batch_size=4096&write_linger=0s&write_connections=1&partition_auto_create=true&partition_wait=1m",
			want: func(c *Config) {
				c.Database = "db"
				c.RequestTimeout, c.ConnectTimeout = 2*time.Second, time.Second
				c.WriteBatchSize, c.WriteLinger, c.WriteConnections = 4096, NoWait, 1
				c.PartitionAutoCreate, c.PartitionWait = true, time.Minute
			}},
		{dsn: "fluss://127.0.0.1:9123?query_memory=64MiB", want: func(c *Config) { c.QueryMemory = 64 << 20 }},
		{dsn: "fluss://127.0.0.1:9123?query_memory=1gib", want: func(c *Config) { c.QueryMemory = 1 << 30 }},
		{dsn: "fluss://127.0.0.1:9123?query_memory=4096", want: func(c *Config) { c.QueryMemory = 4096 }},
		{dsn: "fluss://127.0.0.1:9123?query_memory=0", wantErr: `query_memory="0": must be positive`},
		{dsn: "fluss://127.0.0.1:9123?query_memory=-1MiB", wantErr: `query_memory="-1MiB": must be positive`},
		{dsn: "fluss://127.0.0.1:9123?query_memory=lots", wantErr: `query_memory="lots": want a size`},
		{dsn: "fluss://127.0.0.1:9123?query_memory=1TiB", wantErr: `query_memory="1TiB": want a size`},
		{dsn: "fluss://127.0.0.1:9123?write_connections=65", wantErr: `write_connections="65": must be 1 to 64`},
		{dsn: "fluss://127.0.0.1:9123?write_connections=four", wantErr: `write_connections="four"`},
		{dsn: "fluss://127.0.0.1:9123?flink_gateway=127.0.0.1:8083", want: func(c *Config) { c.FlinkGateway = "http://127.0.0.1:8083" }},
		{dsn: "fluss://127.0.0.1:9123?flink_gateway=https%3A%2F%2Fflink.example%3A443%2F&flink_catalog=prod&flink.pipeline.name=orders&flink.execution.checkpointing.interval=10s",
			want: func(c *Config) {
				c.FlinkGateway, c.FlinkCatalog = "https://flink.example:443", "prod"
				c.FlinkOptions = map[string]string{"pipeline.name": "orders", "execution.checkpointing.interval": "10s"}
			}},
		{dsn: "fluss://127.0.0.1:9123?flink_gateway=flink.example", wantErr: `flink_gateway="flink.example": must be the SQL gateway's URL, http://host:port`},
		{dsn: "fluss://127.0.0.1:9123?flink_gateway=ftp://h:21", wantErr: `must be the SQL gateway's URL`},
		{dsn: "fluss://127.0.0.1:9123?flink_catalog=", wantErr: `flink_catalog="": must name a catalog`},
		{dsn: "fluss://127.0.0.1:9123?flink.=x", wantErr: `unknown DSN key "flink."; known keys: connect_timeout, flink.<option>, flink_catalog, flink_gateway`},
		{dsn: "mysql://127.0.0.1:3306", wantErr: `must start with "fluss://"`},
		{dsn: "fluss://", wantErr: "names no server"},
		{dsn: "fluss:///db", wantErr: "names no server"},
		{dsn: "fluss://localhost", wantErr: `"localhost" must be host:port`},
		{dsn: "fluss://localhost:0", wantErr: "bad port"},
		{dsn: "fluss://127.0.0.1:9123?tiemout=1s", wantErr: `unknown DSN key "tiemout"; known keys: connect_timeout`},
		{dsn: "fluss://127.0.0.1:9123?write_conections=2", wantErr: `write_batch_size, write_connections, write_linger`},
		{dsn: "fluss://127.0.0.1:9123/a/b", wantErr: `DSN path "a/b" names more than a database`},
		{dsn: "fluss://127.0.0.1:9123/a%2Fb", wantErr: `DSN path "a%2Fb" names more than a database`},
		{dsn: "fluss://127.0.0.1:9123?timeout=soon", wantErr: `timeout="soon"`},
		{dsn: "fluss://127.0.0.1:9123?timeout=-1s", wantErr: "must be positive"},
		{dsn: "fluss://127.0.0.1:9123?timeout=1s&timeout=2s", wantErr: "given 2 times"},
		{dsn: "fluss://:hunter2@127.0.0.1:9123", wantErr: "empty user name"},
		{dsn: "fluss://bob:hunter%zz@127.0.0.1:9123", wantErr: "password is not valid"},
	}
	for _, tt := range tests {
		t.Run(tt.dsn, func(t *testing.T) {
			got, err := ParseDSN(tt.dsn)
			if tt.wantErr != "" {
				require.ErrorContains(t, err, tt.wantErr)
				assert.NotContains(t, err.Error(), "hunter", "errors never show the password")
				return
			}
			require.NoError(t, err)
			want := NewConfig()
			want.Addrs = []string{"127.0.0.1:9123"}
			tt.want(want)
			assert.Equal(t, want, got)
		})
	}
}

func TestFormatDSNRoundTripAndRedaction(t *testing.T) {
	c := NewConfig()
	c.User, c.Password = "al@ice", "p:a/s?s,w%rd"
	c.Database = "my db?x#"
	c.Addrs = []string{"h1:1", "h2:2"}
	c.RequestTimeout = 3 * time.Second
	c.PartitionAutoCreate = true
	c.QueryMemory = 3 << 20
	c.FlinkGateway, c.FlinkCatalog = "http://127.0.0.1:8083", "my cat"
	c.FlinkOptions = map[string]string{"pipeline.name": "a&b=c", "odd&key": "v"}
	dsn := c.FormatDSN()
	back, err := ParseDSN(dsn)
	require.NoError(t, err)
	assert.Equal(t, c, back)
	assert.NotContains(t, c.String(), "p:a", "String hides the password")
	assert.Contains(t, c.String(), "al%40ice:xxxxx@")
	assert.Equal(t, "fluss://127.0.0.1:9123/fluss", NewConfig().FormatDSN(), "defaults are left out")
}

func FuzzDSNRoundTrip(f *testing.F) {
	for _, s := range []string{
		"fluss://127.0.0.1:9123/fluss",
		"fluss://u:p@a:1,b:2/db?timeout=1s&partition_auto_create=true",
		"fluss://u%40x:p%2F@h:9/d%2Fb?write_linger=0s",
		"fluss://h:1?flink_gateway=h:2&flink_catalog=c&flink.a%26b=x%3Dy",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, dsn string) {
		c, err := ParseDSN(dsn)
		if err != nil {
			return
		}
		again, err := ParseDSN(c.FormatDSN())
		require.NoError(t, err, "FormatDSN output %q must parse", c.FormatDSN())
		require.Equal(t, c, again)
		if c.Password != "" {
			shown, err := ParseDSN(c.String())
			require.NoError(t, err)
			require.Equal(t, "xxxxx", shown.Password, "String must hide the password")
		}
	})
}

// Each DSN key at 0: what it means, or the error that refuses it.
func TestDSNKeysAtZero(t *testing.T) {
	tests := []struct {
		key     string
		check   func(t *testing.T, c *Config)
		wantErr string
	}{
		{key: "timeout", wantErr: "must be positive"},
		{key: "connect_timeout", wantErr: "must be positive"},
		{key: "write_batch_size", wantErr: "must be positive"},
		{key: "write_connections", wantErr: "must be 1 to 64"},
		{key: "write_linger", check: func(t *testing.T, c *Config) { assert.Equal(t, NoWait, c.WriteLinger) }},
		{key: "partition_wait", check: func(t *testing.T, c *Config) { assert.Equal(t, NoWait, c.PartitionWait) }},
		{key: "partition_auto_create", check: func(t *testing.T, c *Config) { assert.False(t, c.PartitionAutoCreate) }},
	}
	for _, tt := range tests {
		t.Run(tt.key, func(t *testing.T) {
			zero := "0s"
			if tt.key == "write_batch_size" || tt.key == "write_connections" || tt.key == "partition_auto_create" {
				zero = "0"
			}
			c, err := ParseDSN("fluss://127.0.0.1:9123/db?" + tt.key + "=" + zero)
			if tt.wantErr != "" {
				require.ErrorContains(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			tt.check(t, c)
			// The same after NewConnector, and on the way to the wire client.
			conn, err := NewConnector(c)
			require.NoError(t, err)
			cfg := conn.Config()
			tt.check(t, &cfg)
			again, err := ParseDSN(c.FormatDSN())
			require.NoError(t, err)
			assert.Equal(t, c, again, "FormatDSN round trip of %s", c.FormatDSN())
		})
	}
}

// A hand-built Config gets the DSN defaults for the fields it leaves zero, not the wire
// client's (2 MiB, 100 ms, 10 s).
func TestNewConnectorFillsDSNDefaults(t *testing.T) {
	conn, err := NewConnector(&Config{Addrs: []string{"127.0.0.1:9123"}})
	require.NoError(t, err)
	got := conn.Config()
	assert.Equal(t, DefaultDatabase, got.Database)
	assert.Equal(t, DefaultRequestTimeout, got.RequestTimeout)
	assert.Equal(t, DefaultConnectTimeout, got.ConnectTimeout)
	assert.Equal(t, DefaultWriteBatchSize, got.WriteBatchSize)
	assert.Equal(t, DefaultWriteLinger, got.WriteLinger)
	assert.Equal(t, DefaultPartitionWait, got.PartitionWait)
	opts := writerOptionsOf(got)
	assert.Equal(t, DefaultWriteLinger, opts.Linger)
	assert.Equal(t, DefaultWriteBatchSize, opts.BatchSize)

	conn, err = NewConnector(&Config{Addrs: []string{"127.0.0.1:9123"}, WriteLinger: NoWait, PartitionWait: NoWait})
	require.NoError(t, err)
	opts = writerOptionsOf(conn.Config())
	assert.Negative(t, opts.Linger, "the wire client's 'none'")
	assert.Negative(t, opts.MissingPartitionTimeout)
}
