package fluss

import (
	"context"
	"fmt"
	"strings"

	"google.golang.org/protobuf/proto"

	"github.com/flussql/flussql/fluss/flusserr"
	"github.com/flussql/flussql/fluss/internal/protocol"
)

// RebalanceGoal is a goal of Rebalance (Fluss GoalType).
type RebalanceGoal int32

// Rebalance goals, with their wire values.
const (
	// GoalReplicaDistribution evens out the number of replicas per tablet server.
	GoalReplicaDistribution RebalanceGoal = 0
	// GoalLeaderDistribution evens out the number of leaders per tablet server.
	GoalLeaderDistribution RebalanceGoal = 1
	// GoalRackAware places the replicas of a bucket on different racks.
	GoalRackAware RebalanceGoal = 2
)

var goalNames = map[RebalanceGoal]string{
	GoalReplicaDistribution: "REPLICA_DISTRIBUTION",
	GoalLeaderDistribution:  "LEADER_DISTRIBUTION",
	GoalRackAware:           "RACK_AWARE",
}

// String returns the goal's Fluss name, e.g. "REPLICA_DISTRIBUTION".
func (g RebalanceGoal) String() string {
	if n, ok := goalNames[g]; ok {
		return n
	}
	return fmt.Sprintf("GOAL(%d)", int32(g))
}

// ParseRebalanceGoal reads a goal by its Fluss name, in any case.
func ParseRebalanceGoal(s string) (RebalanceGoal, error) {
	for g, n := range goalNames {
		if strings.EqualFold(strings.TrimSpace(s), n) {
			return g, nil
		}
	}
	return 0, fmt.Errorf("fluss: unknown rebalance goal %q: one of RACK_AWARE, REPLICA_DISTRIBUTION, LEADER_DISTRIBUTION", s)
}

// RebalanceStatus is the state of a rebalance or of one bucket's move (Fluss RebalanceStatus).
type RebalanceStatus int32

// Rebalance states, with their wire values.
const (
	RebalanceNotStarted  RebalanceStatus = 0
	RebalanceRebalancing RebalanceStatus = 1
	RebalanceFailed      RebalanceStatus = 2
	RebalanceCompleted   RebalanceStatus = 3
	RebalanceCanceled    RebalanceStatus = 4
)

// String returns the status's Fluss name, e.g. "COMPLETED".
func (s RebalanceStatus) String() string {
	switch s {
	case RebalanceNotStarted:
		return "NOT_STARTED"
	case RebalanceRebalancing:
		return "REBALANCING"
	case RebalanceFailed:
		return "FAILED"
	case RebalanceCompleted:
		return "COMPLETED"
	case RebalanceCanceled:
		return "CANCELED"
	}
	return fmt.Sprintf("STATUS(%d)", int32(s))
}

// Final reports whether the status is an end state (COMPLETED, CANCELED, FAILED).
func (s RebalanceStatus) Final() bool {
	return s == RebalanceCompleted || s == RebalanceCanceled || s == RebalanceFailed
}

// BucketMove is one bucket's part of a rebalance plan and how far it got.
type BucketMove struct {
	TableID int64
	// PartitionID is NoPartition for a bucket of a non-partitioned table.
	PartitionID                   int64
	Bucket                        int32
	OriginalLeader, NewLeader     int32
	OriginalReplicas, NewReplicas []int32
	Status                        RebalanceStatus
}

// RebalanceProgress is what ListRebalanceProgress reports of one rebalance.
type RebalanceProgress struct {
	ID     string
	Status RebalanceStatus
	Moves  []BucketMove
}

// Done returns the share of the bucket moves that reached an end state, or -1 for a rebalance
// without bucket moves.
func (p RebalanceProgress) Done() float64 {
	if len(p.Moves) == 0 {
		return -1
	}
	n := 0
	for _, m := range p.Moves {
		if m.Status.Final() {
			n++
		}
	}
	return float64(n) / float64(len(p.Moves))
}

// Rebalance asks the coordinator to move replicas and leaders toward goals, in priority order
// (REBALANCE, Fluss 0.9+), and returns the rebalance's id. The moves run in the background:
// follow them with ListRebalanceProgress, stop them with CancelRebalance. Tablet servers
// tagged with a server tag are emptied. Needs ALTER on the cluster.
func (a *Admin) Rebalance(ctx context.Context, goals []RebalanceGoal) (string, error) {
	if len(goals) == 0 {
		return "", &Error{Code: flusserr.InvalidConfigException, Message: "a rebalance needs at least one goal (REPLICA_DISTRIBUTION, LEADER_DISTRIBUTION, RACK_AWARE)", NotSent: true}
	}
	req := &protocol.RebalanceRequest{}
	for _, g := range goals {
		req.Goals = append(req.Goals, int32(g))
	}
	var resp protocol.RebalanceResponse
	if err := a.c.callCoordinator(ctx, protocol.Rebalance, req, &resp); err != nil {
		return "", a.c.sinceRelease(ctx, "rebalance", protocol.Rebalance, ServerVersion{0, 9}, err)
	}
	return resp.GetRebalanceId(), nil
}

// ListRebalanceProgress reports the rebalance with the id, or the latest one when id is ""
// (LIST_REBALANCE_PROGRESS, Fluss 0.9+); ok is false when there is none.
func (a *Admin) ListRebalanceProgress(ctx context.Context, id string) (p RebalanceProgress, ok bool, err error) {
	req := &protocol.ListRebalanceProgressRequest{}
	if id != "" {
		req.RebalanceId = proto.String(id)
	}
	var resp protocol.ListRebalanceProgressResponse
	if err := a.c.callCoordinator(ctx, protocol.ListRebalanceProgress, req, &resp); err != nil {
		return p, false, a.c.sinceRelease(ctx, "list rebalance progress", protocol.ListRebalanceProgress, ServerVersion{0, 9}, err)
	}
	if resp.RebalanceId == nil {
		return p, false, nil
	}
	p = RebalanceProgress{ID: resp.GetRebalanceId(), Status: RebalanceStatus(resp.GetRebalanceStatus())}
	for _, t := range resp.GetTableProgress() {
		for _, b := range t.GetBucketsProgress() {
			plan := b.GetRebalancePlan()
			m := BucketMove{
				TableID: t.GetTableId(), PartitionID: NoPartition, Bucket: plan.GetBucketId(),
				OriginalLeader: plan.GetOriginalLeader(), NewLeader: plan.GetNewLeader(),
				OriginalReplicas: plan.GetOriginalReplicas(), NewReplicas: plan.GetNewReplicas(),
				Status: RebalanceStatus(b.GetRebalanceStatus()),
			}
			if plan.PartitionId != nil {
				m.PartitionID = plan.GetPartitionId()
			}
			p.Moves = append(p.Moves, m)
		}
	}
	return p, true, nil
}

// CancelRebalance cancels the rebalance with the id, or the latest one when id is ""
// (CANCEL_REBALANCE, Fluss 0.9+). Moves already made stay; an unknown id or a rebalance that
// has ended fails with the server's error.
func (a *Admin) CancelRebalance(ctx context.Context, id string) error {
	req := &protocol.CancelRebalanceRequest{}
	if id != "" {
		req.RebalanceId = proto.String(id)
	}
	var resp protocol.CancelRebalanceResponse
	if err := a.c.callCoordinator(ctx, protocol.CancelRebalance, req, &resp); err != nil {
		return a.c.sinceRelease(ctx, "cancel rebalance", protocol.CancelRebalance, ServerVersion{0, 9}, err)
	}
	return nil
}
