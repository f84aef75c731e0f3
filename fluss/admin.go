package fluss

import (
	"context"
	"errors"
	"fmt"

	"google.golang.org/protobuf/proto"

	"github.com/flussql/flussql/fluss/flusserr"
	"github.com/flussql/flussql/fluss/internal/protocol"
	"github.com/flussql/flussql/fluss/types"
)

// Admin manages databases, tables and partitions and reads offsets. DDL
// goes to the coordinator, reads to any server. Get it from Client.Admin.
type Admin struct {
	c *Client
}

// CreateDatabase creates a database. With ignoreIfExists an existing
// database is not an error; otherwise it fails with ErrDatabaseAlreadyExist.
func (a *Admin) CreateDatabase(ctx context.Context, name string, desc DatabaseDescriptor, ignoreIfExists bool) error {
	js, err := desc.marshal()
	if err != nil {
		return err
	}
	return a.c.callCoordinator(ctx, protocol.CreateDatabase, &protocol.CreateDatabaseRequest{
		DatabaseName:   proto.String(name),
		IgnoreIfExists: proto.Bool(ignoreIfExists),
		DatabaseJson:   js,
	}, &protocol.CreateDatabaseResponse{})
}

// DropDatabase drops a database. Without cascade a database that still has
// tables fails with ErrDatabaseNotEmpty; without ignoreIfNotExists a missing
// one fails with ErrDatabaseNotExist.
func (a *Admin) DropDatabase(ctx context.Context, name string, ignoreIfNotExists, cascade bool) error {
	return a.c.callCoordinator(ctx, protocol.DropDatabase, &protocol.DropDatabaseRequest{
		DatabaseName:      proto.String(name),
		IgnoreIfNotExists: proto.Bool(ignoreIfNotExists),
		Cascade:           proto.Bool(cascade),
	}, &protocol.DropDatabaseResponse{})
}

// ListDatabases returns the names of all databases.
func (a *Admin) ListDatabases(ctx context.Context) ([]string, error) {
	var resp protocol.ListDatabasesResponse
	if err := a.c.callAnyServer(ctx, protocol.ListDatabases, &protocol.ListDatabasesRequest{}, &resp); err != nil {
		return nil, err
	}
	return resp.GetDatabaseName(), nil
}

// DatabaseExists reports whether a database exists.
func (a *Admin) DatabaseExists(ctx context.Context, name string) (bool, error) {
	var resp protocol.DatabaseExistsResponse
	err := a.c.callAnyServer(ctx, protocol.DatabaseExists, &protocol.DatabaseExistsRequest{DatabaseName: proto.String(name)}, &resp)
	return resp.GetExists(), err
}

// GetDatabaseInfo returns a database's descriptor and timestamps, or
// ErrDatabaseNotExist.
func (a *Admin) GetDatabaseInfo(ctx context.Context, name string) (*DatabaseInfo, error) {
	var resp protocol.GetDatabaseInfoResponse
	if err := a.c.callAnyServer(ctx, protocol.GetDatabaseInfo, &protocol.GetDatabaseInfoRequest{DatabaseName: proto.String(name)}, &resp); err != nil {
		return nil, err
	}
	desc, err := unmarshalDatabase(resp.GetDatabaseJson())
	if err != nil {
		return nil, err
	}
	return &DatabaseInfo{Name: name, Descriptor: desc, CreatedTime: millis(resp.GetCreatedTime()), ModifiedTime: millis(resp.GetModifiedTime())}, nil
}

// CreateTable creates a table. With ignoreIfExists an existing table is not
// an error; otherwise it fails with ErrTableAlreadyExist. A missing database
// fails with ErrDatabaseNotExist and a bad definition with flusserr.InvalidTableException
// (or flusserr.InvalidConfigException for bad properties).
func (a *Admin) CreateTable(ctx context.Context, path TablePath, desc TableDescriptor, ignoreIfExists bool) error {
	if err := path.check(); err != nil {
		return err
	}
	if err := desc.Validate(); err != nil {
		return err
	}
	js, err := types.MarshalTable(desc.toJSON())
	if err != nil {
		return &Error{Code: flusserr.InvalidTableException, Message: err.Error(), NotSent: true}
	}
	a.c.invalidateTable(path)
	return a.c.callCoordinator(ctx, protocol.CreateTable, &protocol.CreateTableRequest{
		TablePath:      pbPath(path),
		TableJson:      js,
		IgnoreIfExists: proto.Bool(ignoreIfExists),
	}, &protocol.CreateTableResponse{})
}

// DropTable drops a table; without ignoreIfNotExists a missing table fails
// with ErrTableNotExist.
func (a *Admin) DropTable(ctx context.Context, path TablePath, ignoreIfNotExists bool) error {
	if err := path.check(); err != nil {
		return err
	}
	defer a.c.invalidateTable(path)
	return a.c.callCoordinator(ctx, protocol.DropTable, &protocol.DropTableRequest{
		TablePath:         pbPath(path),
		IgnoreIfNotExists: proto.Bool(ignoreIfNotExists),
	}, &protocol.DropTableResponse{})
}

