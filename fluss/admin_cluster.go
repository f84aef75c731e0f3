package fluss

import (
	"context"
	"sort"
	"strconv"
	"strings"

	"google.golang.org/protobuf/proto"

	"github.com/flussql/flussql/fluss/internal/protocol"
)

// KvSnapshot is the latest completed snapshot of one bucket of a
// primary-key table's key-value store.
type KvSnapshot struct {
	// Bucket is the bucket id.
	Bucket int32
	// SnapshotID is the snapshot's id; HasSnapshot is false (and both
	// fields are zero) while the bucket has no completed snapshot yet.
	SnapshotID int64
	// LogOffset is the changelog offset the snapshot covers: a reader that
	// restores the snapshot continues the changelog from here.
	LogOffset int64
	// HasSnapshot reports whether the bucket has a snapshot.
	HasSnapshot bool
}

// LatestKvSnapshots returns the latest snapshot of every bucket of a
// primary-key table, or of one partition of a partitioned one (partition
// is its name, "" for a non-partitioned table), ordered by bucket.
func (a *Admin) LatestKvSnapshots(ctx context.Context, path TablePath, partition string) ([]KvSnapshot, error) {
	if err := path.check(); err != nil {
		return nil, err
	}
	req := &protocol.GetLatestKvSnapshotsRequest{TablePath: pbPath(path)}
	if partition != "" {
		req.PartitionName = proto.String(partition)
	}
	var resp protocol.GetLatestKvSnapshotsResponse
	if err := a.c.callAnyServer(ctx, protocol.GetLatestKvSnapshots, req, &resp); err != nil {
		return nil, err
	}
	out := make([]KvSnapshot, 0, len(resp.GetLatestSnapshots()))
	for _, s := range resp.GetLatestSnapshots() {
		out = append(out, KvSnapshot{
			Bucket:      s.GetBucketId(),
			SnapshotID:  s.GetSnapshotId(),
			LogOffset:   s.GetLogOffset(),
			HasSnapshot: s.SnapshotId != nil,
		})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Bucket < out[j].Bucket })
	return out, nil
}

// ActiveKvSnapshots returns the KV snapshots the cluster keeps for a primary-key table, or
// for one partition of a partitioned one (partitionID, NoPartition for a non-partitioned
// table): the retained ones and those still in use by readers, several per bucket, ordered
// by bucket and snapshot id. It needs Fluss 1.0 (LIST_KV_SNAPSHOTS); an older coordinator
// gives an error matching ErrUnsupportedByServer.
func (a *Admin) ActiveKvSnapshots(ctx context.Context, tableID, partitionID int64) ([]KvSnapshot, error) {
	req := &protocol.ListKvSnapshotsRequest{TableId: proto.Int64(tableID)}
	if partitionID != NoPartition {
		req.PartitionId = proto.Int64(partitionID)
	}
	var resp protocol.ListKvSnapshotsResponse
	err := a.c.callCoordinator(ctx, protocol.ListKvSnapshots, req, &resp)
	if err = a.c.since10(ctx, "listing the KV snapshots of table id "+strconv.FormatInt(tableID, 10), protocol.ListKvSnapshots, err); err != nil {
		return nil, err
	}
	out := make([]KvSnapshot, 0, len(resp.GetActiveSnapshots()))
	for _, s := range resp.GetActiveSnapshots() {
		out = append(out, KvSnapshot{Bucket: s.GetBucketId(), SnapshotID: s.GetSnapshotId(), LogOffset: s.GetLogOffset(), HasSnapshot: s.SnapshotId != nil})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Bucket != out[j].Bucket {
			return out[i].Bucket < out[j].Bucket
		}
		return out[i].SnapshotID < out[j].SnapshotID
	})
	return out, nil
}

// ClusterConfig is one configuration entry of the cluster.
type ClusterConfig struct {
	// Key is the option's name, e.g. "datalake.format".
	Key string
	// Value is the option's value.
	Value string
	// HasValue is false for an option without a value (Value is then "").
	HasValue bool
	// Source says where the value comes from, as the server names it
	// (e.g. "DYNAMIC_SERVER_CONFIG", "INITIAL_SERVER_CONFIG").
	Source string
}

// MaskedConfigValue replaces the value of a sensitive configuration entry
// in ClusterConfigs.
const MaskedConfigValue = "******"

// sensitiveConfigWords mark configuration keys whose values are secrets
// (SASL JAAS configs hold passwords; remote storage keys hold credentials).
var sensitiveConfigWords = []string{"password", "secret", "jaas", "token", "credential", "access-key", "access.key", "accesskey", "apikey", "api-key", "private"}

// IsSensitiveConfig reports whether the value of the configuration key is
// a secret that ClusterConfigs masks.
func IsSensitiveConfig(key string) bool {
	k := strings.ToLower(key)
	for _, w := range sensitiveConfigWords {
		if strings.Contains(k, w) {
			return true
		}
	}
	return false
}

// ClusterConfigs returns the cluster's configuration entries as the
// coordinator describes them, ordered by key: 0.9 servers return every
// option of their configuration file (source INITIAL_SERVER_CONFIG) and the
// ones altered at run time (DYNAMIC_SERVER_CONFIG). The server sends secrets
// too (e.g. the SASL JAAS config with every user's password): the values of
// sensitive keys (IsSensitiveConfig) are replaced by MaskedConfigValue.
// Servers before 0.9 answer with ErrUnsupportedByServer.
func (a *Admin) ClusterConfigs(ctx context.Context) ([]ClusterConfig, error) {
	var resp protocol.DescribeClusterConfigsResponse
	if err := a.c.callCoordinator(ctx, protocol.DescribeClusterConfigs, &protocol.DescribeClusterConfigsRequest{}, &resp); err != nil {
		return nil, err
	}
	out := make([]ClusterConfig, 0, len(resp.GetConfigs()))
	for _, c := range resp.GetConfigs() {
		cc := ClusterConfig{Key: c.GetConfigKey(), Value: c.GetConfigValue(), HasValue: c.ConfigValue != nil, Source: c.GetConfigSource()}
		if cc.HasValue && IsSensitiveConfig(cc.Key) {
			cc.Value = MaskedConfigValue
		}
		out = append(out, cc)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out, nil
}
