package executor

import (
	"context"
	"errors"
	"fmt"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/flusserr"
	"github.com/flussql/flussql/planner"
)

// execACL runs CREATE ACL and DROP ACL; ok is false for other plans.
func (c *Session) execACL(ctx context.Context, p planner.Plan) (res Result, ok bool, err error) {
	admin := c.client.Admin()
	switch p := p.(type) {
	case *planner.CreateACL:
		return Result{}, true, aclError(ddlOutcome(admin.CreateACLs(ctx, []fluss.ACLBinding{p.Binding})))
	case *planner.DropACL:
		dropped, err := admin.DropACLs(ctx, []fluss.ACLFilter{p.Filter})
		if err != nil {
			return Result{}, true, aclError(ddlOutcome(err))
		}
		return counted(int64(len(dropped))), true, nil
	}
	return Result{}, false, nil
}

// showACLs runs SHOW ACLS.
func (c *Session) showACLs(ctx context.Context, p *planner.ShowACLs) ([][]any, error) {
	acls, err := c.client.Admin().ListACLs(ctx, p.Filter)
	if err != nil {
		return nil, aclError(err)
	}
	return p.Rows(acls), nil
}

// aclError explains ErrSecurityDisabled: the server checks no ACLs.
func aclError(err error) error {
	if errors.Is(err, flusserr.SecurityDisabledException) {
		return fmt.Errorf("flussql: the server has no authorizer, so it keeps no ACLs (start it with authorizer.enabled: true and SASL users; fluss-local-cluster up -sasl admin:pw,alice:pw -authorizer): %w", err)
	}
	return err
}
