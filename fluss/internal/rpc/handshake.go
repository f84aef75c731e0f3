package rpc

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"syscall"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/flussql/flussql/fluss/internal/protocol"
)

// MaxHandshakeFrame is the largest answer to the ApiVersions request that is
// accepted. Fluss 0.9.1 answers with well under 1 KiB; a length prefix above
// this limit means the peer does not speak Fluss.
const MaxHandshakeFrame = 1 << 20

// handshakeRequestID is the request id of the ApiVersions request, the first
// request on every connection.
const handshakeRequestID = 0

// maxJunkShown is how many received bytes an error quotes.
const maxJunkShown = 32

// ParseHandshake inspects the bytes received so far in answer to the
// ApiVersions request (request id 0). It returns:
//
//   - n == 0 and a nil error while the bytes could still begin a Fluss
//     answer and more are needed;
//   - an error as soon as they cannot: a *NotFlussError (with Addr empty)
//     for bytes that are not a Fluss answer, a *ServerFailureError or
//     *ResponseError when a Fluss server refused the request;
//   - the decoded answer and n, the number of bytes of its frame, once a
//     whole frame is there. Bytes after n belong to later frames.
//
// The checks run on every prefix, so an answer that is not Fluss is
// recognised from its first bytes: text such as "HTTP/1.1" or "SSH-2.0" is
// rejected after its first byte, which no length prefix under
// MaxHandshakeFrame can start with.
func ParseHandshake(b []byte) (*protocol.ApiVersionsResponse, int, error) {
	junk := func(reason string, args ...any) error {
		return &NotFlussError{Got: clip(b), Reason: fmt.Sprintf(reason, args...)}
	}
	// The length prefix: the smallest value its known bytes allow must not exceed the limit.
	var prefix [lengthPrefixLen]byte
	copy(prefix[:], b)
	if least := binary.BigEndian.Uint32(prefix[:]); least > MaxHandshakeFrame {
		if len(b) >= lengthPrefixLen {
			return nil, 0, junk("not a Fluss frame (length prefix %d)", int32(least))
		}
		return nil, 0, junk("not a Fluss frame (no length prefix of a handshake answer starts with 0x%02x)", b[0])
	}
	if len(b) < lengthPrefixLen {
		return nil, 0, nil
	}
	size := int(binary.BigEndian.Uint32(b))
	if size == 0 {
		return nil, 0, junk("an empty frame")
	}
	if len(b) == lengthPrefixLen {
		return nil, 0, nil
	}
	t := ResponseType(int8(b[lengthPrefixLen]))
	switch t {
	case SuccessResponse, ErrorResponse:
		if size < responseHeaderLen {
			return nil, 0, junk("a %d-byte frame, shorter than a response header", size)
		}
		if len(b) >= lengthPrefixLen+responseHeaderLen {
			if id := int32(binary.BigEndian.Uint32(b[lengthPrefixLen+1:])); id != handshakeRequestID {
				return nil, 0, junk("an answer to request %d, but only request %d was sent", id, handshakeRequestID)
			}
		}
	case ServerFailure:
	default:
		return nil, 0, junk("not a Fluss frame (response type %d)", b[lengthPrefixLen])
	}
	n := lengthPrefixLen + size
	if len(b) < n {
		return nil, 0, nil
	}
	r, err := ParseResponse(b[lengthPrefixLen:n])
	if err != nil {
		return nil, 0, junk("%v", err)
	}
	switch r.Type {
	case ServerFailure, ErrorResponse:
		var e protocol.ErrorResponse
		if err := proto.Unmarshal(r.Body, &e); err != nil {
			return nil, 0, junk("an undecodable %s: %v", r.Type, err)
		}
		if r.Type == ServerFailure {
			return nil, 0, &ServerFailureError{Code: e.GetErrorCode(), Message: e.GetErrorMessage()}
		}
		return nil, 0, &ResponseError{Code: e.GetErrorCode(), Message: e.GetErrorMessage()}
	}
	var resp protocol.ApiVersionsResponse
	if err := proto.Unmarshal(r.Body, &resp); err != nil {
		return nil, 0, junk("not an ApiVersions answer: %v", err)
	}
	if len(resp.GetApiVersions()) == 0 {
		return nil, 0, junk("an ApiVersions answer that lists no API")
	}
	return &resp, n, nil
}

