package localcluster

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/flussql/flussql/fluss/internal/protocol"
	"github.com/flussql/flussql/fluss/internal/rpc"
)

// The other face of apache/fluss#1018: the coordinator's ZooKeeper cache can report a new
// table's node already filled in (a NODE_CREATED event with the table's data) instead of the
// NODE_CHANGED event that makes it create the table, and then never starts the table's
// buckets. Nothing is logged; the table exists, its buckets have no leader for good, and
// every write to it fails with LEADER_NOT_AVAILABLE (seen once in a CI rehearsal). The
// coordinator loads every table from ZooKeeper when it starts and elects leaders for buckets
// that have none, so a restart heals this too.

// leaderlessGrace is how old a non-partitioned table must be, by the coordinator's clock of
// its creation, before buckets without a leader count as a lost creation: normally they get
// one within a second.
const leaderlessGrace = 12 * time.Second

// tableWatch remembers the tables already seen with a leader for every bucket, so that each
// table is asked about only while it is young or leaderless.
type tableWatch struct {
	healthy map[int64]bool
}

// leaderlessTable returns a non-partitioned table of the cluster older than leaderlessGrace
// with a bucket that has no leader ("" when there is none), asking the coordinator. Errors
// (a table dropped while asked, a coordinator restarting) mean "nothing found this round".
func (w *tableWatch) leaderlessTable(ctx context.Context, c *Cluster) (string, error) {
	if w.healthy == nil {
		w.healthy = map[int64]bool{}
	}
	opts := rpc.Options{DialTimeout: 3 * time.Second, RequestTimeout: 3 * time.Second}
	if c.user != "" {
		opts.Credentials = &rpc.Credentials{Username: c.user, Password: c.password}
	}
	conn, err := rpc.Dial(ctx, c.BootstrapServers, opts)
	if err != nil {
		return "", err
	}
	defer conn.Close()
	var dbs protocol.ListDatabasesResponse
	if err := conn.Call(ctx, protocol.ListDatabases, &protocol.ListDatabasesRequest{}, &dbs); err != nil {
		return "", err
	}
	for _, db := range dbs.GetDatabaseName() {
		var tables protocol.ListTablesResponse
		if err := conn.Call(ctx, protocol.ListTables, &protocol.ListTablesRequest{DatabaseName: proto.String(db)}, &tables); err != nil {
			continue // dropped meanwhile
		}
		for _, table := range tables.GetTableName() {
			var md protocol.MetadataResponse
			req := &protocol.MetadataRequest{TablePath: []*protocol.PbTablePath{{DatabaseName: proto.String(db), TableName: proto.String(table)}}}
			if err := conn.Call(ctx, protocol.GetMetadata, req, &md); err != nil {
				continue
			}
			live := map[int32]bool{}
			for _, s := range md.GetTabletServers() {
				live[s.GetNodeId()] = true
			}
			for _, t := range md.GetTableMetadata() {
				if w.healthy[t.GetTableId()] {
					continue
				}
				switch leaderless, err := tableLeaderless(t, live); {
				case err != nil:
					continue
				case !leaderless:
					w.healthy[t.GetTableId()] = true
				case time.Since(time.UnixMilli(t.GetCreatedTime())) > leaderlessGrace:
					// One restart per table: if it does not heal the table, another
					// restart will not either.
					w.healthy[t.GetTableId()] = true
					return fmt.Sprintf("%s.%s (table id %d)", db, table, t.GetTableId()), nil
				}
			}
		}
	}
	return "", nil
}

// tableLeaderless tells whether a non-partitioned table's metadata shows a bucket without a
// leader although one of its replicas is on a live tablet server (or no bucket at all). A
// partitioned table has its buckets per partition: false.
func tableLeaderless(t *protocol.PbTableMetadata, live map[int32]bool) (bool, error) {
	var desc struct {
		PartitionKey []string `json:"partition_key"`
	}
	if err := json.Unmarshal(t.GetTableJson(), &desc); err != nil {
		return false, err
	}
	if len(desc.PartitionKey) > 0 {
		return false, nil
	}
	if len(t.GetBucketMetadata()) == 0 {
		return true, nil
	}
	for _, b := range t.GetBucketMetadata() {
		if b.LeaderId != nil && b.GetLeaderId() >= 0 {
			continue
		}
		for _, r := range b.GetReplicaId() {
			if live[r] {
				return true, nil
			}
		}
	}
	return false, nil
}
