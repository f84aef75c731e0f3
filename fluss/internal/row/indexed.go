package row

import (
	"encoding/binary"
	"fmt"

	"github.com/flussql/flussql/fluss/datum"
	"github.com/flussql/flussql/fluss/types"
)

// isVariableLength reports whether IndexedRow gives the type a length slot.
func isVariableLength(t *types.DataType) bool {
	switch t.Kind {
	case types.String, types.Bytes, types.Row, types.Array, types.Map:
		return true
	case types.Decimal:
		return t.Precision > MaxCompactPrecision
	}
	return false
}

func indexedHeaderSize(ts []types.DataType) (nullBytes, header int) {
	nullBytes = nullBitsSize(len(ts))
	header = nullBytes
	for i := range ts {
		if isVariableLength(&ts[i]) {
			header += 4
		}
	}
	return nullBytes, header
}

// IndexedEncoder encodes rows as Fluss IndexedRow bytes (IndexedRowWriter).
// It is safe for concurrent use.
type IndexedEncoder struct {
	types []types.DataType
}

// NewIndexedEncoder returns an encoder for rows of fieldTypes. CHAR and BINARY
// columns need their length, as IndexedRow pads them to it.
func NewIndexedEncoder(fieldTypes []types.DataType) (*IndexedEncoder, error) {
	if err := checkTypes(fieldTypes, true); err != nil {
		return nil, err
	}
	return &IndexedEncoder{types: append([]types.DataType(nil), fieldTypes...)}, nil
}

// Format returns Indexed.
func (e *IndexedEncoder) Format() Format { return Indexed }

// Append appends the IndexedRow encoding of values to dst.
func (e *IndexedEncoder) Append(dst []byte, values []any) ([]byte, error) {
	out, err := appendIndexedRow(dst, e.types, values)
	if err != nil {
		return dst, err
	}
	return out, nil
}

func appendIndexedRow(dst []byte, ts []types.DataType, values []any) ([]byte, error) {
	if len(values) != len(ts) {
		return dst, fmt.Errorf("row: got %d values for %d columns", len(values), len(ts))
	}
	start := len(dst)
	nullBytes, header := indexedHeaderSize(ts)
	for range header {
		dst = append(dst, 0)
	}
	slot := start + nullBytes
	for i := range ts {
		t := &ts[i]
		v := values[i]
		if v == nil {
			if t.NotNull {
				return dst, fmt.Errorf("row: column %d (%s) is NULL", i, t)
			}
			setNullBit(dst[start:], i)
			continue
		}
		before := len(dst)
		var err error
		if dst, err = appendIndexedValue(dst, t, v); err != nil {
			return dst, fmt.Errorf("column %d: %w", i, err)
		}
		if isVariableLength(t) {
			binary.LittleEndian.PutUint32(dst[slot:], uint32(len(dst)-before))
			slot += 4
		}
	}
	return dst, nil
}

