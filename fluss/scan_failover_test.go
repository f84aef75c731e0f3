package fluss

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/flussql/flussql/fluss/flusserr"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// scanAll subscribes every bucket of tbl from the start and polls until
// io.EOF or an error, returning the ids read (in arrival order).
func scanAll(t *testing.T, ctx context.Context, tbl *Table, buckets int, bounded bool) ([]int64, error) {
	t.Helper()
	s, err := tbl.NewLogScanner(ScannerOptions{Bounded: bounded, MaxWait: 50 * time.Millisecond})
	require.NoError(t, err)
	defer s.Close()
	subs := map[TableBucket]int64{}
	for b := 0; b < buckets; b++ {
		subs[TableBucket{PartitionID: NoPartition, Bucket: int32(b)}] = EarliestOffset
	}
	require.NoError(t, s.SubscribeBuckets(ctx, subs))
	return pollIDs(ctx, s)
}

func pollIDs(ctx context.Context, s *LogScanner) ([]int64, error) {
	var ids []int64
	for {
		b, err := s.Poll(ctx)
		if errors.Is(err, io.EOF) {
			return ids, nil
		}
		if err != nil {
			return ids, err
		}
		col := b.Record.Column(0).(*array.Int64)
		for i := 0; i < col.Len(); i++ {
			ids = append(ids, col.Value(i))
			if want := int64(b.Bucket.Bucket)*1_000_000 + b.Offset(i); col.Value(i) != want {
				b.Release()
				return ids, errors.New("row id does not match its bucket and offset")
			}
		}
		b.Release()
	}
}

// assertEachOnce checks that got holds exactly the ids of want, each once.
func assertEachOnce(t *testing.T, want, got []int64) {
	t.Helper()
	seen := map[int64]int{}
	for _, id := range got {
		seen[id]++
	}
	var dup, missing []int64
	for id, n := range seen {
		if n > 1 {
			dup = append(dup, id)
		}
	}
	for _, id := range want {
		if seen[id] == 0 {
			missing = append(missing, id)
		}
	}
	slices.Sort(dup)
	slices.Sort(missing)
	assert.Empty(t, dup, "rows read twice")
	assert.Empty(t, missing, "rows never read")
	assert.Len(t, got, len(want))
}

// A bounded scan whose bucket leader fails part-way is resumed at the
// offset reached on the new leader: every row once, whatever the failure.
func TestScanFailoverResumes(t *testing.T) {
	type fault struct {
		name string
		// inject runs once, when the leader of bucket 1 (tablet server 2)
		// has answered two fetches with rows.
		inject func(f *failoverFake)
	}
	faults := []fault{
		{"killed leader, new leader after a while", func(f *failoverFake) {
			f.kill(2)
			time.AfterFunc(400*time.Millisecond, func() { f.moveLeader(1, 3) })
		}},
		{"leader moves, old one answers NOT_LEADER_OR_FOLLOWER", func(f *failoverFake) {
			f.moveLeader(1, 3)
		}},
		{"no leader for a while, then a new one", func(f *failoverFake) {
			f.moveLeader(1, -1)
			f.kill(2)
			time.AfterFunc(300*time.Millisecond, func() { f.moveLeader(1, 1) })
		}},
		{"frozen leader, replaced", func(f *failoverFake) {
			f.setFrozen(2, true)
			time.AfterFunc(300*time.Millisecond, func() { f.moveLeader(1, 3) })
		}},
		{"new leader's high watermark lags for a moment", func(f *failoverFake) {
			f.setHW(3, 1, 20)
			f.kill(2)
			f.moveLeader(1, 3)
			time.AfterFunc(500*time.Millisecond, func() { f.setHW(3, 1, 60) })
		}},
	}
	for _, tc := range faults {
		t.Run(tc.name, func(t *testing.T) {
			f := newFailoverFake(t, 3, 3, 60, 5)
			var once sync.Once
			f.onFetch(func(node, bucket int32, offset int64) flusserr.Code {
				if node == 2 && bucket == 1 && f.fetchCount(2) >= 2 {
					once.Do(func() { go tc.inject(f) })
				}
				return flusserr.None
			})
			// A frozen leader is given up on after the request timeout.
			_, tbl := f.connect(t, 500*time.Millisecond)
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			start := time.Now()
			ids, err := scanAll(t, ctx, tbl, 3, true)
			require.NoError(t, err)
			assertEachOnce(t, f.allIDs(), ids)
			t.Logf("%d rows in %s", len(ids), time.Since(start).Round(time.Millisecond))
		})
	}
}

