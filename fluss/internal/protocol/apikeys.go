// Package protocol holds the Fluss RPC messages (generated from
// fluss_api.proto) and the API keys and versions flussql speaks.
package protocol

import "fmt"

// APIKey identifies a Fluss RPC API in the request header.
type APIKey int16

// The API keys flussql uses (values from Fluss 0.9.1 ApiKeys).
const (
	APIVersions          APIKey = 1000
	CreateDatabase       APIKey = 1001
	DropDatabase         APIKey = 1002
	ListDatabases        APIKey = 1003
	DatabaseExists       APIKey = 1004
	CreateTable          APIKey = 1005
	DropTable            APIKey = 1006
	GetTableInfo         APIKey = 1007
	ListTables           APIKey = 1008
	ListPartitionInfos   APIKey = 1009
	TableExists          APIKey = 1010
	GetTableSchema       APIKey = 1011
	GetMetadata          APIKey = 1012
	ProduceLog           APIKey = 1014
	FetchLog             APIKey = 1015
	PutKv                APIKey = 1016
	Lookup               APIKey = 1017
	ListOffsets          APIKey = 1021
	GetLatestKvSnapshots APIKey = 1023
	InitWriter           APIKey = 1026
	GetLakeSnapshot      APIKey = 1032
	LimitScan            APIKey = 1033
	PrefixLookup         APIKey = 1034
	GetDatabaseInfo      APIKey = 1035
	CreatePartition      APIKey = 1036
	DropPartition        APIKey = 1037
	Authenticate         APIKey = 1038
	CreateACLs           APIKey = 1039
	ListACLs             APIKey = 1040
	DropACLs             APIKey = 1041
	AlterTable           APIKey = 1044

	// DescribeClusterConfigs (0.9+) lists the cluster's configs and their sources.
	DescribeClusterConfigs APIKey = 1045
	// AlterClusterConfigs (0.9+) sets, resets, appends to or subtracts from cluster configs.
	AlterClusterConfigs APIKey = 1046
	// Rebalance (0.9+) starts moving replicas and leaders toward goals.
	Rebalance APIKey = 1049
	// ListRebalanceProgress (0.9+) reports a rebalance's status and per-bucket plan.
	ListRebalanceProgress APIKey = 1050
	// CancelRebalance (0.9+) cancels a rebalance that has not finished.
	CancelRebalance APIKey = 1051
	// AlterDatabase (1.0+) changes a database's comment and properties.
	AlterDatabase APIKey = 1060
	// ScanKv (1.0+) scans the KV store of a primary-key bucket in sessions.
	ScanKv APIKey = 1061
	// GetClusterHealth (1.0+) counts replicas in sync and leaders active.
	GetClusterHealth APIKey = 1062
	// ListKvSnapshots (1.0+) lists the KV snapshots a table keeps (retained and in use).
	ListKvSnapshots APIKey = 1064
)

// VersionRange is an inclusive range of API versions.
type VersionRange struct {
	Min, Max int16
}

// apiInfo is what the client knows about one API.
type apiInfo struct {
	name     string
	versions VersionRange
}

