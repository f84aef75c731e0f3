package fluss

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/flussql/flussql/fluss/internal/rpc"
)

// ErrorCode is a Fluss protocol error code. Codes are permanent; names are
// those of Fluss 0.9.1's Errors enum.
type ErrorCode int32

// Fluss error codes (0.9.1 defines -1..63; later servers may send more).
const (
	CodeUnknownServerError                ErrorCode = -1
	CodeNone                              ErrorCode = 0
	CodeNetworkException                  ErrorCode = 1
	CodeUnsupportedVersion                ErrorCode = 2
	CodeCorruptMessage                    ErrorCode = 3
	CodeDatabaseNotExist                  ErrorCode = 4
	CodeDatabaseNotEmpty                  ErrorCode = 5
	CodeDatabaseAlreadyExist              ErrorCode = 6
	CodeTableNotExist                     ErrorCode = 7
	CodeTableAlreadyExist                 ErrorCode = 8
	CodeSchemaNotExist                    ErrorCode = 9
	CodeLogStorageException               ErrorCode = 10
	CodeKvStorageException                ErrorCode = 11
	CodeNotLeaderOrFollower               ErrorCode = 12
	CodeRecordTooLargeException           ErrorCode = 13
	CodeCorruptRecordException            ErrorCode = 14
	CodeInvalidTableException             ErrorCode = 15
	CodeInvalidDatabaseException          ErrorCode = 16
	CodeInvalidReplicationFactor          ErrorCode = 17
	CodeInvalidRequiredAcks               ErrorCode = 18
	CodeLogOffsetOutOfRangeException      ErrorCode = 19
	CodeNonPrimaryKeyTableException       ErrorCode = 20
	CodeUnknownTableOrBucketException     ErrorCode = 21
	CodeInvalidUpdateVersionException     ErrorCode = 22
	CodeInvalidCoordinatorException       ErrorCode = 23
	CodeFencedLeaderEpochException        ErrorCode = 24
	CodeRequestTimeOut                    ErrorCode = 25
	CodeStorageException                  ErrorCode = 26
	CodeOperationNotAttemptedException    ErrorCode = 27
	CodeNotEnoughReplicasAfterAppend      ErrorCode = 28
	CodeNotEnoughReplicasException        ErrorCode = 29
	CodeSecurityTokenException            ErrorCode = 30
	CodeOutOfOrderSequenceException       ErrorCode = 31
	CodeDuplicateSequenceException        ErrorCode = 32
	CodeUnknownWriterIDException          ErrorCode = 33
	CodeInvalidColumnProjection           ErrorCode = 34
	CodeInvalidTargetColumn               ErrorCode = 35
	CodePartitionNotExists                ErrorCode = 36
	CodeTableNotPartitionedException      ErrorCode = 37
	CodeInvalidTimestampException         ErrorCode = 38
	CodeInvalidConfigException            ErrorCode = 39
	CodeLakeStorageNotConfiguredException ErrorCode = 40
	CodeKvSnapshotNotExist                ErrorCode = 41
	CodePartitionAlreadyExists            ErrorCode = 42
	CodePartitionSpecInvalidException     ErrorCode = 43
	CodeLeaderNotAvailableException       ErrorCode = 44
	CodePartitionMaxNumException          ErrorCode = 45
	CodeAuthenticateException             ErrorCode = 46
	CodeSecurityDisabledException         ErrorCode = 47
	CodeAuthorizationException            ErrorCode = 48
	CodeBucketMaxNumException             ErrorCode = 49
	CodeFencedTieringEpochException       ErrorCode = 50
	CodeRetriableAuthenticateException    ErrorCode = 51
	CodeInvalidServerRackInfoException    ErrorCode = 52
	CodeLakeSnapshotNotExist              ErrorCode = 53
	CodeLakeTableAlreadyExist             ErrorCode = 54
	CodeIneligibleReplicaException        ErrorCode = 55
	CodeInvalidAlterTableException        ErrorCode = 56
	CodeDeletionDisabledException         ErrorCode = 57
	CodeServerNotExistException           ErrorCode = 58
	CodeServerTagAlreadyExistException    ErrorCode = 59
	CodeServerTagNotExistException        ErrorCode = 60
	CodeRebalanceFailureException         ErrorCode = 61
	CodeNoRebalanceInProgressException    ErrorCode = 62
	CodeInvalidProducerIDException        ErrorCode = 63
	CodeConfigException                   ErrorCode = 64 // Fluss 1.0
	CodeNotCoordinatorLeaderException     ErrorCode = 65
	CodeScannerExpired                    ErrorCode = 66 // Fluss 1.0 (SCAN_KV)
	CodeUnknownScannerID                  ErrorCode = 67
	CodeInvalidScanRequest                ErrorCode = 68
	CodeTooManyScanners                   ErrorCode = 69
	CodeDiskWriteLocked                   ErrorCode = 70 // Fluss 1.0
	CodeInsufficientKvLeaderCapacity      ErrorCode = 71
	CodeStorageBackpressure               ErrorCode = 72 // Fluss 1.0 (PUT_KV v2)
	CodeHistoricalPartitionThrottled      ErrorCode = 73
)