// Transient server errors are retried at the same offset.
func TestScanRetriesTransientErrors(t *testing.T) {
	for _, code := range []flusserr.Code{flusserr.NotLeaderOrFollower, flusserr.LeaderNotAvailableException, flusserr.UnknownTableOrBucketException,
		flusserr.FencedLeaderEpochException, flusserr.LogStorageException, flusserr.StorageException, flusserr.RequestTimeOut, flusserr.UnknownServerError} {
		t.Run(code.String(), func(t *testing.T) {
			f := newFailoverFake(t, 2, 2, 30, 5)
			var failures atomic.Int32
			f.onFetch(func(node, bucket int32, offset int64) flusserr.Code {
				if bucket == 0 && offset == 10 && failures.Add(1) <= 3 {
					return code
				}
				return flusserr.None
			})
			_, tbl := f.connect(t, 2*time.Second)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			ids, err := scanAll(t, ctx, tbl, 2, true)
			require.NoError(t, err)
			assertEachOnce(t, f.allIDs(), ids)
			assert.GreaterOrEqual(t, failures.Load(), int32(4))
		})
	}
}

// Errors retrying cannot fix end Poll at once, naming the bucket and offset.
func TestScanFatalFetchErrors(t *testing.T) {
	for _, code := range []flusserr.Code{flusserr.LogOffsetOutOfRangeException, flusserr.CorruptMessage, flusserr.AuthorizationException} {
		t.Run(code.String(), func(t *testing.T) {
			f := newFailoverFake(t, 2, 2, 30, 5)
			f.onFetch(func(node, bucket int32, offset int64) flusserr.Code {
				if bucket == 1 && offset == 10 {
					return code
				}
				return flusserr.None
			})
			_, tbl := f.connect(t, 2*time.Second)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			start := time.Now()
			_, err := scanAll(t, ctx, tbl, 2, true)
			require.Error(t, err)
			assert.Less(t, time.Since(start), 2*time.Second)
			assert.ErrorIs(t, err, &Error{Code: code})
			assert.Contains(t, err.Error(), "bucket 1 of db.failover at offset 10")
		})
	}
}

// UNKNOWN_SERVER_ERROR is retried a few times, not forever.
func TestScanUnknownServerErrorIsRetriedAFewTimes(t *testing.T) {
	f := newFailoverFake(t, 1, 1, 20, 5)
	var n atomic.Int32
	f.onFetch(func(node, bucket int32, offset int64) flusserr.Code {
		if offset == 10 {
			n.Add(1)
			return flusserr.UnknownServerError
		}
		return flusserr.None
	})
	_, tbl := f.connect(t, 2*time.Second)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	ids, err := scanAll(t, ctx, tbl, 1, true)
	require.Error(t, err)
	assert.ErrorIs(t, err, flusserr.UnknownServerError)
	assert.Contains(t, err.Error(), "bucket 0 of db.failover at offset 10 (attempt 6")
	assert.Equal(t, int32(maxUnknownServerErrors+1), n.Load())
	assert.Len(t, ids, 10)
}

// A leader that never comes back: Poll keeps retrying until its context
// ends, then names the bucket, its offset, the attempts and the last error.
func TestScanDeadLeaderStopsAtDeadline(t *testing.T) {
	f := newFailoverFake(t, 2, 2, 40, 5)
	var once sync.Once
	f.onFetch(func(node, bucket int32, offset int64) flusserr.Code {
		if bucket == 1 && offset >= 10 {
			once.Do(func() { f.kill(2) }) // the hook runs outside the fake's lock: kill at once
		}
		return flusserr.None
	})
	_, tbl := f.connect(t, 2*time.Second)
	ctx, cancel := context.WithTimeout(context.Background(), 1500*time.Millisecond)
	defer cancel()
	start := time.Now()
	ids, err := scanAll(t, ctx, tbl, 2, true)
	elapsed := time.Since(start)
	require.Error(t, err)
	assert.Less(t, elapsed, 1700*time.Millisecond, "Poll returns when its context ends")
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.ErrorIs(t, err, flusserr.NetworkException, "the last cause is matched too")
	assert.Regexp(t, `bucket 1 at offset \d+: \d+ failed attempts over [0-9.]+m?s, last error: fluss: NETWORK_EXCEPTION`, err.Error())
	// Every row read is a row of the table, once; bucket 0 is complete.
	seen := map[int64]bool{}
	for _, id := range ids {
		assert.False(t, seen[id])
		seen[id] = true
	}
	for i := int64(0); i < 40; i++ {
		assert.True(t, seen[i], "bucket 0 row %d", i)
	}
}

// A frozen leader (a stopped process: the connection is open, nothing
// answers) does not hold Poll past its context.
func TestScanFrozenLeaderStopsAtDeadline(t *testing.T) {
	f := newFailoverFake(t, 2, 2, 40, 5)
	f.onFetch(func(node, bucket int32, offset int64) flusserr.Code {
		if node == 2 && offset >= 10 {
			f.setFrozen(2, true)
		}
		return flusserr.None
	})
	_, tbl := f.connect(t, 30*time.Second)
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	start := time.Now()
	_, err := scanAll(t, ctx, tbl, 2, true)
	elapsed := time.Since(start)
	require.Error(t, err)
	assert.Less(t, elapsed, 1200*time.Millisecond)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Regexp(t, `bucket 1 at offset 10: no answer for [0-9.]+m?s from its leader, tablet server 2 at 127\.0\.0\.1:\d+`, err.Error())
}

