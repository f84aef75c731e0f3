package fluss

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/flussql/flussql/fluss/flusserr"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fanoutFixture is a pkTable on the failover fake whose requests go to a
// test send function instead of the wire: fanout's retry rules are what is
// tested here (leader moves, dead and frozen leaders, deadlines).
func fanoutFixture(t *testing.T, requestTimeout time.Duration) (*failoverFake, *pkTable, []routedKey) {
	f := newFailoverFake(t, 3, 3, 0, 1)
	c, tbl := f.connect(t, requestTimeout)
	pk := &pkTable{c: c, path: f.path, info: tbl.info}
	keys := []routedKey{{key: []byte{1}, bucket: 0}, {key: []byte{2}, bucket: 1}, {key: []byte{3}, bucket: 2}, {key: []byte{4}, bucket: 1}}
	return f, pk, keys
}

var fanoutOpts = fanoutOptions{maxKeysPerRequest: 8, maxInFlight: 4, missingPartition: func(int) {}}

// answer marks every key of reqs as answered by node.
func answerAll(out []int32, node ServerNode, reqs []*kvBucketReq) {
	for _, br := range reqs {
		for _, i := range br.idx {
			atomic.StoreInt32(&out[i], node.ID)
		}
	}
}

func TestLookupFanoutFollowsLeaderChange(t *testing.T) {
	tests := []struct {
		name string
		// fail decides the answer of node for bucket 1 at attempt n
		// (1-based) of that bucket; nil answers.
		fail func(f *failoverFake, node ServerNode, n int32) error
	}{
		{"NOT_LEADER_OR_FOLLOWER, then the new leader", func(f *failoverFake, node ServerNode, n int32) error {
			if node.ID == 2 {
				f.moveLeader(1, 3)
				return &Error{Code: flusserr.NotLeaderOrFollower}
			}
			return nil
		}},
		{"dead leader refuses, then a new leader", func(f *failoverFake, node ServerNode, n int32) error {
			if n == 3 {
				f.moveLeader(1, 3)
			}
			if node.ID == 2 {
				return &Error{Code: flusserr.NetworkException, NotSent: true, Message: "connection refused"}
			}
			return nil
		}},
		{"no leader for a while", func(f *failoverFake, node ServerNode, n int32) error {
			if n == 1 {
				f.moveLeader(1, -1)
				time.AfterFunc(200*time.Millisecond, func() { f.moveLeader(1, 1) })
				return &Error{Code: flusserr.LeaderNotAvailableException}
			}
			return nil
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, pk, keys := fanoutFixture(t, 5*time.Second)
			out := make([]int32, len(keys))
			var n atomic.Int32
			err := pk.fanout(context.Background(), keys, fanoutOpts, func(ctx context.Context, node ServerNode, tableID int64, reqs []*kvBucketReq) ([]kvBucketFailure, error) {
				var failed []kvBucketFailure
				var ok []*kvBucketReq
				for _, br := range reqs {
					if br.bucket == 1 {
						if err := tt.fail(f, node, n.Add(1)); err != nil {
							failed = append(failed, kvBucketFailure{br, err})
							continue
						}
					}
					ok = append(ok, br)
				}
				answerAll(out, node, ok)
				return failed, nil
			})
			require.NoError(t, err)
			assert.Equal(t, f.leaderOf(1), out[1], "bucket 1 answered by its current leader")
			assert.Equal(t, out[1], out[3])
			assert.Equal(t, int32(1), out[0])
			assert.Equal(t, int32(3), out[2])
		})
	}
}

