package localcluster

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/flussql/flussql/fluss"
)

// WaitLakeTiered polls the latest lake snapshot of the table (Admin.LatestLakeSnapshot)
// every poll (0: 500 ms) until, for every bucket in want, it holds the log at least up to the
// wanted offset (exclusive: want 100 for a bucket whose records 0..99 must be in the lake),
// and returns that snapshot. A tiering service must be running (Flink.StartTiering); the
// table tiers every 'table.datalake.freshness' (3 min by default: tests set it to seconds).
// When ctx ends first, the error says what the last snapshot covered.
func WaitLakeTiered(ctx context.Context, admin *fluss.Admin, path fluss.TablePath, want map[fluss.TableBucket]int64, poll time.Duration) (*fluss.LakeSnapshot, error) {
	if poll <= 0 {
		poll = 500 * time.Millisecond
	}
	last := "no snapshot yet"
	for {
		snap, err := admin.LatestLakeSnapshot(ctx, path)
		switch {
		case err == nil:
			missing := lakeShortfall(snap, want)
			if len(missing) == 0 {
				return snap, nil
			}
			last = fmt.Sprintf("snapshot %d short of %s", snap.SnapshotID, strings.Join(missing, ", "))
		case errors.Is(err, fluss.ErrLakeSnapshotNotExist):
			// not tiered yet
		default:
			if ctx.Err() == nil {
				return nil, err
			}
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("localcluster: table %s was not tiered as far as wanted (%s): %w", path, last, ctx.Err())
		case <-time.After(poll):
		}
	}
}

// lakeShortfall lists the buckets of want the snapshot does not hold far enough, in order.
func lakeShortfall(snap *fluss.LakeSnapshot, want map[fluss.TableBucket]int64) []string {
	var missing []string
	for b, w := range want {
		got, ok := snap.Offset(b)
		switch {
		case !ok:
			missing = append(missing, fmt.Sprintf("%s (nothing tiered, want %d)", b, w))
		case got < w:
			missing = append(missing, fmt.Sprintf("%s (tiered to %d, want %d)", b, got, w))
		}
	}
	sort.Strings(missing)
	return missing
}
