// Package rpc is the Fluss RPC transport: frame encoding and decoding, one
// multiplexed connection per server node with the ApiVersions handshake and
// SASL/PLAIN authentication, and a pool of such connections.
//
// Frames are an int32 big-endian length (not counting itself) followed by
// the payload. A request payload is api key (int16), api version (int16),
// request id (int32) and a protobuf body. A response payload is a type byte
// (0 success, 1 error, 2 server failure), the request id (int32, types 0
// and 1 only) and a protobuf body.
package rpc

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/flussql/flussql/fluss/internal/protocol"
)

const (
	lengthPrefixLen        = 4
	requestHeaderLen       = 8
	responseHeaderLen      = 5
	serverFailureHeaderLen = 1
)

// DefaultMaxFrameSize is the largest response frame accepted by default.
const DefaultMaxFrameSize = 256 << 20

// ResponseType is the first byte of a response payload.
type ResponseType int8

// Response types.
const (
	SuccessResponse ResponseType = 0
	ErrorResponse   ResponseType = 1
	ServerFailure   ResponseType = 2
)

// String returns the Fluss name of the response type.
func (t ResponseType) String() string {
	switch t {
	case SuccessResponse:
		return "SUCCESS_RESPONSE"
	case ErrorResponse:
		return "ERROR_RESPONSE"
	case ServerFailure:
		return "SERVER_FAILURE"
	}
	return fmt.Sprintf("ResponseType(%d)", int8(t))
}

// ErrFrameTooLarge is returned when a frame declares more bytes than allowed.
var ErrFrameTooLarge = errors.New("fluss rpc: frame too large")

// ErrMalformedFrame is returned for a payload that cannot be a Fluss frame.
var ErrMalformedFrame = errors.New("fluss rpc: malformed frame")

// RequestHeader is the fixed part of a request payload.
type RequestHeader struct {
	APIKey     protocol.APIKey
	APIVersion int16
	RequestID  int32
}

// Response is a decoded response payload. Body aliases the payload.
type Response struct {
	Type      ResponseType
	RequestID int32 // not set for ServerFailure
	Body      []byte
}

// AppendRequest appends a whole request frame (length prefix included) to dst.
func AppendRequest(dst []byte, h RequestHeader, body []byte) []byte {
	dst = binary.BigEndian.AppendUint32(dst, uint32(requestHeaderLen+len(body)))
	dst = binary.BigEndian.AppendUint16(dst, uint16(h.APIKey))
	dst = binary.BigEndian.AppendUint16(dst, uint16(h.APIVersion))
	dst = binary.BigEndian.AppendUint32(dst, uint32(h.RequestID))
	return append(dst, body...)
}

// ParseRequest splits a request payload (without the length prefix) into
// its header and body. Body aliases payload.
func ParseRequest(payload []byte) (RequestHeader, []byte, error) {
	if len(payload) < requestHeaderLen {
		return RequestHeader{}, nil, fmt.Errorf("%w: request payload of %d bytes is shorter than the %d-byte header",
			ErrMalformedFrame, len(payload), requestHeaderLen)
	}
	h := RequestHeader{
		APIKey:     protocol.APIKey(binary.BigEndian.Uint16(payload[0:2])),
		APIVersion: int16(binary.BigEndian.Uint16(payload[2:4])),
		RequestID:  int32(binary.BigEndian.Uint32(payload[4:8])),
	}
	return h, payload[requestHeaderLen:], nil
}

// AppendResponse appends a whole response frame (length prefix included) to
// dst. The request id is written for SuccessResponse and ErrorResponse only.
func AppendResponse(dst []byte, r Response) []byte {
	hl := responseHeaderLen
	if r.Type == ServerFailure {
		hl = serverFailureHeaderLen
	}
	dst = binary.BigEndian.AppendUint32(dst, uint32(hl+len(r.Body)))
	dst = append(dst, byte(r.Type))
	if r.Type != ServerFailure {
		dst = binary.BigEndian.AppendUint32(dst, uint32(r.RequestID))
	}
	return append(dst, r.Body...)
}

// ParseResponse decodes a response payload (without the length prefix).
// Body aliases payload.
func ParseResponse(payload []byte) (Response, error) {
	if len(payload) < 1 {
		return Response{}, fmt.Errorf("%w: empty response payload", ErrMalformedFrame)
	}
	t := ResponseType(int8(payload[0]))
	switch t {
	case SuccessResponse, ErrorResponse:
		if len(payload) < responseHeaderLen {
			return Response{}, fmt.Errorf("%w: %s payload of %d bytes is shorter than the %d-byte header",
				ErrMalformedFrame, t, len(payload), responseHeaderLen)
		}
		return Response{
			Type:      t,
			RequestID: int32(binary.BigEndian.Uint32(payload[1:5])),
			Body:      payload[responseHeaderLen:],
		}, nil
	case ServerFailure:
		return Response{Type: t, Body: payload[serverFailureHeaderLen:]}, nil
	}
	return Response{}, fmt.Errorf("%w: unknown response type %d", ErrMalformedFrame, payload[0])
}

// ReadFrame reads one frame from r and returns its payload (without the
// length prefix). A frame longer than maxSize, or with a negative length, is
// an error; nothing is allocated for it. A clean EOF before the first byte
// is returned as io.EOF, a short frame as io.ErrUnexpectedEOF.
func ReadFrame(r io.Reader, maxSize int) ([]byte, error) {
	var prefix [lengthPrefixLen]byte
	if _, err := io.ReadFull(r, prefix[:]); err != nil {
		return nil, err
	}
	n := int32(binary.BigEndian.Uint32(prefix[:]))
	if n < 0 {
		return nil, fmt.Errorf("%w: negative frame length %d", ErrMalformedFrame, n)
	}
	if int64(n) > int64(maxSize) {
		return nil, fmt.Errorf("%w: %d bytes, limit %d", ErrFrameTooLarge, n, maxSize)
	}
	payload := make([]byte, n)
	if _, err := io.ReadFull(r, payload); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	return payload, nil
}