// GetTableInfo returns the table's id, schema id, definition (with the
// server's defaults filled in) and timestamps, or ErrTableNotExist.
func (a *Admin) GetTableInfo(ctx context.Context, path TablePath) (*TableInfo, error) {
	if err := path.check(); err != nil {
		return nil, err
	}
	var resp protocol.GetTableInfoResponse
	if err := a.c.callAnyServer(ctx, protocol.GetTableInfo, &protocol.GetTableInfoRequest{TablePath: pbPath(path)}, &resp); err != nil {
		return nil, err
	}
	info, err := tableInfoFromJSON(path, resp.GetTableId(), resp.GetSchemaId(), resp.GetTableJson(), resp.GetCreatedTime(), resp.GetModifiedTime())
	if err != nil {
		return nil, err
	}
	info.RemoteDataDir = resp.GetRemoteDataDir()
	return info, nil
}

// GetTableSchema returns a schema of the table: the latest when schemaID
// is negative. It returns the schema id with the schema.
func (a *Admin) GetTableSchema(ctx context.Context, path TablePath, schemaID int32) (types.Schema, int32, error) {
	req := &protocol.GetTableSchemaRequest{TablePath: pbPath(path)}
	if schemaID >= 0 {
		req.SchemaId = proto.Int32(schemaID)
	}
	var resp protocol.GetTableSchemaResponse
	if err := a.c.callAnyServer(ctx, protocol.GetTableSchema, req, &resp); err != nil {
		return types.Schema{}, 0, err
	}
	s, err := types.UnmarshalSchema(resp.GetSchemaJson())
	if err != nil {
		return types.Schema{}, 0, fmt.Errorf("fluss: schema of %s: %w", path, err)
	}
	return s.Schema, resp.GetSchemaId(), nil
}

// ListTables returns the names of the tables of a database, or
// ErrDatabaseNotExist.
func (a *Admin) ListTables(ctx context.Context, database string) ([]string, error) {
	var resp protocol.ListTablesResponse
	if err := a.c.callAnyServer(ctx, protocol.ListTables, &protocol.ListTablesRequest{DatabaseName: proto.String(database)}, &resp); err != nil {
		return nil, err
	}
	return resp.GetTableName(), nil
}

// TableExists reports whether a table exists.
func (a *Admin) TableExists(ctx context.Context, path TablePath) (bool, error) {
	if err := path.check(); err != nil {
		return false, err
	}
	var resp protocol.TableExistsResponse
	err := a.c.callAnyServer(ctx, protocol.TableExists, &protocol.TableExistsRequest{TablePath: pbPath(path)}, &resp)
	return resp.GetExists(), err
}

// CreatePartition creates a partition of a partitioned table. spec needs a
// value for every partition key. With ignoreIfExists an existing partition
// is not an error; otherwise it fails with ErrPartitionAlreadyExists.
func (a *Admin) CreatePartition(ctx context.Context, path TablePath, spec PartitionSpec, ignoreIfExists bool) error {
	if err := path.check(); err != nil {
		return err
	}
	return a.c.callCoordinator(ctx, protocol.CreatePartition, &protocol.CreatePartitionRequest{
		TablePath:     pbPath(path),
		PartitionSpec: spec.toPb(),
		// The server reads this field as "ignore if exists".
		IgnoreIfNotExists: proto.Bool(ignoreIfExists),
	}, &protocol.CreatePartitionResponse{})
}

// DropPartition drops a partition; without ignoreIfNotExists a missing
// partition fails with ErrPartitionNotExists.
func (a *Admin) DropPartition(ctx context.Context, path TablePath, spec PartitionSpec, ignoreIfNotExists bool) error {
	if err := path.check(); err != nil {
		return err
	}
	defer a.c.invalidateTable(path)
	return a.c.callCoordinator(ctx, protocol.DropPartition, &protocol.DropPartitionRequest{
		TablePath:         pbPath(path),
		PartitionSpec:     spec.toPb(),
		IgnoreIfNotExists: proto.Bool(ignoreIfNotExists),
	}, &protocol.DropPartitionResponse{})
}

// ListPartitions returns the partitions of a partitioned table, all of them
// or, with a non-empty partial spec, those matching it. A non-partitioned
// table fails with flusserr.TableNotPartitionedException.
func (a *Admin) ListPartitions(ctx context.Context, path TablePath, partial PartitionSpec) ([]PartitionInfo, error) {
	if err := path.check(); err != nil {
		return nil, err
	}
	req := &protocol.ListPartitionInfosRequest{TablePath: pbPath(path)}
	if len(partial) > 0 {
		req.PartialPartitionSpec = partial.toPb()
	}
	var resp protocol.ListPartitionInfosResponse
	if err := a.c.callAnyServer(ctx, protocol.ListPartitionInfos, req, &resp); err != nil {
		return nil, err
	}
	out := make([]PartitionInfo, 0, len(resp.GetPartitionsInfo()))
	for _, p := range resp.GetPartitionsInfo() {
		out = append(out, partitionFromPb(p))
	}
	return out, nil
}

// ServerNodes returns the coordinator and the tablet servers.
func (a *Admin) ServerNodes(ctx context.Context) ([]ServerNode, error) {
	return a.c.ServerNodes(ctx)
}

// isStale reports whether err means cached metadata must be refreshed.
func isStale(err error) bool {
	var fe *Error
	return errors.As(err, &fe) && (fe.InvalidMetadata() || fe.Code == flusserr.NetworkException)
}
