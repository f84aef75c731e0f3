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

// FuzzParseHandshake feeds arbitrary bytes to the handshake decoder, as if
// a peer sent them in answer to the ApiVersions request. It never panics,
// and its verdict never changes as more bytes arrive: bytes rejected stay
// rejected whatever follows, and every prefix of an accepted answer asks
// for more instead of being rejected.
func FuzzParseHandshake(f *testing.F) {
	body, _ := proto.Marshal(&protocol.ApiVersionsResponse{
		ApiVersions: []*protocol.PbApiVersion{{ApiKey: proto.Int32(1000), MinVersion: proto.Int32(0), MaxVersion: proto.Int32(0)}},
		ServerType:  proto.Int32(1),
	})
	f.Add(AppendResponse(nil, Response{Type: SuccessResponse, Body: body}), []byte{})
	f.Add(AppendResponse(nil, Response{Type: ServerFailure, Body: []byte{0x08, 0x01}}), []byte{0})
	f.Add(AppendResponse(nil, Response{Type: ErrorResponse, Body: []byte{0x08, 0x2e}}), []byte{})
	f.Add([]byte("HTTP/1.1 400 Bad Request\r\n\r\n"), []byte{})
	f.Add([]byte{0, 0, 0, 9, 0, 0, 0, 0, 1}, []byte{1})
	f.Add([]byte{0, 0, 0}, []byte{5, 0})
	f.Fuzz(func(t *testing.T, b, more []byte) {
		resp, n, err := ParseHandshake(b)
		whole := append(append([]byte(nil), b...), more...)
		wresp, wn, werr := ParseHandshake(whole)
		switch {
		case err != nil:
			if resp != nil || n != 0 {
				t.Fatalf("an error with an answer: %v, %d", resp, n)
			}
			if werr == nil {
				t.Fatalf("rejected %q, accepted it followed by %q", b, more)
			}
		case n > 0:
			if resp == nil || n > len(b) {
				t.Fatalf("used %d of %d bytes, answer %v", n, len(b), resp)
			}
			if werr != nil || wn != n || wresp == nil {
				t.Fatalf("accepted %q, then %d, %v with %q after it", b, wn, werr, more)
			}
			for _, k := range []int{0, 1, lengthPrefixLen, lengthPrefixLen + 1, n / 2, n - 1} {
				if k >= n {
					continue
				}
				if r, m, e := ParseHandshake(b[:k]); r != nil || m != 0 || e != nil {
					t.Fatalf("prefix of %d bytes of an accepted answer: %v, %d, %v", k, r, m, e)
				}
			}
		default:
			if resp != nil {
				t.Fatalf("an answer without its length")
			}
		}
	})
}
