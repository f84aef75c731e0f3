package fluss

import (
	"context"
	"fmt"

	"google.golang.org/protobuf/proto"

	"github.com/flussql/flussql/fluss/flusserr"
	"github.com/flussql/flussql/fluss/internal/kvbatch"
	"github.com/flussql/flussql/fluss/internal/protocol"
)

// MaxLimitScan is the largest row count LimitScan asks for.
const MaxLimitScan = 1 << 20

// LimitScan returns up to limit rows of one bucket of a primary-key table
// (of a partition, by name, for a partitioned table; "" otherwise), read
// from the bucket leader's KV store (LIMIT_SCAN). The rows are the current
// values, in the table's column order, in the order of their encoded keys;
// they reflect what the leader has applied to its store, so a write
// acknowledged a moment ago may not be visible yet. Partition and bucket
// come from Admin.ListPartitions and TableInfo.NumBuckets.
func (tb *Table) LimitScan(ctx context.Context, partition string, bucket int32, limit int) ([][]any, error) {
	t, err := openPKTable(tb)
	if err != nil {
		return nil, fmt.Errorf("limit scan: %w", err)
	}
	if limit <= 0 || limit > MaxLimitScan {
		return nil, fmt.Errorf("fluss: limit scan of %s: limit %d is not in 1..%d", t.path, limit, MaxLimitScan)
	}
	switch {
	case partition == "" && t.info.IsPartitioned():
		return nil, invalidSpec("limit scan: table %s is partitioned: name a partition", t.path)
	case partition != "" && !t.info.IsPartitioned():
		return nil, &Error{Code: flusserr.TableNotPartitionedException, NotSent: true,
			Message: fmt.Sprintf("limit scan: table %s is not partitioned", t.path)}
	case bucket < 0 || int(bucket) >= t.info.NumBuckets():
		return nil, &Error{Code: flusserr.UnknownTableOrBucketException, NotSent: true,
			Message: fmt.Sprintf("limit scan: %s has no bucket %d (it has %d)", physicalName(t.path, partition), bucket, t.info.NumBuckets())}
	}
	r := t.c.newKVRetry(ctx, fmt.Sprintf("limit scan of bucket %d of %s", bucket, physicalName(t.path, partition)))
	for {
		rows, err := t.limitScanOnce(ctx, partition, bucket, limit)
		if err == nil {
			return rows, nil
		}
		if !retryable(err) {
			if ctx.Err() != nil {
				return nil, r.stop(ctx.Err(), err)
			}
			return nil, fmt.Errorf("limit scan of bucket %d of %s: %w", bucket, physicalName(t.path, partition), err)
		}
		t.c.invalidateTable(t.path)
		if werr := r.failed(ctx, err); werr != nil {
			return nil, werr
		}
	}
}

func (t *pkTable) limitScanOnce(ctx context.Context, partition string, bucket int32, limit int) ([][]any, error) {
	bt, err := t.locate(ctx, partition, bucket)
	if err != nil {
		return nil, err
	}
	req := &protocol.LimitScanRequest{
		TableId:     proto.Int64(bt.tableID),
		PartitionId: bt.partitionID,
		BucketId:    proto.Int32(bucket),
		Limit:       proto.Int32(int32(limit)),
	}
	var resp protocol.LimitScanResponse
	if err := t.c.callNode(ctx, bt.leader, protocol.LimitScan, req, &resp); err != nil {
		return nil, err
	}
	if err := errorFromCode(resp.GetErrorCode(), resp.GetErrorMessage()); err != nil {
		return nil, err
	}
	if resp.GetIsLogTable() {
		return nil, &Error{Code: flusserr.NonPrimaryKeyTableException, Message: "the server scanned a log table"}
	}
	return t.decodeValueBatches(resp.GetRecords(), limit)
}

// decodeValueBatches decodes the value record batches of a KV scan answer.
func (t *pkTable) decodeValueBatches(b []byte, limit int) ([][]any, error) {
	var rows [][]any
	for len(b) > 0 {
		recs, n, err := kvbatch.DecodeValueBatch(b)
		if err != nil {
			return nil, &Error{Code: flusserr.CorruptMessage, Message: err.Error(), cause: err}
		}
		for _, r := range recs {
			row, err := t.values.decodeRow(r.SchemaID, r.Row)
			if err != nil {
				return nil, err
			}
			rows = append(rows, row)
		}
		b = b[n:]
	}
	if len(rows) > limit {
		rows = rows[:limit]
	}
	return rows, nil
}