// appendIndexedValue appends one non-null value; variable-length values are written
// raw (their length goes to the header slot).
func appendIndexedValue(dst []byte, t *types.DataType, v any) ([]byte, error) {
	switch t.Kind {
	case types.Boolean, types.TinyInt, types.SmallInt, types.Float, types.Double:
		return appendCompactedValue(dst, t, v) // same fixed-width encoding
	case types.Int:
		x, ok := v.(int32)
		if !ok {
			return dst, typeError(t, "int32", v)
		}
		return binary.LittleEndian.AppendUint32(dst, uint32(x)), nil
	case types.Date:
		x, ok := v.(Date)
		if !ok {
			return dst, typeError(t, "datum.Date", v)
		}
		return binary.LittleEndian.AppendUint32(dst, uint32(x)), nil
	case types.Time:
		x, ok := v.(Time)
		if !ok {
			return dst, typeError(t, "datum.Time", v)
		}
		return binary.LittleEndian.AppendUint32(dst, uint32(x)), nil
	case types.BigInt:
		x, ok := v.(int64)
		if !ok {
			return dst, typeError(t, "int64", v)
		}
		return binary.LittleEndian.AppendUint64(dst, uint64(x)), nil
	case types.Char:
		s, ok := v.(string)
		if !ok {
			return dst, typeError(t, "string", v)
		}
		return appendPadded(dst, t, []byte(s))
	case types.Binary:
		b, ok := v.([]byte)
		if !ok {
			return dst, typeError(t, "[]byte", v)
		}
		return appendPadded(dst, t, b)
	case types.String:
		s, ok := v.(string)
		if !ok {
			return dst, typeError(t, "string", v)
		}
		return append(dst, s...), nil
	case types.Bytes:
		b, ok := v.([]byte)
		if !ok {
			return dst, typeError(t, "[]byte", v)
		}
		return append(dst, b...), nil
	case types.Decimal:
		d, ok := v.(Decimal)
		if !ok {
			return dst, typeError(t, "datum.Decimal", v)
		}
		d, err := fitDecimal(d, t.Precision, t.Scale)
		if err != nil {
			return dst, err
		}
		if t.Precision <= MaxCompactPrecision {
			u, _ := d.UnscaledInt64()
			return binary.LittleEndian.AppendUint64(dst, uint64(u)), nil
		}
		return appendTwosComplement(dst, d), nil
	case types.Timestamp:
		x, ok := v.(TimestampNTZ)
		if !ok {
			return dst, typeError(t, "datum.TimestampNTZ", v)
		}
		return appendFixedTimestamp(dst, t.Precision, x.Millis, x.NanoOfMilli)
	case types.TimestampLTZ:
		x, ok := v.(TimestampLTZ)
		if !ok {
			return dst, typeError(t, "datum.TimestampLTZ", v)
		}
		return appendFixedTimestamp(dst, t.Precision, x.EpochMillis, x.NanoOfMilli)
	case types.Row:
		fields, ok := v.([]any)
		if !ok {
			return dst, typeError(t, "[]any", v)
		}
		return appendIndexedRow(dst, rowFieldTypes(t), fields)
	case types.Array, types.Map:
		return appendNested(dst, Indexed, t, v)
	}
	return dst, fmt.Errorf("%w: %s", ErrUnsupportedType, t)
}

func appendPadded(dst []byte, t *types.DataType, b []byte) ([]byte, error) {
	if len(b) > t.Length {
		return dst, fmt.Errorf("row: %d bytes do not fit %s", len(b), t)
	}
	dst = append(dst, b...)
	for range t.Length - len(b) {
		dst = append(dst, 0)
	}
	return dst, nil
}

func appendFixedTimestamp(dst []byte, precision int, millis int64, nanos int32) ([]byte, error) {
	if err := checkNanoOfMilli(nanos); err != nil {
		return dst, err
	}
	dst = binary.LittleEndian.AppendUint64(dst, uint64(millis))
	if !isCompactTimestamp(precision) {
		dst = binary.LittleEndian.AppendUint32(dst, uint32(nanos))
	}
	return dst, nil
}

// IndexedDecoder decodes Fluss IndexedRow bytes. It is safe for concurrent use.
type IndexedDecoder struct {
	types []types.DataType
}

// NewIndexedDecoder returns a decoder for rows of fieldTypes.
func NewIndexedDecoder(fieldTypes []types.DataType) (*IndexedDecoder, error) {
	if err := checkTypes(fieldTypes, true); err != nil {
		return nil, err
	}
	return &IndexedDecoder{types: append([]types.DataType(nil), fieldTypes...)}, nil
}

// Format returns Indexed.
func (d *IndexedDecoder) Format() Format { return Indexed }

// Decode decodes an IndexedRow that spans all of b. As Java's IndexedRow does, CHAR
// and BINARY values lose their trailing zero bytes (the padding).
func (d *IndexedDecoder) Decode(b []byte) ([]any, error) {
	return decodeIndexedRow(b, d.types, 0)
}

