package logbatch

import (
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/klauspost/compress/zstd"
)

// ArrowEncoder builds ARROW log batches for one table schema and compression.
// It keeps arrow-go's IPC writer (and its compressors) between batches, so
// reuse one encoder per (table schema, compression) rather than making one
// per batch. It is not safe for concurrent use.
//
// The Arrow message is produced by arrow-go's IPC writer, which writes the
// same framing Fluss's Java ArrowWriter does (continuation marker, int32
// metadata length padded so the body starts 8-byte aligned relative to the
// message, 8-byte aligned buffers, Arrow IPC per-buffer compression with an
// int64 uncompressed-length prefix). The schema message it emits first is
// dropped. Byte-for-byte the flatbuffer and buffer padding differ from
// Java's (e.g. arrow-go omits the validity buffer of a column without nulls,
// Java always sends one); Java decodes both. ZSTD batches are compressed by
// the encoder itself at the table's level (see zstd_encode.go).
type ArrowEncoder struct {
	schema *arrow.Schema
	codec  Compression
	opts   []ipc.Option
	w      *ipc.Writer
	pw     *payloadCapture
	zstd   *zstd.Encoder // for CompressionZstd: the shared encoder of the level
}

// payloadCapture is an ipc.PayloadWriter that appends record-batch payloads
// to a byte slice and drops the schema payload the writer sends first. With
// zm set it compresses the payload's buffers with ZSTD on the way.
type payloadCapture struct {
	sawSchema bool
	dst       []byte
	zm        *zstdMessage
}

func (p *payloadCapture) Start() error { return nil }
func (p *payloadCapture) Close() error { return nil }

func (p *payloadCapture) WritePayload(pl ipc.Payload) error {
	if !p.sawSchema {
		p.sawSchema = true // the first payload of an ipc.Writer is the schema
		return nil
	}
	if p.zm != nil {
		var err error
		p.dst, err = p.zm.encode(p.dst, &pl)
		return err
	}
	_, err := pl.WritePayload(p)
	return err
}

func (p *payloadCapture) Write(b []byte) (int, error) {
	p.dst = append(p.dst, b...)
	return len(b), nil
}

// NewArrowEncoder returns an encoder for records of the given Arrow schema
// (build it with types.ToArrowSchema). Use the table's configured
// compression: the server labels projected fetches with it (see
// fluss-protocol.md 4.4). ZSTD compresses at WithZstdLevel's level, by
// default DefaultZstdLevel.
func NewArrowEncoder(schema *arrow.Schema, codec Compression, opts ...Option) (*ArrowEncoder, error) {
	if schema == nil {
		return nil, errors.New("logbatch: nil schema")
	}
	cfg := newConfig(opts)
	e := &ArrowEncoder{schema: schema, codec: codec, opts: []ipc.Option{ipc.WithSchema(schema), ipc.WithAllocator(cfg.mem)}}
	if codec == CompressionZstd {
		if err := checkZstdLevel(cfg.zstdLevel); err != nil {
			return nil, err
		}
		z, err := zstdEncoderOf(cfg.zstdLevel)
		if err != nil {
			return nil, err
		}
		e.zstd = z
		return e, nil
	}
	co, err := codec.ipcOption()
	if err != nil {
		return nil, err
	}
	if co != nil {
		e.opts = append(e.opts, co)
	}
	return e, nil
}

// Schema returns the Arrow schema the encoder accepts.
func (e *ArrowEncoder) Schema() *arrow.Schema { return e.schema }

// Compression returns the encoder's compression.
func (e *ArrowEncoder) Compression() Compression { return e.codec }

// AppendBatch encodes rec as one log batch and appends it to dst.
//
// From h it takes BaseOffset (0 for client writes), CommitTimestamp (0 for
// client writes), SchemaID, WriterID and BatchSequence (NoWriterID /
// NoBatchSequence when not idempotent) and Magic (MagicV0, or MagicV1 /
// MagicV2 with an empty statistics section); Attributes, RecordCount, LastOffsetDelta, Length and
// CRC are computed. changeTypes nil makes an append-only batch (log tables);
// otherwise it must hold one valid change type per row and is written as the
// change-type vector. A record with no rows gives a header-only batch.
func (e *ArrowEncoder) AppendBatch(dst []byte, h Header, rec arrow.RecordBatch, changeTypes []ChangeType) ([]byte, error) {
	return e.AppendBatchWithStatistics(dst, h, nil, rec, changeTypes)
}

// AppendBatchWithStatistics is AppendBatch with a column statistics section
// (from [EncodeStatistics]) between header and records, as Fluss 1.0 writes
// for tables with 'table.statistics.columns'; h.Magic must then be MagicV1
// or MagicV2.
func (e *ArrowEncoder) AppendBatchWithStatistics(dst []byte, h Header, stats []byte, rec arrow.RecordBatch, changeTypes []ChangeType) ([]byte, error) {
	if rec == nil {
		return dst, errors.New("logbatch: nil record")
	}
	if !rec.Schema().Equal(e.schema) {
		return dst, fmt.Errorf("logbatch: record schema %s does not match encoder schema %s", rec.Schema(), e.schema)
	}
	rows := rec.NumRows()
	if rows > int64(int32(^uint32(0)>>1)) {
		return dst, fmt.Errorf("logbatch: %d rows do not fit a batch", rows)
	}
	if changeTypes != nil && int64(len(changeTypes)) != rows {
		return dst, fmt.Errorf("logbatch: %d change types for %d rows", len(changeTypes), rows)
	}
	hsize, err := HeaderSize(h.Magic)
	if err != nil {
		return dst, err
	}
	h.RecordCount = int32(rows)
	h.Attributes = 0
	if changeTypes == nil {
		h.Attributes = AttrAppendOnly
	}

	if len(stats) > 0 && h.Magic == MagicV0 {
		return dst, errors.New("logbatch: magic 0 batches carry no statistics; use MagicV1")
	}
	h.StatisticsLength = int32(len(stats))
	start := len(dst)
	dst = append(dst, make([]byte, hsize)...)
	dst = append(dst, stats...)
	for i, c := range changeTypes {
		if !c.Valid() {
			return dst[:start], fmt.Errorf("logbatch: invalid change type %d at row %d", int8(c), i)
		}
		dst = append(dst, byte(c))
	}
	if rows > 0 {
		if dst, err = e.appendMessage(dst, rec); err != nil {
			return dst[:start], err
		}
	}
	if err := writeHeader(dst[start:], h); err != nil {
		return dst[:start], err
	}
	return dst, nil
}

// appendMessage appends the Arrow IPC RecordBatch message of rec to dst.
func (e *ArrowEncoder) appendMessage(dst []byte, rec arrow.RecordBatch) ([]byte, error) {
	if e.w == nil {
		e.pw = &payloadCapture{}
		if e.zstd != nil {
			e.pw.zm = &zstdMessage{enc: e.zstd}
		}
		e.w = ipc.NewWriterWithPayloadWriter(e.pw, e.opts...)
	}
	e.pw.dst = dst
	err := e.w.Write(rec)
	dst, e.pw.dst = e.pw.dst, nil
	if err != nil {
		// An ipc.Writer stays failed after an error: start afresh next time.
		e.w, e.pw = nil, nil
		return dst, fmt.Errorf("logbatch: encode arrow record: %w", err)
	}
	return dst, nil
}

// Close releases the encoder's resources.
func (e *ArrowEncoder) Close() error {
	if e.w == nil {
		return nil
	}
	err := e.w.Close()
	e.w, e.pw = nil, nil
	return err
}