// clientAPIs lists the APIs this client can send and the versions it
// understands. PUT_KV, LOOKUP and PREFIX_LOOKUP v1 mean "keys are encoded
// with the Fluss key encoder" (0.9+); v0 is the legacy lake encoding. PUT_KV
// v2 (1.0) adds that the client understands STORAGE_BACKPRESSURE_EXCEPTION
// (older versions get the retriable KV_STORAGE_EXCEPTION instead); the
// request is the same.
var clientAPIs = map[APIKey]apiInfo{
	APIVersions:          {"API_VERSIONS", VersionRange{0, 0}},
	CreateDatabase:       {"CREATE_DATABASE", VersionRange{0, 0}},
	DropDatabase:         {"DROP_DATABASE", VersionRange{0, 0}},
	ListDatabases:        {"LIST_DATABASES", VersionRange{0, 0}},
	DatabaseExists:       {"DATABASE_EXISTS", VersionRange{0, 0}},
	CreateTable:          {"CREATE_TABLE", VersionRange{0, 0}},
	DropTable:            {"DROP_TABLE", VersionRange{0, 0}},
	GetTableInfo:         {"GET_TABLE_INFO", VersionRange{0, 0}},
	ListTables:           {"LIST_TABLES", VersionRange{0, 0}},
	ListPartitionInfos:   {"LIST_PARTITION_INFOS", VersionRange{0, 0}},
	TableExists:          {"TABLE_EXISTS", VersionRange{0, 0}},
	GetTableSchema:       {"GET_TABLE_SCHEMA", VersionRange{0, 0}},
	GetMetadata:          {"GET_METADATA", VersionRange{0, 0}},
	ProduceLog:           {"PRODUCE_LOG", VersionRange{0, 0}},
	FetchLog:             {"FETCH_LOG", VersionRange{0, 0}},
	PutKv:                {"PUT_KV", VersionRange{1, 2}},
	Lookup:               {"LOOKUP", VersionRange{1, 1}},
	ListOffsets:          {"LIST_OFFSETS", VersionRange{0, 0}},
	GetLatestKvSnapshots: {"GET_LATEST_KV_SNAPSHOTS", VersionRange{0, 0}},
	InitWriter:           {"INIT_WRITER", VersionRange{0, 0}},
	GetLakeSnapshot:      {"GET_LAKE_SNAPSHOT", VersionRange{0, 0}},
	LimitScan:            {"LIMIT_SCAN", VersionRange{0, 0}},
	PrefixLookup:         {"PREFIX_LOOKUP", VersionRange{1, 1}},
	GetDatabaseInfo:      {"GET_DATABASE_INFO", VersionRange{0, 0}},
	CreatePartition:      {"CREATE_PARTITION", VersionRange{0, 0}},
	DropPartition:        {"DROP_PARTITION", VersionRange{0, 0}},
	Authenticate:         {"AUTHENTICATE", VersionRange{0, 0}},
	CreateACLs:           {"CREATE_ACLS", VersionRange{0, 0}},
	ListACLs:             {"LIST_ACLS", VersionRange{0, 0}},
	DropACLs:             {"DROP_ACLS", VersionRange{0, 0}},
	AlterTable:           {"ALTER_TABLE", VersionRange{0, 0}},

	DescribeClusterConfigs: {"DESCRIBE_CLUSTER_CONFIGS", VersionRange{0, 0}},
	AlterClusterConfigs:    {"ALTER_CLUSTER_CONFIGS", VersionRange{0, 0}},
	Rebalance:              {"REBALANCE", VersionRange{0, 0}},
	ListRebalanceProgress:  {"LIST_REBALANCE_PROGRESS", VersionRange{0, 0}},
	CancelRebalance:        {"CANCEL_REBALANCE", VersionRange{0, 0}},
	AlterDatabase:          {"ALTER_DATABASE", VersionRange{0, 0}},
	ScanKv:                 {"SCAN_KV", VersionRange{0, 0}},
	GetClusterHealth:       {"GET_CLUSTER_HEALTH", VersionRange{0, 0}},
	ListKvSnapshots:        {"LIST_KV_SNAPSHOTS", VersionRange{0, 0}},
}

// String returns the Fluss name of the API, e.g. "CREATE_TABLE(1005)".
func (k APIKey) String() string {
	if info, ok := clientAPIs[k]; ok {
		return fmt.Sprintf("%s(%d)", info.name, int16(k))
	}
	return fmt.Sprintf("API(%d)", int16(k))
}

// ClientVersions returns the versions of k this client can speak, and false
// for an API the client does not know.
func ClientVersions(k APIKey) (VersionRange, bool) {
	info, ok := clientAPIs[k]
	return info.versions, ok
}

// Negotiate picks the highest version both sides speak. ok is false when the
// ranges do not overlap.
func Negotiate(client, server VersionRange) (version int16, ok bool) {
	hi := min(client.Max, server.Max)
	lo := max(client.Min, server.Min)
	if lo > hi {
		return 0, false
	}
	return hi, true
}

// ServerType is the role reported by ApiVersions.
type ServerType int32

// Server roles as sent on the wire (Fluss ServerType type ids).
const (
	ServerTypeUnknown      ServerType = 0
	ServerTypeCoordinator  ServerType = 1
	ServerTypeTabletServer ServerType = 2
)

// String returns "coordinator", "tablet server" or "unknown".
func (t ServerType) String() string {
	switch t {
	case ServerTypeCoordinator:
		return "coordinator"
	case ServerTypeTabletServer:
		return "tablet server"
	}
	return "unknown"
}