func clip(b []byte) []byte {
	return append([]byte(nil), b[:min(len(b), maxJunkShown)]...)
}

// quoteBytes shows received bytes briefly, as a Go string literal.
func quoteBytes(b []byte, total int) string {
	s := fmt.Sprintf("%q", b)
	if total > len(b) {
		s += fmt.Sprintf("... (%d bytes)", total)
	}
	return s
}

// exchangeVersions sends the ApiVersions request on nc and reads the answer
// itself (the reader goroutine does not run yet), so that a peer that is
// not a Fluss server is recognised from the first bytes it sends instead of
// waiting for a frame that never completes. It returns the answer and any
// bytes received after it.
func exchangeVersions(ctx context.Context, nc net.Conn, addr string, opts Options, start time.Time) (*protocol.ApiVersionsResponse, []byte, error) {
	// A context that ends interrupts the blocked read or write.
	stop := context.AfterFunc(ctx, func() { _ = nc.SetDeadline(time.Unix(1, 0)) })
	defer stop()
	if dl, ok := ctx.Deadline(); ok {
		_ = nc.SetDeadline(dl)
	}
	body, err := proto.Marshal(&protocol.ApiVersionsRequest{
		ClientSoftwareName:    proto.String(opts.ClientName),
		ClientSoftwareVersion: proto.String(opts.ClientVersion),
	})
	if err != nil {
		return nil, nil, fmt.Errorf("fluss rpc: encoding %s request: %w", protocol.APIVersions, err)
	}
	frame := AppendRequest(nil, RequestHeader{APIKey: protocol.APIVersions, RequestID: handshakeRequestID}, body)
	if _, err := nc.Write(frame); err != nil {
		return nil, nil, handshakeFailure(ctx, addr, nil, 0, err, start)
	}
	var got []byte
	buf := make([]byte, 4096)
	for {
		n, rerr := nc.Read(buf)
		got = append(got, buf[:n]...)
		resp, used, perr := ParseHandshake(got)
		if perr != nil {
			return nil, nil, handshakeAnswerError(addr, perr, len(got))
		}
		if used > 0 {
			if !stop() {
				// ctx ended just now and its deadline is being set on nc.
				return nil, nil, handshakeFailure(ctx, addr, got, len(got), os.ErrDeadlineExceeded, start)
			}
			_ = nc.SetDeadline(time.Time{})
			return resp, got[used:], nil
		}
		if rerr != nil {
			return nil, nil, handshakeFailure(ctx, addr, clip(got), len(got), rerr, start)
		}
	}
}

// handshakeAnswerError names addr in an error ParseHandshake returned.
func handshakeAnswerError(addr string, err error, total int) error {
	var nf *NotFlussError
	var sf *ServerFailureError
	switch {
	case errors.As(err, &nf):
		nf.Addr, nf.Total = addr, total
		return &ConnError{Addr: addr, Op: "handshake", Err: nf, Msg: nf.Error()}
	case errors.As(err, &sf):
		sf.Addr = addr
		return sf
	}
	return fmt.Errorf("fluss rpc: handshake with %s: %w", addr, err)
}

