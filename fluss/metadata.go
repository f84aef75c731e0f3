package fluss

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"sync"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/flussql/flussql/fluss/flusserr"
	"github.com/flussql/flussql/fluss/internal/protocol"
	"github.com/flussql/flussql/fluss/types"
)

// clusterState is an immutable snapshot of the cluster's servers.
type clusterState struct {
	coordinator *ServerNode
	tablets     map[int32]ServerNode
	stale       bool
}

func (s *clusterState) tabletList() []ServerNode {
	out := make([]ServerNode, 0, len(s.tablets))
	for _, n := range s.tablets {
		out = append(out, n)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

func (s *clusterState) nodes() []ServerNode {
	var out []ServerNode
	if s.coordinator != nil {
		out = append(out, *s.coordinator)
	}
	return append(out, s.tabletList()...)
}

// bucketLocation is where one bucket lives. Leader is -1 while the bucket
// has no leader.
type bucketLocation struct {
	Bucket      int32
	Leader      int32
	Replicas    []int32
	LeaderEpoch int32
	// epochKnown: the answer carried LeaderEpoch (see fenceStaleLeaders).
	epochKnown bool
}

// tableMetadata is what the client caches about a table: its identity, its
// definition and, for non-partitioned tables, its bucket leaders.
type tableMetadata struct {
	Info    *TableInfo
	Buckets []bucketLocation // by bucket id; empty for partitioned tables
}

// partitionMetadata is one partition's id and bucket leaders.
type partitionMetadata struct {
	TableID int64
	Name    string
	ID      int64
	Buckets []bucketLocation
}

type partitionKey struct {
	path TablePath
	name string
}

// metadataCache holds cluster, table and partition metadata. Entries are
// immutable; refreshing replaces them.
type metadataCache struct {
	mu         sync.RWMutex
	cluster    *clusterState
	tables     map[TablePath]*tableMetadata
	partitions map[partitionKey]*partitionMetadata
	// schemas holds the registered schemas of tables by table id and schema
	// id (see schema_history.go); they never change, so they are never
	// dropped.
	schemas map[schemaKey]*schemaVersion
	// leaders holds the bucket leaders last seen per table and partition,
	// for logging leader changes (logging.go).
	leaders map[partitionKey]map[int32]int32
	// epochs holds the highest leader epoch seen per bucket (leader_epoch.go).
	epochs map[epochKey]int32
	// guardOff keeps stale leaders (epochGuardOff when the cache was made).
	guardOff bool
}

func newMetadataCache() metadataCache {
	return metadataCache{
		cluster:    &clusterState{tablets: map[int32]ServerNode{}, stale: true},
		tables:     map[TablePath]*tableMetadata{},
		partitions: map[partitionKey]*partitionMetadata{},
		schemas:    map[schemaKey]*schemaVersion{},
		guardOff:   epochGuardOff,
	}
}

func (m *metadataCache) clusterState() *clusterState {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.cluster
}

func (m *metadataCache) invalidateCluster() {
	m.mu.Lock()
	defer m.mu.Unlock()
	cp := *m.cluster
	cp.stale = true
	m.cluster = &cp
}

// invalidateTable drops the table and its partitions from the cache.
func (m *metadataCache) invalidateTable(path TablePath) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.tables, path)
	for k := range m.partitions {
		if k.path == path {
			delete(m.partitions, k)
		}
	}
}

func (m *metadataCache) update(resp *protocol.MetadataResponse) {
	cl := &clusterState{tablets: make(map[int32]ServerNode, len(resp.GetTabletServers()))}
	if cs := resp.GetCoordinatorServer(); cs != nil {
		n := nodeFromPb(cs, CoordinatorServer)
		cl.coordinator = &n
	}
	for _, ts := range resp.GetTabletServers() {
		cl.tablets[ts.GetNodeId()] = nodeFromPb(ts, TabletServer)
	}
	m.mu.Lock()
	m.cluster = cl
	m.mu.Unlock()
}

func nodeFromPb(n *protocol.PbServerNode, t ServerType) ServerNode {
	return ServerNode{ID: n.GetNodeId(), Host: n.GetHost(), Port: int(n.GetPort()), Rack: n.GetRack(), Type: t}
}

func bucketsFromPb(pbs []*protocol.PbBucketMetadata) []bucketLocation {
	out := make([]bucketLocation, 0, len(pbs))
	for _, b := range pbs {
		loc := bucketLocation{Bucket: b.GetBucketId(), Leader: -1, Replicas: b.GetReplicaId(), LeaderEpoch: b.GetLeaderEpoch(), epochKnown: b.LeaderEpoch != nil}
		if b.LeaderId != nil {
			loc.Leader = b.GetLeaderId()
		}
		out = append(out, loc)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Bucket < out[j].Bucket })
	return out
}