type codeInfo struct {
	name      string
	text      string // the server's default message
	retriable bool
	metadata  bool // stale metadata: refresh, then retry
}

var codes = map[ErrorCode]codeInfo{
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
	66: {"SCANNER_EXPIRED", "The scanner session has expired due to inactivity.", false, false},
	67: {"UNKNOWN_SCANNER_ID", "The scanner id is not recognized by the server.", false, false},
	68: {"INVALID_SCAN_REQUEST", "The scan request is invalid.", false, false},
	69: {"TOO_MANY_SCANNERS", "The per-bucket or per-server scanner session limit has been reached.", false, false},
	64: {"CONFIG_EXCEPTION", "A configuration error occurred.", false, false},
	65: {"NOT_COORDINATOR_LEADER_EXCEPTION", "The coordinator is not a leader and cannot process request.", false, false},
	70: {"DISK_WRITE_LOCKED", "The tablet server has rejected writes because its data disk usage reached the configured write-limit ratio.", true, false},
	71: {"INSUFFICIENT_KV_LEADER_REPLICA_CAPACITY", "The cluster does not have enough KV leader replica capacity.", false, false},
	72: {"STORAGE_BACKPRESSURE_EXCEPTION", "The tablet server has rejected the write because the KV storage engine has reached its write-pressure threshold.", true, false},
	73: {"HISTORICAL_PARTITION_THROTTLED", "Historical partition request is throttled because too many historical requests are in flight.", true, false},
}

// String returns the Fluss name of the code, e.g. "TABLE_NOT_EXIST", or
// "UNKNOWN_ERROR_CODE(99)" for a code this client does not know.
func (c ErrorCode) String() string {
	if info, ok := codes[c]; ok {
		return info.name
	}
	return fmt.Sprintf("UNKNOWN_ERROR_CODE(%d)", int32(c))
}

// Error is an error reported by a Fluss server (or, for network failures
// and timeouts, by the client on the server's behalf). Test it against the
// sentinels with errors.Is, e.g. errors.Is(err, fluss.ErrTableNotExist);
// the message keeps the server's text.
type Error struct {
	// Code is the Fluss error code (the server's, or the one the client
	// chose for a transport failure or timeout).
	Code ErrorCode
	// Message is the server's error text, or the client's account of the
	// failure.
	Message string
	// NotSent is true when the request provably never reached the server
	// (the connection could not be opened), so retrying cannot duplicate it.
	NotSent bool
	cause   error
	// plain marks a Message that states the whole failure by itself (the
	// caller's own deadline): Error shows it without the code name.
	plain bool
}

// Name returns the Fluss name of the error code.
func (e *Error) Name() string { return e.Code.String() }

// Error returns "fluss: NAME: message" (or only the message for the
// caller's own deadline).
func (e *Error) Error() string {
	msg := e.Message
	if msg == "" {
		msg = codes[e.Code].text
	}
	if msg == "" {
		return "fluss: " + e.Name()
	}
	if e.plain {
		return "fluss: " + msg
	}
	return fmt.Sprintf("fluss: %s: %s", e.Name(), msg)
}

