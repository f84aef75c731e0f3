package planner

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/types"
)

// The rebalance procedures: sys.rebalance(priorityGoals => 'REPLICA_DISTRIBUTION,…') answers
// the new rebalance's id; sys.list_rebalance([rebalanceId]) its progress (no row when there is
// none); sys.cancel_rebalance([rebalanceId]) "success". Without an id the latest rebalance is
// meant. The servers offer them since Fluss 0.9 (REBALANCE, LIST_REBALANCE_PROGRESS,
// CANCEL_REBALANCE); an older coordinator is refused by the wire client, naming its release.

func init() {
	register("rebalance", procedure{
		params:  []procParam{{name: "priorityGoals"}},
		example: "CALL sys.rebalance('REPLICA_DISTRIBUTION,LEADER_DISTRIBUTION')",
		plan: func(a callArgs) (CallPlan, error) {
			s, _ := a.str("priorityGoals")
			if strings.TrimSpace(s) == "" {
				return nil, fmt.Errorf("CALL sys.rebalance: priorityGoals cannot be empty: name one goal ('REPLICA_DISTRIBUTION') or several in priority order, split by ',' ('RACK_AWARE,REPLICA_DISTRIBUTION,LEADER_DISTRIBUTION')")
			}
			p := &CallRebalance{}
			for _, g := range strings.Split(strings.TrimSpace(s), ",") {
				goal, err := fluss.ParseRebalanceGoal(g)
				if err != nil {
					return nil, fmt.Errorf("CALL sys.rebalance: %w", err)
				}
				p.Goals = append(p.Goals, goal)
			}
			return p, nil
		},
	})
	idParam := []procParam{{name: "rebalanceId", optional: true}}
	register("list_rebalance", procedure{
		params:  idParam,
		example: "CALL sys.list_rebalance('rebalance-12345')",
		plan: func(a callArgs) (CallPlan, error) {
			id, _ := a.str("rebalanceId")
			return &CallListRebalance{ID: id}, nil
		},
	})
	register("cancel_rebalance", procedure{
		params:  idParam,
		example: "CALL sys.cancel_rebalance('rebalance-12345')",
		plan: func(a callArgs) (CallPlan, error) {
			id, _ := a.str("rebalanceId")
			return &CallCancelRebalance{ID: id}, nil
		},
	})
}

// CallRebalance is CALL sys.rebalance(…): REBALANCE with the goals; answers the rebalance id.
type CallRebalance struct {
	Goals []fluss.RebalanceGoal
}

// CallListRebalance is CALL sys.list_rebalance([id]): LIST_REBALANCE_PROGRESS.
type CallListRebalance struct {
	ID string // "": the latest rebalance
}

// CallCancelRebalance is CALL sys.cancel_rebalance([id]): CANCEL_REBALANCE; answers "success".
type CallCancelRebalance struct {
	ID string // "": the latest rebalance
}

func (*CallRebalance) plan()       {}
func (*CallListRebalance) plan()   {}
func (*CallCancelRebalance) plan() {}

// ProcedureName returns "sys.rebalance".
func (*CallRebalance) ProcedureName() string { return "sys.rebalance" }

// ProcedureName returns "sys.list_rebalance".
func (*CallListRebalance) ProcedureName() string { return "sys.list_rebalance" }

// ProcedureName returns "sys.cancel_rebalance".
func (*CallCancelRebalance) ProcedureName() string { return "sys.cancel_rebalance" }

// ResultColumns returns Flink's one column, result.
func (*CallRebalance) ResultColumns() []ResultColumn { return resultColumn() }

// ResultColumns returns Flink's one column, result.
func (*CallCancelRebalance) ResultColumns() []ResultColumn { return resultColumn() }

// ResultColumns returns rebalance_id, rebalance_status, rebalance_progress and rebalance_plan,
// as Flink's procedure.
func (*CallListRebalance) ResultColumns() []ResultColumn {
	cols := make([]ResultColumn, 0, 4)
	for _, n := range []string{"rebalance_id", "rebalance_status", "rebalance_progress", "rebalance_plan"} {
		cols = append(cols, ResultColumn{Name: n, Type: types.NewString()})
	}
	return cols
}

