package fluss

import (
	"fmt"
	"time"
)

// Acks is how many replicas must have a write before the server
// acknowledges it.
type Acks int32

// Acknowledgement levels (ProduceLog/PutKv acks).
const (
	// AcksAll waits for every in-sync replica: the default, and required
	// for idempotent writes.
	AcksAll Acks = -1
	// AcksNone does not wait for the write to be stored.
	AcksNone Acks = 0
	// AcksLeader waits for the bucket leader only.
	AcksLeader Acks = 1
)

// Writer defaults, as in Fluss's Java client unless said otherwise.
const (
	DefaultBatchSize    = 2 << 20 // client.writer.batch-size
	DefaultLinger       = 100 * time.Millisecond
	DefaultBufferMemory = 64 << 20 // client.writer.buffer.memory-size
	DefaultMaxRequest   = 10 << 20 // client.writer.request-max-size
	DefaultRetries      = 20       // Java retries forever; we give up
	DefaultRetryBackoff = 100 * time.Millisecond
	// DefaultDeliveryTimeout bounds the time from a batch's creation to
	// its acknowledgement, retries included.
	DefaultDeliveryTimeout = 2 * time.Minute
	// DefaultMissingPartitionTimeout bounds the wait for a partition that
	// does not exist (Java waits forever).
	DefaultMissingPartitionTimeout = 10 * time.Second
)

// WriterOptions configure the write path shared by the table writers:
// batching, memory, acknowledgements, retries and idempotence. The zero
// value means the defaults.
type WriterOptions struct {
	// BatchSize is the size in bytes (estimated, before compression) at
	// which a bucket's batch is closed and sent. Default 2 MiB.
	BatchSize int
	// Linger is how long a batch that is not full waits for more rows
	// before it is sent. Default 100 ms; negative sends at once.
	Linger time.Duration
	// BufferMemory bounds the bytes of rows buffered but not yet
	// acknowledged; Append waits while it is used up. Default 64 MiB.
	BufferMemory int
	// MaxRequestSize bounds the records of one request. Default 10 MiB.
	MaxRequestSize int
	// Acks is the acknowledgement level; default AcksAll. Idempotent
	// writes need AcksAll.
	Acks Acks
	// AcksSet must be true for Acks = AcksNone to be taken (the zero value
	// of Acks otherwise means the default).
	AcksSet bool
	// Retries is how often a batch is resent after a retriable error
	// (leader change, timeout, lost connection) before it fails. Default
	// 20; negative means no retries.
	Retries int
	// RetryBackoff is the first wait before a resend; it doubles up to 20
	// times this. Default 100 ms.
	RetryBackoff time.Duration
	// DeliveryTimeout bounds the time from the first row of a batch to its
	// acknowledgement, retries included; a batch not acknowledged by then
	// fails. Default 2 minutes.
	DeliveryTimeout time.Duration
	// RequestTimeout is the server-side timeout of a write request and the
	// client's wait for its answer. Default: the client's RequestTimeout.
	RequestTimeout time.Duration
	// DisableIdempotence turns off idempotent writes. By default the writer
	// gets a writer id from the cluster and numbers each bucket's batches,
	// so a resend after a lost answer never duplicates rows.
	DisableIdempotence bool
	// MissingPartitionTimeout bounds how long a write to a partition that
	// does not exist waits for it to appear before failing with an error
	// wrapping ErrPartitionNotExists. Default 10 s; negative fails at once.
	MissingPartitionTimeout time.Duration
	// AutoCreatePartitions creates missing partitions (ignoring "already
	// exists") instead of waiting for them.
	AutoCreatePartitions bool
	// MaxBackpressureThrottle bounds how long a bucket's next batch is held
	// back when a Fluss 1.0 server reports storage pressure on PUT_KV: for
	// pressure p in (0, 1) the wait is MaxBackpressureThrottle·p², for a
	// write refused with STORAGE_BACKPRESSURE_EXCEPTION the whole of it (as
	// the Java client's client.writer.kv-backpressure.max-throttle). Default
	// 3 s; negative disables the throttle (refused writes are still retried
	// with the normal backoff).
	MaxBackpressureThrottle time.Duration
	// Connections is how many connections to each tablet server the writer
	// spreads its buckets over, each bucket always on the same one. A Fluss
	// server runs the requests of one connection one after another, so with
	// one connection (the Java client's way) the buckets of a server are
	// stored one at a time; with several, in parallel. The connections are
	// the client's, shared by its writers. Default 4 (DefaultWriteConnections).
	Connections int
}

// DefaultWriteConnections is WriterOptions.Connections' default.
const DefaultWriteConnections = 4

// DefaultMaxBackpressureThrottle is WriterOptions.MaxBackpressureThrottle's default.
const DefaultMaxBackpressureThrottle = 3 * time.Second

// writerConfig is WriterOptions with defaults applied.
type writerConfig struct {
	batchSize, bufferMemory, maxRequest        int
	linger, backoff, timeout, missingPartition time.Duration
	delivery, maxThrottle                      time.Duration
	acks                                       Acks
	retries                                    int
	idempotent, autoCreate                     bool
	lanes                                      int
}

func (o WriterOptions) resolve(clientTimeout time.Duration) (writerConfig, error) {
	c := writerConfig{
		batchSize: o.BatchSize, bufferMemory: o.BufferMemory, maxRequest: o.MaxRequestSize,
		linger: o.Linger, backoff: o.RetryBackoff, timeout: o.RequestTimeout,
		missingPartition: o.MissingPartitionTimeout, acks: o.Acks, retries: o.Retries,
		idempotent: !o.DisableIdempotence, autoCreate: o.AutoCreatePartitions,
	}
	if c.batchSize <= 0 {
		c.batchSize = DefaultBatchSize
	}
	if c.bufferMemory <= 0 {
		c.bufferMemory = DefaultBufferMemory
	}
	if c.lanes = o.Connections; c.lanes <= 0 {
		c.lanes = DefaultWriteConnections
	}
	if c.bufferMemory < c.batchSize {
		c.batchSize = c.bufferMemory
	}
	if c.maxRequest <= 0 {
		c.maxRequest = DefaultMaxRequest
	}
	if c.linger == 0 {
		c.linger = DefaultLinger
	} else if c.linger < 0 {
		c.linger = 0
	}
	if c.backoff <= 0 {
		c.backoff = DefaultRetryBackoff
	}
	if c.timeout <= 0 {
		c.timeout = clientTimeout
	}
	if c.delivery = o.DeliveryTimeout; c.delivery <= 0 {
		c.delivery = DefaultDeliveryTimeout
	}
	if c.maxThrottle = o.MaxBackpressureThrottle; c.maxThrottle == 0 {
		c.maxThrottle = DefaultMaxBackpressureThrottle
	} else if c.maxThrottle < 0 {
		c.maxThrottle = 0
	}
	if c.missingPartition == 0 {
		c.missingPartition = DefaultMissingPartitionTimeout
	} else if c.missingPartition < 0 {
		c.missingPartition = 0
	}
	if c.retries == 0 {
		c.retries = DefaultRetries
	} else if c.retries < 0 {
		c.retries = 0
	}
	if c.acks == 0 && !o.AcksSet {
		c.acks = AcksAll
	}
	switch c.acks {
	case AcksAll, AcksNone, AcksLeader:
	default:
		return c, fmt.Errorf("fluss: invalid acks %d (want -1, 0 or 1)", c.acks)
	}
	if c.idempotent && c.acks != AcksAll {
		return c, fmt.Errorf("fluss: idempotent writes need AcksAll; set DisableIdempotence to use acks=%d", c.acks)
	}
	return c, nil
}
