package logbatch

import (
	"encoding/binary"
	"sync"
	"unsafe"

	"github.com/klauspost/compress/zstd"
)

// Decompressing ZSTD bodies ahead of arrow-go.
//
// arrow-go's IPC reader makes a streaming zstd.Decoder for every record batch and resets it
// for every buffer; each reset starts a stream that allocates (and zeroes) a window-sized
// history buffer, ~15 % of a scan's CPU. inlineZstdBody instead decompresses every buffer
// of a ZSTD batch with one shared decoder's DecodeAll into a single new body, and hands
// arrow-go a copy of the metadata that describes that body as uncompressed: the buffer
// offsets and lengths rewritten in place, the message's body length set, and the record
// batch's compression field dropped by pointing the table at a copy of its vtable without
// it (the original vtable may be shared with another table, so it is left alone).

// Flatbuffer field numbers of the Arrow IPC schema (Message.fbs, Schema.fbs).
const (
	fbMessageBodyLength = 3 // Message.bodyLength: long
	fbMessageHeader     = 2 // Message.header: RecordBatch
	fbBatchBuffers      = 2 // RecordBatch.buffers: [Buffer], struct {offset: long; length: long}
	fbBatchCompression  = 3 // RecordBatch.compression: BodyCompression
	fbCompressionCodec  = 0 // BodyCompression.codec: byte, LZ4_FRAME = 0 (default), ZSTD = 1
	fbCompressionMethod = 1 // BodyCompression.method: byte, BUFFER = 0 (default)
	fbCodecZstd         = 1
	fbMethodBuffer      = 0
	rawBufferMarker     = -1 // an uncompressed length of -1: the buffer is stored raw
	bodyBufferAlignment = 8
)

// zstdDecoder is shared: DecodeAll may be called concurrently (up to GOMAXPROCS calls run
// at once). Its output is limited to the capacity it is given, so a frame that holds more
// than its buffer's declared length fails instead of growing.
var zstdDecoder = sync.OnceValues(func() (*zstd.Decoder, error) {
	return zstd.NewReader(nil, zstd.WithDecoderConcurrency(0), zstd.WithDecodeAllCapLimit(true))
})