// Rows returns the rebalance id.
func (*CallRebalance) Rows(id string) [][]any { return stringRows(id) }

// Rows returns "success".
func (*CallCancelRebalance) Rows() [][]any { return success }

// Rows returns the progress as Flink's procedure shows it: the status's name, the share of
// bucket moves that ended as a percentage with up to two decimals ("NONE" without moves),
// and the plan as JSON (rebalance_id, rebalance_status code, progress, progress_for_buckets).
func (*CallListRebalance) Rows(p fluss.RebalanceProgress, found bool) [][]any {
	if !found {
		return nil
	}
	return [][]any{{p.ID, p.Status.String(), progressText(p.Done()), rebalancePlanJSON(p)}}
}

// progressText formats a share as a percentage with at most two decimals, "NONE" when < 0.
func progressText(done float64) string {
	if done < 0 {
		return "NONE"
	}
	s := strings.TrimRight(strconv.FormatFloat(done*100, 'f', 2, 64), "0")
	return strings.TrimSuffix(s, ".") + "%"
}

type bucketMoveJSON struct {
	TableID        int64   `json:"table_id"`
	BucketID       int32   `json:"bucket_id"`
	PartitionID    *int64  `json:"partition_id,omitempty"`
	OriginalLeader int32   `json:"original_leader"`
	NewLeader      int32   `json:"new_leader"`
	OriginReplicas []int32 `json:"origin_replicas"`
	NewReplicas    []int32 `json:"new_replicas"`
	Status         int32   `json:"rebalance_status"`
}

type rebalanceJSON struct {
	ID       string           `json:"rebalance_id"`
	Status   int32            `json:"rebalance_status"`
	Progress string           `json:"progress"`
	Buckets  []bucketMoveJSON `json:"progress_for_buckets"`
}

func rebalancePlanJSON(p fluss.RebalanceProgress) string {
	out := rebalanceJSON{ID: p.ID, Status: int32(p.Status), Progress: progressText(p.Done()), Buckets: []bucketMoveJSON{}}
	for _, m := range p.Moves {
		b := bucketMoveJSON{TableID: m.TableID, BucketID: m.Bucket, OriginalLeader: m.OriginalLeader, NewLeader: m.NewLeader,
			OriginReplicas: nonNil(m.OriginalReplicas), NewReplicas: nonNil(m.NewReplicas), Status: int32(m.Status)}
		if m.PartitionID != fluss.NoPartition {
			id := m.PartitionID
			b.PartitionID = &id
		}
		out.Buckets = append(out.Buckets, b)
	}
	js, _ := json.Marshal(out)
	return string(js)
}

func nonNil(v []int32) []int32 {
	if v == nil {
		return []int32{}
	}
	return v
}

// String describes the plan for EXPLAIN.
func (p *CallRebalance) String() string {
	goals := make([]string, len(p.Goals))
	for i, g := range p.Goals {
		goals[i] = g.String()
	}
	return describe("CallRebalance (sys.rebalance)").line("goals", "%s", strings.Join(goals, ", ")).
		line("request", "REBALANCE to the coordinator (Fluss 0.9+); the moves run in the background").String()
}

// String describes the plan for EXPLAIN.
func (p *CallListRebalance) String() string {
	return describe("CallListRebalance (sys.list_rebalance)").line("rebalance", "%s", idText(p.ID)).
		line("request", "LIST_REBALANCE_PROGRESS to the coordinator (Fluss 0.9+)").String()
}

// String describes the plan for EXPLAIN.
func (p *CallCancelRebalance) String() string {
	return describe("CallCancelRebalance (sys.cancel_rebalance)").line("rebalance", "%s", idText(p.ID)).
		line("request", "CANCEL_REBALANCE to the coordinator (Fluss 0.9+)").String()
}

func idText(id string) string {
	if id == "" {
		return "the latest"
	}
	return id
}
