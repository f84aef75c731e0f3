package logbatch

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
)

// Batch format constants (Fluss's LogRecordBatchFormat).
const (
	// MagicV0 is the layout of batches without statistics (48-byte header).
	MagicV0 int8 = 0
	// MagicV1 is Fluss 1.0's "V0 plus statistics" layout: a StatisticsLength
	// field closes the 52-byte header and that many bytes of column
	// statistics sit between the header and the records. Fluss 1.0 clients
	// write it for tables with 'table.statistics.columns'. (Fluss 0.9 had a
	// different, never-written magic 1 — V0 plus a leader epoch — which 1.0
	// renamed V2; this package reads the 1.0 layouts.)
	MagicV1 int8 = 1
	// MagicV2 is Fluss 1.0's V1 plus a LeaderEpoch after CommitTimestamp
	// (56-byte header, then statistics, then records).
	MagicV2 int8 = 2

	// HeaderSizeV0, HeaderSizeV1 and HeaderSizeV2 are the fixed header sizes
	// per magic (statistics not included).
	HeaderSizeV0 = 48
	HeaderSizeV1 = 52
	HeaderSizeV2 = 56

	// LogOverhead is the part of a batch not counted by its Length field:
	// BaseOffset (8) and Length (4).
	LogOverhead = 12

	// NoWriterID, NoBatchSequence and NoLeaderEpoch are the "unset" values.
	NoWriterID      int64 = -1
	NoBatchSequence int32 = -1
	NoLeaderEpoch   int32 = -1

	// AttrAppendOnly is the attributes bit of batches whose records are all
	// +A (log-table writes); ARROW batches without it carry a change-type
	// vector.
	AttrAppendOnly uint8 = 0x01
)

// Field offsets shared by both magics; the rest depend on the magic.
const (
	offBaseOffset      = 0
	offLength          = 8
	offMagic           = 12
	offCommitTimestamp = 13
)

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// Errors returned by the batch decoders; match them with errors.Is.
var (
	// ErrCorrupt marks a batch whose bytes are inconsistent (bad size,
	// CRC, record count, body).
	ErrCorrupt = errors.New("logbatch: corrupt batch")
	// ErrUnsupportedMagic marks a batch with a magic this package cannot read.
	ErrUnsupportedMagic = errors.New("logbatch: unsupported batch magic")
)

// Header is the fixed part of a log batch. Length and CRC are computed by the
// encoder; the other fields are what a writer sets or a reader looks at.
type Header struct {
	// BaseOffset is the offset of the first record; clients write 0 and the
	// server assigns it.
	BaseOffset int64
	// Magic is the layout version: MagicV0, MagicV1 or MagicV2.
	Magic int8
	// CommitTimestamp is the server's append time in epoch milliseconds
	// (clients write 0).
	CommitTimestamp int64
	// LeaderEpoch exists only in MagicV2; NoLeaderEpoch otherwise.
	LeaderEpoch int32
	// CRC is the stored CRC-32C of the bytes from SchemaID to the end.
	CRC uint32
	// SchemaID is the table schema id of the rows.
	SchemaID int16
	// Attributes holds AttrAppendOnly; other bits are unused.
	Attributes uint8
	// LastOffsetDelta is RecordCount-1 (0 for an empty batch).
	LastOffsetDelta int32
	// WriterID is the idempotent writer id, or NoWriterID.
	WriterID int64
	// BatchSequence is the per-bucket writer sequence, or NoBatchSequence.
	BatchSequence int32
	// RecordCount is the number of records in the batch.
	RecordCount int32
	// StatisticsLength is the size of the column statistics that follow the
	// header (MagicV1 and MagicV2; 0 for none and always 0 in MagicV0).
	StatisticsLength int32
}

// AppendOnly reports whether the append-only attribute bit is set.
func (h Header) AppendOnly() bool { return h.Attributes&AttrAppendOnly != 0 }

// LastOffset is the offset of the last record of the batch.
func (h Header) LastOffset() int64 { return h.BaseOffset + int64(h.LastOffsetDelta) }

// NextOffset is the offset to fetch after this batch.
func (h Header) NextOffset() int64 { return h.LastOffset() + 1 }

