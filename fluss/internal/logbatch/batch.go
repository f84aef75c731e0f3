package logbatch

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math"
)

// Batch is one log batch inside a larger buffer: its parsed header and its
// bytes (aliasing the buffer it was read from).
type Batch struct {
	Header
	// Data is the whole batch, header included.
	Data []byte
}

// Records returns the records section: everything after the header and the
// statistics.
func (b Batch) Records() []byte {
	n, _ := HeaderSize(b.Magic)
	return b.Data[n+int(b.StatisticsLength):]
}

// Statistics returns the raw column statistics section (nil when the batch
// has none); [ParseStatistics] reads it.
func (b Batch) Statistics() []byte {
	if b.StatisticsLength == 0 {
		return nil
	}
	n, _ := HeaderSize(b.Magic)
	return b.Data[n : n+int(b.StatisticsLength)]
}

// ComputeCRC returns the CRC-32C of the batch's CRC-covered range.
func (b Batch) ComputeCRC() uint32 {
	l, _ := layoutOf(b.Magic)
	return crc32.Checksum(b.Data[l.schemaID:], crcTable)
}

// VerifyCRC returns an ErrCorrupt error when the stored CRC does not match.
// Batches of a projection-pushdown fetch keep the CRC of the unprojected
// batch, so do not verify those.
func (b Batch) VerifyCRC() error {
	if got := b.ComputeCRC(); got != b.CRC {
		return fmt.Errorf("%w: stored crc %#08x, computed %#08x (base offset %d)", ErrCorrupt, b.CRC, got, b.BaseOffset)
	}
	return nil
}

// ParseBatch parses the batch at the start of buf. It returns the batch and
// its size in bytes. A buf shorter than the declared batch size is an error
// here; use [Iterator] to tolerate the trailing partial batch of a fetch.
// The CRC is not checked (see [Batch.VerifyCRC]).
func ParseBatch(buf []byte) (Batch, int, error) {
	if len(buf) < LogOverhead {
		return Batch{}, 0, fmt.Errorf("%w: %d bytes is too short for a batch", ErrCorrupt, len(buf))
	}
	size := int64(LogOverhead) + int64(int32(binary.LittleEndian.Uint32(buf[offLength:])))
	if size < LogOverhead+1 {
		return Batch{}, 0, fmt.Errorf("%w: invalid batch length %d", ErrCorrupt, size-LogOverhead)
	}
	if size > int64(len(buf)) {
		return Batch{}, 0, fmt.Errorf("%w: batch of %d bytes truncated to %d", ErrCorrupt, size, len(buf))
	}
	data := buf[:size:size]
	h, err := parseHeader(data)
	if err != nil {
		return Batch{}, 0, err
	}
	return Batch{Header: h, Data: data}, int(size), nil
}

// DecodeOptions control how batches are split out of a buffer.
type DecodeOptions struct {
	// SkipCRC disables CRC verification; set it for projection-pushdown
	// fetches, whose batches keep the CRC of the unprojected bytes.
	SkipCRC bool
}

// Iterator walks the batches concatenated in a buffer, as in a FetchLog
// response. It stops without error at a trailing partial batch (the server
// cuts responses at a byte limit) and with an error at a corrupt one.
type Iterator struct {
	buf  []byte
	pos  int
	opts DecodeOptions
	cur  Batch
	err  error
}

// NewIterator returns an iterator over buf. The batches alias buf.
func NewIterator(buf []byte, opts DecodeOptions) *Iterator {
	return &Iterator{buf: buf, opts: opts}
}

// Next advances to the next complete batch and reports whether there is one.
func (it *Iterator) Next() bool {
	if it.err != nil {
		return false
	}
	rest := it.buf[it.pos:]
	if len(rest) < LogOverhead {
		return false
	}
	length := int32(binary.LittleEndian.Uint32(rest[offLength:]))
	if length < 0 {
		it.err = fmt.Errorf("%w: negative batch length %d at byte %d", ErrCorrupt, length, it.pos)
		return false
	}
	if int64(LogOverhead)+int64(length) > int64(len(rest)) {
		return false // trailing partial batch
	}
	b, n, err := ParseBatch(rest)
	if err == nil && !it.opts.SkipCRC {
		err = b.VerifyCRC()
	}
	if err != nil {
		it.err = fmt.Errorf("batch at byte %d: %w", it.pos, err)
		return false
	}
	it.cur = b
	it.pos += n
	return true
}

// Batch returns the current batch.
func (it *Iterator) Batch() Batch { return it.cur }

// Err returns the error that stopped the iteration, if any.
func (it *Iterator) Err() error { return it.err }

// Consumed returns how many bytes of complete batches were read so far; the
// rest of the buffer is a partial batch (or unread).
func (it *Iterator) Consumed() int { return it.pos }

// DecodeBatches returns every complete batch in buf, ignoring a trailing
// partial batch. The batches alias buf.
func DecodeBatches(buf []byte, opts DecodeOptions) ([]Batch, error) {
	var out []Batch
	it := NewIterator(buf, opts)
	for it.Next() {
		out = append(out, it.Batch())
	}
	return out, it.Err()
}

// PeekBatch reads the size and the next offset of the batch whose first
// bytes are prefix (at least its header: HeaderSizeV2 bytes, or the whole
// batch when shorter), without the rest of it: for walking a log file batch
// by batch.
func PeekBatch(prefix []byte) (size, nextOffset int64, err error) {
	if len(prefix) <= offMagic {
		return 0, 0, fmt.Errorf("%w: %d bytes is too short for a batch header", ErrCorrupt, len(prefix))
	}
	size = int64(LogOverhead) + int64(int32(binary.LittleEndian.Uint32(prefix[offLength:])))
	l, err := layoutOf(int8(prefix[offMagic]))
	if err != nil {
		return 0, 0, err
	}
	if size < int64(l.size) {
		return 0, 0, fmt.Errorf("%w: batch of %d bytes is smaller than its %d-byte header", ErrCorrupt, size, l.size)
	}
	if len(prefix) < l.size {
		return 0, 0, fmt.Errorf("%w: %d bytes is too short for a %d-byte batch header", ErrCorrupt, len(prefix), l.size)
	}
	base := int64(binary.LittleEndian.Uint64(prefix[offBaseOffset:]))
	delta := int32(binary.LittleEndian.Uint32(prefix[l.lastOffsetDelta:]))
	if base < 0 || delta < 0 || base > math.MaxInt64-int64(delta)-1 {
		return 0, 0, fmt.Errorf("%w: batch at offset %d has last offset delta %d", ErrCorrupt, base, delta)
	}
	return size, base + int64(delta) + 1, nil
}
