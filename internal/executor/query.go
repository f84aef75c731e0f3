package executor

import (
	"context"
	"fmt"
	"time"

	"github.com/flussql/flussql/engine"
	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/types"
	"github.com/flussql/flussql/parser"
	"github.com/flussql/flussql/planner"
)

// queryWith runs a statement for Query, reusing the lookup plan kept in pc (nil: none). A
// statement that returns no rows is executed and answers with an empty result, so tools
// that send everything through Query work.
func (c *Session) queryWith(ctx context.Context, st parser.Statement, args []planner.Arg, pc *lookupPlanCache) (Rows, error) {
	pctx, cancel := c.ex.requestContext(ctx)
	p, err := c.planCached(pctx, st, args, pc)
	if err != nil {
		cancel()
		return nil, err
	}
	if fp, ok := p.(*planner.Flink); ok {
		cancel() // a continuous query lives as long as its rows
		return c.queryFlink(ctx, fp)
	}
	qp, ok := p.(planner.QueryPlan)
	if !ok {
		defer cancel()
		if _, err := c.execPlan(pctx, p); err != nil {
			return nil, err
		}
		return newSliceRows(nil, nil), nil
	}
	if scan, ok := p.(*planner.Scan); ok {
		cancel() // a scan lives as long as its rows; it applies timeouts per fetch itself
		return c.startScan(ctx, scan)
	}
	if q, ok := p.(*planner.Query); ok {
		cancel() // the source's own requests get their deadlines in startQuery
		return c.startQuery(ctx, q)
	}
	defer cancel()
	rows, err := c.readAll(pctx, qp)
	if err != nil {
		return nil, err
	}
	return newSliceRows(qp.ResultColumns(), rows), nil
}

// readAll runs the read plans whose result is small and bounded (SHOW, DESCRIBE, EXPLAIN,
// lookups, limit scans) and returns their rows in the fluss value model.
func (c *Session) readAll(ctx context.Context, p planner.QueryPlan) ([][]any, error) {
	admin := c.client.Admin()
	switch p := p.(type) {
	case *planner.ShowDatabases:
		names, err := admin.ListDatabases(ctx)
		if err != nil {
			return nil, err
		}
		return p.Rows(names), nil
	case *planner.ShowTables:
		names, err := admin.ListTables(ctx, p.Database)
		if err != nil {
			return nil, err
		}
		return p.Rows(names), nil
	case *planner.ShowPartitions:
		parts, err := admin.ListPartitions(ctx, p.Path, nil)
		if err != nil {
			return nil, err
		}
		return p.Rows(parts), nil
	case *planner.ShowACLs:
		return c.showACLs(ctx, p)
	case *planner.ShowCreateTable:
		return p.Rows(), nil
	case *planner.Describe:
		return p.Rows(), nil
	case *planner.Explain:
		lake, err := c.lakeExplain(ctx, p.Plan)
		if err != nil {
			return nil, err
		}
		return append(p.Rows(), lake...), nil
	case *planner.Lookup:
		return c.lookup(ctx, p.Table, &p.KeySet, &p.Output, false)
	case *planner.PrefixLookup:
		return c.lookup(ctx, p.Table, &p.KeySet, &p.Output, true)
	case *planner.LimitScan:
		return c.limitScan(ctx, p)
	}
	if cp, ok := p.(planner.CallPlan); ok {
		return c.runCall(ctx, cp)
	}
	if rows, ok, err := c.readAdmin(ctx, p); ok {
		return rows, err
	}
	return nil, fmt.Errorf("flussql: running %T is %w", p, ErrNotSupported)
}

// lookup looks every key of ks up (batched per bucket leader by the Lookuper) and applies
// the plan's output (filter, projection, LIMIT, COUNT).
func (c *Session) lookup(ctx context.Context, info *fluss.TableInfo, ks *planner.KeySet, out *planner.Output, prefix bool) ([][]any, error) {
	// Key values come in KeyColumns order: the primary key (lookup), or the bucket key and
	// the partition keys (prefix lookup) — the order the fluss lookupers take.
	keys := make([][]any, len(ks.Keys))
	for i, k := range ks.Keys {
		keys[i] = k.Values
	}
	var found [][]any
	if prefix {
		pl, err := c.prefixLookuper(info, ks.KeyColumns)
		if err != nil {
			return nil, err
		}
		groups, err := pl.LookupMany(ctx, keys)
		if err != nil {
			return nil, err
		}
		for _, g := range groups {
			found = append(found, g...)
		}
	} else {
		lk, err := c.lookuper(info)
		if err != nil {
			return nil, err
		}
		rows, err := lk.LookupMany(ctx, keys)
		if err != nil {
			return nil, err
		}
		for _, r := range rows {
			if r != nil {
				found = append(found, r)
			}
		}
	}
	return applyOutput(out, found)
}

// limitScan reads up to the LIMIT from each bucket of each partition left after pruning.
func (c *Session) limitScan(ctx context.Context, p *planner.LimitScan) ([][]any, error) {
	tbl, err := c.client.TableOf(p.Table)
	if err != nil {
		return nil, err
	}
	limit := int(p.Limit)
	if limit <= 0 {
		return applyOutput(&p.Output, nil)
	}
	partitions := []string{""}
	if p.Partitioned {
		partitions = partitions[:0]
		for _, part := range p.Partitions {
			partitions = append(partitions, part.Name)
		}
	}
	res := p.Output.Begin()
	var out [][]any
	for _, part := range partitions {
		for b := 0; b < p.Buckets && !res.Done(); b++ {
			rows, err := tbl.LimitScan(ctx, part, int32(b), min(limit, fluss.MaxLimitScan))
			if err != nil {
				return nil, err
			}
			for _, r := range rows {
				o, err := res.Add(r)
				if err != nil {
					return nil, err
				}
				if o != nil {
					out = append(out, o)
				}
			}
		}
	}
	return append(out, res.Finish()...), nil
}

