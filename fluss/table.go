package fluss

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/flussql/flussql/fluss/flusserr"
	"github.com/flussql/flussql/fluss/types"
)

// TablePath names a table: database and table name.
type TablePath struct {
	// Database is the database name.
	Database string
	// Table is the table name within the database.
	Table string
}

// String returns "database.table".
func (p TablePath) String() string { return p.Database + "." + p.Table }

func (p TablePath) check() error {
	if p.Database == "" || p.Table == "" {
		return fmt.Errorf("fluss: table path %q needs a database and a table name", p.String())
	}
	for _, n := range []struct{ what, name string }{{"database", p.Database}, {"table", p.Table}} {
		if len(n.name) > MaxNameLength {
			return &Error{Code: flusserr.InvalidTableException, NotSent: true, Message: fmt.Sprintf(
				"a %s name of %d bytes (%.40s…) is longer than the %d characters Fluss allows", n.what, len(n.name), n.name, MaxNameLength)}
		}
	}
	return nil
}

// MaxNameLength is the longest database or table name a Fluss server accepts (its
// TablePath.MAX_NAME_LENGTH: names become folder names on the servers' disks).
const MaxNameLength = 200

// Table property keys the client reads.
const (
	PropLogFormat         = "table.log.format"
	PropKvFormat          = "table.kv.format"
	PropArrowCompression  = "table.log.arrow.compression.type"
	PropArrowZstdLevel    = "table.log.arrow.compression.zstd.level"
	PropDatalakeFormat    = "table.datalake.format"
	PropKvFormatVersion   = "table.kv.format-version"
	PropMergeEngine       = "table.merge-engine"
	PropReplicationFactor = "table.replication.factor"
)

// TableDescriptor describes a table to create, or the definition of an
// existing one (TableInfo.Descriptor).
type TableDescriptor struct {
	// Schema holds the columns and the primary key (empty for a log table).
	Schema types.Schema
	// PartitionKeys are the partition columns in order (a subset of the
	// primary key for primary-key tables).
	PartitionKeys []string
	// BucketCount is the number of buckets; 0 lets the server choose
	// (default.bucket.number).
	BucketCount int
	// BucketKeys are the columns hashed to pick a bucket. Empty means the
	// default: the primary key minus the partition keys for primary-key
	// tables, none (round robin/sticky) for log tables.
	BucketKeys []string
	// Properties are Fluss table options ("table.*" keys).
	Properties map[string]string
	// CustomProperties are free-form user properties stored with the table.
	CustomProperties map[string]string
	// Comment is the table comment.
	Comment string
	// AutoIncrementColumns and AggFunctions are rarely used schema extras
	// (auto-increment columns; aggregate functions of the aggregation
	// merge engine, by column name).
	AutoIncrementColumns []string
	// AggFunctions holds the aggregate functions by column name.
	AggFunctions map[string]types.AggFunction
}

// Validate checks what the client can check before sending: every key
// names a column, partition keys lie in the primary key, and bucket keys
// lie in the primary key without partition keys. The server checks more.
func (d TableDescriptor) Validate() error {
	if len(d.Schema.Columns) == 0 {
		return invalidTable("a table needs at least one column")
	}
	for _, group := range []struct {
		what string
		keys []string
	}{{"primary key", d.Schema.PrimaryKey}, {"partition key", d.PartitionKeys}, {"bucket key", d.BucketKeys}} {
		for _, k := range group.keys {
			if d.Schema.Index(k) < 0 {
				return invalidTable("%s column %q is not in the schema", group.what, k)
			}
		}
	}
	if d.BucketCount < 0 {
		return invalidTable("bucket count %d is negative", d.BucketCount)
	}
	if d.Schema.HasPrimaryKey() {
		for _, k := range d.PartitionKeys {
			if !slices.Contains(d.Schema.PrimaryKey, k) {
				return invalidTable("partition key %q must be part of the primary key", k)
			}
		}
		for _, k := range d.BucketKeys {
			if !slices.Contains(d.Schema.PrimaryKey, k) || slices.Contains(d.PartitionKeys, k) {
				return invalidTable("bucket key %q must be part of the primary key and not a partition key", k)
			}
		}
		if len(d.PartitionKeys) > 0 && len(d.PartitionKeys) == len(d.Schema.PrimaryKey) {
			return invalidTable("the primary key must have columns besides the partition keys")
		}
	}
	return nil
}

