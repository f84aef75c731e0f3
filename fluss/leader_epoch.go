package fluss

import "os"

// Leader epochs. A metadata answer comes from whichever server the client asks, and a tablet
// server answers from its own cache, which the coordinator keeps up to date: a server that was
// frozen or cut off (or that the coordinator, itself down, could not tell) answers with the
// leaders it knew, possibly one that has since been replaced. A lookup routed there reads the
// deposed leader's key-value store, which lacks what the new leader acknowledged since: a stale
// answer. So the client remembers the highest leader epoch it has seen per bucket and does not
// route to a leader with an older one: the bucket is treated as leaderless (the caller's retry
// asks for metadata again, from another server first).

// epochGuardOff switches the guard off for experiments (issue 30): with
// FLUSSQL_EXPERIMENT_NO_EPOCH_GUARD=1 in the environment when the package is loaded, a stale
// leader is still logged but routed to, as before the guard. Never set it in production: it
// exists so that the reliability tests can show what the guard prevents.
var epochGuardOff = os.Getenv("FLUSSQL_EXPERIMENT_NO_EPOCH_GUARD") == "1"

// epochKey identifies a bucket across table re-creation (a table or partition created again
// under the same name has a new id, and its epochs start again).
type epochKey struct {
	tableID, partitionID int64
	bucket               int32
}

// fenceStaleLeaders records the leader epochs of buckets (of table tableID, partition
// partitionID, -1 for none) and marks leaderless, in place, each bucket whose leader epoch is
// older than one seen before; it returns, for each, the bucket, the stale leader, its epoch and
// the epoch seen before. A bucket whose answer carried no epoch is left as it is. With
// m.guardOff (epochGuardOff when the cache was made) a stale leader is kept, and still reported.
func (m *metadataCache) fenceStaleLeaders(tableID, partitionID int64, buckets []bucketLocation) (fenced [][4]int32) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.epochs == nil {
		m.epochs = map[epochKey]int32{}
	}
	for i := range buckets {
		b := &buckets[i]
		if !b.epochKnown || b.Leader < 0 {
			continue
		}
		k := epochKey{tableID, partitionID, b.Bucket}
		if seen, ok := m.epochs[k]; ok && b.LeaderEpoch < seen {
			fenced = append(fenced, [4]int32{b.Bucket, b.Leader, b.LeaderEpoch, seen})
			if !m.guardOff {
				b.Leader = -1
			}
			continue
		}
		m.epochs[k] = b.LeaderEpoch
	}
	return fenced
}

// noteFenced logs the buckets fenceStaleLeaders refused a leader for.
func (c *Client) noteFenced(path TablePath, partition string, fenced [][4]int32) {
	what := "ignored"
	if c.meta.guardOff {
		what = "used (guard off)"
	}
	for _, f := range fenced {
		c.debug("fluss: metadata names a bucket leader older than one already seen; "+what,
			"table", path.String(), "partition", partition, "bucket", f[0], "stale_leader", f[1],
			"stale_epoch", f[2], "seen_epoch", f[3])
	}
}
