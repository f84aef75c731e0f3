package row

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"

	"github.com/flussql/flussql/fluss/types"
)

// Fluss's BinaryArray (BinaryArray/BinaryArrayWriter in fluss-common), the value of an
// ARRAY column in both row formats (CompactedArray inside a CompactedRow, IndexedArray
// inside an IndexedRow; the two differ only in how ROW elements are encoded):
//
//	int32 LE element count n
//	null bits: ceil(n/32) 4-byte words, bit i of byte i/8 (LSB first)
//	n fixed-width slots (1, 2, 4 or 8 bytes, see arraySlotSize), the whole fixed part
//	    zero-padded to a multiple of 8 bytes
//	variable part: one region per variable-length element, in element order, each
//	    zero-padded to a multiple of 8 bytes
//
// An 8-byte slot of a variable-length element holds (offset << 32 | size) as an int64 LE,
// the offset counted from the array's first byte. Strings and bytes of at most 7 bytes are
// stored in the slot itself: the bytes first, the last slot byte 0x80 | length. DECIMAL
// with p > 18 takes a 16-byte region (size = two's-complement length); TIMESTAMP(p > 3)
// takes an 8-byte region holding the millis, the slot's low word holding nano-of-milli.
// A NULL element has its bit set and an all-zero slot (Java may leave stale bytes there).

// maxInlineBytes is the longest string/bytes value stored inside its 8-byte slot.
const maxInlineBytes = 7

// arraySlotSize is BinaryArray.calculateFixLengthPartSize.
func arraySlotSize(t *types.DataType) int {
	switch t.Kind {
	case types.Boolean, types.TinyInt:
		return 1
	case types.SmallInt:
		return 2
	case types.Int, types.Float, types.Date, types.Time:
		return 4
	}
	return 8
}

// arrayHeaderSize is BinaryArray.calculateHeaderInBytes: the count and the null words.
func arrayHeaderSize(n int) int { return 4 + (n+31)/32*4 }

func roundUp8(n int) int { return (n + 7) &^ 7 }

// appendBinaryArray appends the BinaryArray of elements of type elem. Nested ROW
// elements are encoded in format f.
func appendBinaryArray(dst []byte, f Format, elem *types.DataType, values []any) ([]byte, error) {
	start := len(dst)
	n := len(values)
	header := arrayHeaderSize(n)
	slot := arraySlotSize(elem)
	fixed := roundUp8(header + slot*n)
	dst = slices.Grow(dst, fixed)[:start+fixed]
	clear(dst[start:])
	binary.LittleEndian.PutUint32(dst[start:], uint32(n))
	for i, v := range values {
		if v == nil {
			if elem.NotNull {
				return dst, fmt.Errorf("row: element %d of ARRAY<%s> is NULL", i, elem)
			}
			setNullBit(dst[start+4:], i)
			continue
		}
		var err error
		if dst, err = appendArrayElement(dst, start, start+header+i*slot, f, elem, v); err != nil {
			return dst, fmt.Errorf("element %d: %w", i, err)
		}
	}
	return dst, nil
}