func invalidTable(format string, args ...any) error {
	return &Error{Code: flusserr.InvalidTableException, Message: fmt.Sprintf(format, args...), NotSent: true}
}

func (d TableDescriptor) toJSON() types.TableJSON {
	return types.TableJSON{
		Schema: types.SchemaJSON{
			Schema:               d.Schema,
			AutoIncrementColumns: d.AutoIncrementColumns,
			AggFunctions:         d.AggFunctions,
		},
		Comment:          d.Comment,
		PartitionKeys:    d.PartitionKeys,
		BucketKeys:       d.BucketKeys,
		BucketCount:      d.BucketCount,
		Properties:       d.Properties,
		CustomProperties: d.CustomProperties,
	}
}

func descriptorFromJSON(t types.TableJSON) TableDescriptor {
	return TableDescriptor{
		Schema:               t.Schema.Schema,
		PartitionKeys:        t.PartitionKeys,
		BucketCount:          t.BucketCount,
		BucketKeys:           t.BucketKeys,
		Properties:           t.Properties,
		CustomProperties:     t.CustomProperties,
		Comment:              t.Comment,
		AutoIncrementColumns: t.Schema.AutoIncrementColumns,
		AggFunctions:         t.Schema.AggFunctions,
	}
}

// TableInfo is an existing table as the server describes it. The
// descriptor includes the defaults the server filled in (bucket count and
// keys, replication factor, formats).
type TableInfo struct {
	// Path is the table's database and name.
	Path TablePath
	// TableID is the server's id of the table; a table dropped and created
	// again under the same path gets a new one.
	TableID int64
	// SchemaID is the id of the table's current schema; ALTER TABLE … ADD
	// raises it, and data written earlier carries the older id.
	SchemaID int32
	// Descriptor is the table's definition, with the server's defaults.
	Descriptor TableDescriptor
	// CreatedTime and ModifiedTime are the server's timestamps (ms precision).
	CreatedTime, ModifiedTime time.Time
	// RemoteDataDir is the remote storage folder of the table's tiered log segments and KV
	// snapshots, as the server reports it (Fluss 1.0, which may spread tables over several
	// remote folders); "" from a 0.9 server.
	RemoteDataDir string
}

// Schema returns the table's schema.
func (t *TableInfo) Schema() types.Schema { return t.Descriptor.Schema }

// IsPartitioned reports whether the table has partition keys.
func (t *TableInfo) IsPartitioned() bool { return len(t.Descriptor.PartitionKeys) > 0 }

// HasPrimaryKey reports whether the table is a primary-key table.
func (t *TableInfo) HasPrimaryKey() bool { return t.Descriptor.Schema.HasPrimaryKey() }

// PartitionKeys returns the partition columns in order.
func (t *TableInfo) PartitionKeys() []string { return t.Descriptor.PartitionKeys }

// PhysicalPrimaryKey returns the primary key without the partition keys:
// the columns that make up the key bytes of lookups and writes.
func (t *TableInfo) PhysicalPrimaryKey() []string {
	var out []string
	for _, k := range t.Descriptor.Schema.PrimaryKey {
		if !slices.Contains(t.Descriptor.PartitionKeys, k) {
			out = append(out, k)
		}
	}
	return out
}

