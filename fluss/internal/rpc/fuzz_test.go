package rpc

import (
	"bytes"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/flussql/flussql/fluss/internal/protocol"
)

// FuzzReadFrame feeds arbitrary byte streams through the frame reader and the
// response decoder: every input ends in a frame or an error, never a panic,
// and never an allocation beyond the limit.
func FuzzReadFrame(f *testing.F) {
	f.Add(AppendResponse(nil, Response{Type: SuccessResponse, RequestID: 1, Body: []byte{0x08, 0x01}}))
	f.Add(AppendResponse(nil, Response{Type: ServerFailure, Body: []byte{0x08, 0x01}}))
	f.Add([]byte{0, 0, 0, 1, 9})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, stream []byte) {
		r := bytes.NewReader(stream)
		for {
			p, err := ReadFrame(r, 1<<16)
			if err != nil {
				return
			}
			if len(p) > 1<<16 {
				t.Fatalf("frame of %d bytes exceeds the limit", len(p))
			}
			resp, err := ParseResponse(p)
			if err != nil {
				continue
			}
			if len(resp.Body) > len(p) {
				t.Fatalf("body longer than payload")
			}
		}
	})
}

// FuzzParseRequest checks the request header decoder and the round trip.
func FuzzParseRequest(f *testing.F) {
	f.Add(AppendRequest(nil, RequestHeader{APIKey: protocol.GetMetadata, RequestID: 3}, []byte{1, 2})[4:])
	f.Add([]byte{1, 2, 3})
	f.Fuzz(func(t *testing.T, payload []byte) {
		h, body, err := ParseRequest(payload)
		if err != nil {
			return
		}
		again := AppendRequest(nil, h, body)
		if !bytes.Equal(again[4:], payload) {
			t.Fatalf("round trip changed the payload")
		}
	})
}

// FuzzDecodeResponse runs response bodies through the protobuf decoding the
// connection does for every API a client reads, and through the error body.
func FuzzDecodeResponse(f *testing.F) {
	seed, _ := proto.Marshal(&protocol.MetadataResponse{
		TabletServers: []*protocol.PbServerNode{{NodeId: proto.Int32(0), Host: proto.String("h"), Port: proto.Int32(1)}},
	})
	f.Add(uint8(0), seed)
	eb, _ := proto.Marshal(&protocol.ErrorResponse{ErrorCode: proto.Int32(7), ErrorMessage: proto.String("no")})
	f.Add(uint8(1), eb)
	f.Add(uint8(2), []byte{0x0a, 0xff})
	messages := []func() proto.Message{
		func() proto.Message { return &protocol.MetadataResponse{} },
		func() proto.Message { return &protocol.ApiVersionsResponse{} },
		func() proto.Message { return &protocol.GetTableInfoResponse{} },
		func() proto.Message { return &protocol.ListPartitionInfosResponse{} },
		func() proto.Message { return &protocol.ListOffsetsResponse{} },
		func() proto.Message { return &protocol.FetchLogResponse{} },
		func() proto.Message { return &protocol.LookupResponse{} },
		func() proto.Message { return &protocol.PrefixLookupResponse{} },
		func() proto.Message { return &protocol.ProduceLogResponse{} },
		func() proto.Message { return &protocol.PutKvResponse{} },
		func() proto.Message { return &protocol.LimitScanResponse{} },
		func() proto.Message { return &protocol.GetDatabaseInfoResponse{} },
		func() proto.Message { return &protocol.ListDatabasesResponse{} },
	}
	f.Fuzz(func(t *testing.T, which uint8, body []byte) {
		m := messages[int(which)%len(messages)]()
		_ = decodeResponse(protocol.GetMetadata, Response{Type: SuccessResponse, Body: body}, m)
		_ = decodeResponse(protocol.GetMetadata, Response{Type: ErrorResponse, Body: body}, m)
	})
}