// metadataRequest sends a MetadataRequest to a tablet server (the
// coordinator, then the bootstrap servers, if none answers) and records the
// servers it reports. A tablet server whose answer lists no tablet server
// (one that has just started) is passed over while another can answer.
func (c *Client) metadataRequest(ctx context.Context, req *protocol.MetadataRequest) (*protocol.MetadataResponse, error) {
	if c.isClosed() {
		return nil, ErrClosed
	}
	cl := c.meta.clusterState()
	type target struct {
		addr string
		typ  ServerType
	}
	var targets []target
	tablets := cl.tabletList()
	rand.Shuffle(len(tablets), func(i, j int) { tablets[i], tablets[j] = tablets[j], tablets[i] })
	for _, n := range tablets {
		targets = append(targets, target{n.Addr(), TabletServer})
	}
	if cl.coordinator != nil {
		targets = append(targets, target{cl.coordinator.Addr(), CoordinatorServer})
	}
	for _, a := range c.cfg.BootstrapServers {
		targets = append(targets, target{a, 0})
	}
	// Servers whose last dial failed are asked last: a dead or silent one
	// would cost a refused dial or a whole connect timeout first.
	slices.SortStableFunc(targets, func(a, b target) int {
		fa, fb := c.pool.FailedWithin(a.addr, recentDialFailure), c.pool.FailedWithin(b.addr, recentDialFailure)
		switch {
		case fa == fb:
			return 0
		case fb:
			return -1
		}
		return 1
	})
	var errs []error
	var unready *protocol.MetadataResponse
	for i, t := range targets {
		// A server that does not answer (a stopped process) must not hold
		// the request while others could answer: each but the last gets
		// at most metadataTargetTimeout.
		tctx, cancel := ctx, context.CancelFunc(func() {})
		if i < len(targets)-1 {
			tctx, cancel = context.WithTimeout(ctx, min(metadataTargetTimeout, c.cfg.RequestTimeout))
		}
		var resp protocol.MetadataResponse
		start := time.Now()
		err := c.callAddr(tctx, t.addr, t.typ, protocol.GetMetadata, req, &resp)
		silent := tctx.Err() != nil && ctx.Err() == nil
		cancel()
		if err == nil && t.typ == TabletServer && len(resp.GetTabletServers()) == 0 {
			// A tablet server that has just started answers from a cache the coordinator
			// has not filled yet: no tablet server, not even itself. Ask the next one.
			if unready == nil {
				unready = &resp
			}
			continue
		}
		if err == nil {
			c.meta.update(&resp)
			c.debug("fluss: metadata refreshed", "from", t.addr, "tables", len(req.GetTablePath()), "partitions", len(req.GetPartitionsPath()),
				"tablet_servers", len(resp.GetTabletServers()), "took", time.Since(start))
			return &resp, nil
		}
		c.debug("fluss: metadata request failed", "from", t.addr, "took", time.Since(start), "err", err)
		c.observeRetry("metadata", TablePath{}, 1, err)
		if ctx.Err() != nil {
			return nil, errors.Join(append(errs, err)...)
		}
		var fe *Error
		if !silent && (!errors.As(err, &fe) || fe.Code != flusserr.NetworkException) {
			return nil, err // the server answered: the answer stands
		}
		errs = append(errs, err)
	}
	if unready != nil {
		c.meta.update(unready)
		return unready, nil
	}
	return nil, errors.Join(errs...)
}

// recentDialFailure is how long a failed dial moves a server to the end of
// the metadata request's list.
const recentDialFailure = 30 * time.Second

// metadataTargetTimeout bounds the wait for one server's metadata answer
// when another server can be asked next.
const metadataTargetTimeout = 5 * time.Second

// refreshCluster fetches the server list.
func (c *Client) refreshCluster(ctx context.Context) error {
	_, err := c.metadataRequest(ctx, &protocol.MetadataRequest{})
	return err
}

// cluster returns the server list, refreshing it when it is stale.
func (c *Client) cluster(ctx context.Context) (*clusterState, error) {
	if cl := c.meta.clusterState(); !cl.stale {
		return cl, nil
	}
	if err := c.refreshCluster(ctx); err != nil {
		return nil, err
	}
	return c.meta.clusterState(), nil
}

