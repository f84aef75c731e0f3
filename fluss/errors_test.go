package fluss

import (
	"context"
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/internal/protocol"
	"github.com/flussql/flussql/fluss/internal/rpc"
)

func TestErrorCodesComplete(t *testing.T) {
	// Fluss 0.9.1 defines every code from -1 to 63.
	for c := ErrorCode(-1); c <= 63; c++ {
		info, ok := codes[c]
		require.True(t, ok, "code %d missing", c)
		assert.NotEmpty(t, info.name)
	}
	assert.Equal(t, "TABLE_NOT_EXIST", CodeTableNotExist.String())
	assert.Equal(t, "UNKNOWN_ERROR_CODE(99)", ErrorCode(99).String())
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
	assert.Equal(t, CodeTableNotExist, fe.Code)
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
		code               ErrorCode
		retriable, invalid bool
	}{
		{CodeNotLeaderOrFollower, true, true},
		{CodeUnknownTableOrBucketException, true, true},
		{CodeLeaderNotAvailableException, true, true},
		{CodeNetworkException, true, true},
		{CodeRequestTimeOut, true, false},
		{CodeCorruptRecordException, true, false},
		{CodeKvStorageException, true, false},
		{CodeTableNotExist, false, false},
		{CodeAuthenticateException, false, false},
		{ErrorCode(500), false, false},
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
	assert.ErrorIs(t, err, ErrNetwork)
	assert.ErrorIs(t, err, io.EOF)
	var fe *Error
	require.ErrorAs(t, err, &fe)
	assert.True(t, fe.NotSent)

	err = convertErr(&rpc.ConnError{Addr: "h:1", Op: "read", Sent: true, Err: io.ErrUnexpectedEOF})
	require.ErrorAs(t, err, &fe)
	assert.False(t, fe.NotSent)

	err = convertErr(&rpc.TimeoutError{Addr: "h:1", API: protocol.CreateTable, Err: context.DeadlineExceeded})
	assert.ErrorIs(t, err, ErrRequestTimeout)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Contains(t, err.Error(), "CREATE_TABLE")

	err = convertErr(&rpc.TimeoutError{Addr: "h:1", API: protocol.CreateTable, Err: context.Canceled})
	assert.ErrorIs(t, err, context.Canceled)
	assert.NotErrorIs(t, err, ErrRequestTimeout)

	err = convertErr(&rpc.UnsupportedAPIError{Addr: "h:1", API: protocol.CreateTable, ServerType: protocol.ServerTypeTabletServer})
	assert.ErrorIs(t, err, ErrUnsupportedVersion)
	assert.ErrorIs(t, err, ErrUnsupportedByServer, "found missing through ApiVersions, nothing sent")
	assert.Contains(t, err.Error(), "does not serve CREATE_TABLE")
	assert.NotErrorIs(t, &Error{Code: CodeUnsupportedVersion, Message: "from the server"}, ErrUnsupportedByServer,
		"the server's own UNSUPPORTED_VERSION answer is not a missing API")

	err = convertErr(&rpc.ServerFailureError{Addr: "h:1", Code: -1, Message: "boom"})
	assert.ErrorIs(t, err, ErrUnknownServerError)
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
