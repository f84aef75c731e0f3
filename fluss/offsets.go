package fluss

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/flussql/flussql/fluss/flusserr"
	"github.com/flussql/flussql/fluss/internal/protocol"
)

// Special offsets.
const (
	// EarliestOffset, used as a fetch offset, means "the start of the log".
	EarliestOffset int64 = -2
)

// OffsetSpec chooses which offset ListOffsets returns per bucket.
type OffsetSpec struct {
	kind int32 // 0 earliest, 1 latest, 2 timestamp
	ts   int64
}

// OffsetEarliest is the first offset still in the log.
func OffsetEarliest() OffsetSpec { return OffsetSpec{kind: 0} }

// OffsetLatest is the high watermark: the offset the next committed record
// will get, i.e. the end of what readers can see.
func OffsetLatest() OffsetSpec { return OffsetSpec{kind: 1} }

// OffsetAtTimestamp is the first offset whose batch was committed at or
// after t (the high watermark if none was). A time later than the server's
// clock fails with flusserr.InvalidTimestampException.
func OffsetAtTimestamp(t time.Time) OffsetSpec { return OffsetSpec{kind: 2, ts: t.UnixMilli()} }

// String returns "earliest", "latest" or "timestamp(ms)".
func (s OffsetSpec) String() string {
	switch s.kind {
	case 0:
		return "earliest"
	case 1:
		return "latest"
	}
	return fmt.Sprintf("timestamp(%d)", s.ts)
}

// staleRetryBudget bounds how long ListOffsets keeps refreshing and retrying on stale
// metadata (a bucket without a leader yet, a moved leader) when the context allows longer:
// the buckets of a table created a moment ago get their leaders within a few seconds, more
// on a loaded machine.
var staleRetryBudget = 15 * time.Second

// ListOffsets returns the offset chosen by spec for each bucket of a table,
// or of one partition of a partitioned table (partition is the partition
// name, see PartitionName; "" for non-partitioned tables). With no buckets
// it covers every bucket. Requests go to each bucket's leader; stale
// leaders are refreshed and retried until ctx ends, for at most 15 s.
func (a *Admin) ListOffsets(ctx context.Context, path TablePath, partition string, buckets []int32, spec OffsetSpec) (map[int32]int64, error) {
	c := a.c
	out := make(map[int32]int64)
	todo := buckets
	backoff := 50 * time.Millisecond
	giveUp := time.Now().Add(staleRetryBudget)
	var lastErr error
	for round := 0; ; round++ {
		tm, err := c.tableMetadata(ctx, path)
		if err != nil {
			return nil, err
		}
		tableID, partitionID, all, err := a.locate(ctx, tm, path, partition)
		if err != nil {
			return nil, err
		}
		if round == 0 {
			if len(todo) == 0 {
				for _, b := range all {
					todo = append(todo, b.Bucket)
				}
			} else if err := checkBuckets(todo, all, physicalName(path, partition)); err != nil {
				return nil, err
			}
		}
		var retry []int32
		retry, lastErr = a.listOffsetsOnce(ctx, path, partition, tableID, partitionID, todo, spec, out)
		if lastErr != nil && !isStale(lastErr) {
			return nil, lastErr
		}
		if len(retry) == 0 && lastErr == nil {
			return out, nil
		}
		if time.Now().After(giveUp) {
			return nil, lastErr
		}
		c.invalidateTable(path)
		select {
		case <-time.After(backoff):
		case <-ctx.Done():
			return nil, errors.Join(lastErr, ctx.Err())
		}
		backoff = min(2*backoff, time.Second)
		todo = retry
	}
}

// checkBuckets fails for a bucket id the table does not have.
func checkBuckets(ids []int32, all []bucketLocation, name string) error {
	have := make(map[int32]bool, len(all))
	for _, b := range all {
		have[b.Bucket] = true
	}
	for _, id := range ids {
		if !have[id] {
			return &Error{Code: flusserr.UnknownTableOrBucketException, NotSent: true,
				Message: fmt.Sprintf("%s has no bucket %d (it has %d)", name, id, len(all))}
		}
	}
	return nil
}

// locate returns the ids and bucket list of the table or partition.
func (a *Admin) locate(ctx context.Context, tm *tableMetadata, path TablePath, partition string) (int64, *int64, []bucketLocation, error) {
	info := tm.Info
	switch {
	case partition == "" && info.IsPartitioned():
		return 0, nil, nil, invalidSpec("table %s is partitioned: name a partition", path)
	case partition != "" && !info.IsPartitioned():
		return 0, nil, nil, &Error{Code: flusserr.TableNotPartitionedException, NotSent: true,
			Message: fmt.Sprintf("table %s is not partitioned", path)}
	case partition == "":
		return info.TableID, nil, tm.Buckets, nil
	}
	pm, err := a.c.partitionMetadata(ctx, path, partition)
	if err != nil {
		return 0, nil, nil, err
	}
	return pm.TableID, &pm.ID, pm.Buckets, nil
}

// listOffsetsOnce sends one request per leader, concurrently, and fills
// out. It returns the buckets to retry after a metadata refresh, with the
// error that made them fail.
func (a *Admin) listOffsetsOnce(ctx context.Context, path TablePath, partition string, tableID int64, partitionID *int64,
	buckets []int32, spec OffsetSpec, out map[int32]int64) ([]int32, error) {
	c := a.c
	byLeader := map[int32][]int32{}
	nodes := map[int32]ServerNode{}
	var retry []int32
	var firstErr error
	for _, b := range buckets {
		node, err := c.bucketLeader(ctx, path, partition, b)
		if err != nil {
			if !isStale(err) {
				return nil, err
			}
			retry = append(retry, b)
			firstErr = err
			continue
		}
		byLeader[node.ID] = append(byLeader[node.ID], b)
		nodes[node.ID] = node
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for id, bs := range byLeader {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req := &protocol.ListOffsetsRequest{
				FollowerServerId: proto.Int32(-1),
				OffsetType:       proto.Int32(spec.kind),
				TableId:          proto.Int64(tableID),
				PartitionId:      partitionID,
				BucketId:         bs,
			}
			if spec.kind == 2 {
				req.StartTimestamp = proto.Int64(spec.ts)
			}
			var resp protocol.ListOffsetsResponse
			err := c.callNode(ctx, nodes[id], protocol.ListOffsets, req, &resp)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				retry = append(retry, bs...)
				if firstErr == nil || !isStale(err) {
					firstErr = err
				}
				return
			}
			got := map[int32]bool{}
			for _, r := range resp.GetBucketsResp() {
				got[r.GetBucketId()] = true
				if err := errorFromCode(r.GetErrorCode(), r.GetErrorMessage()); err != nil {
					retry = append(retry, r.GetBucketId())
					err = fmt.Errorf("bucket %d of %s: %w", r.GetBucketId(), physicalName(path, partition), err)
					if firstErr == nil || !isStale(err) {
						firstErr = err
					}
					continue
				}
				out[r.GetBucketId()] = r.GetOffset()
			}
			for _, b := range bs {
				if !got[b] {
					retry = append(retry, b)
					if firstErr == nil {
						firstErr = &Error{Code: flusserr.UnknownTableOrBucketException,
							Message: fmt.Sprintf("no answer for bucket %d of %s", b, physicalName(path, partition))}
					}
				}
			}
		}()
	}
	wg.Wait()
	sort.Slice(retry, func(i, j int) bool { return retry[i] < retry[j] })
	return retry, firstErr
}
