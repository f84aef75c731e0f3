package flusstest

import (
	"fmt"
	"slices"
	"sort"

	"google.golang.org/protobuf/proto"

	"github.com/flussql/flussql/fluss/internal/protocol"
)

// coordinatorAPIs and tabletAPIs are the APIs each kind of server announces; the client
// refuses to send a request to a server that does not announce its API.
var (
	coordinatorAPIs = []APIKey{APIVersions, GetMetadata, CreateDatabase, DropDatabase, ListDatabases,
		DatabaseExists, GetDatabaseInfo, CreateTable, DropTable, GetTableInfo, ListTables, TableExists,
		GetTableSchema, ListPartitionInfos, CreatePartition, DropPartition, InitWriter, apiRebalance}
	// A tablet server also serves the read-only admin calls (Fluss's AdminReadOnlyGateway).
	tabletAPIs = []APIKey{APIVersions, GetMetadata, ListDatabases, DatabaseExists, GetDatabaseInfo,
		GetTableInfo, ListTables, TableExists, GetTableSchema, ListPartitionInfos, ProduceLog, FetchLog,
		PutKv, Lookup, PrefixLookup, ListOffsets, LimitScan, InitWriter, apiGetTableStats}
)

// The fake announces itself as a Fluss 0.9 cluster: with REBALANCE (1049) on the
// coordinator and GET_TABLE_STATS (1059) on the tablet servers, as 0.9 servers have, and
// without SCAN_KV. It never answers those two.
const (
	apiRebalance     APIKey = 1049
	apiGetTableStats APIKey = 1059
)

// Server types of API_VERSIONS.
const (
	serverTypeCoordinator = 1
	serverTypeTablet      = 2
)

// handle decodes a request, runs its handler and returns the answer (nil: no answer).
func (c *Cluster) handle(r *request) (proto.Message, error) {
	if r.api == APIVersions {
		return c.apiVersions(r.node), nil
	}
	if r.node.id != 0 {
		c.mu.Lock()
		f := c.served[r.api]
		c.mu.Unlock()
		if f != nil {
			return f(r.body)
		}
	}
	h, ok := handlers[r.api]
	if !ok {
		return nil, nil // the real server stays silent for an API it does not serve
	}
	return h(c, r)
}

// handlers maps each served API (but API_VERSIONS) to its handler.
var handlers map[APIKey]func(*Cluster, *request) (proto.Message, error)

func init() {
	handlers = map[APIKey]func(*Cluster, *request) (proto.Message, error){
		GetMetadata:        decoded((*Cluster).metadata),
		CreateDatabase:     decoded((*Cluster).createDatabase),
		DropDatabase:       decoded((*Cluster).dropDatabase),
		ListDatabases:      decoded((*Cluster).listDatabases),
		DatabaseExists:     decoded((*Cluster).databaseExists),
		GetDatabaseInfo:    decoded((*Cluster).getDatabaseInfo),
		CreateTable:        decoded((*Cluster).createTable),
		DropTable:          decoded((*Cluster).dropTable),
		GetTableInfo:       decoded((*Cluster).getTableInfo),
		ListTables:         decoded((*Cluster).listTables),
		TableExists:        decoded((*Cluster).tableExists),
		GetTableSchema:     decoded((*Cluster).getTableSchema),
		ListPartitionInfos: decoded((*Cluster).listPartitions),
		CreatePartition:    decoded((*Cluster).createPartition),
		DropPartition:      decoded((*Cluster).dropPartition),
		InitWriter:         decoded((*Cluster).initWriter),
		ProduceLog:         decoded((*Cluster).produceLog),
		FetchLog:           decoded((*Cluster).fetchLog),
		ListOffsets:        decoded((*Cluster).listOffsets),
		PutKv:              decoded((*Cluster).putKv),
		Lookup:             decoded((*Cluster).lookup),
		PrefixLookup:       decoded((*Cluster).prefixLookup),
		LimitScan:          decoded((*Cluster).limitScan),
	}
}

