package kvbatch

import (
	"encoding/binary"
	"fmt"
	"sync"

	"github.com/flussql/flussql/fluss/internal/row"
	"github.com/flussql/flussql/fluss/types"
)

// SchemaIDSize is the size of the schema-id prefix of stored values.
const SchemaIDSize = 2

// valueBatchHeaderSize is Length(4) + Magic(1) + RecordCount(4).
const valueBatchHeaderSize = 9

// AppendValue appends a stored value — int16 LE schema id then the row bytes — as
// the server keeps it and returns it from Lookup, PrefixLookup and LimitScan
// (ValueEncoder.encodeValue).
func AppendValue(dst []byte, schemaID int16, rowBytes []byte) []byte {
	dst = binary.LittleEndian.AppendUint16(dst, uint16(schemaID))
	return append(dst, rowBytes...)
}

// SplitValue splits a stored value into its schema id and row bytes (which alias v).
func SplitValue(v []byte) (schemaID int16, rowBytes []byte, err error) {
	if len(v) <= SchemaIDSize {
		return 0, nil, corrupt("value of %d bytes has no row after the schema id", len(v))
	}
	return int16(binary.LittleEndian.Uint16(v)), v[SchemaIDSize:], nil
}

// ValueRecord is one record of a value record batch. Row aliases the batch bytes.
type ValueRecord struct {
	SchemaID int16
	Row      []byte
}

// AppendValueBatch appends a value record batch (DefaultValueRecordBatch, magic 0):
// int32 Length = size - 4, int8 magic, int32 record count, then per record int32
// length, int16 schema id, row bytes. There is no CRC.
func AppendValueBatch(dst []byte, recs []ValueRecord) []byte {
	start := len(dst)
	dst = append(dst, make([]byte, valueBatchHeaderSize)...)
	for _, r := range recs {
		dst = binary.LittleEndian.AppendUint32(dst, uint32(SchemaIDSize+len(r.Row)))
		dst = AppendValue(dst, r.SchemaID, r.Row)
	}
	binary.LittleEndian.PutUint32(dst[start:], uint32(len(dst)-start-4))
	dst[start+4] = 0
	binary.LittleEndian.PutUint32(dst[start+5:], uint32(len(recs)))
	return dst
}

// DecodeValueBatch reads the value record batch at the start of b (the records of a
// LimitScan response on a primary-key table) and returns its records and size.
func DecodeValueBatch(b []byte) ([]ValueRecord, int, error) {
	if len(b) < valueBatchHeaderSize {
		return nil, 0, corrupt("value batch of %d bytes is shorter than its header", len(b))
	}
	total := int64(int32(binary.LittleEndian.Uint32(b))) + 4
	if total < valueBatchHeaderSize || total > int64(len(b)) {
		return nil, 0, corrupt("value batch size %d does not fit %d bytes", total, len(b))
	}
	b = b[:total]
	if b[4] != 0 {
		return nil, 0, corrupt("unsupported value batch magic %d", b[4])
	}
	count := int32(binary.LittleEndian.Uint32(b[5:]))
	rest := b[valueBatchHeaderSize:]
	if count < 0 || int64(count) > int64(len(rest)/(4+SchemaIDSize+1)) {
		return nil, 0, corrupt("record count %d does not fit %d bytes", count, len(rest))
	}
	recs := make([]ValueRecord, 0, count)
	for i := range count {
		if len(rest) < 4 {
			return nil, 0, corrupt("record %d: truncated length", i)
		}
		n := int64(int32(binary.LittleEndian.Uint32(rest)))
		if n < 0 || n > int64(len(rest)-4) {
			return nil, 0, corrupt("record %d: size %d does not fit %d bytes", i, n, len(rest)-4)
		}
		id, rowBytes, err := SplitValue(rest[4 : 4+n])
		if err != nil {
			return nil, 0, fmt.Errorf("record %d: %w", i, err)
		}
		recs = append(recs, ValueRecord{SchemaID: id, Row: rowBytes})
		rest = rest[4+n:]
	}
	if len(rest) != 0 {
		return nil, 0, corrupt("%d bytes after the last of %d records", len(rest), count)
	}
	return recs, int(total), nil
}

// SchemaResolver returns the column types of a schema id of the table, e.g. from
// GetTableSchema. Values can carry an older or newer schema id than the client knows.
type SchemaResolver func(schemaID int16) ([]types.DataType, error)

// ValueDecoder decodes stored values (schema id + row) into rows, building and
// caching one row decoder per schema id. It is safe for concurrent use.
type ValueDecoder struct {
	format  row.Format
	resolve SchemaResolver

	mu       sync.Mutex
	decoders map[int16]row.Decoder
}

// NewValueDecoder returns a decoder for values of a table with the given kv format.
func NewValueDecoder(format row.Format, resolve SchemaResolver) *ValueDecoder {
	return &ValueDecoder{format: format, resolve: resolve, decoders: map[int16]row.Decoder{}}
}

// Decode decodes one Lookup/PrefixLookup value.
func (d *ValueDecoder) Decode(value []byte) (schemaID int16, values []any, err error) {
	schemaID, rowBytes, err := SplitValue(value)
	if err != nil {
		return 0, nil, err
	}
	values, err = d.DecodeRow(schemaID, rowBytes)
	return schemaID, values, err
}

// DecodeRow decodes row bytes written under schemaID (e.g. a ValueRecord's).
func (d *ValueDecoder) DecodeRow(schemaID int16, rowBytes []byte) ([]any, error) {
	dec, err := d.decoder(schemaID)
	if err != nil {
		return nil, err
	}
	return dec.Decode(rowBytes)
}

func (d *ValueDecoder) decoder(schemaID int16) (row.Decoder, error) {
	d.mu.Lock()
	dec, ok := d.decoders[schemaID]
	d.mu.Unlock()
	if ok {
		return dec, nil
	}
	ts, err := d.resolve(schemaID)
	if err != nil {
		return nil, fmt.Errorf("kvbatch: schema %d: %w", schemaID, err)
	}
	dec, err = row.NewDecoder(d.format, ts)
	if err != nil {
		return nil, fmt.Errorf("kvbatch: schema %d: %w", schemaID, err)
	}
	d.mu.Lock()
	d.decoders[schemaID] = dec
	d.mu.Unlock()
	return dec, nil
}
