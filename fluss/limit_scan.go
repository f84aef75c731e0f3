package fluss

import (
	"context"
	"errors"
	"fmt"
	"io"

	"google.golang.org/protobuf/proto"

	"github.com/flussql/flussql/fluss/flusserr"
	"github.com/flussql/flussql/fluss/internal/kvbatch"
	"github.com/flussql/flussql/fluss/internal/protocol"
)

// ErrUnsupportedByServer is matched by errors for operations the connected
// server does not offer, as its ApiVersions answer shows: a feature of a
// newer release (e.g. a full scan of a primary-key table, which needs the
// SCAN_KV API of Fluss 1.0+; the message names the API, the release that
// added it and the server's release line, see Client.ServerVersion), or a
// request whose API the server lacks in every version this client speaks.
var ErrUnsupportedByServer = errors.New("fluss: not supported by this server")

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

// FullScan reads the whole current state of a primary-key table (every partition of a
// partitioned one) with a KvScanner and returns its rows in table column order. It needs
// the server-side KV scan of Fluss 1.0+ (SCAN_KV); against an older server — such as
// 0.9.1 — it returns an error wrapping ErrUnsupportedByServer that names the API and the
// server's release line (use LimitScan per bucket there, or read the table's changelog
// with a LogScanner). Use a KvScanner to stream a large table instead of holding it.
func (tb *Table) FullScan(ctx context.Context) ([][]any, error) {
	var opts KvScanOptions
	if tb.info.IsPartitioned() {
		parts, err := tb.c.Admin().ListPartitions(ctx, tb.info.Path, nil)
		if err != nil {
			return nil, fmt.Errorf("full scan: %w", err)
		}
		if len(parts) == 0 {
			return nil, nil
		}
		for _, p := range parts {
			opts.Partitions = append(opts.Partitions, p.Name)
		}
	}
	s, err := tb.NewKvScanner(ctx, opts)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	var out [][]any
	for {
		rows, err := s.Next(ctx)
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		out = append(out, rows...)
	}
}

// tabletOffers reports whether a tablet server lists api in its
// ApiVersions answer, whatever this client speaks of it.
func (c *Client) tabletOffers(ctx context.Context, api protocol.APIKey) (bool, string, error) {
	cl, err := c.cluster(ctx)
	if err != nil {
		return false, "", err
	}
	nodes := cl.tabletList()
	if len(nodes) == 0 {
		return false, "", ErrNoTabletServer
	}
	addr := nodes[0].Addr()
	conn, err := c.pool.Get(ctx, addr)
	if err != nil {
		return false, addr, convertErr(err)
	}
	return lists(conn, api), addr, nil
}