// decoded adapts a handler of a typed request: the body is unmarshalled into a new Req, and
// a body that does not decode is answered with CORRUPT_MESSAGE.
func decoded[Req any, PReq interface {
	*Req
	proto.Message
}, Resp proto.Message](h func(*Cluster, *request, PReq) (Resp, error)) func(*Cluster, *request) (proto.Message, error) {
	return func(c *Cluster, r *request) (proto.Message, error) {
		req := PReq(new(Req))
		if err := proto.Unmarshal(r.body, req); err != nil {
			return nil, errorf(codeCorruptMessage, fmt.Sprintf("flusstest: request of API %d does not decode: %v", r.api, err))
		}
		resp, err := h(c, r, req)
		if err != nil {
			return nil, err
		}
		return resp, nil
	}
}

func (c *Cluster) apiVersions(n *node) *protocol.ApiVersionsResponse {
	keys, stype := coordinatorAPIs, int32(serverTypeCoordinator)
	if n.id != 0 {
		keys, stype = tabletAPIs, serverTypeTablet
	}
	resp := &protocol.ApiVersionsResponse{ServerType: proto.Int32(stype)}
	if n.id != 0 {
		c.mu.Lock()
		for k := range c.served {
			keys = append(slices.Clip(keys), k)
		}
		c.mu.Unlock()
	}
	for _, k := range keys {
		v, _ := protocol.ClientVersions(k)
		resp.ApiVersions = append(resp.ApiVersions, &protocol.PbApiVersion{
			ApiKey: proto.Int32(int32(k)), MinVersion: proto.Int32(int32(v.Min)), MaxVersion: proto.Int32(int32(v.Max))})
	}
	return resp
}

func (c *Cluster) metadata(_ *request, req *protocol.MetadataRequest) (*protocol.MetadataResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	resp := &protocol.MetadataResponse{CoordinatorServer: c.coord.pb()}
	for _, n := range c.tablets {
		resp.TabletServers = append(resp.TabletServers, n.pb())
	}
	for _, p := range req.GetTablePath() {
		c.tableMeta[p.GetDatabaseName()+"."+p.GetTableName()]++
		t, err := c.cat.table(p.GetDatabaseName(), p.GetTableName())
		if err != nil {
			return nil, err
		}
		resp.TableMetadata = append(resp.TableMetadata, &protocol.PbTableMetadata{
			TablePath: p, TableId: proto.Int64(t.id), SchemaId: proto.Int32(1), TableJson: t.json,
			BucketMetadata: c.bucketsPb(t), CreatedTime: proto.Int64(t.created), ModifiedTime: proto.Int64(t.created)})
	}
	for _, p := range req.GetPartitionsPath() {
		t, err := c.cat.table(p.GetDatabaseName(), p.GetTableName())
		if err != nil {
			return nil, err
		}
		part, ok := t.parts[p.GetPartitionName()]
		if !ok {
			return nil, errorf(codePartitionNotExists, fmt.Sprintf("Table partition '%s.%s(p=%s)' does not exist.",
				t.db, t.name, p.GetPartitionName()))
		}
		resp.PartitionMetadata = append(resp.PartitionMetadata, c.partitionPb(t, part))
	}
	for _, id := range req.GetPartitionsId() {
		found := false
		for _, t := range c.cat.tables {
			if part := t.partitionByID(id); part != nil {
				resp.PartitionMetadata = append(resp.PartitionMetadata, c.partitionPb(t, part))
				found = true
			}
		}
		if !found {
			return nil, errorf(codePartitionNotExists, fmt.Sprintf("partition %d does not exist", id))
		}
	}
	return resp, nil
}

