package fluss

import (
	"context"
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/flusserr"
	"github.com/flussql/flussql/fluss/internal/protocol"
	"github.com/flussql/flussql/fluss/internal/rpc"
)

// TestErrorMatchesItsCode: the error a server's code becomes matches that code (the
// sentinel, a flusserr.Code) and no other, prints like the code when the server sent no
// message, and is retried as the code says.
func TestErrorMatchesItsCode(t *testing.T) {
	for c := flusserr.Code(-1); c <= 73; c++ {
		err := errorFromCode(int32(c), "")
		if c == flusserr.None {
			assert.NoError(t, err)
			continue
		}
		var fe *Error
		require.ErrorAs(t, err, &fe, "%s", c)
		assert.Equal(t, c, fe.Code)
		assert.ErrorIs(t, err, c)
		assert.ErrorIs(t, fmt.Errorf("wrapped: %w", err), c)
		assert.NotErrorIs(t, err, c+1)
		assert.ErrorIs(t, err, &Error{Code: c}, "an *Error with the same code matches too")
		assert.Equal(t, c.Error(), err.Error())
		assert.Equal(t, c.Retriable(), fe.Retriable(), "%s", c)
		assert.Equal(t, c.InvalidMetadata(), fe.InvalidMetadata(), "%s", c)
	}
}

// TestSentinelsAreTheCodes: the sentinels package fluss keeps are flusserr's codes, so
// errors.Is holds whichever of the two names a caller tests.
func TestSentinelsAreTheCodes(t *testing.T) {
	for _, tt := range []struct {
		sentinel error
		code     flusserr.Code
	}{
		{ErrDatabaseNotExist, flusserr.DatabaseNotExist},
		{ErrDatabaseAlreadyExist, flusserr.DatabaseAlreadyExist},
		{ErrDatabaseNotEmpty, flusserr.DatabaseNotEmpty},
		{ErrTableNotExist, flusserr.TableNotExist},
		{ErrTableAlreadyExist, flusserr.TableAlreadyExist},
		{ErrPartitionNotExists, flusserr.PartitionNotExists},
		{ErrPartitionAlreadyExists, flusserr.PartitionAlreadyExists},
		{ErrAuthentication, flusserr.AuthenticateException},
		{ErrPermissionDenied, flusserr.AuthorizationException},
	} {
		assert.Equal(t, error(tt.code), tt.sentinel)
		err := &Error{Code: tt.code, Message: "from the server"}
		assert.ErrorIs(t, err, tt.sentinel)
		assert.ErrorIs(t, err, tt.code)
	}
}

func TestErrorIsSentinel(t *testing.T) {
	err := convertErr(&rpc.ResponseError{Code: 7, Message: "Table 'fluss.t' does not exist."})
	assert.ErrorIs(t, err, ErrTableNotExist)
	assert.NotErrorIs(t, err, ErrDatabaseNotExist)
	assert.Equal(t, "fluss: TABLE_NOT_EXIST: Table 'fluss.t' does not exist.", err.Error())

	wrapped := fmt.Errorf("creating things: %w", err)
	assert.ErrorIs(t, wrapped, ErrTableNotExist)
	var fe *Error
	require.ErrorAs(t, wrapped, &fe)
	assert.Equal(t, flusserr.TableNotExist, fe.Code)
	assert.Equal(t, "TABLE_NOT_EXIST", fe.Name())
	assert.False(t, fe.Retriable())
}

func TestErrorDefaultMessage(t *testing.T) {
	// The server leaves out the message when it is the default text.
	err := convertErr(&rpc.ResponseError{Code: 4})
	assert.Equal(t, "fluss: DATABASE_NOT_EXIST: The database does not exist.", err.Error())
	assert.Equal(t, "fluss: UNKNOWN_ERROR_CODE(120)", (&Error{Code: 120}).Error())
}

func TestErrorClassification(t *testing.T) {
	tests := []struct {
		code               flusserr.Code
		retriable, invalid bool
	}{
		{flusserr.NotLeaderOrFollower, true, true},
		{flusserr.UnknownTableOrBucketException, true, true},
		{flusserr.LeaderNotAvailableException, true, true},
		{flusserr.NetworkException, true, true},
		{flusserr.RequestTimeOut, true, false},
		{flusserr.CorruptRecordException, true, false},
		{flusserr.KvStorageException, true, false},
		{flusserr.TableNotExist, false, false},
		{flusserr.AuthenticateException, false, false},
		{flusserr.Code(500), false, false},
	}
	for _, tt := range tests {
		e := &Error{Code: tt.code}
		assert.Equal(t, tt.retriable, e.Retriable(), tt.code.String())
		assert.Equal(t, tt.invalid, e.InvalidMetadata(), tt.code.String())
	}
}

func TestConvertTransportErrors(t *testing.T) {
	// Nothing reached the server: NotSent.
	err := convertErr(&rpc.ConnError{Addr: "h:1", Op: "dial", Err: io.EOF})
	assert.ErrorIs(t, err, flusserr.NetworkException)
	assert.ErrorIs(t, err, io.EOF)
	var fe *Error
	require.ErrorAs(t, err, &fe)
	assert.True(t, fe.NotSent)

	err = convertErr(&rpc.ConnError{Addr: "h:1", Op: "read", Sent: true, Err: io.ErrUnexpectedEOF})
	require.ErrorAs(t, err, &fe)
	assert.False(t, fe.NotSent)

	err = convertErr(&rpc.TimeoutError{Addr: "h:1", API: protocol.CreateTable, Err: context.DeadlineExceeded})
	assert.ErrorIs(t, err, flusserr.RequestTimeOut)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Contains(t, err.Error(), "CREATE_TABLE")

	err = convertErr(&rpc.TimeoutError{Addr: "h:1", API: protocol.CreateTable, Err: context.Canceled})
	assert.ErrorIs(t, err, context.Canceled)
	assert.NotErrorIs(t, err, flusserr.RequestTimeOut)

	err = convertErr(&rpc.UnsupportedAPIError{Addr: "h:1", API: protocol.CreateTable, ServerType: protocol.ServerTypeTabletServer})
	assert.ErrorIs(t, err, flusserr.UnsupportedVersion)
	assert.ErrorIs(t, err, ErrUnsupportedByServer, "found missing through ApiVersions, nothing sent")
	assert.Contains(t, err.Error(), "does not serve CREATE_TABLE")
	assert.NotErrorIs(t, &Error{Code: flusserr.UnsupportedVersion, Message: "from the server"}, ErrUnsupportedByServer,
		"the server's own UNSUPPORTED_VERSION answer is not a missing API")

	err = convertErr(&rpc.ServerFailureError{Addr: "h:1", Code: -1, Message: "boom"})
	assert.ErrorIs(t, err, flusserr.UnknownServerError)
	assert.Contains(t, err.Error(), "boom")

	assert.ErrorIs(t, convertErr(rpc.ErrClosed), ErrClosed)
	plain := errors.New("x")
	assert.Same(t, plain, convertErr(plain))
	assert.NoError(t, convertErr(nil))
}

func TestConvertKeepsContext(t *testing.T) {
	inner := &rpc.ResponseError{Code: 46, Message: "Authentication failed: Invalid username or password"}
	err := convertErr(fmt.Errorf("fluss rpc: SASL/PLAIN authentication of \"bob\" at h:1: %w", inner))
	assert.ErrorIs(t, err, ErrAuthentication)
	assert.Contains(t, err.Error(), "Invalid username or password")
	assert.Contains(t, err.Error(), `"bob" at h:1`)
}
