package relay

import (
	"bytes"
	"encoding/binary"
	"testing"
)

// FuzzRelayFrames feeds arbitrary bytes to the relay's frame reader and header parsers: they
// must not panic, the frames read must be exactly the bytes consumed, in order, and the
// headers found must be the bytes at their fixed offsets.
func FuzzRelayFrames(f *testing.F) {
	f.Add(requestFrame(1014, 1, []byte("body")))
	f.Add(append(responseFrame(0, 1, []byte("ok")), responseFrame(1, 2, nil)...))
	f.Add([]byte{0, 0, 0, 1, 2})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff})
	f.Add([]byte{0, 0, 0, 9, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		const limit = 1 << 16
		r := bytes.NewReader(data)
		var consumed []byte
		for {
			frame, err := readFrame(r, limit)
			if err != nil {
				break
			}
			if len(frame) < 4 || int(binary.BigEndian.Uint32(frame)) != len(frame)-4 {
				t.Fatalf("frame of %d bytes announces %d", len(frame), binary.BigEndian.Uint32(frame))
			}
			consumed = append(consumed, frame...)
			if api, id, ok := requestHeader(frame); ok {
				if len(frame) < 12 || api != int16(binary.BigEndian.Uint16(frame[4:])) || id != int32(binary.BigEndian.Uint32(frame[8:])) {
					t.Fatalf("request header %d/%d does not match the frame %x", api, id, frame)
				}
			}
			if id, ok := responseRequestID(frame); ok {
				if len(frame) < 9 || frame[4] > 1 || id != int32(binary.BigEndian.Uint32(frame[5:])) {
					t.Fatalf("response id %d does not match the frame %x", id, frame)
				}
			}
		}
		if !bytes.HasPrefix(data, consumed) {
			t.Fatalf("frames %x are not the start of the input %x", consumed, data)
		}
	})
}
