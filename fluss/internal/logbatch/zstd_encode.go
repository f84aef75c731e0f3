package logbatch

import (
	"encoding/binary"
	"fmt"
	"sync"

	"github.com/apache/arrow-go/v18/arrow/ipc"
	flatbuffers "github.com/google/flatbuffers/go"
	"github.com/klauspost/compress/zstd"
)

// Compressing ZSTD record batches at the table's level.
//
// arrow-go compresses IPC buffers with a zstd encoder at its own default level and offers
// no way to choose another; Fluss tables name theirs ('table.log.arrow.compression.zstd.level',
// 1–22, default 3), and the Java and Rust clients honour it. So for ZSTD the encoder lets
// arrow-go lay the record batch out uncompressed (it slices, rebases offsets and orders the
// buffers), then compresses each body buffer itself with one shared encoder of the table's
// level (EncodeAll, straight from the array's memory into the batch) and writes the
// RecordBatch message again with the compressed buffers' offsets and lengths and a
// BodyCompression of ZSTD per buffer. Each compressed buffer is, as the Arrow format says,
// its uncompressed length (int64, little endian) followed by one zstd frame, or -1 followed
// by the raw bytes where compressing did not make it smaller; an empty buffer stays empty,
// as arrow-go and Java write it.

// Levels of 'table.log.arrow.compression.zstd.level' (Fluss accepts 1–22; 3 is its default).
const (
	DefaultZstdLevel = 3
	minZstdLevel     = 1
	maxZstdLevel     = 22
)

// Arrow IPC constants of Message.fbs / Schema.fbs used when writing a record batch message.
const (
	fbMetadataV5          = 4 // MetadataVersion.V5
	fbHeaderRecordBatch   = 3 // MessageHeader.RecordBatch
	fbMessageFields       = 5 // version, header_type, header, bodyLength, custom_metadata
	fbBatchFields         = 5 // length, nodes, buffers, compression, variadicBufferCounts
	fbCompressionFields   = 2 // codec, method
	fbBatchLength         = 0
	fbBatchNodes          = 1
	fbBatchVariadicCounts = 4
	fbMessageVersion      = 0
	fbMessageHeaderType   = 1
	ipcContinuation       = 0xFFFFFFFF
)

// zstdEncoders holds one encoder per level, shared by every ArrowEncoder: EncodeAll may be
// called concurrently (each call takes one of the encoder's GOMAXPROCS states).
var zstdEncoders sync.Map // level (int) → *zstd.Encoder

func zstdEncoderOf(level int) (*zstd.Encoder, error) {
	if e, ok := zstdEncoders.Load(level); ok {
		return e.(*zstd.Encoder), nil
	}
	e, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.EncoderLevelFromZstd(level)),
		zstd.WithEncoderCRC(false), zstd.WithZeroFrames(true))
	if err != nil {
		return nil, err
	}
	actual, loaded := zstdEncoders.LoadOrStore(level, e)
	if loaded {
		_ = e.Close()
	}
	return actual.(*zstd.Encoder), nil
}

// checkZstdLevel refuses a level Fluss would refuse.
func checkZstdLevel(level int) error {
	if level < minZstdLevel || level > maxZstdLevel {
		return fmt.Errorf("logbatch: invalid ZSTD compression level %d; expected a value between %d and %d", level, minZstdLevel, maxZstdLevel)
	}
	return nil
}

// zstdMessage turns an uncompressed record batch payload (arrow-go's) into a ZSTD
// compressed Arrow IPC message; its buffers are reused from one batch to the next.
type zstdMessage struct {
	enc     *zstd.Encoder
	body    []byte               // the compressed body being built
	buffers []int64              // per source buffer: its length (from the metadata)
	out     [][2]int64           // per buffer: offset and length in body
	next    int                  // the buffer the next body write belongs to
	padding bool                 // the next write is the padding after buffer next-1
	err     error                // the first failure while writing the body
	fb      *flatbuffers.Builder // reused for the new metadata
	fields  []byte               // the source's field nodes, copied (16 bytes each)
	counts  []int64              // the source's variadic buffer counts
	rows    int64                // the record batch's length
}

