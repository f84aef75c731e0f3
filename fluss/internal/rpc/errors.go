package rpc

import (
	"errors"
	"fmt"

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

// ConnError is a transport failure on the connection to Addr: dialing,
// writing or reading failed, or the server closed the connection. Sent
// reports whether any byte of the request may have reached the server.
type ConnError struct {
	Addr string
	Op   string // "dial", "write", "read"
	Sent bool
	Err  error
}

func (e *ConnError) Error() string {
	return fmt.Sprintf("fluss rpc: %s %s: %v", e.Op, e.Addr, e.Err)
}

// Unwrap returns the underlying error.
func (e *ConnError) Unwrap() error { return e.Err }

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

// TimeoutError is returned when no response arrived before the request's
// deadline. It wraps the context error, so errors.Is(err,
// context.DeadlineExceeded) holds. The server drops requests it cannot serve
// (wrong server type, unparsable body) without answering, which also ends
// this way.
type TimeoutError struct {
	Addr string
	API  protocol.APIKey
	Err  error
}

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("fluss rpc: no response from %s to %s: %v", e.Addr, e.API, e.Err)
}

// Unwrap returns the context error.
func (e *TimeoutError) Unwrap() error { return e.Err }