// inlineZstdBody returns meta and body unchanged unless the record batch in meta is
// compressed with ZSTD per buffer; then it returns new metadata and an uncompressed body
// that arrow-go reads without decompressing. meta has passed checkMessageVectors; limit
// bounds the new body's size.
func inlineZstdBody(meta, body []byte, limit int) ([]byte, []byte, error) {
	root, _ := u32(meta, 0)
	msg := int(root)
	header, ok, err := tableField(meta, msg, fbMessageHeader)
	if err != nil || !ok {
		return meta, body, err
	}
	comp, ok, err := tableField(meta, header, fbBatchCompression)
	if err != nil || !ok {
		return meta, body, err
	}
	if codec, err := byteField(meta, comp, fbCompressionCodec); err != nil || codec != fbCodecZstd {
		return meta, body, err
	}
	if method, err := byteField(meta, comp, fbCompressionMethod); err != nil || method != fbMethodBuffer {
		return meta, body, err
	}
	bodyLenAt, err := fieldOffset(meta, msg, fbMessageBodyLength)
	if err != nil {
		return nil, nil, err
	}
	if bodyLenAt == 0 || bodyLenAt+8 > len(meta) {
		return nil, nil, errCorruptf("compressed arrow message without a body length")
	}
	vec, ok, err := tableField(meta, header, fbBatchBuffers)
	if err != nil || !ok {
		return meta, body, err
	}
	n, _ := u32(meta, vec)

	// First pass: each buffer's uncompressed size, and the new body's.
	sizes := make([]int64, n)
	total := int64(0)
	for i := range sizes {
		off, length := bufferAt(meta, vec, i)
		if length == 0 {
			continue
		}
		if off < 0 || length < 8 || off > int64(len(body)) || length > int64(len(body))-off {
			return nil, nil, errCorruptf("arrow buffer %d (offset %d, length %d) outside the %d-byte body", i, off, length, len(body))
		}
		size := int64(binary.LittleEndian.Uint64(body[off:]))
		switch {
		case size == rawBufferMarker:
			size = length - 8
		case size < 0 || size > int64(limit):
			return nil, nil, errCorruptf("arrow buffer %d declares %d uncompressed bytes (limit %d)", i, size, limit)
		}
		sizes[i] = size
		total += align(size)
		if total > int64(limit) {
			return nil, nil, errCorruptf("arrow batch decompresses to more than the decoder limit of %d bytes", limit)
		}
	}
	dec, err := zstdDecoder()
	if err != nil {
		return nil, nil, err
	}

	// Second pass: decompress (or copy) each buffer to its place, and describe it.
	out := make([]byte, total)
	newMeta := append(make([]byte, 0, len(meta)+64), meta...)
	pos := int64(0)
	for i, size := range sizes {
		off, length := bufferAt(meta, vec, i)
		if length != 0 {
			src := body[off+8 : off+length]
			dst := out[pos : pos : pos+size]
			if int64(binary.LittleEndian.Uint64(body[off:])) == rawBufferMarker {
				copy(out[pos:pos+size], src)
			} else if size > 0 {
				got, err := dec.DecodeAll(src, dst)
				if err != nil {
					return nil, nil, errCorruptf("arrow buffer %d: zstd: %v", i, err)
				}
				if int64(len(got)) != size || unsafe.SliceData(got) != unsafe.SliceData(dst) {
					return nil, nil, errCorruptf("arrow buffer %d decompressed to %d bytes, declared %d", i, len(got), size)
				}
			}
		}
		at := vec + 4 + 16*i
		binary.LittleEndian.PutUint64(newMeta[at:], uint64(pos))
		binary.LittleEndian.PutUint64(newMeta[at+8:], uint64(size))
		pos += align(size)
	}
	binary.LittleEndian.PutUint64(newMeta[bodyLenAt:], uint64(total))
	newMeta, err = dropField(newMeta, header, fbBatchCompression)
	if err != nil {
		return nil, nil, err
	}
	return newMeta, out, nil
}

// bufferAt reads element i of the Buffer vector at vec.
func bufferAt(meta []byte, vec, i int) (off, length int64) {
	at := vec + 4 + 16*i
	return int64(binary.LittleEndian.Uint64(meta[at:])), int64(binary.LittleEndian.Uint64(meta[at+8:]))
}

// byteField reads the byte scalar in field of the table at pos (0 when absent).
func byteField(b []byte, pos, field int) (byte, error) {
	at, err := fieldOffset(b, pos, field)
	if err != nil || at == 0 {
		return 0, err
	}
	if at >= len(b) {
		return 0, errCorruptf("arrow metadata: field at %d out of range", at)
	}
	return b[at], nil
}

func align(n int64) int64 {
	return (n + bodyBufferAlignment - 1) &^ (bodyBufferAlignment - 1)
}

// dropField makes field of the table at pos absent: it appends a copy of the table's
// vtable with that slot zeroed and points the table at the copy.
func dropField(b []byte, pos, field int) ([]byte, error) {
	soff, _ := u32(b, pos)
	vt := pos - int(int32(soff))
	if vt < 0 || vt+4 > len(b) {
		return nil, errCorruptf("arrow metadata: vtable at %d out of range", vt)
	}
	vtSize := int(binary.LittleEndian.Uint16(b[vt:]))
	if vtSize < 4 || vtSize%2 != 0 || vt+vtSize > len(b) {
		return nil, errCorruptf("arrow metadata: malformed vtable at %d", vt)
	}
	for len(b)%2 != 0 {
		b = append(b, 0)
	}
	at := len(b)
	b = append(b, b[vt:vt+vtSize]...)
	if slot := 4 + 2*field; slot+2 <= vtSize {
		binary.LittleEndian.PutUint16(b[at+slot:], 0)
	}
	binary.LittleEndian.PutUint32(b[pos:], uint32(int32(pos-at)))
	return b, nil
}
