package fluss

import (
	"context"
	"errors"
	"fmt"

	"google.golang.org/protobuf/proto"

	"github.com/flussql/flussql/fluss/flusserr"
	"github.com/flussql/flussql/fluss/internal/protocol"
)

// CreateACLs adds ACL bindings on the coordinator (CREATE_ACLS). The caller needs ALTER on the
// binding's database (on the cluster for cluster and database bindings) or must be a super
// user. A server without an authorizer fails with flusserr.SecurityDisabledException; a binding the server
// refused fails with its error (ErrPermissionDenied when the caller may not grant it). Adding
// a binding that exists already is not an error. The authorizers of the tablet servers learn
// the change a moment later (through ZooKeeper), not at once.
func (a *Admin) CreateACLs(ctx context.Context, bindings []ACLBinding) error {
	if len(bindings) == 0 {
		return nil
	}
	req := &protocol.CreateAclsRequest{}
	for _, b := range bindings {
		if err := b.check(); err != nil {
			return &Error{Code: flusserr.InvalidConfigException, Message: err.Error(), NotSent: true}
		}
		req.Acl = append(req.Acl, pbACL(b))
	}
	var resp protocol.CreateAclsResponse
	if err := a.c.callCoordinator(ctx, protocol.CreateACLs, req, &resp); err != nil {
		return err
	}
	var errs []error
	for _, r := range resp.GetAclRes() {
		if err := errorFromCode(r.GetErrorCode(), r.GetErrorMessage()); err != nil {
			errs = append(errs, fmt.Errorf("ACL %s: %w", fromPbACL(r.GetAcl()), err))
		}
	}
	return errors.Join(errs...)
}

// ListACLs returns the ACL bindings that match f (LIST_ACLS), among those on resources the
// caller may DESCRIBE. A server without an authorizer fails with flusserr.SecurityDisabledException.
func (a *Admin) ListACLs(ctx context.Context, f ACLFilter) ([]ACLBinding, error) {
	var resp protocol.ListAclsResponse
	if err := a.c.callCoordinator(ctx, protocol.ListACLs, &protocol.ListAclsRequest{AclFilter: pbACLFilter(f)}, &resp); err != nil {
		return nil, err
	}
	out := make([]ACLBinding, 0, len(resp.GetAcl()))
	for _, pb := range resp.GetAcl() {
		out = append(out, fromPbACL(pb))
	}
	return out, nil
}

// DropACLs removes every ACL binding that matches one of the filters (DROP_ACLS) and returns
// the removed bindings. Needs the same rights as CreateACLs on the matched resources; like
// CreateACLs, the change reaches the tablet servers a moment later.
func (a *Admin) DropACLs(ctx context.Context, filters []ACLFilter) ([]ACLBinding, error) {
	if len(filters) == 0 {
		return nil, nil
	}
	req := &protocol.DropAclsRequest{}
	for _, f := range filters {
		req.AclFilter = append(req.AclFilter, pbACLFilter(f))
	}
	var resp protocol.DropAclsResponse
	if err := a.c.callCoordinator(ctx, protocol.DropACLs, req, &resp); err != nil {
		return nil, err
	}
	var dropped []ACLBinding
	var errs []error
	for _, fr := range resp.GetFilterResults() {
		if err := errorFromCode(fr.GetErrorCode(), fr.GetErrorMessage()); err != nil {
			errs = append(errs, err)
		}
		for _, m := range fr.GetMatchingAcls() {
			b := fromPbACL(m.GetAcl())
			if err := errorFromCode(m.GetErrorCode(), m.GetErrorMessage()); err != nil {
				errs = append(errs, fmt.Errorf("ACL %s: %w", b, err))
				continue
			}
			dropped = append(dropped, b)
		}
	}
	return dropped, errors.Join(errs...)
}

func pbACL(b ACLBinding) *protocol.PbAclInfo {
	return &protocol.PbAclInfo{
		ResourceName:   proto.String(b.Resource.Name),
		ResourceType:   proto.Int32(int32(b.Resource.Type)),
		PrincipalName:  proto.String(b.Principal.Name),
		PrincipalType:  proto.String(b.Principal.Type),
		Host:           proto.String(b.Host),
		OperationType:  proto.Int32(int32(b.Operation)),
		PermissionType: proto.Int32(int32(b.Permission)),
	}
}

func fromPbACL(pb *protocol.PbAclInfo) ACLBinding {
	return ACLBinding{
		Resource:   Resource{ResourceType(pb.GetResourceType()), pb.GetResourceName()},
		Principal:  Principal{pb.GetPrincipalType(), pb.GetPrincipalName()},
		Host:       pb.GetHost(),
		Operation:  ACLOperation(pb.GetOperationType()),
		Permission: ACLPermission(pb.GetPermissionType()),
	}
}

func pbACLFilter(f ACLFilter) *protocol.PbAclFilter {
	pb := &protocol.PbAclFilter{
		ResourceType:   proto.Int32(int32(orAny(f.ResourceType, ResourceAny))),
		OperationType:  proto.Int32(int32(orAny(f.Operation, OpAny))),
		PermissionType: proto.Int32(int32(orAny(f.Permission, PermissionAny))),
	}
	if f.ResourceName != "" {
		pb.ResourceName = proto.String(f.ResourceName)
	}
	if f.Principal != nil {
		pb.PrincipalName = proto.String(f.Principal.Name)
		pb.PrincipalType = proto.String(f.Principal.Type)
	}
	if f.Host != "" {
		pb.Host = proto.String(f.Host)
	}
	return pb
}