// encode appends the message of pl to dst.
func (z *zstdMessage) encode(dst []byte, pl *ipc.Payload) ([]byte, error) {
	meta := pl.Meta()
	if meta == nil {
		return dst, fmt.Errorf("logbatch: arrow payload without metadata")
	}
	err := z.readLayout(meta.Bytes())
	meta.Release()
	if err != nil {
		return dst, err
	}
	z.body, z.out, z.next, z.padding, z.err = z.body[:0], z.out[:0], 0, false, nil
	if err := pl.SerializeBody(z); err != nil {
		return dst, err
	}
	if z.err != nil {
		return dst, z.err
	}
	for z.next < len(z.buffers) { // trailing empty buffers are not written
		if z.buffers[z.next] != 0 {
			return dst, fmt.Errorf("logbatch: arrow body ended before buffer %d", z.next)
		}
		z.out = append(z.out, [2]int64{int64(len(z.body)), 0})
		z.next++
	}
	fb := z.metadata()
	// The framing arrow-go and Java write: continuation marker, the metadata length padded
	// so that the body starts 8-byte aligned, the metadata, zero padding, the body.
	padded := int(align(int64(8+len(fb)))) - 8
	dst = binary.LittleEndian.AppendUint32(dst, ipcContinuation)
	dst = binary.LittleEndian.AppendUint32(dst, uint32(padded))
	dst = append(dst, fb...)
	dst = append(dst, make([]byte, padded-len(fb))...)
	return append(dst, z.body...), nil
}

// readLayout reads the row count, field nodes, buffer lengths and variadic counts of the
// uncompressed record batch message meta (written by arrow-go, so trusted).
func (z *zstdMessage) readLayout(meta []byte) error {
	root, _ := u32(meta, 0)
	header, ok, err := tableField(meta, int(root), fbMessageHeader)
	if err != nil || !ok {
		return fmt.Errorf("logbatch: arrow record batch message without a header (%v)", err)
	}
	z.rows = 0
	if at, err := fieldOffset(meta, header, fbBatchLength); err != nil {
		return err
	} else if at != 0 {
		z.rows = int64(binary.LittleEndian.Uint64(meta[at:]))
	}
	z.fields = z.fields[:0]
	if vec, ok, err := tableField(meta, header, fbBatchNodes); err != nil {
		return err
	} else if ok {
		n, _ := u32(meta, vec)
		z.fields = append(z.fields, meta[vec+4:vec+4+16*int(n)]...)
	}
	z.buffers = z.buffers[:0]
	if vec, ok, err := tableField(meta, header, fbBatchBuffers); err != nil {
		return err
	} else if ok {
		n, _ := u32(meta, vec)
		for i := range int(n) {
			_, length := bufferAt(meta, vec, i)
			z.buffers = append(z.buffers, length)
		}
	}
	z.counts = z.counts[:0]
	if vec, ok, err := tableField(meta, header, fbBatchVariadicCounts); err != nil {
		return err
	} else if ok {
		n, _ := u32(meta, vec)
		for i := range int(n) {
			z.counts = append(z.counts, int64(binary.LittleEndian.Uint64(meta[vec+4+8*i:])))
		}
	}
	return nil
}

