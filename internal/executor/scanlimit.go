package executor

import "github.com/flussql/flussql/fluss"

// firstLimitGroup is how many buckets a bounded scan with a LIMIT subscribes first.
const firstLimitGroup = 8

// limitGroups splits the buckets of a bounded scan with a LIMIT into groups subscribed one
// after the other, each twice as large as the one before, starting with firstLimitGroup
// buckets (one partition of 8 buckets). A scan stops once its LIMIT is reached, so
// `SELECT * FROM t LIMIT 10` on a table of many partitions asks the leaders for the
// offsets of, and fetches, the first partitions only instead of every bucket of every
// partition; a LIMIT that needs the whole table costs about log2(buckets/8) more rounds.
func limitGroups(buckets []fluss.TableBucket) [][]fluss.TableBucket {
	var groups [][]fluss.TableBucket
	for n := firstLimitGroup; len(buckets) > 0; n *= 2 {
		k := min(n, len(buckets))
		groups = append(groups, buckets[:k:k])
		buckets = buckets[k:]
	}
	return groups
}