// BucketKeys returns the bucket key columns, resolving the default (the
// physical primary key) for primary-key tables.
func (t *TableInfo) BucketKeys() []string {
	if len(t.Descriptor.BucketKeys) > 0 || !t.HasPrimaryKey() {
		return t.Descriptor.BucketKeys
	}
	return t.PhysicalPrimaryKey()
}

// NumBuckets returns the number of buckets of the table (of each partition).
func (t *TableInfo) NumBuckets() int { return t.Descriptor.BucketCount }

// Property returns a table property, or def when it is not set.
func (t *TableInfo) Property(key, def string) string {
	if v, ok := t.Descriptor.Properties[key]; ok {
		return v
	}
	return def
}

// LogFormat returns the table's log format: ARROW (the default), INDEXED or COMPACTED.
func (t *TableInfo) LogFormat() string { return t.Property(PropLogFormat, "ARROW") }

// KvFormat returns the table's KV format: COMPACTED (the default) or INDEXED.
func (t *TableInfo) KvFormat() string { return t.Property(PropKvFormat, "COMPACTED") }

// DatabaseDescriptor describes a database.
type DatabaseDescriptor struct {
	// Comment is the database comment.
	Comment string
	// CustomProperties are free-form user properties stored with the
	// database.
	CustomProperties map[string]string
}

type databaseJSON struct {
	Version          int               `json:"version"`
	Comment          *string           `json:"comment,omitempty"`
	CustomProperties map[string]string `json:"custom_properties"`
}

func (d DatabaseDescriptor) marshal() ([]byte, error) {
	j := databaseJSON{Version: 1, CustomProperties: d.CustomProperties}
	if j.CustomProperties == nil {
		j.CustomProperties = map[string]string{}
	}
	if d.Comment != "" {
		j.Comment = &d.Comment
	}
	return json.Marshal(j)
}

func unmarshalDatabase(b []byte) (DatabaseDescriptor, error) {
	var j databaseJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return DatabaseDescriptor{}, fmt.Errorf("fluss: database JSON: %w", err)
	}
	d := DatabaseDescriptor{CustomProperties: j.CustomProperties}
	if j.Comment != nil {
		d.Comment = *j.Comment
	}
	return d, nil
}

// DatabaseInfo is an existing database.
type DatabaseInfo struct {
	// Name is the database name.
	Name string
	// Descriptor is the database's comment and properties.
	Descriptor DatabaseDescriptor
	// CreatedTime and ModifiedTime are the server's timestamps (ms precision).
	CreatedTime, ModifiedTime time.Time
}

// ServerType is the role of a Fluss server.
type ServerType int

// Server roles.
const (
	CoordinatorServer ServerType = iota + 1
	TabletServer
)

// String returns "coordinator" or "tablet server".
func (t ServerType) String() string {
	switch t {
	case CoordinatorServer:
		return "coordinator"
	case TabletServer:
		return "tablet server"
	}
	return "unknown"
}

// ServerNode is a server of the cluster.
type ServerNode struct {
	// ID is the server's id (tablet servers: their configured id).
	ID int32
	// Host is the address clients reach the server at.
	Host string
	// Port is the server's client port.
	Port int
	// Rack is the server's configured rack ("" if none).
	Rack string
	// Type says whether it is the coordinator or a tablet server.
	Type ServerType
}

// Addr returns "host:port".
func (n ServerNode) Addr() string { return joinHostPort(n.Host, n.Port) }

// String returns e.g. "tablet server 0 at 127.0.0.1:9124".
func (n ServerNode) String() string { return fmt.Sprintf("%s %d at %s", n.Type, n.ID, n.Addr()) }

func millis(ms int64) time.Time { return time.UnixMilli(ms) }

// ErrNoTabletServer is matched (errors.Is) by the error of Connect when the
// cluster answered but listed no tablet server until cfg.ConnectTimeout
// ended: the coordinator is up and its tablet servers are not (yet).
var ErrNoTabletServer = errors.New("fluss: the cluster reports no tablet server")
