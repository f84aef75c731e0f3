package flusserr

// The codes of Fluss 0.9.1 (-1..63) and of the 1.0 line (64..73), named as Fluss's
// Errors enum in Go case (ID for _ID_; Fluss misspells two as SEVER_TAG_…). Each
// comment gives the enum name and the server's default message.
const (
	// UnknownServerError is UNKNOWN_SERVER_ERROR: "The server experienced an unexpected error
	// when processing the request."
	UnknownServerError Code = -1
	// None is NONE: no error.
	None Code = 0
	// NetworkException is NETWORK_EXCEPTION: "The server disconnected before a response was
	// received." Retriable after a metadata refresh.
	NetworkException Code = 1
	// UnsupportedVersion is UNSUPPORTED_VERSION: "The version of API is not supported."
	UnsupportedVersion Code = 2
	// CorruptMessage is CORRUPT_MESSAGE: "This message has failed its CRC checksum, exceeds
	// the valid size, has a null key for a primary key table, or is otherwise corrupt."
	// Retriable.
	CorruptMessage Code = 3
	// DatabaseNotExist is DATABASE_NOT_EXIST: "The database does not exist."
	DatabaseNotExist Code = 4
	// DatabaseNotEmpty is DATABASE_NOT_EMPTY: "The database is not empty."
	DatabaseNotEmpty Code = 5
	// DatabaseAlreadyExist is DATABASE_ALREADY_EXIST: "The database already exists."
	DatabaseAlreadyExist Code = 6
	// TableNotExist is TABLE_NOT_EXIST: "The table does not exist."
	TableNotExist Code = 7
	// TableAlreadyExist is TABLE_ALREADY_EXIST: "The table already exists."
	TableAlreadyExist Code = 8
	// SchemaNotExist is SCHEMA_NOT_EXIST: "The schema does not exist." Retriable.
	SchemaNotExist Code = 9
	// LogStorageException is LOG_STORAGE_EXCEPTION: "Exception occur while storage data for
	// log in server." Retriable.
	LogStorageException Code = 10
	// KvStorageException is KV_STORAGE_EXCEPTION: "Exception occur while storage data for kv
	// in server." Retriable.
	KvStorageException Code = 11
	// NotLeaderOrFollower is NOT_LEADER_OR_FOLLOWER: "Not leader or follower." Retriable after
	// a metadata refresh.
	NotLeaderOrFollower Code = 12
	// RecordTooLargeException is RECORD_TOO_LARGE_EXCEPTION: "The record is too large."
	RecordTooLargeException Code = 13
	// CorruptRecordException is CORRUPT_RECORD_EXCEPTION: "The record is corrupt." Retriable.
	CorruptRecordException Code = 14
	// InvalidTableException is INVALID_TABLE_EXCEPTION: "The client has attempted to perform
	// an operation on an invalid table."
	InvalidTableException Code = 15
	// InvalidDatabaseException is INVALID_DATABASE_EXCEPTION: "The client has attempted to
	// perform an operation on an invalid database."
	InvalidDatabaseException Code = 16
	// InvalidReplicationFactor is INVALID_REPLICATION_FACTOR: "The replication factor is
	// larger then the number of available tablet servers."
	InvalidReplicationFactor Code = 17
	// InvalidRequiredAcks is INVALID_REQUIRED_ACKS: "Produce request specified an invalid
	// value for required acks."
	InvalidRequiredAcks Code = 18
	// LogOffsetOutOfRangeException is LOG_OFFSET_OUT_OF_RANGE_EXCEPTION: "The log offset is
	// out of range."
	LogOffsetOutOfRangeException Code = 19
	// NonPrimaryKeyTableException is NON_PRIMARY_KEY_TABLE_EXCEPTION: "The table is not
	// primary key table."
	NonPrimaryKeyTableException Code = 20
	// UnknownTableOrBucketException is UNKNOWN_TABLE_OR_BUCKET_EXCEPTION: "The table or bucket
	// does not exist." Retriable after a metadata refresh.
	UnknownTableOrBucketException Code = 21
	// InvalidUpdateVersionException is INVALID_UPDATE_VERSION_EXCEPTION: "The update version
	// is invalid."
	InvalidUpdateVersionException Code = 22
	// InvalidCoordinatorException is INVALID_COORDINATOR_EXCEPTION: "The coordinator is invalid."
	InvalidCoordinatorException Code = 23
	// FencedLeaderEpochException is FENCED_LEADER_EPOCH_EXCEPTION: "The leader epoch is invalid."
	FencedLeaderEpochException Code = 24
	// RequestTimeOut is REQUEST_TIME_OUT: "The request time out." Retriable.
	RequestTimeOut Code = 25
	// StorageException is STORAGE_EXCEPTION: "The general storage exception." Retriable.
	StorageException Code = 26
	// OperationNotAttemptedException is OPERATION_NOT_ATTEMPTED_EXCEPTION: "The server did not
	// attempt to execute this operation."
	OperationNotAttemptedException Code = 27
	// NotEnoughReplicasAfterAppendException is NOT_ENOUGH_REPLICAS_AFTER_APPEND_EXCEPTION:
	// "Records are written to the server already, but to fewer in-sync replicas than
	// required." Retriable.
	NotEnoughReplicasAfterAppendException Code = 28
	// NotEnoughReplicasException is NOT_ENOUGH_REPLICAS_EXCEPTION: "Messages are rejected
	// since there are fewer in-sync replicas than required." Retriable.
	NotEnoughReplicasException Code = 29
	// SecurityTokenException is SECURITY_TOKEN_EXCEPTION: "Get file access security token
	// exception."
	SecurityTokenException Code = 30
	// OutOfOrderSequenceException is OUT_OF_ORDER_SEQUENCE_EXCEPTION: "The tablet server
	// received an out of order sequence batch."
	OutOfOrderSequenceException Code = 31
	// DuplicateSequenceException is DUPLICATE_SEQUENCE_EXCEPTION: "The tablet server received
	// a duplicate sequence batch."
	DuplicateSequenceException Code = 32
	// UnknownWriterIDException is UNKNOWN_WRITER_ID_EXCEPTION: "This exception is raised by
	// the tablet server if it could not locate the writer metadata."
	UnknownWriterIDException Code = 33
	// InvalidColumnProjection is INVALID_COLUMN_PROJECTION: "The requested column projection
	// is invalid."
	InvalidColumnProjection Code = 34
	// InvalidTargetColumn is INVALID_TARGET_COLUMN: "The requested target column to write is
	// invalid."
	InvalidTargetColumn Code = 35
	// PartitionNotExists is PARTITION_NOT_EXISTS: "The partition does not exist."
	PartitionNotExists Code = 36
	// TableNotPartitionedException is TABLE_NOT_PARTITIONED_EXCEPTION: "The table is not
	// partitioned."
	TableNotPartitionedException Code = 37
	// InvalidTimestampException is INVALID_TIMESTAMP_EXCEPTION: "The timestamp is invalid."
	InvalidTimestampException Code = 38
	// InvalidConfigException is INVALID_CONFIG_EXCEPTION: "The config is invalid."
	InvalidConfigException Code = 39
	// LakeStorageNotConfiguredException is LAKE_STORAGE_NOT_CONFIGURED_EXCEPTION: "The lake
	// storage is not configured."
	LakeStorageNotConfiguredException Code = 40
	// KvSnapshotNotExist is KV_SNAPSHOT_NOT_EXIST: "The kv snapshot is not exist."
	KvSnapshotNotExist Code = 41
	// PartitionAlreadyExists is PARTITION_ALREADY_EXISTS: "The partition already exists."
	PartitionAlreadyExists Code = 42
	// PartitionSpecInvalidException is PARTITION_SPEC_INVALID_EXCEPTION: "The partition spec
	// is invalid."
	PartitionSpecInvalidException Code = 43
	// LeaderNotAvailableException is LEADER_NOT_AVAILABLE_EXCEPTION: "There is no currently
	// available leader for the given partition." Retriable after a metadata refresh.
	LeaderNotAvailableException Code = 44
	// PartitionMaxNumException is PARTITION_MAX_NUM_EXCEPTION: "Exceed the maximum number of
	// partitions."
	PartitionMaxNumException Code = 45
	// AuthenticateException is AUTHENTICATE_EXCEPTION: "Authentication failed."
	AuthenticateException Code = 46
	// SecurityDisabledException is SECURITY_DISABLED_EXCEPTION: "Security is disabled."
	SecurityDisabledException Code = 47
	// AuthorizationException is AUTHORIZATION_EXCEPTION: "Authorization failed"
	AuthorizationException Code = 48
	// BucketMaxNumException is BUCKET_MAX_NUM_EXCEPTION: "Exceed the maximum number of buckets"
	BucketMaxNumException Code = 49
	// FencedTieringEpochException is FENCED_TIERING_EPOCH_EXCEPTION: "The tiering epoch is
	// invalid."
	FencedTieringEpochException Code = 50
	// RetriableAuthenticateException is RETRIABLE_AUTHENTICATE_EXCEPTION: "Authentication
	// failed with retriable exception." Retriable.
	RetriableAuthenticateException Code = 51
	// InvalidServerRackInfoException is INVALID_SERVER_RACK_INFO_EXCEPTION: "The server rack
	// info is invalid."
	InvalidServerRackInfoException Code = 52
	// LakeSnapshotNotExist is LAKE_SNAPSHOT_NOT_EXIST: "The lake snapshot is not exist."
	LakeSnapshotNotExist Code = 53
	// LakeTableAlreadyExist is LAKE_TABLE_ALREADY_EXIST: "The lake table already exists."
	LakeTableAlreadyExist Code = 54
	// IneligibleReplicaException is INELIGIBLE_REPLICA_EXCEPTION: "The new ISR contains at
	// least one ineligible replica."
	IneligibleReplicaException Code = 55
	// InvalidAlterTableException is INVALID_ALTER_TABLE_EXCEPTION: "The alter table is invalid."
	InvalidAlterTableException Code = 56
	// DeletionDisabledException is DELETION_DISABLED_EXCEPTION: "Deletion operations are
	// disabled on this table."
	DeletionDisabledException Code = 57
	// ServerNotExistException is SERVER_NOT_EXIST_EXCEPTION: "The server is not exist."
	ServerNotExistException Code = 58
	// ServerTagAlreadyExistException is SEVER_TAG_ALREADY_EXIST_EXCEPTION: "The server tag
	// already exist."
	ServerTagAlreadyExistException Code = 59
	// ServerTagNotExistException is SEVER_TAG_NOT_EXIST_EXCEPTION: "The server tag not exist."
	ServerTagNotExistException Code = 60
	// RebalanceFailureException is REBALANCE_FAILURE_EXCEPTION: "The rebalance task failure."
	RebalanceFailureException Code = 61
	// NoRebalanceInProgressException is NO_REBALANCE_IN_PROGRESS_EXCEPTION: "No rebalance task
	// in progress."
	NoRebalanceInProgressException Code = 62
	// InvalidProducerIDException is INVALID_PRODUCER_ID_EXCEPTION: "The client has attempted
	// to perform an operation with an invalid producer ID."
	InvalidProducerIDException Code = 63
	// ConfigException is CONFIG_EXCEPTION: "A configuration error occurred." Fluss 1.0.
	ConfigException Code = 64
	// NotCoordinatorLeaderException is NOT_COORDINATOR_LEADER_EXCEPTION: "The coordinator is
	// not a leader and cannot process request." Fluss 1.0.
	NotCoordinatorLeaderException Code = 65
	// ScannerExpired is SCANNER_EXPIRED: "The scanner session has expired due to inactivity."
	// Fluss 1.0.
	ScannerExpired Code = 66
	// UnknownScannerID is UNKNOWN_SCANNER_ID: "The scanner id is not recognized by the
	// server." Fluss 1.0.
	UnknownScannerID Code = 67
	// InvalidScanRequest is INVALID_SCAN_REQUEST: "The scan request is invalid." Fluss 1.0.
	InvalidScanRequest Code = 68
	// TooManyScanners is TOO_MANY_SCANNERS: "The per-bucket or per-server scanner session
	// limit has been reached." Fluss 1.0.
	TooManyScanners Code = 69
	// DiskWriteLocked is DISK_WRITE_LOCKED: "The tablet server has rejected writes because its
	// data disk usage reached the configured write-limit ratio." Retriable. Fluss 1.0.
	DiskWriteLocked Code = 70
	// InsufficientKvLeaderReplicaCapacity is INSUFFICIENT_KV_LEADER_REPLICA_CAPACITY: "The
	// cluster does not have enough KV leader replica capacity." Fluss 1.0.
	InsufficientKvLeaderReplicaCapacity Code = 71
	// StorageBackpressureException is STORAGE_BACKPRESSURE_EXCEPTION: "The tablet server has
	// rejected the write because the KV storage engine has reached its write-pressure
	// threshold." Retriable. Fluss 1.0.
	StorageBackpressureException Code = 72
	// HistoricalPartitionThrottled is HISTORICAL_PARTITION_THROTTLED: "Historical partition
	// request is throttled because too many historical requests are in flight." Retriable.
	// Fluss 1.0.
	HistoricalPartitionThrottled Code = 73
)

