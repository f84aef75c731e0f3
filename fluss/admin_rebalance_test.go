package fluss

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestClusterAdminRefusedWithoutAPI: a coordinator that does not list an API (the fake
// announces itself as 0.9 but lists none of these) refuses the call before sending, with
// ErrUnsupportedByServer naming the API, the release that added it and the server's.
func TestClusterAdminRefusedWithoutAPI(t *testing.T) {
	f := newFakeCluster(t)
	admin := f.connect(t).Admin()
	ctx := context.Background()
	for name, call := range map[string]func() error{
		"LIST_REBALANCE_PROGRESS(1050)": func() error { _, _, err := admin.ListRebalanceProgress(ctx, ""); return err },
		"CANCEL_REBALANCE(1051)":        func() error { return admin.CancelRebalance(ctx, "") },
		"ALTER_CLUSTER_CONFIGS(1046)": func() error {
			return admin.AlterClusterConfigs(ctx, []ClusterConfigChange{{Key: "datalake.format", Value: "paimon"}})
		},
	} {
		err := call()
		require.Error(t, err, name)
		assert.ErrorIs(t, err, ErrUnsupportedByServer, name)
		assert.Contains(t, err.Error(), "it needs the "+name+" API (Fluss 0.9+)")
		assert.Contains(t, err.Error(), "speaks Fluss 0.9 but does not offer it")
	}
}

// TestRebalanceGoalsAndStatus checks the goal names, status names and the share of moves done.
func TestRebalanceGoalsAndStatus(t *testing.T) {
	for _, s := range []string{"replica_distribution", " LEADER_DISTRIBUTION", "Rack_Aware"} {
		g, err := ParseRebalanceGoal(s)
		require.NoError(t, err, s)
		back, err := ParseRebalanceGoal(g.String())
		require.NoError(t, err)
		assert.Equal(t, g, back)
	}
	_, err := ParseRebalanceGoal("EVERYTHING")
	assert.ErrorContains(t, err, "RACK_AWARE, REPLICA_DISTRIBUTION, LEADER_DISTRIBUTION")
	p := RebalanceProgress{}
	assert.EqualValues(t, -1, p.Done(), "no moves: no share")
	p.Moves = []BucketMove{{Status: RebalanceCompleted}, {Status: RebalanceFailed}, {Status: RebalanceRebalancing}, {Status: RebalanceNotStarted}}
	assert.InDelta(t, 0.5, p.Done(), 1e-9, "COMPLETED and FAILED have ended")
	assert.Equal(t, "CANCELED", RebalanceCanceled.String())
}