// HeaderSize returns the header size of a magic, or an error for an unknown one.
func HeaderSize(magic int8) (int, error) {
	switch magic {
	case MagicV0:
		return HeaderSizeV0, nil
	case MagicV1:
		return HeaderSizeV1, nil
	case MagicV2:
		return HeaderSizeV2, nil
	}
	return 0, fmt.Errorf("%w %d", ErrUnsupportedMagic, magic)
}

// layout holds the per-magic offsets of the fields after CommitTimestamp.
type layout struct {
	leaderEpoch, crc, schemaID, attributes, lastOffsetDelta, writerID, batchSequence, recordCount, statsLength, size int
}

// layouts follow LogRecordBatchFormat of Fluss 1.0; -1 marks a field the
// magic lacks.
var layouts = [3]layout{
	MagicV0: {leaderEpoch: -1, crc: 21, schemaID: 25, attributes: 27, lastOffsetDelta: 28, writerID: 32, batchSequence: 40, recordCount: 44, statsLength: -1, size: HeaderSizeV0},
	MagicV1: {leaderEpoch: -1, crc: 21, schemaID: 25, attributes: 27, lastOffsetDelta: 28, writerID: 32, batchSequence: 40, recordCount: 44, statsLength: 48, size: HeaderSizeV1},
	MagicV2: {leaderEpoch: 21, crc: 25, schemaID: 29, attributes: 31, lastOffsetDelta: 32, writerID: 36, batchSequence: 44, recordCount: 48, statsLength: 52, size: HeaderSizeV2},
}

func layoutOf(magic int8) (*layout, error) {
	if magic < MagicV0 || magic > MagicV2 {
		return nil, fmt.Errorf("%w %d", ErrUnsupportedMagic, magic)
	}
	return &layouts[magic], nil
}

// parseHeader reads the header of the batch b (which holds the whole batch).
func parseHeader(b []byte) (Header, error) {
	if len(b) <= offMagic {
		return Header{}, fmt.Errorf("%w: %d bytes is too short for a header", ErrCorrupt, len(b))
	}
	l, err := layoutOf(int8(b[offMagic]))
	if err != nil {
		return Header{}, err
	}
	if len(b) < l.size {
		return Header{}, fmt.Errorf("%w: batch of %d bytes is smaller than its %d-byte header", ErrCorrupt, len(b), l.size)
	}
	le := binary.LittleEndian
	h := Header{
		BaseOffset:      int64(le.Uint64(b[offBaseOffset:])),
		Magic:           int8(b[offMagic]),
		CommitTimestamp: int64(le.Uint64(b[offCommitTimestamp:])),
		LeaderEpoch:     NoLeaderEpoch,
		CRC:             le.Uint32(b[l.crc:]),
		SchemaID:        int16(le.Uint16(b[l.schemaID:])),
		Attributes:      b[l.attributes],
		LastOffsetDelta: int32(le.Uint32(b[l.lastOffsetDelta:])),
		WriterID:        int64(le.Uint64(b[l.writerID:])),
		BatchSequence:   int32(le.Uint32(b[l.batchSequence:])),
		RecordCount:     int32(le.Uint32(b[l.recordCount:])),
	}
	if l.leaderEpoch >= 0 {
		h.LeaderEpoch = int32(le.Uint32(b[l.leaderEpoch:]))
	}
	if l.statsLength >= 0 {
		h.StatisticsLength = int32(le.Uint32(b[l.statsLength:]))
		if h.StatisticsLength < 0 || int64(l.size)+int64(h.StatisticsLength) > int64(len(b)) {
			return Header{}, fmt.Errorf("%w: statistics of %d bytes do not fit a batch of %d bytes", ErrCorrupt, h.StatisticsLength, len(b))
		}
	}
	if h.RecordCount < 0 {
		return Header{}, fmt.Errorf("%w: negative record count %d", ErrCorrupt, h.RecordCount)
	}
	return h, nil
}

