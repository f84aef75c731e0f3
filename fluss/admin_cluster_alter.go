package fluss

import (
	"context"
	"strings"

	"google.golang.org/protobuf/proto"

	"github.com/flussql/flussql/fluss/flusserr"
	"github.com/flussql/flussql/fluss/internal/protocol"
)

// ClusterConfigChange is one change of AlterClusterConfigs: set Key to Value, or with Reset
// remove the dynamic value so the server's own (static or default) applies again.
type ClusterConfigChange struct {
	Key   string
	Value string
	Reset bool
}

// AlterClusterConfigs changes cluster configurations dynamically (ALTER_CLUSTER_CONFIGS, Fluss
// 0.9+), all in one request: the coordinator validates every change, stores them in ZooKeeper
// and applies them to every server; they survive restarts. A key the server cannot change at
// run time fails with its error (ErrInvalidConfig); the caller needs ALTER on the cluster.
func (a *Admin) AlterClusterConfigs(ctx context.Context, changes []ClusterConfigChange) error {
	if len(changes) == 0 {
		return nil
	}
	req := &protocol.AlterClusterConfigsRequest{}
	for _, ch := range changes {
		key := strings.TrimSpace(ch.Key)
		if key == "" {
			return &Error{Code: flusserr.InvalidConfigException, Message: "a cluster configuration key cannot be empty", NotSent: true}
		}
		pc := &protocol.PbAlterConfig{ConfigKey: proto.String(key), OpType: proto.Int32(alterOpDelete)}
		if !ch.Reset {
			pc.ConfigValue, pc.OpType = proto.String(ch.Value), proto.Int32(alterOpSet)
		}
		req.AlterConfigs = append(req.AlterConfigs, pc)
	}
	var resp protocol.AlterClusterConfigsResponse
	err := a.c.callCoordinator(ctx, protocol.AlterClusterConfigs, req, &resp)
	if err != nil {
		return a.c.sinceRelease(ctx, "alter cluster configs", protocol.AlterClusterConfigs, ServerVersion{0, 9}, err)
	}
	return nil
}