// A leader that stays away: the lookup gives up when its context ends,
// naming the attempts and the last error, the bucket included.
func TestLookupFanoutStopsAtDeadline(t *testing.T) {
	_, pk, keys := fanoutFixture(t, 5*time.Second)
	ctx, cancel := context.WithTimeout(context.Background(), 800*time.Millisecond)
	defer cancel()
	start := time.Now()
	err := pk.fanout(ctx, keys, fanoutOpts, func(ctx context.Context, node ServerNode, tableID int64, reqs []*kvBucketReq) ([]kvBucketFailure, error) {
		if node.ID == 2 {
			return nil, &Error{Code: flusserr.NetworkException, NotSent: true, Message: "dial: connection refused"}
		}
		return nil, nil
	})
	require.Error(t, err)
	assert.Less(t, time.Since(start), 900*time.Millisecond)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.ErrorIs(t, err, flusserr.NetworkException)
	assert.Regexp(t, `^fluss: looking up 4 keys in db.failover: context deadline exceeded after \d+ attempts over [0-9.]+m?s; last error: bucket 1 of db.failover: fluss: NETWORK_EXCEPTION: dial: connection refused$`, err.Error())
}

// A frozen leader holds the request until the context ends; the error
// still says what was tried.
func TestLookupFanoutFrozenLeader(t *testing.T) {
	_, pk, keys := fanoutFixture(t, 5*time.Second)
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	start := time.Now()
	err := pk.fanout(ctx, keys, fanoutOpts, func(ctx context.Context, node ServerNode, tableID int64, reqs []*kvBucketReq) ([]kvBucketFailure, error) {
		if node.ID == 2 {
			<-ctx.Done()
			return nil, &Error{Code: flusserr.RequestTimeOut, Message: "no response", cause: ctx.Err()}
		}
		return nil, nil
	})
	require.Error(t, err)
	// It ends with the context (500 ms), not after the fixture's 5 s request timeout; the bound
	// leaves room for a loaded machine (600 ms failed there at 612 ms).
	assert.Less(t, time.Since(start), 3*time.Second)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.ErrorIs(t, err, flusserr.RequestTimeOut)
	assert.Contains(t, err.Error(), "after 1 attempts")
}

// Without a deadline the retries stop after the client's request timeout.
func TestLookupFanoutWithoutDeadlineStopsAfterRequestTimeout(t *testing.T) {
	_, pk, keys := fanoutFixture(t, 700*time.Millisecond)
	start := time.Now()
	err := pk.fanout(context.Background(), keys, fanoutOpts, func(ctx context.Context, node ServerNode, tableID int64, reqs []*kvBucketReq) ([]kvBucketFailure, error) {
		var failed []kvBucketFailure
		for _, br := range reqs {
			failed = append(failed, kvBucketFailure{br, &Error{Code: flusserr.NotLeaderOrFollower, Message: "moved"}})
		}
		return failed, nil
	})
	require.Error(t, err)
	assert.Less(t, time.Since(start), time.Second)
	assert.ErrorIs(t, err, flusserr.NotLeaderOrFollower)
	assert.Regexp(t, `gave up after \d+ attempts over [0-9.]+m?s \(the request timeout\); last error: bucket \d of db.failover: fluss: NOT_LEADER_OR_FOLLOWER: moved`, err.Error())
}

// Errors retrying cannot fix are returned at once.
func TestLookupFanoutFatalError(t *testing.T) {
	_, pk, keys := fanoutFixture(t, 5*time.Second)
	var calls atomic.Int32
	err := pk.fanout(context.Background(), keys, fanoutOpts, func(ctx context.Context, node ServerNode, tableID int64, reqs []*kvBucketReq) ([]kvBucketFailure, error) {
		calls.Add(1)
		if node.ID == 2 {
			return nil, &Error{Code: flusserr.AuthorizationException}
		}
		return nil, nil
	})
	assert.ErrorIs(t, err, flusserr.AuthorizationException)
	assert.Contains(t, err.Error(), "bucket 1 of db.failover")
	assert.Equal(t, int32(3), calls.Load())
}

func TestKVRetryStopMessages(t *testing.T) {
	r := &kvRetry{what: "x", start: time.Now(), c: &Client{}}
	err := r.stop(context.Canceled, context.Canceled)
	assert.Equal(t, "fluss: x: context canceled after 1 attempts over 0s", err.Error())
	assert.ErrorIs(t, err, context.Canceled)
	last := errors.New("boom")
	err = r.stop(context.DeadlineExceeded, last)
	assert.ErrorIs(t, err, last)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Contains(t, err.Error(), "after 2 attempts")
}
