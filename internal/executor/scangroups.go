package executor

import (
	"context"

	"github.com/flussql/flussql/fluss"
)

// A bounded scan of many buckets does not wait for every bucket's offsets before its first
// row: subscribing asks each partition's leader for two offsets (start and end), so a table
// of 200 partitions took 400 ListOffsets requests before anything was fetched.
//
//   - With a LIMIT (and no COUNT), the buckets are subscribed in groups, each twice as large
//     as the one before (limitGroups), the next one only once the ones before are read to
//     their end and the LIMIT is not reached yet: SELECT … LIMIT 10 reads the first
//     partitions only.
//   - Without one, the first firstGroup buckets are subscribed before the query returns and
//     the others in the background while the first ones are fetched; the scan takes them in
//     when the first ones are read (or at once, if they are subscribed by then).

// firstGroup is how many buckets a bounded scan subscribes before its first fetch.
const firstGroup = 8

// limitGroups splits the buckets of a bounded scan with a LIMIT into groups of firstGroup,
// 2·firstGroup, 4·firstGroup, … buckets: a LIMIT that needs the whole table costs about
// log2(buckets/firstGroup) more rounds than a full scan.
func limitGroups(buckets []fluss.TableBucket) [][]fluss.TableBucket {
	var groups [][]fluss.TableBucket
	for n := firstGroup; len(buckets) > 0; n *= 2 {
		k := min(n, len(buckets))
		groups = append(groups, buckets[:k:k])
		buckets = buckets[k:]
	}
	return groups
}

// subscribeFunc subscribes a group of buckets of one scan.
type subscribeFunc func(ctx context.Context, group []fluss.TableBucket) error

// subscribeGroups subscribes groups[0] and returns what scanRows calls when the subscribed
// buckets are read to their end (nil when there is one group): limited scans subscribe the
// next group then; others have the rest subscribed in the background from the start, and
// wait for that. stop ends a background subscription (on Close).
func subscribeGroups(ctx context.Context, groups [][]fluss.TableBucket, limited bool, subscribe subscribeFunc) (more func() (bool, error), stop func(), err error) {
	if err := subscribe(ctx, groups[0]); err != nil {
		return nil, nil, err
	}
	switch {
	case len(groups) == 1:
		return nil, func() {}, nil
	case limited:
		return func() (bool, error) {
			if groups = groups[1:]; len(groups) == 0 {
				return false, nil
			}
			return true, subscribe(ctx, groups[0])
		}, func() {}, nil
	}
	bctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- subscribe(bctx, groups[1]) }()
	taken := false
	return func() (bool, error) {
		if taken {
			return false, nil
		}
		taken = true
		return true, <-done // subscribe ends soon after ctx does
	}, cancel, nil
}
