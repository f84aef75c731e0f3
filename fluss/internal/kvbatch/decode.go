package kvbatch

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
)

// ErrCorrupt is wrapped by every decoding error caused by malformed bytes.
var ErrCorrupt = errors.New("kvbatch: corrupt batch")

// Batch is a decoded KV record batch.
type Batch struct {
	SchemaID      int16
	Attributes    int8
	WriterID      int64
	BatchSequence int32
	CRC           uint32
	Records       []Record
}

// Record is one KV record. Key and Value alias the decoded bytes.
type Record struct {
	Key []byte
	// Value is the encoded value row, or nil for a delete.
	Value []byte
}

// IsDelete reports whether the record deletes its key.
func (r Record) IsDelete() bool { return r.Value == nil }

func corrupt(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrCorrupt, fmt.Sprintf(format, args...))
}

// Decode reads the KV batch at the start of b, verifies its CRC and returns it with
// the number of bytes it occupies.
func Decode(b []byte) (*Batch, int, error) {
	if len(b) < HeaderSize {
		return nil, 0, corrupt("%d bytes are shorter than the %d-byte header", len(b), HeaderSize)
	}
	length := int64(int32(binary.LittleEndian.Uint32(b[offLength:])))
	total := length + 4
	if total < HeaderSize {
		return nil, 0, corrupt("declared size %d is smaller than the header", total)
	}
	if total > int64(len(b)) {
		return nil, 0, corrupt("declared size %d exceeds the %d bytes available", total, len(b))
	}
	b = b[:total]
	if m := b[offMagic]; m != Magic {
		return nil, 0, corrupt("unsupported magic %d", m)
	}
	stored := binary.LittleEndian.Uint32(b[offCRC:])
	if got := crc32.Checksum(b[offSchemaID:], castagnoli); got != stored {
		return nil, 0, corrupt("CRC mismatch: stored %08x, computed %08x", stored, got)
	}
	batch := &Batch{
		SchemaID:      int16(binary.LittleEndian.Uint16(b[offSchemaID:])),
		Attributes:    int8(b[offAttributes]),
		WriterID:      int64(binary.LittleEndian.Uint64(b[offWriterID:])),
		BatchSequence: int32(binary.LittleEndian.Uint32(b[offSequence:])),
		CRC:           stored,
	}
	count := int32(binary.LittleEndian.Uint32(b[offCount:]))
	rest := b[HeaderSize:]
	// every record takes at least 5 bytes (length + key length), which bounds count
	if count < 0 || int64(count) > int64(len(rest)/5) {
		return nil, 0, corrupt("record count %d does not fit %d bytes of records", count, len(rest))
	}
	batch.Records = make([]Record, 0, count)
	for i := range count {
		rec, n, err := decodeRecord(rest)
		if err != nil {
			return nil, 0, fmt.Errorf("record %d: %w", i, err)
		}
		batch.Records = append(batch.Records, rec)
		rest = rest[n:]
	}
	if len(rest) != 0 {
		return nil, 0, corrupt("%d bytes after the last of %d records", len(rest), count)
	}
	return batch, int(total), nil
}

func decodeRecord(b []byte) (Record, int, error) {
	if len(b) < 4 {
		return Record{}, 0, corrupt("truncated record length")
	}
	size := int64(int32(binary.LittleEndian.Uint32(b)))
	if size < 1 || size > int64(len(b)-4) {
		return Record{}, 0, corrupt("record size %d does not fit %d bytes", size, len(b)-4)
	}
	body := b[4 : 4+size]
	keyLen, n := binary.Uvarint(body)
	if n <= 0 || n > 5 {
		return Record{}, 0, corrupt("bad key length varint")
	}
	if keyLen == 0 || keyLen > uint64(len(body)-n) {
		return Record{}, 0, corrupt("key length %d does not fit the record", keyLen)
	}
	rec := Record{Key: body[n : n+int(keyLen)]}
	if v := body[n+int(keyLen):]; len(v) > 0 {
		rec.Value = v
	}
	return rec, int(4 + size), nil
}
