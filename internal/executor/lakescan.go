package executor

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/planner"
)

// lakeRead is the lake part of a scan that reads a table's lake (planner.LakeUnion,
// planner.LakeOnly): the snapshot Fluss reports as tiered and the planned read of it.
type lakeRead struct {
	// snap is nil when the table has no lake snapshot yet (a union read is then the log).
	snap *fluss.LakeSnapshot
	// scan is nil when there is no snapshot.
	scan fluss.LakeScan
}

// openLake asks the cluster for the table's lake snapshot and plans its read with the
// scan's columns, partitions and filter (nil for a scan that reads no lake).
func (c *Session) openLake(ctx context.Context, p *planner.Scan) (*lakeRead, error) {
	if p.Lake == planner.NoLake {
		return nil, nil
	}
	rctx, cancel := c.ex.requestContext(ctx)
	snap, err := c.client.Admin().ReadableLakeSnapshot(rctx, p.Table.Path)
	cancel()
	if errors.Is(err, fluss.ErrLakeSnapshotNotExist) {
		return &lakeRead{}, nil // nothing tiered yet: the log holds every row
	}
	if err != nil {
		return nil, fmt.Errorf("flussql: the lake snapshot of %s: %w", p.Table.Path, err)
	}
	format, err := fluss.LakeFormatOf(p.Table)
	if err != nil {
		return nil, fmt.Errorf("%w (%w)", err, ErrNotSupported)
	}
	req := fluss.LakeScanRequest{SnapshotID: snap.SnapshotID, Columns: p.Projection, Filter: p.LakeFilter()}
	if len(req.Columns) == 0 {
		req.Columns = []int{0}
	}
	if p.Partitioned && len(p.Partitions) < len(p.All) {
		// Pruned: only the kept partitions. Unpruned, every partition of the lake is read,
		// including those Fluss no longer has.
		req.Partitions = []string{}
		for _, part := range p.Partitions {
			req.Partitions = append(req.Partitions, part.Name)
		}
	}
	scan, err := format.ScanLake(ctx, p.Table, req)
	if err != nil {
		return nil, err
	}
	return &lakeRead{snap: snap, scan: scan}, nil
}

// startOffset is where a union read continues bucket b's log: the snapshot's offset of
// the bucket, or the earliest offset when the snapshot holds nothing of it.
func (l *lakeRead) startOffset(b fluss.TableBucket) int64 {
	if l == nil || l.snap == nil {
		return fluss.EarliestOffset
	}
	if off, ok := l.snap.Offset(b); ok {
		return off
	}
	return fluss.EarliestOffset
}

// gapError turns err, when it is the scanner's *fluss.LogGapError, into the error of a
// union read that would miss rows: the bucket's log starts after the lake snapshot's offset
// for it (after offset 0 when the snapshot holds none of it), so the rows between expired
// from Fluss (table.log.ttl) before the tiering service copied them. Other errors pass.
func (l *lakeRead) gapError(info *fluss.TableInfo, err error) error {
	var gap *fluss.LogGapError
	if !errors.As(err, &gap) {
		return err
	}
	held := "holds none of that bucket"
	if l != nil && l.snap != nil {
		if off, ok := l.snap.Offset(gap.Bucket); ok {
			held = fmt.Sprintf("holds that bucket up to offset %d", off)
		}
		held = fmt.Sprintf("lake snapshot %d %s", l.snap.SnapshotID, held)
	} else {
		held = "lake has no snapshot yet"
	}
	return fmt.Errorf("flussql: the union read of %s would miss rows: %w; the %s. The log expired them ('table.log.ttl') before the tiering service tiered them: "+
		"read the lake alone (%s$lake) or the log alone (/*+ OPTIONS('scan.startup.mode' = 'earliest') */), and keep 'table.log.ttl' well above 'table.datalake.freshness' with the tiering service running",
		info.Path, gap, held, info.Path.Table)
}

// next returns the lake's next batch as a scan batch, or io.EOF after the last one.
func (l *lakeRead) next(ctx context.Context) (*fluss.ScanBatch, error) {
	if l == nil || l.scan == nil {
		return nil, io.EOF
	}
	rec, err := l.scan.Next(ctx)
	if err != nil {
		return nil, err
	}
	return &fluss.ScanBatch{Bucket: fluss.TableBucket{PartitionID: fluss.NoPartition, Bucket: -1}, Record: rec, BaseOffset: -1}, nil
}

// close ends the lake read.
func (l *lakeRead) close() {
	if l != nil && l.scan != nil {
		_ = l.scan.Close()
		l.scan = nil
	}
}

// lakeExplain returns the EXPLAIN lines of the lake reads of plan: per scan that reads a
// lake, the snapshot, the data files its planning kept and where each bucket's log
// continues.
func (c *Session) lakeExplain(ctx context.Context, plan planner.Plan) ([][]any, error) {
	var scans []*planner.Scan
	var walk func(p planner.Plan)
	walk = func(p planner.Plan) {
		switch p := p.(type) {
		case *planner.Scan:
			if p.Lake != planner.NoLake {
				scans = append(scans, p)
			}
		case *planner.Query:
			if p.Source != nil {
				walk(p.Source)
			}
			for _, in := range p.Inputs {
				walk(in)
			}
		}
	}
	walk(plan)
	var out [][]any
	for _, p := range scans {
		lake, err := c.openLake(ctx, p)
		if err != nil {
			return nil, err
		}
		name := p.Table.Path.String()
		if lake.snap == nil {
			out = append(out, []any{fmt.Sprintf("lake of %s: no snapshot tiered yet (the log is read from the earliest offsets)", name)})
			continue
		}
		files := lake.scan.Files()
		lake.close()
		out = append(out, []any{fmt.Sprintf("lake of %s: %s snapshot %d, %d data files kept", name, p.Table.DatalakeFormat(), lake.snap.SnapshotID, len(files))})
		for _, f := range files {
			out = append(out, []any{"  file " + f})
		}
		if p.Lake == planner.LakeUnion {
			var offs []string
			for _, b := range lake.snap.Buckets {
				if !b.HasOffset {
					continue
				}
				where := fmt.Sprintf("bucket %d", b.Bucket)
				if b.PartitionID != fluss.NoPartition {
					where = fmt.Sprintf("partition %d bucket %d", b.PartitionID, b.Bucket)
				}
				offs = append(offs, fmt.Sprintf("%s from %d", where, b.LogOffset))
			}
			line := "log after the snapshot: every bucket from its earliest offset"
			if len(offs) > 0 {
				line = "log after the snapshot: " + strings.Join(offs, ", ") + " (other buckets from their earliest offset)"
			}
			out = append(out, []any{line})
		}
	}
	return out, nil
}
