package fluss_test

import (
	"context"
	"fmt"
	"log"

	"github.com/flussql/flussql/fluss"
)

// Set a dynamic cluster config, then put it back to the server's own value (what the Flink
// procedures sys.set_cluster_configs and sys.reset_cluster_configs do).
func ExampleAdmin_AlterClusterConfigs() {
	ctx := context.Background()
	client, err := fluss.Connect(ctx, fluss.Config{BootstrapServers: []string{"127.0.0.1:9123"}})
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	const key = "kv.rocksdb.shared-rate-limiter.bytes-per-sec"
	if err := client.Admin().AlterClusterConfigs(ctx, []fluss.ClusterConfigChange{{Key: key, Value: "200MB"}}); err != nil {
		log.Fatal(err)
	}
	if err := client.Admin().AlterClusterConfigs(ctx, []fluss.ClusterConfigChange{{Key: key, Reset: true}}); err != nil {
		log.Fatal(err)
	}
}

// Start a rebalance and follow it until it ends.
func ExampleAdmin_Rebalance() {
	ctx := context.Background()
	client, err := fluss.Connect(ctx, fluss.Config{BootstrapServers: []string{"127.0.0.1:9123"}})
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	admin := client.Admin()
	id, err := admin.Rebalance(ctx, []fluss.RebalanceGoal{fluss.GoalReplicaDistribution, fluss.GoalLeaderDistribution})
	if err != nil {
		log.Fatal(err) // fluss.ErrUnsupportedByServer before Fluss 0.9
	}
	p, found, err := admin.ListRebalanceProgress(ctx, id)
	if err != nil {
		log.Fatal(err)
	}
	if found {
		fmt.Println(p.Status, len(p.Moves), "bucket moves", p.Done())
	}
}