// Is reports whether target is an *Error with the same code, which makes
// the sentinels work with errors.Is. A request this client did not send
// because the server's ApiVersions answer lacks the API (or every version of
// it this client speaks) also matches ErrUnsupportedByServer.
func (e *Error) Is(target error) bool {
	if target == ErrUnsupportedByServer {
		var ue *rpc.UnsupportedAPIError
		return errors.As(e.cause, &ue)
	}
	t, ok := target.(*Error)
	return ok && t.Code == e.Code
}

// Unwrap returns the underlying cause (a network or context error), if any.
func (e *Error) Unwrap() error { return e.cause }

// Retriable reports whether the same request may succeed if sent again.
func (e *Error) Retriable() bool { return codes[e.Code].retriable }

// InvalidMetadata reports whether the error means the client's metadata
// (bucket leaders, servers) is stale and must be refreshed before a retry.
func (e *Error) InvalidMetadata() bool { return codes[e.Code].metadata }

// Sentinels for errors.Is. Each matches every *Error with its code.
var (
	ErrUnknownServerError      = &Error{Code: CodeUnknownServerError}
	ErrNetwork                 = &Error{Code: CodeNetworkException}
	ErrUnsupportedVersion      = &Error{Code: CodeUnsupportedVersion}
	ErrCorruptMessage          = &Error{Code: CodeCorruptMessage}
	ErrDatabaseNotExist        = &Error{Code: CodeDatabaseNotExist}
	ErrDatabaseNotEmpty        = &Error{Code: CodeDatabaseNotEmpty}
	ErrDatabaseAlreadyExist    = &Error{Code: CodeDatabaseAlreadyExist}
	ErrTableNotExist           = &Error{Code: CodeTableNotExist}
	ErrTableAlreadyExist       = &Error{Code: CodeTableAlreadyExist}
	ErrSchemaNotExist          = &Error{Code: CodeSchemaNotExist}
	ErrNotLeaderOrFollower     = &Error{Code: CodeNotLeaderOrFollower}
	ErrRecordTooLarge          = &Error{Code: CodeRecordTooLargeException}
	ErrInvalidTable            = &Error{Code: CodeInvalidTableException}
	ErrInvalidDatabase         = &Error{Code: CodeInvalidDatabaseException}
	ErrInvalidReplication      = &Error{Code: CodeInvalidReplicationFactor}
	ErrLogOffsetOutOfRange     = &Error{Code: CodeLogOffsetOutOfRangeException}
	ErrNonPrimaryKeyTable      = &Error{Code: CodeNonPrimaryKeyTableException}
	ErrUnknownTableOrBucket    = &Error{Code: CodeUnknownTableOrBucketException}
	ErrRequestTimeout          = &Error{Code: CodeRequestTimeOut}
	ErrOutOfOrderSequence      = &Error{Code: CodeOutOfOrderSequenceException}
	ErrDuplicateSequence       = &Error{Code: CodeDuplicateSequenceException}
	ErrUnknownWriterID         = &Error{Code: CodeUnknownWriterIDException}
	ErrInvalidColumnProjection = &Error{Code: CodeInvalidColumnProjection}
	ErrInvalidTargetColumn     = &Error{Code: CodeInvalidTargetColumn}
	ErrPartitionNotExists      = &Error{Code: CodePartitionNotExists}
	ErrTableNotPartitioned     = &Error{Code: CodeTableNotPartitionedException}
	ErrInvalidTimestamp        = &Error{Code: CodeInvalidTimestampException}
	ErrInvalidConfig           = &Error{Code: CodeInvalidConfigException}
	ErrPartitionAlreadyExists  = &Error{Code: CodePartitionAlreadyExists}
	ErrInvalidPartitionSpec    = &Error{Code: CodePartitionSpecInvalidException}
	ErrLeaderNotAvailable      = &Error{Code: CodeLeaderNotAvailableException}
	ErrTooManyPartitions       = &Error{Code: CodePartitionMaxNumException}
	ErrAuthentication          = &Error{Code: CodeAuthenticateException}
	ErrSecurityDisabled        = &Error{Code: CodeSecurityDisabledException}
	ErrAuthorization           = &Error{Code: CodeAuthorizationException}
	ErrTooManyBuckets          = &Error{Code: CodeBucketMaxNumException}
	ErrDeletionDisabled        = &Error{Code: CodeDeletionDisabledException}
	ErrScannerExpired          = &Error{Code: CodeScannerExpired}
	ErrUnknownScannerID        = &Error{Code: CodeUnknownScannerID}
	ErrTooManyScanners         = &Error{Code: CodeTooManyScanners}
)

