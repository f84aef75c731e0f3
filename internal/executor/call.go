package executor

import (
	"context"
	"fmt"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/planner"
)

// runCall runs a CALL sys.<procedure> plan with the wire client's admin API and returns its
// rows (Flink's result columns).
func (c *Session) runCall(ctx context.Context, p planner.CallPlan) ([][]any, error) {
	admin := c.client.Admin()
	switch p := p.(type) {
	case *planner.CallAddACL:
		if err := admin.CreateACLs(ctx, []fluss.ACLBinding{p.Binding}); err != nil {
			return nil, aclError(ddlOutcome(err))
		}
		return p.Rows(), nil
	case *planner.CallDropACL:
		if _, err := admin.DropACLs(ctx, []fluss.ACLFilter{p.Filter}); err != nil {
			return nil, aclError(ddlOutcome(err))
		}
		return p.Rows(), nil
	case *planner.CallListACL:
		acls, err := admin.ListACLs(ctx, p.Filter)
		if err != nil {
			return nil, aclError(err)
		}
		return p.Rows(acls), nil
	case *planner.CallGetClusterConfigs:
		configs, err := admin.ClusterConfigs(ctx)
		if err != nil {
			return nil, err
		}
		return p.Rows(configs), nil
	case *planner.CallAlterClusterConfigs:
		if err := admin.AlterClusterConfigs(ctx, p.Changes); err != nil {
			return nil, ddlOutcome(err)
		}
		return p.Rows(), nil
	case *planner.CallRebalance:
		id, err := admin.Rebalance(ctx, p.Goals)
		if err != nil {
			return nil, ddlOutcome(err)
		}
		return p.Rows(id), nil
	case *planner.CallListRebalance:
		progress, found, err := admin.ListRebalanceProgress(ctx, p.ID)
		if err != nil {
			return nil, err
		}
		return p.Rows(progress, found), nil
	case *planner.CallCancelRebalance:
		if err := admin.CancelRebalance(ctx, p.ID); err != nil {
			return nil, ddlOutcome(err)
		}
		return p.Rows(), nil
	}
	return nil, fmt.Errorf("flussql: running %s is %w", p.ProcedureName(), ErrNotSupported)
}