// tableMetadata returns the cached metadata of a table, fetching it when
// absent. Call invalidateTable after an error that means it is stale.
func (c *Client) tableMetadata(ctx context.Context, path TablePath) (*tableMetadata, error) {
	c.meta.mu.RLock()
	tm := c.meta.tables[path]
	c.meta.mu.RUnlock()
	if tm != nil {
		return tm, nil
	}
	if err := path.check(); err != nil {
		return nil, err
	}
	resp, err := c.metadataRequest(ctx, &protocol.MetadataRequest{TablePath: []*protocol.PbTablePath{pbPath(path)}})
	if errors.Is(err, flusserr.UnknownServerError) {
		// 0.9.1 answers a metadata request for a missing table with
		// UNKNOWN_SERVER_ERROR (a wrapped TableNotExistException); ask in a
		// way that yields the proper code.
		var info protocol.GetTableInfoResponse
		if ierr := c.callAnyServer(ctx, protocol.GetTableInfo, &protocol.GetTableInfoRequest{TablePath: pbPath(path)}, &info); ierr != nil {
			return nil, ierr
		}
	}
	if err != nil {
		return nil, err
	}
	for _, t := range resp.GetTableMetadata() {
		if t.GetTablePath().GetDatabaseName() != path.Database || t.GetTablePath().GetTableName() != path.Table {
			continue
		}
		info, err := tableInfoFromJSON(path, t.GetTableId(), t.GetSchemaId(), t.GetTableJson(), t.GetCreatedTime(), t.GetModifiedTime())
		if err != nil {
			return nil, err
		}
		info.RemoteDataDir = t.GetRemoteDataDir()
		tm = &tableMetadata{Info: info, Buckets: bucketsFromPb(t.GetBucketMetadata())}
		c.noteFenced(path, "", c.meta.fenceStaleLeaders(t.GetTableId(), -1, tm.Buckets))
		c.noteLeaders(path, "", tm.Buckets)
		c.meta.mu.Lock()
		c.meta.tables[path] = tm
		c.meta.mu.Unlock()
		return tm, nil
	}
	return nil, c.missingFromMetadata(ctx, path)
}

// missingFromMetadata explains a table the metadata answer left out. The servers leave out a
// table that was dropped and also one the user may no longer describe (an ACL revoked while
// the caller still had the table's info cached), so GET_TABLE_INFO is asked at once: its
// error says which (ErrTableNotExist, or ErrPermissionDenied naming the table). A table it
// finds (created a moment ago, not yet in that server's metadata) stays TABLE_NOT_EXIST.
func (c *Client) missingFromMetadata(ctx context.Context, path TablePath) error {
	var info protocol.GetTableInfoResponse
	if err := c.callCoordinator(ctx, protocol.GetTableInfo, &protocol.GetTableInfoRequest{TablePath: pbPath(path)}, &info); err != nil {
		return err
	}
	return &Error{Code: flusserr.TableNotExist, Message: fmt.Sprintf("metadata has no table %s yet (the coordinator knows it: created a moment ago?)", path)}
}

// invalidateTable forgets the cached metadata of a table and its partitions.
func (c *Client) invalidateTable(path TablePath) { c.meta.invalidateTable(path) }

// partitionMetadata returns the cached id and bucket leaders of a partition
// (by name, see PartitionName), fetching them when absent.
func (c *Client) partitionMetadata(ctx context.Context, path TablePath, name string) (*partitionMetadata, error) {
	key := partitionKey{path, name}
	c.meta.mu.RLock()
	pm := c.meta.partitions[key]
	c.meta.mu.RUnlock()
	if pm != nil {
		return pm, nil
	}
	resp, err := c.metadataRequest(ctx, &protocol.MetadataRequest{
		PartitionsPath: []*protocol.PbPhysicalTablePath{{
			DatabaseName: proto.String(path.Database), TableName: proto.String(path.Table), PartitionName: proto.String(name),
		}},
	})
	if err != nil {
		return nil, err
	}
	if pm := c.storePartitions(path, resp)[name]; pm != nil {
		return pm, nil
	}
	return nil, &Error{Code: flusserr.PartitionNotExists, Message: fmt.Sprintf("metadata has no partition %q of %s", name, path)}
}

// storePartitions caches the partitions of path in a metadata answer and returns them by
// name.
func (c *Client) storePartitions(path TablePath, resp *protocol.MetadataResponse) map[string]*partitionMetadata {
	out := map[string]*partitionMetadata{}
	for _, p := range resp.GetPartitionMetadata() {
		name := p.GetPartitionName()
		pm := &partitionMetadata{TableID: p.GetTableId(), Name: name, ID: p.GetPartitionId(), Buckets: bucketsFromPb(p.GetBucketMetadata())}
		c.noteFenced(path, name, c.meta.fenceStaleLeaders(pm.TableID, pm.ID, pm.Buckets))
		c.noteLeaders(path, name, pm.Buckets)
		c.meta.mu.Lock()
		c.meta.partitions[partitionKey{path, name}] = pm
		c.meta.mu.Unlock()
		out[name] = pm
	}
	return out
}

