package fluss

import (
	"context"
	"log/slog"
	"time"
)

// Logging. A Client logs what it does on the caller's behalf that the
// caller cannot see — connections opened or refused, metadata refreshes,
// bucket leader changes, write retries, waits for partitions, fetch retries
// of scans — through Config.Logger at slog.LevelDebug (a connection lost or
// a retry given up at slog.LevelWarn is for the caller's own error, so it is
// not logged twice). Records carry attributes, never a password: the
// configured user name appears, its password nowhere.

// debug logs at debug level when the logger wants it.
func (c *Client) debug(msg string, args ...any) {
	if c.log.Enabled(context.Background(), slog.LevelDebug) {
		c.log.Debug(msg, args...)
	}
}

// logDial is the pool's hook: one record per dial.
func (c *Client) logDial(addr string, took time.Duration, err error) {
	if err != nil {
		c.debug("fluss: connecting failed", "addr", addr, "took", took, "err", err)
		return
	}
	c.debug("fluss: connected", "addr", addr, "took", took)
}

// noteLeaders logs the buckets of a table (or partition) whose leader is
// not the one last seen, and remembers the new ones.
func (c *Client) noteLeaders(path TablePath, partition string, buckets []bucketLocation) {
	key := partitionKey{path, partition}
	c.meta.mu.Lock()
	if c.meta.leaders == nil {
		c.meta.leaders = map[partitionKey]map[int32]int32{}
	}
	last := c.meta.leaders[key]
	now := make(map[int32]int32, len(buckets))
	type change struct{ bucket, from, to, epoch int32 }
	var changes []change
	for _, b := range buckets {
		now[b.Bucket] = b.Leader
		if prev, seen := last[b.Bucket]; seen && prev != b.Leader {
			changes = append(changes, change{b.Bucket, prev, b.Leader, b.LeaderEpoch})
		}
	}
	c.meta.leaders[key] = now
	c.meta.mu.Unlock()
	for _, ch := range changes {
		args := []any{"table", path.String(), "bucket", ch.bucket, "from", ch.from, "to", ch.to, "leader_epoch", ch.epoch}
		if partition != "" {
			args = append(args, "partition", partition)
		}
		c.debug("fluss: bucket leader changed", args...)
	}
}