func (c *Cluster) bucketsPb(t *table) []*protocol.PbBucketMetadata {
	out := make([]*protocol.PbBucketMetadata, 0, t.buckets)
	for b := int32(0); int(b) < t.buckets; b++ {
		bm := &protocol.PbBucketMetadata{BucketId: proto.Int32(b)}
		if l := t.leader(b, len(c.tablets)); l >= 0 {
			bm.LeaderId = proto.Int32(l)
			bm.ReplicaId = []int32{l}
		}
		out = append(out, bm)
	}
	return out
}

func (c *Cluster) partitionPb(t *table, p *partition) *protocol.PbPartitionMetadata {
	return &protocol.PbPartitionMetadata{TableId: proto.Int64(t.id), PartitionName: proto.String(p.name),
		PartitionId: proto.Int64(p.id), BucketMetadata: c.bucketsPb(t)}
}

func (c *Cluster) createDatabase(_ *request, req *protocol.CreateDatabaseRequest) (*protocol.CreateDatabaseResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return &protocol.CreateDatabaseResponse{}, c.cat.createDatabase(req.GetDatabaseName(), req.GetDatabaseJson(), req.GetIgnoreIfExists())
}

func (c *Cluster) dropDatabase(_ *request, req *protocol.DropDatabaseRequest) (*protocol.DropDatabaseResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return &protocol.DropDatabaseResponse{}, c.cat.dropDatabase(req.GetDatabaseName(), req.GetIgnoreIfNotExists(), req.GetCascade())
}

func (c *Cluster) listDatabases(_ *request, _ *protocol.ListDatabasesRequest) (*protocol.ListDatabasesResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	resp := &protocol.ListDatabasesResponse{}
	for name := range c.cat.dbs {
		resp.DatabaseName = append(resp.DatabaseName, name)
	}
	sort.Strings(resp.DatabaseName)
	return resp, nil
}

func (c *Cluster) databaseExists(_ *request, req *protocol.DatabaseExistsRequest) (*protocol.DatabaseExistsResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.cat.dbs[req.GetDatabaseName()]
	return &protocol.DatabaseExistsResponse{Exists: proto.Bool(ok)}, nil
}

func (c *Cluster) getDatabaseInfo(_ *request, req *protocol.GetDatabaseInfoRequest) (*protocol.GetDatabaseInfoResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	d, err := c.cat.database(req.GetDatabaseName())
	if err != nil {
		return nil, err
	}
	return &protocol.GetDatabaseInfoResponse{DatabaseJson: d.json, CreatedTime: proto.Int64(d.created), ModifiedTime: proto.Int64(d.created)}, nil
}

func (c *Cluster) createTable(_ *request, req *protocol.CreateTableRequest) (*protocol.CreateTableResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	p := req.GetTablePath()
	_, err := c.cat.createTable(p.GetDatabaseName(), p.GetTableName(), req.GetTableJson(), req.GetIgnoreIfExists())
	return &protocol.CreateTableResponse{}, err
}

func (c *Cluster) dropTable(_ *request, req *protocol.DropTableRequest) (*protocol.DropTableResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	p := req.GetTablePath()
	return &protocol.DropTableResponse{}, c.cat.dropTable(p.GetDatabaseName(), p.GetTableName(), req.GetIgnoreIfNotExists())
}

func (c *Cluster) getTableInfo(_ *request, req *protocol.GetTableInfoRequest) (*protocol.GetTableInfoResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, err := c.cat.table(req.GetTablePath().GetDatabaseName(), req.GetTablePath().GetTableName())
	if err != nil {
		return nil, err
	}
	return &protocol.GetTableInfoResponse{TableId: proto.Int64(t.id), SchemaId: proto.Int32(1), TableJson: t.json,
		CreatedTime: proto.Int64(t.created), ModifiedTime: proto.Int64(t.created)}, nil
}

func (c *Cluster) listTables(_ *request, req *protocol.ListTablesRequest) (*protocol.ListTablesResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	d, err := c.cat.database(req.GetDatabaseName())
	if err != nil {
		return nil, err
	}
	resp := &protocol.ListTablesResponse{}
	for name := range d.tables {
		resp.TableName = append(resp.TableName, name)
	}
	sort.Strings(resp.TableName)
	return resp, nil
}

