package fluss

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/flussql/flussql/fluss/flusserr"
	"github.com/flussql/flussql/fluss/internal/rpc"
)

// Error is an error reported by a Fluss server (or, for network failures
// and timeouts, by the client on the server's behalf). Test it against the
// codes with errors.Is, e.g. errors.Is(err, fluss.ErrTableNotExist) or
// errors.Is(err, flusserr.InvalidTableException); the message keeps the
// server's text.
type Error struct {
	// Code is the Fluss error code (the server's, or the one the client
	// chose for a transport failure or timeout).
	Code flusserr.Code
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
		msg = e.Code.Description()
	}
	if msg == "" {
		return "fluss: " + e.Name()
	}
	if e.plain {
		return "fluss: " + msg
	}
	return fmt.Sprintf("fluss: %s: %s", e.Name(), msg)
}

// Is reports whether target is the error's code (a flusserr.Code, such as
// ErrTableNotExist) or an *Error with the same code, which makes the codes
// work with errors.Is. A request this client did not send because the
// server's ApiVersions answer lacks the API (or every version of it this
// client speaks) also matches ErrUnsupportedByServer.
func (e *Error) Is(target error) bool {
	switch t := target.(type) {
	case flusserr.Code:
		return t == e.Code
	case *Error:
		return t.Code == e.Code
	}
	if target == ErrUnsupportedByServer {
		var ue *rpc.UnsupportedAPIError
		return errors.As(e.cause, &ue)
	}
	return false
}

// Unwrap returns the underlying cause (a network or context error), if any.
func (e *Error) Unwrap() error { return e.cause }

// Retriable reports whether the same request may succeed if sent again.
func (e *Error) Retriable() bool { return e.Code.Retriable() }

// InvalidMetadata reports whether the error means the client's metadata
// (bucket leaders, servers) is stale and must be refreshed before a retry.
func (e *Error) InvalidMetadata() bool { return e.Code.InvalidMetadata() }

// The sentinels of the codes most callers test, for errors.Is. Each is the
// flusserr.Code of its name (fluss.ErrTableNotExist is flusserr.TableNotExist), which
// every *Error with that code matches; package flusserr has one for every other code.
const (
	// ErrDatabaseNotExist matches errors of a database that does not exist.
	ErrDatabaseNotExist = flusserr.DatabaseNotExist
	// ErrDatabaseAlreadyExist matches errors of creating a database that exists.
	ErrDatabaseAlreadyExist = flusserr.DatabaseAlreadyExist
	// ErrDatabaseNotEmpty matches errors of dropping a database that still has tables
	// (without cascade).
	ErrDatabaseNotEmpty = flusserr.DatabaseNotEmpty
	// ErrTableNotExist matches errors of a table that does not exist.
	ErrTableNotExist = flusserr.TableNotExist
	// ErrTableAlreadyExist matches errors of creating a table that exists.
	ErrTableAlreadyExist = flusserr.TableAlreadyExist
	// ErrPartitionNotExists matches errors of a partition that does not exist,
	// PartitionNotExistError among them.
	ErrPartitionNotExists = flusserr.PartitionNotExists
	// ErrPartitionAlreadyExists matches errors of creating a partition that exists.
	ErrPartitionAlreadyExists = flusserr.PartitionAlreadyExists
	// ErrAuthentication matches a failed SASL authentication (wrong user or password,
	// or a mechanism the server does not enable).
	ErrAuthentication = flusserr.AuthenticateException
)

// ErrUnsupportedByServer is matched by errors for operations the connected
// server does not offer, as its ApiVersions answer shows: a feature of a
// newer release (e.g. a KvScanner, which needs the SCAN_KV API of Fluss 1.0+;
// the message names the API, the release that added it and the server's
// release line, see Client.ServerVersion), or a request whose API the server
// lacks in every version this client speaks.
var ErrUnsupportedByServer = errors.New("fluss: not supported by this server")

// ErrClosed is returned by calls on a closed Client.
var ErrClosed = errors.New("fluss: client closed")

// errorFromCode builds the *Error for a per-bucket or whole-request error
// code, or nil for flusserr.None.
func errorFromCode(code int32, msg string) error {
	if flusserr.Code(code) == flusserr.None {
		return nil
	}
	return &Error{Code: flusserr.Code(code), Message: msg}
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
		wrapped := &Error{Code: flusserr.Code(re.Code), Message: re.Message}
		if msg := err.Error(); err != error(re) && msg != re.Error() {
			// keep the context the rpc layer added (e.g. SASL user and address)
			wrapped.Message = fmt.Sprintf("%s (%s)", re.Message, rpcText(contextPrefix(msg, re.Error())))
		}
		return wrapped
	}
	var sf *rpc.ServerFailureError
	if errors.As(err, &sf) {
		return &Error{Code: flusserr.Code(sf.Code), Message: rpcText(sf.Error()), cause: err}
	}
	var ue *rpc.UnsupportedAPIError
	if errors.As(err, &ue) {
		return &Error{Code: flusserr.UnsupportedVersion, Message: rpcText(ue.Error()), NotSent: true, cause: err}
	}
	var te *rpc.TimeoutError
	if errors.As(err, &te) {
		if errors.Is(err, context.Canceled) {
			return &canceledError{msg: "fluss: " + rpcText(err.Error()), err: err}
		}
		return &Error{Code: flusserr.RequestTimeOut, Message: rpcText(err.Error()), NotSent: !te.Sent, cause: err, plain: te.Caller()}
	}
	var ce *rpc.ConnError
	if errors.As(err, &ce) {
		return &Error{Code: flusserr.NetworkException, Message: rpcText(err.Error()), NotSent: !ce.Sent, cause: err}
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