// codes holds the name, the default message, and the retry class of every known code.
var codes = map[Code]codeInfo{
	-1: {"UNKNOWN_SERVER_ERROR", "The server experienced an unexpected error when processing the request.", false, false},
	0:  {"NONE", "", false, false},
	1:  {"NETWORK_EXCEPTION", "The server disconnected before a response was received.", true, true},
	2:  {"UNSUPPORTED_VERSION", "The version of API is not supported.", false, false},
	3:  {"CORRUPT_MESSAGE", "This message has failed its CRC checksum, exceeds the valid size, has a null key for a primary key table, or is otherwise corrupt.", true, false},
	4:  {"DATABASE_NOT_EXIST", "The database does not exist.", false, false},
	5:  {"DATABASE_NOT_EMPTY", "The database is not empty.", false, false},
	6:  {"DATABASE_ALREADY_EXIST", "The database already exists.", false, false},
	7:  {"TABLE_NOT_EXIST", "The table does not exist.", false, false},
	8:  {"TABLE_ALREADY_EXIST", "The table already exists.", false, false},
	9:  {"SCHEMA_NOT_EXIST", "The schema does not exist.", true, false},
	10: {"LOG_STORAGE_EXCEPTION", "Exception occur while storage data for log in server.", true, false},
	11: {"KV_STORAGE_EXCEPTION", "Exception occur while storage data for kv in server.", true, false},
	12: {"NOT_LEADER_OR_FOLLOWER", "Not leader or follower.", true, true},
	13: {"RECORD_TOO_LARGE_EXCEPTION", "The record is too large.", false, false},
	14: {"CORRUPT_RECORD_EXCEPTION", "The record is corrupt.", true, false},
	15: {"INVALID_TABLE_EXCEPTION", "The client has attempted to perform an operation on an invalid table.", false, false},
	16: {"INVALID_DATABASE_EXCEPTION", "The client has attempted to perform an operation on an invalid database.", false, false},
	17: {"INVALID_REPLICATION_FACTOR", "The replication factor is larger then the number of available tablet servers.", false, false},
	18: {"INVALID_REQUIRED_ACKS", "Produce request specified an invalid value for required acks.", false, false},
	19: {"LOG_OFFSET_OUT_OF_RANGE_EXCEPTION", "The log offset is out of range.", false, false},
	20: {"NON_PRIMARY_KEY_TABLE_EXCEPTION", "The table is not primary key table.", false, false},
	21: {"UNKNOWN_TABLE_OR_BUCKET_EXCEPTION", "The table or bucket does not exist.", true, true},
	22: {"INVALID_UPDATE_VERSION_EXCEPTION", "The update version is invalid.", false, false},
	23: {"INVALID_COORDINATOR_EXCEPTION", "The coordinator is invalid.", false, false},
	24: {"FENCED_LEADER_EPOCH_EXCEPTION", "The leader epoch is invalid.", false, false},
	25: {"REQUEST_TIME_OUT", "The request time out.", true, false},
	26: {"STORAGE_EXCEPTION", "The general storage exception.", true, false},
	27: {"OPERATION_NOT_ATTEMPTED_EXCEPTION", "The server did not attempt to execute this operation.", false, false},
	28: {"NOT_ENOUGH_REPLICAS_AFTER_APPEND_EXCEPTION", "Records are written to the server already, but to fewer in-sync replicas than required.", true, false},
	29: {"NOT_ENOUGH_REPLICAS_EXCEPTION", "Messages are rejected since there are fewer in-sync replicas than required.", true, false},
	30: {"SECURITY_TOKEN_EXCEPTION", "Get file access security token exception.", false, false},
	31: {"OUT_OF_ORDER_SEQUENCE_EXCEPTION", "The tablet server received an out of order sequence batch.", false, false},
	32: {"DUPLICATE_SEQUENCE_EXCEPTION", "The tablet server received a duplicate sequence batch.", false, false},
	33: {"UNKNOWN_WRITER_ID_EXCEPTION", "This exception is raised by the tablet server if it could not locate the writer metadata.", false, false},
	34: {"INVALID_COLUMN_PROJECTION", "The requested column projection is invalid.", false, false},
	35: {"INVALID_TARGET_COLUMN", "The requested target column to write is invalid.", false, false},
	36: {"PARTITION_NOT_EXISTS", "The partition does not exist.", false, false},
	37: {"TABLE_NOT_PARTITIONED_EXCEPTION", "The table is not partitioned.", false, false},
	38: {"INVALID_TIMESTAMP_EXCEPTION", "The timestamp is invalid.", false, false},
	39: {"INVALID_CONFIG_EXCEPTION", "The config is invalid.", false, false},
	40: {"LAKE_STORAGE_NOT_CONFIGURED_EXCEPTION", "The lake storage is not configured.", false, false},
	41: {"KV_SNAPSHOT_NOT_EXIST", "The kv snapshot is not exist.", false, false},
	42: {"PARTITION_ALREADY_EXISTS", "The partition already exists.", false, false},
	43: {"PARTITION_SPEC_INVALID_EXCEPTION", "The partition spec is invalid.", false, false},
	44: {"LEADER_NOT_AVAILABLE_EXCEPTION", "There is no currently available leader for the given partition.", true, true},
	45: {"PARTITION_MAX_NUM_EXCEPTION", "Exceed the maximum number of partitions.", false, false},
	46: {"AUTHENTICATE_EXCEPTION", "Authentication failed.", false, false},
	47: {"SECURITY_DISABLED_EXCEPTION", "Security is disabled.", false, false},
	48: {"AUTHORIZATION_EXCEPTION", "Authorization failed", false, false},
	49: {"BUCKET_MAX_NUM_EXCEPTION", "Exceed the maximum number of buckets", false, false},
	50: {"FENCED_TIERING_EPOCH_EXCEPTION", "The tiering epoch is invalid.", false, false},
	51: {"RETRIABLE_AUTHENTICATE_EXCEPTION", "Authentication failed with retriable exception. ", true, false},
	52: {"INVALID_SERVER_RACK_INFO_EXCEPTION", "The server rack info is invalid.", false, false},
	53: {"LAKE_SNAPSHOT_NOT_EXIST", "The lake snapshot is not exist.", false, false},
	54: {"LAKE_TABLE_ALREADY_EXIST", "The lake table already exists.", false, false},
	55: {"INELIGIBLE_REPLICA_EXCEPTION", "The new ISR contains at least one ineligible replica.", false, false},
	56: {"INVALID_ALTER_TABLE_EXCEPTION", "The alter table is invalid.", false, false},
	57: {"DELETION_DISABLED_EXCEPTION", "Deletion operations are disabled on this table.", false, false},
	58: {"SERVER_NOT_EXIST_EXCEPTION", "The server is not exist.", false, false},
	59: {"SEVER_TAG_ALREADY_EXIST_EXCEPTION", "The server tag already exist.", false, false},
	60: {"SEVER_TAG_NOT_EXIST_EXCEPTION", "The server tag not exist.", false, false},
	61: {"REBALANCE_FAILURE_EXCEPTION", "The rebalance task failure.", false, false},
	62: {"NO_REBALANCE_IN_PROGRESS_EXCEPTION", "No rebalance task in progress.", false, false},
	63: {"INVALID_PRODUCER_ID_EXCEPTION", "The client has attempted to perform an operation with an invalid producer ID.", false, false},
	64: {"CONFIG_EXCEPTION", "A configuration error occurred.", false, false},
	65: {"NOT_COORDINATOR_LEADER_EXCEPTION", "The coordinator is not a leader and cannot process request.", false, false},
	66: {"SCANNER_EXPIRED", "The scanner session has expired due to inactivity.", false, false},
	67: {"UNKNOWN_SCANNER_ID", "The scanner id is not recognized by the server.", false, false},
	68: {"INVALID_SCAN_REQUEST", "The scan request is invalid.", false, false},
	69: {"TOO_MANY_SCANNERS", "The per-bucket or per-server scanner session limit has been reached.", false, false},
	70: {"DISK_WRITE_LOCKED", "The tablet server has rejected writes because its data disk usage reached the configured write-limit ratio.", true, false},
	71: {"INSUFFICIENT_KV_LEADER_REPLICA_CAPACITY", "The cluster does not have enough KV leader replica capacity.", false, false},
	72: {"STORAGE_BACKPRESSURE_EXCEPTION", "The tablet server has rejected the write because the KV storage engine has reached its write-pressure threshold.", true, false},
	73: {"HISTORICAL_PARTITION_THROTTLED", "Historical partition request is throttled because too many historical requests are in flight.", true, false},
}
