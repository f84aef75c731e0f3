package rpc

import (
	"errors"
	"fmt"
	"time"

	"github.com/flussql/flussql/fluss/internal/protocol"
)

// ErrClosed is returned for calls on, or in flight during, Conn.Close.
var ErrClosed = errors.New("fluss rpc: connection closed")

// ResponseError is an ERROR_RESPONSE from the server: the request reached
// the server and failed as a whole. Code is a Fluss error code.
type ResponseError struct {
	Code    int32
	Message string
}

func (e *ResponseError) Error() string {
	return fmt.Sprintf("fluss rpc: server error %d: %s", e.Code, e.Message)
}

// ServerFailureError is a SERVER_FAILURE frame: the server hit a
// connection-level error and closed the connection. Every request in flight
// on that connection fails with it.
type ServerFailureError struct {
	Addr    string
	Code    int32
	Message string
}

func (e *ServerFailureError) Error() string {
	return fmt.Sprintf("fluss rpc: server failure on %s (code %d): %s", e.Addr, e.Code, e.Message)
}

// ErrConnectTimeout is the cause recorded when the connect timeout
// (Options.DialTimeout) ended a dial, a handshake or an authentication; a
// caller may also give it as the cause of its own context
// (context.WithTimeoutCause) to have that deadline reported the same way.
var ErrConnectTimeout = errors.New("fluss rpc: connect timeout")

// ErrRequestTimeout is the cause recorded when the default request timeout
// (Options.RequestTimeout, applied to a context without a deadline) ended a
// request.
var ErrRequestTimeout = errors.New("fluss rpc: request timeout")

// ConnError is a transport failure on the connection to Addr: dialing, the
// handshake, writing or reading failed, or the server closed the
// connection. Sent reports whether any byte of the request may have
// reached the server; it is false for every error of Dial and Pool.Get,
// which fail before the caller's request is written.
//
// Err is the cause: a *net.OpError (errors.Is(err, syscall.ECONNREFUSED)
// holds for a refused dial), a *NotFlussError, ErrConnectTimeout, io.EOF, ...
type ConnError struct {
	Addr string
	Op   string // "dial", "handshake", "write", "read"
	Sent bool
	Err  error
	// Msg, when set, is the whole message (it names Addr).
	Msg string
}

func (e *ConnError) Error() string {
	if e.Msg != "" {
		return "fluss rpc: " + e.Msg
	}
	return fmt.Sprintf("fluss rpc: %s %s: %v", e.Op, e.Addr, e.Err)
}

// Unwrap returns the underlying error.
func (e *ConnError) Unwrap() error { return e.Err }

// NotFlussError is the handshake failure of a peer that answered with bytes
// that are not a Fluss answer to the ApiVersions request: another protocol
// (HTTP, TLS, SSH, ...) or another service on the port.
type NotFlussError struct {
	Addr   string
	Got    []byte // the first bytes received (at most 32)
	Total  int    // how many bytes were received
	Reason string
}

func (e *NotFlussError) Error() string {
	return fmt.Sprintf("%s is not a Fluss server: it answered the handshake with %s, %s",
		e.Addr, quoteBytes(e.Got, e.Total), e.Reason)
}

// UnsupportedAPIError is returned, without sending anything, for a request
// the server did not list in its ApiVersions answer or whose versions do not
// overlap with the client's. Sending it anyway would be met with silence.
type UnsupportedAPIError struct {
	Addr       string
	ServerType protocol.ServerType
	API        protocol.APIKey
	// Server is the range the server offers; zero when it lacks the API.
	Server protocol.VersionRange
	Listed bool
}

func (e *UnsupportedAPIError) Error() string {
	if !e.Listed {
		return fmt.Sprintf("fluss rpc: %s (%s) does not serve %s", e.Addr, e.ServerType, e.API)
	}
	c, _ := protocol.ClientVersions(e.API)
	return fmt.Sprintf("fluss rpc: %s (%s) speaks %s versions %d..%d, this client %d..%d",
		e.Addr, e.ServerType, e.API, e.Server.Min, e.Server.Max, c.Min, c.Max)
}

// TimeoutError is returned when a context ended before the answer (or the
// connection) arrived. It wraps the context error, so errors.Is(err,
// context.DeadlineExceeded) or errors.Is(err, context.Canceled) holds, and
// the context's cause. The cause tells whose deadline it was: ErrRequestTimeout
// for the default request timeout, ErrConnectTimeout for the connect
// timeout, anything else for the caller's. The server drops requests it
// cannot serve (wrong server type, unparsable body) without answering,
// which also ends this way.
type TimeoutError struct {
	Addr string
	// API is the request waited for; zero while waiting for the connection.
	API protocol.APIKey
	// Err is the context's error, Cause its cause (context.Cause).
	Err, Cause error
	// Elapsed is how long the call waited; zero when the context had
	// already ended when the call began.
	Elapsed time.Duration
	// Sent reports whether any byte of the request was written.
	Sent bool
}

// Caller reports whether the caller's own context ended the call, rather
// than a timeout of the client (request or connect timeout).
func (e *TimeoutError) Caller() bool {
	return !errors.Is(e.Cause, ErrRequestTimeout) && !errors.Is(e.Cause, ErrConnectTimeout)
}

func (e *TimeoutError) Error() string {
	what := "connecting to " + e.Addr
	if e.API != 0 {
		what = fmt.Sprintf("waiting for %s from %s", e.API, e.Addr)
	}
	d := roundDuration(e.Elapsed)
	switch {
	case errors.Is(e.Cause, ErrRequestTimeout):
		return fmt.Sprintf("fluss rpc: no answer to %s from %s within the request timeout (%s)", e.API, e.Addr, d)
	case errors.Is(e.Cause, ErrConnectTimeout) && e.API != 0:
		return fmt.Sprintf("fluss rpc: no answer to %s from %s within the connect timeout (%s)", e.API, e.Addr, d)
	case errors.Is(e.Cause, ErrConnectTimeout):
		return fmt.Sprintf("fluss rpc: no connection to %s within the connect timeout (%s)", e.Addr, d)
	}
	var msg string
	switch {
	case e.Elapsed > 0:
		msg = fmt.Sprintf("fluss rpc: %v after %s %s", e.Err, d, what)
	case e.API != 0:
		msg = fmt.Sprintf("fluss rpc: %v before sending %s to %s", e.Err, e.API, e.Addr)
	default:
		msg = fmt.Sprintf("fluss rpc: %v before %s", e.Err, what)
	}
	if e.Cause != nil && !errors.Is(e.Cause, e.Err) {
		msg += fmt.Sprintf(" (%v)", e.Cause)
	}
	return msg
}

// Unwrap returns the context error and its cause.
func (e *TimeoutError) Unwrap() []error {
	if e.Cause == nil || e.Cause == e.Err {
		return []error{e.Err}
	}
	return []error{e.Err, e.Cause}
}
