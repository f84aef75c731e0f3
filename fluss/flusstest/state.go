package flusstest

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/flussql/flussql/fluss/internal/logbatch"
	"github.com/flussql/flussql/fluss/types"
)

// CreateDatabase creates a database as CREATE_DATABASE does.
func (c *Cluster) CreateDatabase(name string) {
	c.helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.cat.createDatabase(name, nil, false); err != nil {
		c.fatalf("creating database %s: %v", name, err)
	}
}

// CreateTable creates a table as CREATE_TABLE does, from a descriptor, and returns its id.
func (c *Cluster) CreateTable(db, name string, desc types.TableJSON) int64 {
	c.helper()
	b, err := types.MarshalTable(desc)
	if err != nil {
		c.fatalf("table %s.%s: %v", db, name, err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	t, err := c.cat.createTable(db, name, b, false)
	if err != nil {
		c.fatalf("creating table %s.%s: %v", db, name, err)
	}
	return t.id
}

// TableID returns the id of a table, or -1 when it does not exist.
func (c *Cluster) TableID(db, name string) int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, err := c.cat.table(db, name)
	if err != nil {
		return -1
	}
	return t.id
}

// AppendLog appends rec (columns in table order) to bucket b of a log table as one batch
// and returns its base offset; partition is a partition name, "" for none.
func (c *Cluster) AppendLog(db, name, partition string, b int32, rec arrow.RecordBatch) int64 {
	c.helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	t, err := c.cat.table(db, name)
	if err != nil {
		c.fatalf("%v", err)
	}
	enc, err := logbatch.NewArrowEncoder(rec.Schema(), logbatch.CompressionNone)
	if err != nil {
		c.fatalf("%v", err)
	}
	defer enc.Close()
	data, err := enc.AppendBatch(nil, logbatch.Header{SchemaID: 1, WriterID: logbatch.NoWriterID,
		BatchSequence: logbatch.NoBatchSequence}, rec, nil)
	if err != nil {
		c.fatalf("encoding a batch of %s.%s: %v", db, name, err)
	}
	bk, err := c.bucketByName(t, partition, b)
	if err != nil {
		c.fatalf("%v", err)
	}
	return bk.appendBatch(data, int(rec.NumRows()))
}

// LogEnd returns the log end offset of a bucket (partition "" for none), -1 when the table,
// partition or bucket does not exist.
func (c *Cluster) LogEnd(db, name, partition string, b int32) int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, err := c.cat.table(db, name)
	if err != nil {
		return -1
	}
	bk, err := c.bucketByName(t, partition, b)
	if err != nil {
		return -1
	}
	return bk.end
}

// KVCount returns the number of keys stored in a primary-key table, over every bucket and
// partition.
func (c *Cluster) KVCount(db, name string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, err := c.cat.table(db, name)
	if err != nil {
		return 0
	}
	n := 0
	for _, bk := range t.storage {
		n += len(bk.kv)
	}
	return n
}

// SetLeader makes tablet server node the leader of bucket b of a table (in every partition);
// -1 leaves the bucket without a leader (LEADER_NOT_AVAILABLE). Clients learn it from their
// next metadata request; until then the old leader answers NOT_LEADER_OR_FOLLOWER.
func (c *Cluster) SetLeader(db, name string, b, node int32) {
	c.helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	t, err := c.cat.table(db, name)
	if err != nil {
		c.fatalf("%v", err)
	}
	t.leaders[b] = node
}

// Leader returns the tablet server leading bucket b of a table (-1: none or no such table).
func (c *Cluster) Leader(db, name string, b int32) int32 {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, err := c.cat.table(db, name)
	if err != nil {
		return -1
	}
	return t.leader(b, len(c.tablets))
}

// SetHighWatermark makes server node answer hw as the high watermark of bucket b (partition
// "" for none), capped by the log end, and serve no batch past it, as a new leader whose
// replica lags does; a negative hw restores the log end.
func (c *Cluster) SetHighWatermark(db, name, partition string, b, node int32, hw int64) {
	c.helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	bk := c.mustBucket(db, name, partition, b)
	if hw < 0 {
		delete(bk.hw, node)
		return
	}
	bk.hw[node] = hw
}

// ExpireLog moves the log start of bucket b of db.name (partition "" when not partitioned)
// to start, as a server does when table.log.ttl deletes the bucket's first segments: the
// earliest offset becomes start, a fetch below it is out of range and the entries before it
// are no longer read.
func (c *Cluster) ExpireLog(db, name, partition string, b int32, start int64) {
	c.helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	bk := c.mustBucket(db, name, partition, b)
	bk.start = start
}

// mustBucket returns bucket b of db.name (partition "" when not partitioned), failing the
// test when there is none; c.mu is held.
func (c *Cluster) mustBucket(db, name, partition string, b int32) *bucket {
	t, err := c.cat.table(db, name)
	if err != nil {
		c.fatalf("%v", err)
	}
	bk, err := c.bucketByName(t, partition, b)
	if err != nil {
		c.fatalf("%v", err)
	}
	return bk
}

func (c *Cluster) bucketByName(t *table, partition string, b int32) (*bucket, error) {
	if partition == "" {
		return t.bucketOf(nil, b)
	}
	p, ok := t.parts[partition]
	if !ok {
		return nil, fmt.Errorf("partition %s of %s.%s does not exist", partition, t.db, t.name)
	}
	return t.bucketOf(&p.id, b)
}