// handshakeFailure describes a handshake that ended before the whole answer
// was read: got holds the first bytes received, total their number.
func handshakeFailure(ctx context.Context, addr string, got []byte, total int, err error, start time.Time) error {
	if ctxErr, cause, ended := endCause(ctx, err); ended {
		if !errors.Is(cause, ErrConnectTimeout) {
			return &TimeoutError{Addr: addr, API: protocol.APIVersions, Err: ctxErr, Cause: cause, Elapsed: time.Since(start)}
		}
		msg := fmt.Sprintf("the server at %s did not answer the handshake within %s", addr, roundDuration(time.Since(start)))
		if total > 0 {
			msg += fmt.Sprintf(" (it sent only %s)", quoteBytes(got, total))
		}
		return &ConnError{Addr: addr, Op: "handshake", Err: ErrConnectTimeout, Msg: msg}
	}
	if closed := errors.Is(err, io.EOF); closed || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) {
		how := ""
		if !closed {
			how = " (" + netReason(err) + ")"
		}
		if total == 0 {
			return &ConnError{Addr: addr, Op: "handshake", Err: err,
				Msg: fmt.Sprintf("the server at %s closed the connection without answering the handshake%s", addr, how)}
		}
		if closed {
			err = io.ErrUnexpectedEOF
		}
		return &ConnError{Addr: addr, Op: "handshake", Err: err,
			Msg: fmt.Sprintf("the server at %s closed the connection in the middle of its handshake answer, after %s%s", addr, quoteBytes(got, total), how)}
	}
	return &ConnError{Addr: addr, Op: "handshake", Err: err,
		Msg: fmt.Sprintf("handshake with %s: %s", addr, netReason(err))}
}

// dialFailure describes a failed dial.
func dialFailure(ctx context.Context, addr string, err error, start time.Time) error {
	if ctxErr, cause, ended := endCause(ctx, err); ended {
		if !errors.Is(cause, ErrConnectTimeout) {
			return &TimeoutError{Addr: addr, Err: ctxErr, Cause: cause, Elapsed: time.Since(start)}
		}
		return &ConnError{Addr: addr, Op: "dial", Err: ErrConnectTimeout,
			Msg: fmt.Sprintf("the server at %s did not accept the connection within %s", addr, roundDuration(time.Since(start)))}
	}
	return &ConnError{Addr: addr, Op: "dial", Err: err, Msg: fmt.Sprintf("dial %s: %s", addr, netReason(err))}
}

// netReason is the part of a network error that is not the operation and
// address the message already names.
func netReason(err error) string {
	if errors.Is(err, syscall.ECONNREFUSED) {
		return "connection refused"
	}
	if errors.Is(err, syscall.ECONNRESET) {
		return "connection reset by peer"
	}
	if errors.Is(err, syscall.EPIPE) {
		return "broken pipe"
	}
	var oe *net.OpError
	if errors.As(err, &oe) && oe.Err != nil {
		return oe.Err.Error()
	}
	return err.Error()
}

// endCause reports whether a wait on ctx ended because ctx did, and if so
// its error and cause. A socket deadline taken from ctx can fire a moment
// before ctx's own timer; such an error counts as ctx's end.
func endCause(ctx context.Context, err error) (ctxErr, cause error, ended bool) {
	if ctx.Err() == nil {
		if !errors.Is(err, os.ErrDeadlineExceeded) {
			return nil, nil, false
		}
		select {
		case <-ctx.Done():
		case <-time.After(100 * time.Millisecond):
			return nil, nil, false // a deadline that did not come from ctx
		}
	}
	return ctx.Err(), context.Cause(ctx), true
}

// roundDuration shows d the way a person would state a timeout, to about
// two significant digits: "10s", "3s", "2.5s", "200ms".
func roundDuration(d time.Duration) time.Duration {
	switch {
	case d >= 10*time.Second:
		return d.Round(time.Second)
	case d >= time.Second:
		return d.Round(100 * time.Millisecond)
	case d >= 100*time.Millisecond:
		return d.Round(10 * time.Millisecond)
	case d >= 10*time.Millisecond:
		return d.Round(time.Millisecond)
	}
	return d.Round(10 * time.Microsecond)
}
