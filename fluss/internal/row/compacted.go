package row

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/flussql/flussql/fluss/datum"
	"github.com/flussql/flussql/fluss/types"
)

// CompactedEncoder encodes rows as Fluss CompactedRow bytes (CompactedRowWriter).
// It is safe for concurrent use.
type CompactedEncoder struct {
	types []types.DataType
}

// NewCompactedEncoder returns an encoder for rows of fieldTypes.
func NewCompactedEncoder(fieldTypes []types.DataType) (*CompactedEncoder, error) {
	if err := checkTypes(fieldTypes, false); err != nil {
		return nil, err
	}
	return &CompactedEncoder{types: append([]types.DataType(nil), fieldTypes...)}, nil
}

// Format returns Compacted.
func (e *CompactedEncoder) Format() Format { return Compacted }

// Append appends the CompactedRow encoding of values to dst.
func (e *CompactedEncoder) Append(dst []byte, values []any) ([]byte, error) {
	out, err := appendCompactedRow(dst, e.types, values)
	if err != nil {
		return dst, err
	}
	return out, nil
}

func appendCompactedRow(dst []byte, ts []types.DataType, values []any) ([]byte, error) {
	if len(values) != len(ts) {
		return dst, fmt.Errorf("row: got %d values for %d columns", len(values), len(ts))
	}
	start := len(dst)
	for range nullBitsSize(len(ts)) {
		dst = append(dst, 0)
	}
	for i := range ts {
		v := values[i]
		if v == nil {
			if ts[i].NotNull {
				return dst, fmt.Errorf("row: column %d (%s) is NULL", i, &ts[i])
			}
			setNullBit(dst[start:], i)
			continue
		}
		var err error
		if dst, err = appendCompactedValue(dst, &ts[i], v); err != nil {
			return dst, fmt.Errorf("column %d: %w", i, err)
		}
	}
	return dst, nil
}

// appendCompactedValue appends one non-null field value in CompactedRow encoding.
func appendCompactedValue(dst []byte, t *types.DataType, v any) ([]byte, error) {
	switch t.Kind {
	case types.Boolean:
		b, ok := v.(bool)
		if !ok {
			return dst, typeError(t, "bool", v)
		}
		if b {
			return append(dst, 1), nil
		}
		return append(dst, 0), nil
	case types.TinyInt:
		x, ok := v.(int8)
		if !ok {
			return dst, typeError(t, "int8", v)
		}
		return append(dst, byte(x)), nil
	case types.SmallInt:
		x, ok := v.(int16)
		if !ok {
			return dst, typeError(t, "int16", v)
		}
		return binary.LittleEndian.AppendUint16(dst, uint16(x)), nil
	case types.Int:
		x, ok := v.(int32)
		if !ok {
			return dst, typeError(t, "int32", v)
		}
		return appendVarint32(dst, x), nil
	case types.Date:
		x, ok := v.(Date)
		if !ok {
			return dst, typeError(t, "datum.Date", v)
		}
		return appendVarint32(dst, int32(x)), nil
	case types.Time:
		x, ok := v.(Time)
		if !ok {
			return dst, typeError(t, "datum.Time", v)
		}
		return appendVarint32(dst, int32(x)), nil
	case types.BigInt:
		x, ok := v.(int64)
		if !ok {
			return dst, typeError(t, "int64", v)
		}
		return appendVarint64(dst, x), nil
	case types.Float:
		x, ok := v.(float32)
		if !ok {
			return dst, typeError(t, "float32", v)
		}
		return binary.LittleEndian.AppendUint32(dst, math.Float32bits(x)), nil
	case types.Double:
		x, ok := v.(float64)
		if !ok {
			return dst, typeError(t, "float64", v)
		}
		return binary.LittleEndian.AppendUint64(dst, math.Float64bits(x)), nil
	case types.Char, types.String:
		s, ok := v.(string)
		if !ok {
			return dst, typeError(t, "string", v)
		}
		dst = appendVarint32(dst, int32(len(s)))
		return append(dst, s...), nil
	case types.Binary, types.Bytes:
		b, ok := v.([]byte)
		if !ok {
			return dst, typeError(t, "[]byte", v)
		}
		dst = appendVarint32(dst, int32(len(b)))
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
			u, _ := d.UnscaledInt64() // 18 digits always fit
			return appendVarint64(dst, u), nil
		}
		n := len(dst)
		dst = append(dst, 0) // placeholder for the (1-byte, as 17 bytes suffice) length
		dst = appendTwosComplement(dst, d)
		dst[n] = byte(len(dst) - n - 1)
		return dst, nil
	case types.Timestamp:
		x, ok := v.(TimestampNTZ)
		if !ok {
			return dst, typeError(t, "datum.TimestampNTZ", v)
		}
		return appendTimestamp(dst, t.Precision, x.Millis, x.NanoOfMilli)
	case types.TimestampLTZ:
		x, ok := v.(TimestampLTZ)
		if !ok {
			return dst, typeError(t, "datum.TimestampLTZ", v)
		}
		return appendTimestamp(dst, t.Precision, x.EpochMillis, x.NanoOfMilli)
	case types.Row:
		fields, ok := v.([]any)
		if !ok {
			return dst, typeError(t, "[]any", v)
		}
		nested, err := appendCompactedRow(nil, rowFieldTypes(t), fields)
		if err != nil {
			return dst, err
		}
		dst = appendVarint32(dst, int32(len(nested)))
		return append(dst, nested...), nil
	case types.Array, types.Map:
		nested, err := appendNested(nil, Compacted, t, v)
		if err != nil {
			return dst, err
		}
		dst = appendVarint32(dst, int32(len(nested)))
		return append(dst, nested...), nil
	}
	return dst, fmt.Errorf("%w: %s", ErrUnsupportedType, t)
}

