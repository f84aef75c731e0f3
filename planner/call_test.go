package planner

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss"
)

// TestListRebalanceRows checks the row of sys.list_rebalance: status name, the share of
// bucket moves that ended (as Flink formats it) and the plan's JSON fields.
func TestListRebalanceRows(t *testing.T) {
	p := &CallListRebalance{}
	assert.Empty(t, p.Rows(fluss.RebalanceProgress{}, false), "no rebalance: no row")

	moves := []fluss.BucketMove{
		{TableID: 7, PartitionID: fluss.NoPartition, Bucket: 0, OriginalLeader: 1, NewLeader: 2, OriginalReplicas: []int32{1, 3}, NewReplicas: []int32{2, 3}, Status: fluss.RebalanceCompleted},
		{TableID: 7, PartitionID: 12, Bucket: 1, OriginalLeader: 1, NewLeader: 1, Status: fluss.RebalanceRebalancing},
		{TableID: 8, PartitionID: fluss.NoPartition, Bucket: 0, Status: fluss.RebalanceNotStarted},
	}
	rows := p.Rows(fluss.RebalanceProgress{ID: "r-1", Status: fluss.RebalanceRebalancing, Moves: moves}, true)
	require.Len(t, rows, 1)
	assert.Equal(t, []any{"r-1", "REBALANCING", "33.33%"}, rows[0][:3])
	var plan struct {
		ID       string `json:"rebalance_id"`
		Status   int    `json:"rebalance_status"`
		Progress string `json:"progress"`
		Buckets  []struct {
			TableID     int64  `json:"table_id"`
			PartitionID *int64 `json:"partition_id"`
			NewReplicas []int  `json:"new_replicas"`
			Status      int    `json:"rebalance_status"`
		} `json:"progress_for_buckets"`
	}
	require.NoError(t, json.Unmarshal([]byte(rows[0][3].(string)), &plan))
	assert.Equal(t, "r-1", plan.ID)
	assert.Equal(t, 1, plan.Status)
	assert.Equal(t, "33.33%", plan.Progress)
	require.Len(t, plan.Buckets, 3)
	assert.Nil(t, plan.Buckets[0].PartitionID, "no partition_id for a non-partitioned table")
	assert.Equal(t, []int{2, 3}, plan.Buckets[0].NewReplicas)
	require.NotNil(t, plan.Buckets[1].PartitionID)
	assert.EqualValues(t, 12, *plan.Buckets[1].PartitionID)
	assert.Equal(t, []int{}, plan.Buckets[1].NewReplicas, "an empty list, not null")
	assert.Equal(t, 3, plan.Buckets[0].Status)

	for done, want := range map[float64]string{-1: "NONE", 0: "0%", 0.5: "50%", 0.755: "75.5%", 1: "100%", 2.0 / 3: "66.67%"} {
		assert.Equal(t, want, progressText(done), "%v", done)
	}
}

// TestCallListACLRows checks list_acl's strings against the form Flink's procedure prints.
func TestCallListACLRows(t *testing.T) {
	acls := []fluss.ACLBinding{
		{Resource: fluss.ClusterResource(), Principal: fluss.UserPrincipal("Alice"), Host: "*", Operation: fluss.OpRead, Permission: fluss.PermissionAllow},
		{Resource: fluss.Resource{Type: fluss.ResourceTable, Name: "db.t"}, Principal: fluss.WildcardPrincipal, Host: "127.0.0.1", Operation: fluss.OpWrite, Permission: fluss.PermissionAllow},
		{Resource: fluss.DatabaseResource("db"), Principal: fluss.UserPrincipal("bob"), Host: "*", Operation: fluss.OpAll, Permission: fluss.PermissionAllow},
	}
	assert.Equal(t, [][]any{
		{`resource="cluster";permission="ALLOW";principal="User:Alice";operation="READ";host="*"`},
		{`resource="cluster.db.t";permission="ALLOW";principal="*:*";operation="WRITE";host="127.0.0.1"`},
		{`resource="cluster.db";permission="ALLOW";principal="User:bob";operation="ALL";host="*"`},
	}, (&CallListACL{}).Rows(acls))
}