// Write takes the body as arrow-go's Payload.SerializeBody writes it: each non-empty
// buffer in one call, followed by its padding to 8 bytes when it has any; empty buffers
// are skipped. Each buffer is compressed into the body as it comes.
func (z *zstdMessage) Write(p []byte) (int, error) {
	if z.err != nil {
		return 0, z.err
	}
	if z.padding {
		z.padding = false
		return len(p), nil
	}
	for z.next < len(z.buffers) && z.buffers[z.next] == 0 {
		z.out = append(z.out, [2]int64{int64(len(z.body)), 0})
		z.next++
	}
	if z.next >= len(z.buffers) || int64(len(p)) != z.buffers[z.next] {
		z.err = fmt.Errorf("logbatch: arrow body write of %d bytes does not match buffer %d of the metadata", len(p), z.next)
		return 0, z.err
	}
	start := len(z.body)
	z.body = binary.LittleEndian.AppendUint64(z.body, uint64(len(p)))
	z.body = z.enc.EncodeAll(p, z.body)
	if len(z.body)-start-8 >= len(p) {
		// Compression did not help (small or random buffers): the buffer is stored as it
		// is, marked by an uncompressed length of -1, as Java's Arrow writer does.
		raw := int64(rawBufferMarker)
		z.body = binary.LittleEndian.AppendUint64(z.body[:start], uint64(raw))
		z.body = append(z.body, p...)
	}
	z.out = append(z.out, [2]int64{int64(start), int64(len(z.body) - start)})
	for len(z.body)%bodyBufferAlignment != 0 {
		z.body = append(z.body, 0)
	}
	z.padding = len(p)%bodyBufferAlignment != 0
	z.next++
	return len(p), nil
}

// metadata builds the Message flatbuffer of the compressed record batch.
func (z *zstdMessage) metadata() []byte {
	if z.fb == nil {
		z.fb = flatbuffers.NewBuilder(256)
	}
	b := z.fb
	b.Reset()

	var counts flatbuffers.UOffsetT
	if len(z.counts) > 0 {
		b.StartVector(8, len(z.counts), 8)
		for i := len(z.counts) - 1; i >= 0; i-- {
			b.PrependInt64(z.counts[i])
		}
		counts = b.EndVector(len(z.counts))
	}
	b.StartObject(fbCompressionFields)
	b.PrependInt8Slot(fbCompressionCodec, fbCodecZstd, 0)
	b.PrependInt8Slot(fbCompressionMethod, fbMethodBuffer, 0)
	compression := b.EndObject()

	b.StartVector(16, len(z.out), 8)
	for i := len(z.out) - 1; i >= 0; i-- {
		b.Prep(8, 16)
		b.PrependInt64(z.out[i][1])
		b.PrependInt64(z.out[i][0])
	}
	buffers := b.EndVector(len(z.out))

	nodes := len(z.fields) / 16
	b.StartVector(16, nodes, 8)
	for i := nodes - 1; i >= 0; i-- {
		f := z.fields[16*i:]
		b.Prep(8, 16)
		b.PrependInt64(int64(binary.LittleEndian.Uint64(f[8:]))) // null_count
		b.PrependInt64(int64(binary.LittleEndian.Uint64(f)))     // length
	}
	fieldNodes := b.EndVector(nodes)

	b.StartObject(fbBatchFields)
	b.PrependInt64Slot(fbBatchLength, z.rows, 0)
	b.PrependUOffsetTSlot(fbBatchNodes, fieldNodes, 0)
	b.PrependUOffsetTSlot(fbBatchBuffers, buffers, 0)
	b.PrependUOffsetTSlot(fbBatchCompression, compression, 0)
	if counts != 0 {
		b.PrependUOffsetTSlot(fbBatchVariadicCounts, counts, 0)
	}
	batch := b.EndObject()

	b.StartObject(fbMessageFields)
	b.PrependInt16Slot(fbMessageVersion, fbMetadataV5, 0)
	b.PrependByteSlot(fbMessageHeaderType, fbHeaderRecordBatch, 0)
	b.PrependUOffsetTSlot(fbMessageHeader, batch, 0)
	b.PrependInt64Slot(fbMessageBodyLength, int64(len(z.body)), 0)
	b.Finish(b.EndObject())
	return b.FinishedBytes()
}