// appendArrayElement writes one non-null element into its slot at pos, appending its
// variable-length region (if any) to dst; base is the array's first byte.
func appendArrayElement(dst []byte, base, pos int, f Format, t *types.DataType, v any) ([]byte, error) {
	le := binary.LittleEndian
	switch t.Kind {
	case types.Boolean:
		b, ok := v.(bool)
		if !ok {
			return dst, typeError(t, "bool", v)
		}
		if b {
			dst[pos] = 1
		}
	case types.TinyInt:
		x, ok := v.(int8)
		if !ok {
			return dst, typeError(t, "int8", v)
		}
		dst[pos] = byte(x)
	case types.SmallInt:
		x, ok := v.(int16)
		if !ok {
			return dst, typeError(t, "int16", v)
		}
		le.PutUint16(dst[pos:], uint16(x))
	case types.Int:
		x, ok := v.(int32)
		if !ok {
			return dst, typeError(t, "int32", v)
		}
		le.PutUint32(dst[pos:], uint32(x))
	case types.Date:
		x, ok := v.(Date)
		if !ok {
			return dst, typeError(t, "datum.Date", v)
		}
		le.PutUint32(dst[pos:], uint32(x))
	case types.Time:
		x, ok := v.(Time)
		if !ok {
			return dst, typeError(t, "datum.Time", v)
		}
		le.PutUint32(dst[pos:], uint32(x))
	case types.Float:
		x, ok := v.(float32)
		if !ok {
			return dst, typeError(t, "float32", v)
		}
		bits := math.Float32bits(x)
		if x != x { // BinaryArrayWriter.writeFloat stores every NaN as Float.NaN
			bits = 0x7fc00000
		}
		le.PutUint32(dst[pos:], bits)
	case types.BigInt:
		x, ok := v.(int64)
		if !ok {
			return dst, typeError(t, "int64", v)
		}
		le.PutUint64(dst[pos:], uint64(x))
	case types.Double:
		x, ok := v.(float64)
		if !ok {
			return dst, typeError(t, "float64", v)
		}
		bits := math.Float64bits(x)
		if x != x { // as writeDouble: Double.NaN
			bits = 0x7ff8000000000000
		}
		le.PutUint64(dst[pos:], bits)
	case types.Char, types.String:
		s, ok := v.(string)
		if !ok {
			return dst, typeError(t, "string", v)
		}
		return appendArrayBytes(dst, base, pos, s), nil
	case types.Binary, types.Bytes:
		b, ok := v.([]byte)
		if !ok {
			return dst, typeError(t, "[]byte", v)
		}
		return appendArrayBytes(dst, base, pos, b), nil
	case types.Decimal:
		return appendArrayDecimal(dst, base, pos, t, v)
	case types.Timestamp:
		x, ok := v.(TimestampNTZ)
		if !ok {
			return dst, typeError(t, "datum.TimestampNTZ", v)
		}
		return appendArrayTimestamp(dst, base, pos, t.Precision, x.Millis, x.NanoOfMilli)
	case types.TimestampLTZ:
		x, ok := v.(TimestampLTZ)
		if !ok {
			return dst, typeError(t, "datum.TimestampLTZ", v)
		}
		return appendArrayTimestamp(dst, base, pos, t.Precision, x.EpochMillis, x.NanoOfMilli)
	case types.Array, types.Map, types.Row:
		off := len(dst) - base
		var err error
		if dst, err = appendNested(dst, f, t, v); err != nil {
			return dst, err
		}
		size := len(dst) - base - off
		dst = padTo8(dst, base)
		le.PutUint64(dst[pos:], uint64(off)<<32|uint64(size))
	default:
		return dst, fmt.Errorf("%w: %s", ErrUnsupportedType, t)
	}
	return dst, nil
}

// appendNested appends the binary form of a nested ARRAY, MAP or ROW value.
func appendNested(dst []byte, f Format, t *types.DataType, v any) ([]byte, error) {
	switch t.Kind {
	case types.Array:
		elems, ok := v.([]any)
		if !ok {
			return dst, typeError(t, "[]any", v)
		}
		return appendBinaryArray(dst, f, t.Elem, elems)
	case types.Map:
		entries, ok := v.([]MapEntry)
		if !ok {
			return dst, typeError(t, "[]datum.MapEntry", v)
		}
		return appendBinaryMap(dst, f, t, entries)
	}
	fields, ok := v.([]any)
	if !ok {
		return dst, typeError(t, "[]any", v)
	}
	if f == Indexed {
		return appendIndexedRow(dst, rowFieldTypes(t), fields)
	}
	return appendCompactedRow(dst, rowFieldTypes(t), fields)
}

func padTo8(dst []byte, base int) []byte {
	for (len(dst)-base)%8 != 0 {
		dst = append(dst, 0)
	}
	return dst
}

// appendArrayBytes stores a string or byte slice inline (<= 7 bytes) or as a region.
func appendArrayBytes[T string | []byte](dst []byte, base, pos int, b T) []byte {
	if len(b) <= maxInlineBytes {
		copy(dst[pos:pos+maxInlineBytes], b)
		dst[pos+7] = 0x80 | byte(len(b))
		return dst
	}
	off := len(dst) - base
	dst = append(dst, b...)
	dst = padTo8(dst, base)
	binary.LittleEndian.PutUint64(dst[pos:], uint64(off)<<32|uint64(len(b)))
	return dst
}

func appendArrayDecimal(dst []byte, base, pos int, t *types.DataType, v any) ([]byte, error) {
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
		binary.LittleEndian.PutUint64(dst[pos:], uint64(u))
		return dst, nil
	}
	// like AbstractBinaryWriter.writeDecimal: a zeroed 16-byte region, the bytes at its start
	off := len(dst) - base
	dst = appendTwosComplement(dst, d)
	size := len(dst) - base - off
	dst = append(dst, make([]byte, 16-size)...) // p <= 38 needs at most 16 bytes
	binary.LittleEndian.PutUint64(dst[pos:], uint64(off)<<32|uint64(size))
	return dst, nil
}

func appendArrayTimestamp(dst []byte, base, pos, precision int, millis int64, nanos int32) ([]byte, error) {
	if err := checkNanoOfMilli(nanos); err != nil {
		return dst, err
	}
	if isCompactTimestamp(precision) {
		binary.LittleEndian.PutUint64(dst[pos:], uint64(millis))
		return dst, nil
	}
	off := len(dst) - base
	dst = binary.LittleEndian.AppendUint64(dst, uint64(millis))
	binary.LittleEndian.PutUint64(dst[pos:], uint64(off)<<32|uint64(uint32(nanos)))
	return dst, nil
}
