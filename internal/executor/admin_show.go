package executor

import (
	"context"
	"maps"
	"slices"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/planner"
)

// readAdmin runs the cluster-inspection plans (SHOW SERVERS, OFFSETS, KV
// SNAPSHOTS, CLUSTER CONFIGS); ok is false for any other plan.
func (c *Session) readAdmin(ctx context.Context, p planner.QueryPlan) (rows [][]any, ok bool, err error) {
	admin := c.client.Admin()
	switch p := p.(type) {
	case *planner.ShowFunctions:
		return p.Rows(), true, nil
	case *planner.ShowServers:
		nodes, err := admin.ServerNodes(ctx)
		if err != nil {
			return nil, true, err
		}
		return p.Rows(nodes), true, nil
	case *planner.ShowClusterHealth:
		h, err := admin.ClusterHealth(ctx)
		if err != nil {
			return nil, true, err
		}
		return p.Rows(h), true, nil
	case *planner.ShowCreateDatabase:
		info, err := admin.GetDatabaseInfo(ctx, p.Name)
		if err != nil {
			return nil, true, err
		}
		return p.Rows(info), true, nil
	case *planner.ShowClusterConfigs:
		configs, err := admin.ClusterConfigs(ctx)
		if err != nil {
			return nil, true, err
		}
		return p.Rows(configs), true, nil
	case *planner.ShowOffsets:
		parts, err := c.showPartitionsOf(ctx, p.Table, &p.SpecFilter)
		if err != nil {
			return nil, true, err
		}
		var offsets []planner.BucketOffsets
		for _, part := range parts {
			earliest, err := admin.ListOffsets(ctx, p.Table.Path, part.Name, nil, fluss.OffsetEarliest())
			if err != nil {
				return nil, true, err
			}
			latest, err := admin.ListOffsets(ctx, p.Table.Path, part.Name, nil, fluss.OffsetLatest())
			if err != nil {
				return nil, true, err
			}
			for _, b := range slices.Sorted(maps.Keys(earliest)) {
				offsets = append(offsets, planner.BucketOffsets{Partition: part.Name, Bucket: b, Earliest: earliest[b], Latest: latest[b]})
			}
		}
		return p.Rows(offsets), true, nil
	case *planner.ShowKvSnapshots:
		parts, err := c.showPartitionsOf(ctx, p.Table, &p.SpecFilter)
		if err != nil {
			return nil, true, err
		}
		var snaps []planner.PartitionSnapshots
		for _, part := range parts {
			var s []fluss.KvSnapshot
			if p.Active {
				s, err = admin.ActiveKvSnapshots(ctx, p.Table.TableID, part.ID)
			} else {
				s, err = admin.LatestKvSnapshots(ctx, p.Table.Path, part.Name)
			}
			if err != nil {
				return nil, true, err
			}
			snaps = append(snaps, planner.PartitionSnapshots{Partition: part.Name, Snapshots: s})
		}
		return p.Rows(snaps), true, nil
	}
	return nil, false, nil
}

// showPartitionsOf returns the partitions a SHOW … FOR statement covers, or one without a
// name (and NoPartition as its id) for a non-partitioned table.
func (c *Session) showPartitionsOf(ctx context.Context, info *fluss.TableInfo, f *planner.SpecFilter) ([]fluss.PartitionInfo, error) {
	if !info.IsPartitioned() {
		return []fluss.PartitionInfo{{ID: fluss.NoPartition}}, nil
	}
	all, err := c.client.Admin().ListPartitions(ctx, info.Path, nil)
	if err != nil {
		return nil, err
	}
	return f.Matching(all), nil
}