// Every server dead: Poll still returns when its context ends.
func TestScanAllServersDeadStopsAtDeadline(t *testing.T) {
	f := newFailoverFake(t, 2, 2, 40, 5)
	var once sync.Once
	f.onFetch(func(node, bucket int32, offset int64) flusserr.Code {
		if offset >= 10 {
			once.Do(f.close)
		}
		return flusserr.None
	})
	_, tbl := f.connect(t, 2*time.Second)
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	start := time.Now()
	_, err := scanAll(t, ctx, tbl, 2, true)
	require.Error(t, err)
	assert.Less(t, time.Since(start), 1200*time.Millisecond)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Contains(t, err.Error(), "failed attempts")
}

// After a leader change that lost rows (the new leader's high watermark
// stays below the end recorded at the start), a bounded scan fails with
// ErrEndOffsetUnreachable instead of waiting forever or stopping short
// silently; the rows it returned are each there once.
func TestScanEndOffsetUnreachable(t *testing.T) {
	defer func(d time.Duration) { endStallTimeout = d }(endStallTimeout)
	endStallTimeout = 400 * time.Millisecond
	f := newFailoverFake(t, 2, 1, 30, 5)
	var once sync.Once
	f.onFetch(func(node, bucket int32, offset int64) flusserr.Code {
		if node == 1 && offset >= 10 {
			once.Do(func() {
				f.setHW(2, 0, 20)
				f.moveLeader(0, 2)
			})
		}
		return flusserr.None
	})
	_, tbl := f.connect(t, 2*time.Second)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	start := time.Now()
	ids, err := scanAll(t, ctx, tbl, 1, true)
	require.Error(t, err)
	assert.Less(t, time.Since(start), 3*time.Second)
	assert.ErrorIs(t, err, ErrEndOffsetUnreachable)
	assert.Contains(t, err.Error(), "bucket 0 of db.failover: read to offset 20, the leader's high watermark 20 has not reached the scan's end offset 30")
	assert.Contains(t, err.Error(), "rows 20..29")
	want := make([]int64, 20)
	for i := range want {
		want[i] = int64(i)
	}
	assertEachOnce(t, want, ids)
}

// An unbounded scan is not subject to the end-offset check.
func TestScanUnboundedWaitsForNewRows(t *testing.T) {
	defer func(d time.Duration) { endStallTimeout = d }(endStallTimeout)
	endStallTimeout = 100 * time.Millisecond
	f := newFailoverFake(t, 1, 1, 10, 5)
	_, tbl := f.connect(t, 2*time.Second)
	ctx, cancel := context.WithTimeout(context.Background(), 600*time.Millisecond)
	defer cancel()
	ids, err := scanAll(t, ctx, tbl, 1, false)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Len(t, ids, 10)
}

func TestClassifyFetchError(t *testing.T) {
	tests := []struct {
		err  error
		want fetchRetry
	}{
		{&Error{Code: flusserr.NotLeaderOrFollower}, fetchRetryRefresh},
		{&Error{Code: flusserr.LeaderNotAvailableException}, fetchRetryRefresh},
		{&Error{Code: flusserr.NetworkException, NotSent: true}, fetchRetryRefresh},
		{errors.Join(&Error{Code: flusserr.NetworkException}, &Error{Code: flusserr.NetworkException}), fetchRetryRefresh},
		{&Error{Code: flusserr.RequestTimeOut}, fetchRetryRefresh},
		{&Error{Code: flusserr.FencedLeaderEpochException}, fetchRetryRefresh},
		{&Error{Code: flusserr.UnknownServerError}, fetchRetryLimited},
		{&Error{Code: flusserr.LogOffsetOutOfRangeException}, fetchFatal},
		{&Error{Code: flusserr.CorruptMessage}, fetchFatal},
		{&Error{Code: flusserr.TableNotExist}, fetchFatal},
		{&Error{Code: flusserr.PartitionNotExists}, fetchFatal},
		{errors.New("decoding"), fetchFatal},
		{context.Canceled, fetchFatal},
		{fmt.Errorf("reading bucket 0: %w", &remoteIOError{errors.New("open s3://b/x.log: timeout")}), fetchRetryLimited},
		{&noReaderError{"no reader for scheme s3"}, fetchFatal},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, classifyFetchError(tt.err), "%v", tt.err)
	}
}

func TestFetchBackoff(t *testing.T) {
	for attempt := 1; attempt < 70; attempt++ {
		d := fetchBackoff(attempt)
		full := min(fetchBackoffBase<<min(attempt-1, 16), fetchBackoffCap)
		assert.GreaterOrEqual(t, d, full/2, "attempt %d", attempt)
		assert.LessOrEqual(t, d, full, "attempt %d", attempt)
	}
	assert.LessOrEqual(t, fetchBackoff(1), fetchBackoffBase)
	assert.GreaterOrEqual(t, fetchBackoff(40), fetchBackoffCap/2)
}
