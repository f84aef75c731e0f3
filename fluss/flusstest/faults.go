package flusstest

import (
	"fmt"
	"time"

	"github.com/flussql/flussql/fluss/internal/protocol"
)

// APIKey identifies a Fluss RPC API (the request header's api key).
type APIKey = protocol.APIKey

// The APIs the fake serves, for Inject and Calls.
const (
	APIVersions        = protocol.APIVersions
	CreateDatabase     = protocol.CreateDatabase
	DropDatabase       = protocol.DropDatabase
	ListDatabases      = protocol.ListDatabases
	DatabaseExists     = protocol.DatabaseExists
	CreateTable        = protocol.CreateTable
	DropTable          = protocol.DropTable
	GetTableInfo       = protocol.GetTableInfo
	ListTables         = protocol.ListTables
	ListPartitionInfos = protocol.ListPartitionInfos
	TableExists        = protocol.TableExists
	GetTableSchema     = protocol.GetTableSchema
	GetMetadata        = protocol.GetMetadata
	ProduceLog         = protocol.ProduceLog
	FetchLog           = protocol.FetchLog
	PutKv              = protocol.PutKv
	Lookup             = protocol.Lookup
	ListOffsets        = protocol.ListOffsets
	InitWriter         = protocol.InitWriter
	LimitScan          = protocol.LimitScan
	PrefixLookup       = protocol.PrefixLookup
	GetDatabaseInfo    = protocol.GetDatabaseInfo
	CreatePartition    = protocol.CreatePartition
	DropPartition      = protocol.DropPartition
)

// Action is what a fault does to the request it hits.
type Action int

// The fault actions.
const (
	// Drop reads the request and never answers it.
	Drop Action = iota + 1
	// Delay answers the request normally after Fault.Delay.
	Delay
	// Fail answers with an ErrorResponse frame of Fault.Code, and applies nothing.
	Fail
	// FailBuckets answers every bucket of a bucketed request (PRODUCE_LOG, PUT_KV,
	// FETCH_LOG, LOOKUP, PREFIX_LOOKUP, LIST_OFFSETS, LIMIT_SCAN) with Fault.Code and
	// applies nothing; for other APIs it is Fail.
	FailBuckets
	// Cut closes the connection the request came on, with no answer.
	Cut
	// Empty applies the request and answers with an empty response message: for
	// GET_METADATA, the answer of a server that has just started and knows no servers.
	Empty
)

// Error codes of the Fluss protocol the fake answers with by itself (the fluss package has
// the full list as flusserr.Code values; pass any of them, converted to int32, as
// Fault.Code).
const (
	codeUnknownServerError  int32 = -1
	codeDatabaseNotExist    int32 = 4
	codeDatabaseNotEmpty    int32 = 5
	codeDatabaseExists      int32 = 6
	codeTableNotExist       int32 = 7
	codeTableExists         int32 = 8
	codeSchemaNotExist      int32 = 9
	codeNotLeader           int32 = 12
	codeCorruptMessage      int32 = 3
	codeInvalidTable        int32 = 15
	codeNonPrimaryKeyTable  int32 = 20
	codeUnknownTableBucket  int32 = 21
	codePartitionNotExists  int32 = 36
	codeNotPartitioned      int32 = 37
	codePartitionExists     int32 = 42
	codePartitionSpecWrong  int32 = 43
	codeLeaderNotAvailable  int32 = 44
	codeInvalidColumnProjct int32 = 34
)

// Fault scripts the cluster's answer to some requests of one API. The zero Call and Times hit
// the next request only.
type Fault struct {
	// API is the API whose requests the fault hits.
	API APIKey
	// Server, when not 0, limits the fault to the requests that tablet server Server
	// receives; Call then counts those only.
	Server int32
	// Call is the first request hit, counted from when the fault is injected: 1 (or 0) is the
	// next request of API, 2 the one after it.
	Call int
	// Times is how many requests are hit from Call on: 0 means 1, a negative value every
	// later request.
	Times int
	// Action is what happens to a hit request.
	Action Action
	// Delay is the wait of Action Delay.
	Delay time.Duration
	// Code is the error code of Fail and FailBuckets.
	Code int32
	// Message is their error message (default "injected fault").
	Message string
	// Apply makes Drop and Cut apply the request (store the rows) before losing its answer,
	// as when the answer, not the request, is lost on the way.
	Apply bool
}

func (f Fault) message() string {
	if f.Message != "" {
		return f.Message
	}
	return fmt.Sprintf("injected fault (code %d)", f.Code)
}

// activeFault is an injected fault with the call numbers it hits.
type activeFault struct {
	Fault
	from, to int // calls of API (cluster-wide counts) hit; to < 0: no end
}

// Inject adds a fault. Faults are matched in the order they were injected; a request is hit
// by the first that matches.
func (c *Cluster) Inject(f Fault) {
	c.mu.Lock()
	defer c.mu.Unlock()
	first := c.calls[f.API] + max(f.Call, 1)
	if f.Server != 0 {
		first = c.serverCalls[serverCall{f.API, f.Server}] + max(f.Call, 1)
	}
	af := &activeFault{Fault: f, from: first, to: first}
	switch {
	case f.Times < 0:
		af.to = -1
	case f.Times > 1:
		af.to = first + f.Times - 1
	}
	c.faults = append(c.faults, af)
}

// ClearFaults removes every injected fault.
func (c *Cluster) ClearFaults() {
	c.mu.Lock()
	c.faults = nil
	c.mu.Unlock()
}

// count counts a request of api and returns the fault that hits it (if any), its call
// number and the OnRequest hook.
func (c *Cluster) count(api APIKey, node int32) (*activeFault, int, func(APIKey, int32, int)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls[api]++
	c.serverCalls[serverCall{api, node}]++
	n := c.calls[api]
	for _, f := range c.faults {
		m := n
		if f.Server != 0 {
			if f.Server != node {
				continue
			}
			m = c.serverCalls[serverCall{api, node}]
		}
		if f.API == api && m >= f.from && (f.to < 0 || m <= f.to) {
			return f, n, c.onRequest
		}
	}
	return nil, n, c.onRequest
}

// serverCall keys the request counts of one API at one server.
type serverCall struct {
	api  APIKey
	node int32
}
