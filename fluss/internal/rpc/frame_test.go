package rpc

import (
	"bytes"
	"encoding/hex"
	"errors"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/internal/protocol"
)

func TestAppendRequestLayout(t *testing.T) {
	// CREATE_TABLE (1005 = 0x03ED) v0, request id 7, body "abc".
	got := AppendRequest(nil, RequestHeader{APIKey: protocol.CreateTable, APIVersion: 0, RequestID: 7}, []byte("abc"))
	want := "0000000b" + "03ed" + "0000" + "00000007" + "616263"
	assert.Equal(t, want, hex.EncodeToString(got))

	h, body, err := ParseRequest(got[4:])
	require.NoError(t, err)
	assert.Equal(t, RequestHeader{APIKey: protocol.CreateTable, RequestID: 7}, h)
	assert.Equal(t, []byte("abc"), body)
}

func TestAppendRequestNegativeRequestID(t *testing.T) {
	got := AppendRequest(nil, RequestHeader{APIKey: protocol.PutKv, APIVersion: 1, RequestID: -2}, nil)
	assert.Equal(t, "00000008"+"03f8"+"0001"+"fffffffe", hex.EncodeToString(got))
	h, body, err := ParseRequest(got[4:])
	require.NoError(t, err)
	assert.Equal(t, int32(-2), h.RequestID)
	assert.Empty(t, body)
}

func TestResponseRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		resp Response
		hex  string
	}{
		{"success", Response{Type: SuccessResponse, RequestID: 3, Body: []byte{0x08, 0x01}}, "00000007" + "00" + "00000003" + "0801"},
		{"error", Response{Type: ErrorResponse, RequestID: 258, Body: []byte{0x08, 0x07}}, "00000007" + "01" + "00000102" + "0807"},
		{"server failure has no request id", Response{Type: ServerFailure, Body: []byte{0x08, 0x01}}, "00000003" + "02" + "0801"},
		{"empty success body", Response{Type: SuccessResponse, RequestID: 0, Body: []byte{}}, "00000005" + "00" + "00000000"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			frame := AppendResponse(nil, tt.resp)
			assert.Equal(t, tt.hex, hex.EncodeToString(frame))
			payload, err := ReadFrame(bytes.NewReader(frame), DefaultMaxFrameSize)
			require.NoError(t, err)
			got, err := ParseResponse(payload)
			require.NoError(t, err)
			assert.Equal(t, tt.resp, got)
		})
	}
}

func TestParseResponseErrors(t *testing.T) {
	tests := []struct {
		name    string
		payload []byte
	}{
		{"empty", nil},
		{"success without request id", []byte{0, 0, 0}},
		{"error without request id", []byte{1, 0, 0, 0}},
		{"unknown type", []byte{3, 0, 0, 0, 1}},
		{"negative type", []byte{0xff, 0, 0, 0, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseResponse(tt.payload)
			require.Error(t, err)
			assert.ErrorIs(t, err, ErrMalformedFrame)
		})
	}
}

func TestParseRequestTooShort(t *testing.T) {
	_, _, err := ParseRequest([]byte{0x03, 0xed, 0, 0, 0, 0, 0})
	assert.ErrorIs(t, err, ErrMalformedFrame)
}

func TestReadFrameErrors(t *testing.T) {
	tests := []struct {
		name  string
		input string // hex
		max   int
		is    error
	}{
		{"clean EOF", "", 100, io.EOF},
		{"short prefix", "0000", 100, io.ErrUnexpectedEOF},
		{"short payload", "0000000a0102", 100, io.ErrUnexpectedEOF},
		{"prefix only", "00000005", 100, io.ErrUnexpectedEOF},
		{"too large", "00000065", 100, ErrFrameTooLarge},
		{"negative length", "ffffffff", 100, ErrMalformedFrame},
		{"huge length is refused before allocating", "7fffffff", DefaultMaxFrameSize, ErrFrameTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in, err := hex.DecodeString(tt.input)
			require.NoError(t, err)
			_, err = ReadFrame(bytes.NewReader(in), tt.max)
			require.Error(t, err)
			assert.True(t, errors.Is(err, tt.is), "got %v, want %v", err, tt.is)
		})
	}
}

func TestReadFrameSequence(t *testing.T) {
	var stream []byte
	stream = AppendResponse(stream, Response{Type: SuccessResponse, RequestID: 1, Body: []byte("one")})
	stream = AppendResponse(stream, Response{Type: ErrorResponse, RequestID: 2, Body: []byte("two")})
	r := bytes.NewReader(stream)
	for _, want := range []int32{1, 2} {
		p, err := ReadFrame(r, 64)
		require.NoError(t, err)
		resp, err := ParseResponse(p)
		require.NoError(t, err)
		assert.Equal(t, want, resp.RequestID)
	}
	_, err := ReadFrame(r, 64)
	assert.ErrorIs(t, err, io.EOF)
}

func TestNegotiate(t *testing.T) {
	tests := []struct {
		client, server protocol.VersionRange
		want           int16
		ok             bool
	}{
		{protocol.VersionRange{Min: 0, Max: 0}, protocol.VersionRange{Min: 0, Max: 0}, 0, true},
		{protocol.VersionRange{Min: 1, Max: 1}, protocol.VersionRange{Min: 0, Max: 1}, 1, true},
		{protocol.VersionRange{Min: 0, Max: 2}, protocol.VersionRange{Min: 0, Max: 1}, 1, true},
		{protocol.VersionRange{Min: 1, Max: 1}, protocol.VersionRange{Min: 0, Max: 0}, 0, false}, // 0.8 server: no v1 lookups
		{protocol.VersionRange{Min: 0, Max: 0}, protocol.VersionRange{Min: 1, Max: 3}, 0, false},
	}
	for _, tt := range tests {
		got, ok := protocol.Negotiate(tt.client, tt.server)
		assert.Equal(t, tt.ok, ok, "%v vs %v", tt.client, tt.server)
		if ok {
			assert.Equal(t, tt.want, got)
		}
	}
}

func TestPlainToken(t *testing.T) {
	tok, err := PlainToken(Credentials{Username: "admin", Password: "admin-secret"})
	require.NoError(t, err)
	assert.Equal(t, "\x00admin\x00admin-secret", string(tok))

	_, err = PlainToken(Credentials{Username: "", Password: "x"})
	assert.Error(t, err)
	_, err = PlainToken(Credentials{Username: "a\x00b", Password: "x"})
	assert.Error(t, err)
	assert.NotContains(t, Credentials{Username: "u", Password: "secret"}.String(), "secret")
}
