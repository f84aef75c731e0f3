package fluss

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"google.golang.org/protobuf/proto"

	"github.com/flussql/flussql/fluss/internal/protocol"
	"github.com/flussql/flussql/fluss/internal/rpc"
)

// DatabaseChange is one change of Admin.AlterDatabase; build it with
// SetDatabaseProperty, ResetDatabaseProperty or SetDatabaseComment.
type DatabaseChange struct {
	kind  changeKind
	key   string
	value string
}

// changeComment is the kind of SetDatabaseComment.
const changeComment changeKind = 100

// SetDatabaseProperty sets a custom property of a database.
func SetDatabaseProperty(key, value string) DatabaseChange {
	return DatabaseChange{kind: changeSetProperty, key: key, value: value}
}

// ResetDatabaseProperty removes a custom property of a database.
func ResetDatabaseProperty(key string) DatabaseChange {
	return DatabaseChange{kind: changeResetProperty, key: key}
}

// SetDatabaseComment replaces a database's comment.
func SetDatabaseComment(comment string) DatabaseChange {
	return DatabaseChange{kind: changeComment, value: comment}
}

// AlterDatabase changes a database's custom properties and comment (Fluss
// 1.0+; a 0.9 coordinator answers with an error matching
// ErrUnsupportedByServer that names the API and the server's release). A
// missing database is ErrDatabaseNotExist unless ignoreIfNotExists.
func (a *Admin) AlterDatabase(ctx context.Context, name string, ignoreIfNotExists bool, changes ...DatabaseChange) error {
	req := &protocol.AlterDatabaseRequest{DatabaseName: proto.String(name), IgnoreIfNotExists: proto.Bool(ignoreIfNotExists)}
	for _, ch := range changes {
		switch ch.kind {
		case changeSetProperty:
			req.ConfigChanges = append(req.ConfigChanges, &protocol.PbAlterConfig{ConfigKey: proto.String(ch.key), ConfigValue: proto.String(ch.value), OpType: proto.Int32(alterOpSet)})
		case changeResetProperty:
			req.ConfigChanges = append(req.ConfigChanges, &protocol.PbAlterConfig{ConfigKey: proto.String(ch.key), OpType: proto.Int32(alterOpDelete)})
		case changeComment:
			req.Comment = proto.String(ch.value)
		}
	}
	err := a.c.callCoordinator(ctx, protocol.AlterDatabase, req, &protocol.AlterDatabaseResponse{})
	return a.c.since10(ctx, "altering database "+name, protocol.AlterDatabase, err)
}

// ClusterHealthStatus summarizes a cluster's replicas, as Fluss 1.0 rates them.
type ClusterHealthStatus int32

// The statuses of GET_CLUSTER_HEALTH.
const (
	HealthGreen ClusterHealthStatus = iota
	HealthYellow
	HealthRed
	HealthUnknown
)

// String returns "GREEN", "YELLOW", "RED" or "UNKNOWN".
func (s ClusterHealthStatus) String() string {
	switch s {
	case HealthGreen:
		return "GREEN"
	case HealthYellow:
		return "YELLOW"
	case HealthRed:
		return "RED"
	}
	return "UNKNOWN"
}

// ClusterHealth is the coordinator's account of the cluster's replicas.
type ClusterHealth struct {
	// Status is GREEN when every replica is in sync and every bucket has an
	// active leader.
	Status ClusterHealthStatus
	// Replicas and InSyncReplicas count the bucket replicas and those in sync.
	Replicas, InSyncReplicas int32
	// LeaderReplicas counts the buckets (one leader each); ActiveLeaders
	// those whose leader is alive.
	LeaderReplicas, ActiveLeaders int32
}

// ClusterHealth asks the coordinator for the cluster's health (Fluss 1.0+;
// on 0.9 an error matching ErrUnsupportedByServer).
func (a *Admin) ClusterHealth(ctx context.Context) (ClusterHealth, error) {
	var resp protocol.GetClusterHealthResponse
	err := a.c.callCoordinator(ctx, protocol.GetClusterHealth, &protocol.GetClusterHealthRequest{}, &resp)
	if err != nil {
		return ClusterHealth{}, a.c.since10(ctx, "cluster health", protocol.GetClusterHealth, err)
	}
	return ClusterHealth{
		Status:   ClusterHealthStatus(resp.GetStatus()),
		Replicas: resp.GetNumReplicas(), InSyncReplicas: resp.GetInSyncReplicas(),
		LeaderReplicas: resp.GetNumLeaderReplicas(), ActiveLeaders: resp.GetActiveLeaderReplicas(),
	}, nil
}

// since10 turns the error of a coordinator API that Fluss 1.0 added, when
// the coordinator does not list it, into unsupportedByServer's error naming
// the release the coordinator speaks; other errors pass unchanged.
func (c *Client) since10(ctx context.Context, op string, api protocol.APIKey, err error) error {
	return c.sinceRelease(ctx, op, api, ServerVersion{1, 0}, err)
}

// sinceRelease turns the error of a coordinator API that Fluss release since added, when the
// coordinator does not list it, into unsupportedByServer's error naming the release the
// coordinator speaks; other errors pass unchanged.
func (c *Client) sinceRelease(ctx context.Context, op string, api protocol.APIKey, since ServerVersion, err error) error {
	var ue *rpc.UnsupportedAPIError
	if err == nil || !errors.As(err, &ue) || ue.Listed {
		return err
	}
	v, verr := c.ServerVersion(ctx)
	if verr != nil {
		return err
	}
	if v.AtLeast(since.Major, since.Minor) {
		// A build of the release that lacks the API (or a fake): say so, not "older".
		return &unsupportedError{msg: fmt.Sprintf("fluss: %s: %s: it needs the %s API (Fluss %s+); the %s at %s speaks Fluss %s but does not offer it",
			op, strings.TrimPrefix(ErrUnsupportedByServer.Error(), "fluss: "), apiName(api), since, CoordinatorServer, ue.Addr, v)}
	}
	return unsupportedByServer(op, api, since, CoordinatorServer, ue.Addr, v, "")
}