// applyOutput runs rows through a plan's output.
func applyOutput(o *planner.Output, in [][]any) ([][]any, error) {
	res := o.Begin()
	var out [][]any
	for _, r := range in {
		if res.Done() {
			break
		}
		row, err := res.Add(r)
		if err != nil {
			return nil, err
		}
		if row != nil {
			out = append(out, row)
		}
	}
	return append(out, res.Finish()...), nil
}

// startScan subscribes every bucket of the partitions left after pruning and returns rows
// that stream the scan. Subscribing (which asks the leaders for offsets) happens here, so
// errors such as a missing table come from Query, not from the first Next.
func (c *Session) startScan(ctx context.Context, p *planner.Scan) (Rows, error) {
	cols := p.ResultColumns()
	if p.Partitioned && len(p.Partitions) == 0 {
		rows, err := applyOutput(&p.Output, nil) // every partition pruned: no rows (COUNT(*) = 0)
		if err != nil {
			return nil, err
		}
		return newSliceRows(cols, rows), nil
	}
	return c.openScan(ctx, p, nil)
}

// openScan subscribes the scan's buckets and returns its rows (not for a scan whose
// partitions were all pruned). The state of a union read of a primary-key table counts in
// budget (nil: a budget of the session's query_memory of its own).
func (c *Session) openScan(ctx context.Context, p *planner.Scan, budget *engine.Budget) (*scanRows, error) {
	cols := p.ResultColumns()
	tbl, err := c.client.TableOf(p.Table)
	if err != nil {
		return nil, err
	}
	projection := p.Projection
	if len(projection) == 0 {
		projection = []int{0} // COUNT(*) needs no column, but a fetch needs one
	}
	inTypes := make([]types.DataType, len(projection))
	schema := p.Table.Schema()
	for i, col := range projection {
		inTypes[i] = schema.Columns[col].Type
	}
	lake, err := c.openLake(ctx, p)
	if err != nil {
		return nil, err
	}
	if p.Lake == planner.LakeOnly {
		rows := newScanRows(ctx, cols, nil, &p.Output, inTypes, 0)
		rows.lake = lake
		return rows, nil
	}
	filter := p.ServerFilter()
	if p.IsLakeMerge() {
		filter = nil // a change to a value the WHERE rejects still replaces the key's lake row
	}
	scanner, err := tbl.NewLogScanner(fluss.ScannerOptions{Projection: projection, Bounded: p.Bounded, Filter: filter,
		Partitions: p.Partitions, Contiguous: p.Lake == planner.LakeUnion})
	if err != nil {
		lake.close()
		return nil, err
	}
	var buckets []fluss.TableBucket
	partIDs := []int64{fluss.NoPartition}
	if p.Partitioned {
		partIDs = partIDs[:0]
		for _, part := range p.Partitions {
			partIDs = append(partIDs, part.ID)
		}
	}
	for _, id := range partIDs {
		for b := 0; b < p.Buckets; b++ {
			buckets = append(buckets, fluss.TableBucket{PartitionID: id, Bucket: int32(b)})
		}
	}
	subscribe := func(ctx context.Context, group []fluss.TableBucket) error {
		ctx, cancel := c.ex.requestContext(ctx)
		defer cancel()
		if p.Start == planner.StartTimestamp {
			return scanner.SubscribeTimestamp(ctx, group, time.UnixMilli(p.StartTimestamp))
		}
		offset := fluss.EarliestOffset
		if p.Start == planner.StartLatest {
			offset = fluss.LatestOffset
		}
		m := make(map[fluss.TableBucket]int64, len(group))
		for _, b := range group {
			m[b] = offset
			if p.Lake == planner.LakeUnion {
				m[b] = lake.startOffset(b)
			}
		}
		return lake.gapError(p.Table, scanner.SubscribeBuckets(ctx, m))
	}
	groups, limited := [][]fluss.TableBucket{buckets}, false
	switch {
	case p.Bounded && p.Output.Limit >= 0 && !p.Output.Count && !p.IsLakeMerge():
		groups, limited = limitGroups(buckets), true
	case p.Bounded && len(buckets) > firstGroup:
		groups = [][]fluss.TableBucket{buckets[:firstGroup:firstGroup], buckets[firstGroup:]}
	}
	more, stop, err := subscribeGroups(ctx, groups, limited, subscribe)
	if err != nil {
		scanner.Close()
		lake.close()
		return nil, err
	}
	var timeout time.Duration
	if p.Bounded {
		timeout = c.ex.opts.RequestTimeout
	}
	rows := newScanRows(ctx, cols, scanner, &p.Output, inTypes, timeout)
	rows.more, rows.stop, rows.lake = more, stop, lake
	if p.IsLakeMerge() {
		if budget == nil {
			budget = &engine.Budget{Limit: c.ex.opts.QueryMemory, Setting: "the DSN key query_memory"}
		}
		if rows.merge, err = newLakeMerge(p.Table, projection, budget); err != nil {
			rows.Close()
			return nil, err
		}
	}
	return rows, nil
}
