package row

import (
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/flussql/flussql/fluss/internal/codec"
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

// arraySlotSize is BinaryArray.calculateFixLengthPartSize.
func arraySlotSize(t *types.DataType) int {
	if c := codec.For(t.Kind); c != nil {
		return c.ArraySlot
	}
	return 8 // ROW, ARRAY, MAP: offset and size
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
	if c := codec.For(t.Kind); c != nil {
		return c.AppendArray(dst, base, pos, t, v)
	}
	if !t.Kind.Nested() {
		return dst, fmt.Errorf("%w: %s", ErrUnsupportedType, t)
	}
	off := len(dst) - base
	var err error
	if dst, err = appendNested(dst, f, t, v); err != nil {
		return dst, err
	}
	size := len(dst) - base - off
	dst = codec.PadTo8(dst, base)
	binary.LittleEndian.PutUint64(dst[pos:], uint64(off)<<32|uint64(size))
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
		return appendIndexedRow(dst, rowFieldTypes(t), nil, fields)
	}
	return appendCompactedRow(dst, rowFieldTypes(t), nil, fields)
}
