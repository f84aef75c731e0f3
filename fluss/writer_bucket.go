package fluss

import (
	"fmt"
	"math/rand/v2"
	"sync"

	"github.com/flussql/flussql/fluss/internal/bucketing"
	"github.com/flussql/flussql/fluss/internal/row"
)

// bucketAssigner picks the bucket of each row, as Fluss's Java client does:
// with a bucket key, the table's bucketing function over the key's encoding
// (HashBucketAssigner over KeyEncoder.ofBucketKeyEncoder: the Fluss hash of
// the compacted encoding, or the datalake format's, see lake_keys.go); without one, a sticky
// bucket per partition that moves to another random bucket whenever a batch
// for it fills up (StickyBucketAssigner). Primary-key tables always have a
// bucket key.
type bucketAssigner struct {
	numBuckets int
	key        *row.KeyEncoder // nil: sticky
	bucket     bucketing.Function

	mu     sync.Mutex
	sticky map[int64]int32 // per partition id (-1 for none)
}

func newBucketAssigner(t *Table, numBuckets int) (*bucketAssigner, error) {
	if numBuckets <= 0 {
		return nil, fmt.Errorf("fluss: table %s has %d buckets", t.Path(), numBuckets)
	}
	a := &bucketAssigner{numBuckets: numBuckets, sticky: map[int64]int32{}}
	keys := t.info.BucketKeys()
	if len(keys) == 0 {
		return a, nil
	}
	k, err := keyingOf(t.info)
	if err != nil {
		return nil, err
	}
	a.bucket = k.bucket
	enc, err := row.NewLakeKeyEncoderForColumns(k.bucketFormat, t.info.Schema().Columns, keys)
	if err != nil {
		return nil, fmt.Errorf("fluss: bucket key of %s: %w", t.Path(), err)
	}
	a.key = enc
	return a, nil
}

// hashed reports whether buckets come from a bucket key.
func (a *bucketAssigner) hashed() bool { return a.key != nil }

// assign returns the bucket of a row; scratch is reused for the key bytes.
func (a *bucketAssigner) assign(values []any, partitionID int64, scratch []byte) (int32, []byte, error) {
	if a.key != nil {
		k, err := a.key.Append(scratch[:0], values)
		if err != nil {
			return 0, k, fmt.Errorf("fluss: bucket key: %w", err)
		}
		b, err := a.bucket(k, a.numBuckets)
		return int32(b), k, err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	b, ok := a.sticky[partitionID]
	if !ok {
		b = int32(rand.IntN(a.numBuckets))
		a.sticky[partitionID] = b
	}
	return b, scratch, nil
}

// batchFull moves the sticky bucket of a partition away from the bucket
// whose batch just filled up.
func (a *bucketAssigner) batchFull(partitionID int64, bucket int32) {
	if a.key != nil || a.numBuckets == 1 {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if cur, ok := a.sticky[partitionID]; ok && cur != bucket {
		return // already moved
	}
	next := int32(rand.IntN(a.numBuckets - 1))
	if next >= bucket {
		next++
	}
	a.sticky[partitionID] = next
}