// partitionCached reports whether the metadata of a partition is cached.
func (c *Client) partitionCached(path TablePath, name string) bool {
	c.meta.mu.RLock()
	defer c.meta.mu.RUnlock()
	return c.meta.partitions[partitionKey{path, name}] != nil
}

// partitionsPerMetadataRequest bounds the partitions prefetchPartitions asks for in one
// request.
const partitionsPerMetadataRequest = 500

// prefetchPartitions fetches the metadata of those named partitions that are not cached, a
// few hundred per request, for a reader about to touch them all: partitionMetadata alone
// asks for each partition when it is first needed, which for a scan of 1,000 partitions
// was 1,000 requests one after the other. It is best effort: after a failure (a partition
// dropped meanwhile fails the whole request) partitionMetadata still asks for each
// partition and reports its error.
func (c *Client) prefetchPartitions(ctx context.Context, path TablePath, names []string) {
	var missing []string
	c.meta.mu.RLock()
	for _, n := range names {
		if n != "" && c.meta.partitions[partitionKey{path, n}] == nil {
			missing = append(missing, n)
		}
	}
	c.meta.mu.RUnlock()
	if len(missing) < 2 {
		return
	}
	for lo := 0; lo < len(missing); lo += partitionsPerMetadataRequest {
		req := &protocol.MetadataRequest{}
		for _, n := range missing[lo:min(lo+partitionsPerMetadataRequest, len(missing))] {
			req.PartitionsPath = append(req.PartitionsPath, &protocol.PbPhysicalTablePath{
				DatabaseName: proto.String(path.Database), TableName: proto.String(path.Table), PartitionName: proto.String(n),
			})
		}
		resp, err := c.metadataRequest(ctx, req)
		if err != nil {
			c.debug("fluss: prefetching partition metadata failed", "table", path.String(), "partitions", len(req.PartitionsPath), "err", err)
			return
		}
		c.storePartitions(path, resp)
	}
}

// bucketLeader returns the leader of a bucket of a table or partition
// (partition "" for non-partitioned tables). A bucket without a leader
// yields flusserr.LeaderNotAvailableException (retriable) and drops the cached entry.
func (c *Client) bucketLeader(ctx context.Context, path TablePath, partition string, bucket int32) (ServerNode, error) {
	var buckets []bucketLocation
	if partition == "" {
		tm, err := c.tableMetadata(ctx, path)
		if err != nil {
			return ServerNode{}, err
		}
		buckets = tm.Buckets
	} else {
		pm, err := c.partitionMetadata(ctx, path, partition)
		if err != nil {
			return ServerNode{}, err
		}
		buckets = pm.Buckets
	}
	i, found := slices.BinarySearchFunc(buckets, bucket, func(b bucketLocation, id int32) int { return int(b.Bucket) - int(id) })
	if !found {
		return ServerNode{}, &Error{Code: flusserr.UnknownTableOrBucketException, NotSent: true,
			Message: fmt.Sprintf("%s has no bucket %d", physicalName(path, partition), bucket)}
	}
	leader := buckets[i].Leader
	node, ok := c.meta.clusterState().tablets[leader]
	if leader < 0 || !ok {
		c.invalidateTable(path)
		c.meta.invalidateCluster()
		return ServerNode{}, &Error{Code: flusserr.LeaderNotAvailableException, NotSent: true,
			Message: fmt.Sprintf("bucket %d of %s has no known leader yet", bucket, physicalName(path, partition))}
	}
	return node, nil
}

func physicalName(path TablePath, partition string) string {
	if partition == "" {
		return path.String()
	}
	return fmt.Sprintf("%s (partition %s)", path, partition)
}

func pbPath(p TablePath) *protocol.PbTablePath {
	return &protocol.PbTablePath{DatabaseName: proto.String(p.Database), TableName: proto.String(p.Table)}
}

func tableInfoFromJSON(path TablePath, id int64, schemaID int32, js []byte, created, modified int64) (*TableInfo, error) {
	tj, err := types.UnmarshalTable(js)
	if err != nil {
		return nil, fmt.Errorf("fluss: table %s: %w", path, err)
	}
	return &TableInfo{
		Path:         path,
		TableID:      id,
		SchemaID:     schemaID,
		Descriptor:   descriptorFromJSON(tj),
		CreatedTime:  millis(created),
		ModifiedTime: millis(modified),
	}, nil
}