func appendTimestamp(dst []byte, precision int, millis int64, nanos int32) ([]byte, error) {
	if err := checkNanoOfMilli(nanos); err != nil {
		return dst, err
	}
	dst = appendVarint64(dst, millis)
	if !isCompactTimestamp(precision) {
		dst = appendVarint32(dst, nanos)
	}
	return dst, nil
}

// CompactedDecoder decodes Fluss CompactedRow bytes. It is safe for concurrent use.
type CompactedDecoder struct {
	types []types.DataType
}

// NewCompactedDecoder returns a decoder for rows of fieldTypes.
func NewCompactedDecoder(fieldTypes []types.DataType) (*CompactedDecoder, error) {
	if err := checkTypes(fieldTypes, false); err != nil {
		return nil, err
	}
	return &CompactedDecoder{types: append([]types.DataType(nil), fieldTypes...)}, nil
}

// Format returns Compacted.
func (d *CompactedDecoder) Format() Format { return Compacted }

// Decode decodes a CompactedRow that spans all of b.
func (d *CompactedDecoder) Decode(b []byte) ([]any, error) {
	return decodeCompactedRow(b, d.types, 0)
}

// maxNesting bounds ROW nesting while decoding untrusted bytes.
const maxNesting = 64

func decodeCompactedRow(b []byte, ts []types.DataType, depth int) ([]any, error) {
	if depth > maxNesting {
		return nil, fmt.Errorf("row: nesting deeper than %d", maxNesting)
	}
	r := reader{b: b}
	bits, err := r.fixed(nullBitsSize(len(ts)))
	if err != nil {
		return nil, fmt.Errorf("row: compacted row null bits: %w", err)
	}
	values := make([]any, len(ts))
	for i := range ts {
		// like Java's CompactedRowReader, the null bit counts for nullable columns only
		if !ts[i].NotNull && isNullBit(bits, i) {
			continue
		}
		if values[i], err = readCompactedValue(&r, &ts[i], depth); err != nil {
			return nil, fmt.Errorf("row: column %d (%s): %w", i, &ts[i], err)
		}
	}
	if r.remaining() != 0 {
		return nil, fmt.Errorf("row: %d bytes left after the last column", r.remaining())
	}
	return values, nil
}

// readCompactedValue reads one non-null field in CompactedRow encoding.
func readCompactedValue(r *reader, t *types.DataType, depth int) (any, error) {
	switch t.Kind {
	case types.Boolean:
		c, err := r.byte1()
		return c != 0, err
	case types.TinyInt:
		c, err := r.byte1()
		return int8(c), err
	case types.SmallInt:
		return r.int16le()
	case types.Int:
		return r.varint32()
	case types.Date:
		x, err := r.varint32()
		return Date(x), err
	case types.Time:
		x, err := r.varint32()
		return Time(x), err
	case types.BigInt:
		return r.varint64()
	case types.Float:
		return r.float32le()
	case types.Double:
		return r.float64le()
	case types.Char, types.String:
		b, err := r.lengthPrefixed()
		return string(b), err
	case types.Binary, types.Bytes:
		b, err := r.lengthPrefixed()
		if err != nil {
			return nil, err
		}
		return append([]byte{}, b...), nil
	case types.Decimal:
		if t.Precision <= MaxCompactPrecision {
			u, err := r.varint64()
			if err != nil {
				return nil, err
			}
			return checkedDecimal(datum.NewDecimal(u, t.Scale), t)
		}
		b, err := r.lengthPrefixed()
		if err != nil {
			return nil, err
		}
		d, err := decimalFromTwosComplement(b, t.Scale)
		if err != nil {
			return nil, err
		}
		return checkedDecimal(d, t)
	case types.Timestamp:
		ms, nanos, err := readTimestamp(r, t.Precision)
		return TimestampNTZ{Millis: ms, NanoOfMilli: nanos}, err
	case types.TimestampLTZ:
		ms, nanos, err := readTimestamp(r, t.Precision)
		return TimestampLTZ{EpochMillis: ms, NanoOfMilli: nanos}, err
	case types.Row:
		b, err := r.lengthPrefixed()
		if err != nil {
			return nil, err
		}
		return decodeCompactedRow(b, rowFieldTypes(t), depth+1)
	case types.Array:
		b, err := r.lengthPrefixed()
		if err != nil {
			return nil, err
		}
		return decodeBinaryArray(b, Compacted, t.Elem, false, depth+1)
	case types.Map:
		b, err := r.lengthPrefixed()
		if err != nil {
			return nil, err
		}
		return decodeBinaryMap(b, Compacted, t, depth+1)
	}
	return nil, fmt.Errorf("%w: %s", ErrUnsupportedType, t)
}

func readTimestamp(r *reader, precision int) (int64, int32, error) {
	ms, err := r.varint64()
	if err != nil || isCompactTimestamp(precision) {
		return ms, 0, err
	}
	nanos, err := r.varint32()
	if err != nil {
		return 0, 0, err
	}
	if err := checkNanoOfMilli(nanos); err != nil {
		return 0, 0, err
	}
	return ms, nanos, nil
}