// ErrClosed is returned by calls on a closed Client.
var ErrClosed = errors.New("fluss: client closed")

// errorFromCode builds the *Error for a per-bucket or whole-request error
// code, or nil for CodeNone.
func errorFromCode(code int32, msg string) error {
	if ErrorCode(code) == CodeNone {
		return nil
	}
	return &Error{Code: ErrorCode(code), Message: msg}
}

// convertErr turns transport errors from the rpc layer into the public
// error model. Errors that are already public pass through.
//
//   - A deadline the caller's context imposed becomes an *Error with code
//     REQUEST_TIME_OUT (so that retry loops with their own per-attempt
//     deadlines treat it as a timeout) whose message reads as that
//     deadline: "fluss: context deadline exceeded after 3s waiting for
//     CREATE_TABLE(1005) from host:port"; errors.Is(err,
//     context.DeadlineExceeded) holds. The client's own request and connect
//     timeouts read "no answer to ... within the request timeout (30s)".
//     A REQUEST_TIME_OUT the server sent never matches
//     context.DeadlineExceeded.
//   - A cancelled context stays a plain error matching context.Canceled.
//   - Transport failures become NETWORK_EXCEPTION, with NotSent set only
//     when no byte of the request was written (the connection could not be
//     opened, or its handshake failed, before the request).
func convertErr(err error) error {
	if err == nil {
		return nil
	}
	var re *rpc.ResponseError
	if errors.As(err, &re) {
		wrapped := &Error{Code: ErrorCode(re.Code), Message: re.Message}
		if msg := err.Error(); err != error(re) && msg != re.Error() {
			// keep the context the rpc layer added (e.g. SASL user and address)
			wrapped.Message = fmt.Sprintf("%s (%s)", re.Message, rpcText(contextPrefix(msg, re.Error())))
		}
		return wrapped
	}
	var sf *rpc.ServerFailureError
	if errors.As(err, &sf) {
		return &Error{Code: ErrorCode(sf.Code), Message: rpcText(sf.Error()), cause: err}
	}
	var ue *rpc.UnsupportedAPIError
	if errors.As(err, &ue) {
		return &Error{Code: CodeUnsupportedVersion, Message: rpcText(ue.Error()), NotSent: true, cause: err}
	}
	var te *rpc.TimeoutError
	if errors.As(err, &te) {
		if errors.Is(err, context.Canceled) {
			return &canceledError{msg: "fluss: " + rpcText(err.Error()), err: err}
		}
		return &Error{Code: CodeRequestTimeOut, Message: rpcText(err.Error()), NotSent: !te.Sent, cause: err, plain: te.Caller()}
	}
	var ce *rpc.ConnError
	if errors.As(err, &ce) {
		return &Error{Code: CodeNetworkException, Message: rpcText(err.Error()), NotSent: !ce.Sent, cause: err}
	}
	if errors.Is(err, rpc.ErrClosed) {
		return ErrClosed
	}
	return err
}

// rpcText drops the rpc layer's "fluss rpc: " prefixes from a message.
func rpcText(msg string) string {
	return strings.ReplaceAll(msg, "fluss rpc: ", "")
}

// canceledError is a call whose context was cancelled: errors.Is(err,
// context.Canceled) holds.
type canceledError struct {
	msg string
	err error
}

func (e *canceledError) Error() string { return e.msg }
func (e *canceledError) Unwrap() error { return e.err }

// contextPrefix returns the part of full that precedes inner.
func contextPrefix(full, inner string) string {
	if i := len(full) - len(inner); i > 0 && full[i:] == inner {
		p := full[:i]
		for len(p) > 0 && (p[len(p)-1] == ' ' || p[len(p)-1] == ':') {
			p = p[:len(p)-1]
		}
		return p
	}
	return full
}