// writeHeader writes h into the first bytes of batch (the whole batch, its
// statistics and records already in place), computing Length,
// LastOffsetDelta and the CRC. h.Magic selects the layout; StatisticsLength
// is written as given (MagicV1 and MagicV2) and must fit the batch.
func writeHeader(batch []byte, h Header) error {
	l, err := layoutOf(h.Magic)
	if err != nil {
		return err
	}
	if len(batch) < l.size {
		return fmt.Errorf("logbatch: batch buffer of %d bytes is smaller than the header", len(batch))
	}
	if h.RecordCount < 0 {
		return fmt.Errorf("logbatch: negative record count %d", h.RecordCount)
	}
	le := binary.LittleEndian
	le.PutUint64(batch[offBaseOffset:], uint64(h.BaseOffset))
	le.PutUint32(batch[offLength:], uint32(len(batch)-LogOverhead))
	batch[offMagic] = byte(h.Magic)
	le.PutUint64(batch[offCommitTimestamp:], uint64(h.CommitTimestamp))
	if l.leaderEpoch >= 0 {
		le.PutUint32(batch[l.leaderEpoch:], uint32(h.LeaderEpoch))
	}
	le.PutUint16(batch[l.schemaID:], uint16(h.SchemaID))
	batch[l.attributes] = h.Attributes
	lastDelta := int32(0)
	if h.RecordCount > 0 {
		lastDelta = h.RecordCount - 1
	}
	le.PutUint32(batch[l.lastOffsetDelta:], uint32(lastDelta))
	le.PutUint64(batch[l.writerID:], uint64(h.WriterID))
	le.PutUint32(batch[l.batchSequence:], uint32(h.BatchSequence))
	le.PutUint32(batch[l.recordCount:], uint32(h.RecordCount))
	if l.statsLength >= 0 {
		if h.StatisticsLength < 0 || l.size+int(h.StatisticsLength) > len(batch) {
			return fmt.Errorf("logbatch: statistics of %d bytes do not fit a batch of %d bytes", h.StatisticsLength, len(batch))
		}
		le.PutUint32(batch[l.statsLength:], uint32(h.StatisticsLength))
	} else if h.StatisticsLength != 0 {
		return fmt.Errorf("logbatch: magic %d batches carry no statistics (StatisticsLength %d)", h.Magic, h.StatisticsLength)
	}
	le.PutUint32(batch[l.crc:], crc32.Checksum(batch[l.schemaID:], crcTable))
	return nil
}

// SetWriterState rewrites the writer id and batch sequence of an encoded
// batch in place and recomputes its CRC, like Java's setWriterState before a
// (re)send.
func SetWriterState(batch []byte, writerID int64, batchSequence int32) error {
	if len(batch) <= offMagic {
		return fmt.Errorf("%w: batch too short", ErrCorrupt)
	}
	l, err := layoutOf(int8(batch[offMagic]))
	if err != nil {
		return err
	}
	if len(batch) < l.size {
		return fmt.Errorf("%w: batch too short", ErrCorrupt)
	}
	le := binary.LittleEndian
	le.PutUint64(batch[l.writerID:], uint64(writerID))
	le.PutUint32(batch[l.batchSequence:], uint32(batchSequence))
	le.PutUint32(batch[l.crc:], crc32.Checksum(batch[l.schemaID:], crcTable))
	return nil
}

// AppendBatch appends one complete batch to dst: the header h followed by
// records, the already-encoded records section (change-type vector and Arrow
// message, or INDEXED records). Length, LastOffsetDelta and CRC are computed;
// h.StatisticsLength is set to 0 (see [AppendBatchWithStatistics]).
func AppendBatch(dst []byte, h Header, records []byte) ([]byte, error) {
	return AppendBatchWithStatistics(dst, h, nil, records)
}

// AppendBatchWithStatistics is [AppendBatch] with a statistics section
// (see [EncodeStatistics]) between header and records; stats must be empty
// for MagicV0.
func AppendBatchWithStatistics(dst []byte, h Header, stats, records []byte) ([]byte, error) {
	size, err := HeaderSize(h.Magic)
	if err != nil {
		return dst, err
	}
	h.StatisticsLength = int32(len(stats))
	start := len(dst)
	dst = append(dst, make([]byte, size)...)
	dst = append(dst, stats...)
	dst = append(dst, records...)
	if err := writeHeader(dst[start:], h); err != nil {
		return dst[:start], err
	}
	return dst, nil
}