func (c *Cluster) tableExists(_ *request, req *protocol.TableExistsRequest) (*protocol.TableExistsResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, err := c.cat.table(req.GetTablePath().GetDatabaseName(), req.GetTablePath().GetTableName())
	return &protocol.TableExistsResponse{Exists: proto.Bool(err == nil)}, nil
}

func (c *Cluster) getTableSchema(_ *request, req *protocol.GetTableSchemaRequest) (*protocol.GetTableSchemaResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, err := c.cat.table(req.GetTablePath().GetDatabaseName(), req.GetTablePath().GetTableName())
	if err != nil {
		return nil, err
	}
	if req.SchemaId != nil && req.GetSchemaId() != 1 {
		return nil, errorf(codeSchemaNotExist, fmt.Sprintf("schema %d of %s.%s does not exist", req.GetSchemaId(), t.db, t.name))
	}
	return &protocol.GetTableSchemaResponse{SchemaId: proto.Int32(1), SchemaJson: t.schema}, nil
}

func (c *Cluster) tableOf(p *protocol.PbTablePath) (*table, error) {
	return c.cat.table(p.GetDatabaseName(), p.GetTableName())
}

func specOf(s *protocol.PbPartitionSpec) map[string]string {
	m := map[string]string{}
	for _, kv := range s.GetPartitionKeyValues() {
		m[kv.GetKey()] = kv.GetValue()
	}
	return m
}

func (c *Cluster) listPartitions(_ *request, req *protocol.ListPartitionInfosRequest) (*protocol.ListPartitionInfosResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, err := c.tableOf(req.GetTablePath())
	if err != nil {
		return nil, err
	}
	if len(t.desc.PartitionKeys) == 0 {
		return nil, errorf(codeNotPartitioned, fmt.Sprintf("table %s.%s is not partitioned", t.db, t.name))
	}
	filter := specOf(req.GetPartialPartitionSpec())
	if _, err := t.specValues(filter, true); err != nil {
		return nil, err
	}
	resp := &protocol.ListPartitionInfosResponse{}
next:
	for _, p := range t.sortedPartitions() {
		spec := &protocol.PbPartitionSpec{}
		for i, k := range t.desc.PartitionKeys {
			if v, ok := filter[k]; ok && v != p.values[i] {
				continue next
			}
			spec.PartitionKeyValues = append(spec.PartitionKeyValues, &protocol.PbKeyValue{Key: proto.String(k), Value: proto.String(p.values[i])})
		}
		resp.PartitionsInfo = append(resp.PartitionsInfo, &protocol.PbPartitionInfo{PartitionId: proto.Int64(p.id), PartitionSpec: spec})
	}
	return resp, nil
}

func (c *Cluster) createPartition(_ *request, req *protocol.CreatePartitionRequest) (*protocol.CreatePartitionResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, err := c.tableOf(req.GetTablePath())
	if err != nil {
		return nil, err
	}
	// The field is named ignore_if_not_exists in the protocol; it means "if it exists".
	return &protocol.CreatePartitionResponse{}, c.cat.createPartition(t, specOf(req.GetPartitionSpec()), req.GetIgnoreIfNotExists())
}

func (c *Cluster) dropPartition(_ *request, req *protocol.DropPartitionRequest) (*protocol.DropPartitionResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, err := c.tableOf(req.GetTablePath())
	if err != nil {
		return nil, err
	}
	return &protocol.DropPartitionResponse{}, c.cat.dropPartition(t, specOf(req.GetPartitionSpec()), req.GetIgnoreIfNotExists())
}

func (c *Cluster) initWriter(_ *request, _ *protocol.InitWriterRequest) (*protocol.InitWriterResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.writers++
	return &protocol.InitWriterResponse{WriterId: proto.Int64(c.writers)}, nil
}
