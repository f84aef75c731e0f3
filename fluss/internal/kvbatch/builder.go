// Package kvbatch builds and reads Fluss KV record batches (the records of a PutKv
// request; DefaultKvRecordBatch/KvRecordBatchBuilder in Java 0.9.1), splits the
// schema-id-prefixed values returned by Lookup and PrefixLookup, and reads the value
// record batches of LimitScan on primary-key tables (DefaultValueRecordBatch).
// All integers are little-endian.
//
// KV batch layout (magic 0, 28-byte header):
//
//	0  int32  Length = total size - 4
//	4  int8   Magic = 0
//	5  uint32 CRC-32C (Castagnoli) of bytes [9, end)
//	9  int16  SchemaId of the value rows
//	11 int8   Attributes = 0
//	12 int64  WriterId (-1 without idempotence)
//	20 int32  BatchSequence (-1 without idempotence)
//	24 int32  RecordCount
//	28 records: int32 length of the rest | uvarint key length | key | value row
//
// A record without value bytes deletes its key. Value rows carry no schema id.
package kvbatch

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
)

// Batch constants.
const (
	// Magic is the only KV batch magic (CURRENT_KV_MAGIC_VALUE).
	Magic = 0
	// HeaderSize is the size of the batch header.
	HeaderSize = 28
	// NoWriterID is the writer id of a batch written without idempotence.
	NoWriterID int64 = -1
	// NoBatchSequence is the sequence of a batch written without idempotence.
	NoBatchSequence int32 = -1

	offLength     = 0
	offMagic      = 4
	offCRC        = 5
	offSchemaID   = 9
	offAttributes = 11
	offWriterID   = 12
	offSequence   = 20
	offCount      = 24
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Builder accumulates KV records into one batch. The zero value is not usable; call
// NewBuilder. A Builder is not safe for concurrent use.
type Builder struct {
	buf      []byte
	schemaID int16
	count    int32
}

// NewBuilder starts a batch whose value rows are of the given schema id (0..32767).
func NewBuilder(schemaID int) (*Builder, error) {
	if schemaID < 0 || schemaID > math.MaxInt16 {
		return nil, fmt.Errorf("kvbatch: schema id %d out of range 0..32767", schemaID)
	}
	b := &Builder{schemaID: int16(schemaID)}
	b.Reset()
	return b, nil
}

// Reset empties the builder, keeping its schema id and memory.
func (b *Builder) Reset() {
	b.buf = append(b.buf[:0], make([]byte, HeaderSize)...)
	b.count = 0
}

// RecordSize returns the bytes a record with this key and value adds to a batch.
func RecordSize(key, value []byte) int {
	return 4 + uvarintLen(uint64(len(key))) + len(key) + len(value)
}

// Append adds an upsert of key to value (an encoded row of the table's kv format), or
// a delete of key when value is nil. Keys must not be empty; a non-nil value must
// not be empty either, as it would read back as a delete.
func (b *Builder) Append(key, value []byte) error {
	if len(key) == 0 {
		return errors.New("kvbatch: empty key")
	}
	if value != nil && len(value) == 0 {
		return errors.New("kvbatch: empty value row (use a nil value to delete)")
	}
	if b.count == math.MaxInt32-1 {
		return errors.New("kvbatch: too many records in one batch")
	}
	size := RecordSize(key, value) - 4
	if len(b.buf)+4+size > math.MaxInt32 {
		return errors.New("kvbatch: batch larger than 2 GiB")
	}
	b.buf = binary.LittleEndian.AppendUint32(b.buf, uint32(size))
	b.buf = binary.AppendUvarint(b.buf, uint64(len(key)))
	b.buf = append(b.buf, key...)
	b.buf = append(b.buf, value...)
	b.count++
	return nil
}

// AppendDelete adds a delete of key.
func (b *Builder) AppendDelete(key []byte) error { return b.Append(key, nil) }

// Size returns the size the batch has now, header included.
func (b *Builder) Size() int { return len(b.buf) }

// Count returns the number of records appended.
func (b *Builder) Count() int { return int(b.count) }

// SchemaID returns the schema id of the batch.
func (b *Builder) SchemaID() int16 { return b.schemaID }

// Build writes the header with the given writer id and batch sequence (NoWriterID
// and NoBatchSequence without idempotence) and the CRC, and returns the batch. The
// slice is the builder's own: it stays valid until the next Append, Build or Reset.
// Build may be called again, e.g. to resend the records under new writer state.
func (b *Builder) Build(writerID int64, batchSequence int32) []byte {
	h := b.buf[:HeaderSize]
	binary.LittleEndian.PutUint32(h[offLength:], uint32(len(b.buf)-4))
	h[offMagic] = Magic
	binary.LittleEndian.PutUint16(h[offSchemaID:], uint16(b.schemaID))
	h[offAttributes] = 0
	binary.LittleEndian.PutUint64(h[offWriterID:], uint64(writerID))
	binary.LittleEndian.PutUint32(h[offSequence:], uint32(batchSequence))
	binary.LittleEndian.PutUint32(h[offCount:], uint32(b.count))
	binary.LittleEndian.PutUint32(h[offCRC:], crc32.Checksum(b.buf[offSchemaID:], castagnoli))
	return b.buf
}

func uvarintLen(v uint64) int {
	n := 1
	for v >= 0x80 {
		v >>= 7
		n++
	}
	return n
}