func decodeIndexedRow(b []byte, ts []types.DataType, depth int) ([]any, error) {
	if depth > maxNesting {
		return nil, fmt.Errorf("row: nesting deeper than %d", maxNesting)
	}
	nullBytes, header := indexedHeaderSize(ts)
	if len(b) < header {
		return nil, fmt.Errorf("row: indexed row header: %w", errTruncated)
	}
	bits := b[:nullBytes]
	slots := reader{b: b[nullBytes:header]}
	r := reader{b: b, pos: header}
	values := make([]any, len(ts))
	for i := range ts {
		// like Java's IndexedRowReader, the null bit counts for nullable columns only
		if !ts[i].NotNull && isNullBit(bits, i) {
			continue
		}
		t := &ts[i]
		var err error
		if isVariableLength(t) {
			var n int32
			if n, err = slots.int32le(); err == nil {
				var raw []byte
				if raw, err = r.fixed(int(n)); err == nil {
					values[i], err = indexedVariable(raw, t, depth)
				}
			}
		} else {
			values[i], err = readIndexedFixed(&r, t)
		}
		if err != nil {
			return nil, fmt.Errorf("row: column %d (%s): %w", i, t, err)
		}
	}
	if r.remaining() != 0 {
		return nil, fmt.Errorf("row: %d bytes left after the last column", r.remaining())
	}
	return values, nil
}

func indexedVariable(raw []byte, t *types.DataType, depth int) (any, error) {
	switch t.Kind {
	case types.String:
		return string(raw), nil
	case types.Bytes:
		return append([]byte{}, raw...), nil
	case types.Decimal:
		d, err := decimalFromTwosComplement(raw, t.Scale)
		if err != nil {
			return nil, err
		}
		return checkedDecimal(d, t)
	case types.Row:
		return decodeIndexedRow(raw, rowFieldTypes(t), depth+1)
	case types.Array:
		return decodeBinaryArray(raw, Indexed, t.Elem, false, depth+1)
	case types.Map:
		return decodeBinaryMap(raw, Indexed, t, depth+1)
	}
	return nil, fmt.Errorf("%w: %s", ErrUnsupportedType, t)
}

func readIndexedFixed(r *reader, t *types.DataType) (any, error) {
	switch t.Kind {
	case types.Boolean, types.TinyInt, types.SmallInt, types.Float, types.Double:
		return readCompactedValue(r, t, 0)
	case types.Int:
		return r.int32le()
	case types.Date:
		x, err := r.int32le()
		return Date(x), err
	case types.Time:
		x, err := r.int32le()
		return Time(x), err
	case types.BigInt:
		return r.int64le()
	case types.Decimal: // compact only; big decimals are variable-length
		u, err := r.int64le()
		if err != nil {
			return nil, err
		}
		return checkedDecimal(datum.NewDecimal(u, t.Scale), t)
	case types.Char:
		b, err := r.fixed(t.Length)
		return string(trimZeros(b)), err
	case types.Binary:
		b, err := r.fixed(t.Length)
		return append([]byte{}, trimZeros(b)...), err
	case types.Timestamp, types.TimestampLTZ:
		ms, err := r.int64le()
		if err != nil {
			return nil, err
		}
		var nanos int32
		if !isCompactTimestamp(t.Precision) {
			if nanos, err = r.int32le(); err != nil {
				return nil, err
			}
			if err := checkNanoOfMilli(nanos); err != nil {
				return nil, err
			}
		}
		if t.Kind == types.Timestamp {
			return TimestampNTZ{Millis: ms, NanoOfMilli: nanos}, nil
		}
		return TimestampLTZ{EpochMillis: ms, NanoOfMilli: nanos}, nil
	}
	return nil, fmt.Errorf("%w: %s", ErrUnsupportedType, t)
}

func trimZeros(b []byte) []byte {
	n := len(b)
	for n > 0 && b[n-1] == 0 {
		n--
	}
	return b[:n]
}
