package row

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/flussql/flussql/fluss/datum"
	"github.com/flussql/flussql/fluss/types"
)

// arrayDecoder reads the elements of one BinaryArray (see array.go) from untrusted
// bytes. Every slot and region is bounds-checked, and the variable-length regions must
// follow the fixed part in element order without overlapping (as Java writes them), so
// no byte is decoded twice: the work is bounded by the input size times the nesting.
type arrayDecoder struct {
	b     []byte // the whole array
	f     Format // format of nested ROW elements
	depth int
	next  int // where the next variable-length region may start
}

// decodeBinaryArray decodes a BinaryArray that spans all of b. keys is true for the
// key array of a MAP, whose elements are never NULL.
func decodeBinaryArray(b []byte, f Format, elem *types.DataType, keys bool, depth int) ([]any, error) {
	if depth > maxNesting {
		return nil, fmt.Errorf("row: nesting deeper than %d", maxNesting)
	}
	if len(b) < 4 {
		return nil, fmt.Errorf("row: array header: %w", errTruncated)
	}
	n := int64(int32(binary.LittleEndian.Uint32(b)))
	if n < 0 {
		return nil, fmt.Errorf("row: negative array size %d", n)
	}
	slot := int64(arraySlotSize(elem))
	fixedEnd := 4 + (n+31)/32*4 + n*slot
	if fixedEnd > int64(len(b)) {
		return nil, fmt.Errorf("row: array of %d elements does not fit in %d bytes", n, len(b))
	}
	header := int(4 + (n+31)/32*4)
	d := arrayDecoder{b: b, f: f, depth: depth, next: int(fixedEnd)}
	values := make([]any, n)
	// like Java's element getters, the null bit counts for nullable elements only
	nullable := !elem.NotNull && !keys
	for i := range int(n) {
		if nullable && isNullBit(b[4:], i) {
			continue
		}
		pos := header + i*int(slot)
		v, err := d.element(pos, elem)
		if err != nil {
			return nil, fmt.Errorf("row: array element %d (%s): %w", i, elem, err)
		}
		values[i] = v
	}
	return values, nil
}

func (d *arrayDecoder) u64(pos int) uint64 { return binary.LittleEndian.Uint64(d.b[pos:]) }

// region returns the variable-length bytes [off, off+size) named by a slot.
func (d *arrayDecoder) region(off, size int64) ([]byte, error) {
	if off < int64(d.next) || size < 0 || off+size > int64(len(d.b)) {
		return nil, fmt.Errorf("row: array region [%d, +%d) outside [%d, %d) or out of order",
			off, size, d.next, len(d.b))
	}
	d.next = int(off + size)
	return d.b[off : off+size], nil
}

// offsetAndSize reads a slot holding (offset << 32 | size) and returns its region.
func (d *arrayDecoder) offsetAndSize(pos int) ([]byte, error) {
	v := d.u64(pos)
	if v&(1<<63) != 0 {
		return nil, errors.New("row: array slot has the inline mark but the type is never inline")
	}
	return d.region(int64(v>>32), int64(uint32(v)))
}

// bytes reads a string/bytes slot: inline (mark bit set) or a region.
func (d *arrayDecoder) bytes(pos int) ([]byte, error) {
	v := d.u64(pos)
	if v&(1<<63) == 0 {
		return d.region(int64(v>>32), int64(uint32(v)))
	}
	n := int(v >> 56 & 0x7f)
	if n > maxInlineBytes {
		return nil, fmt.Errorf("row: inline length %d > %d", n, maxInlineBytes)
	}
	return d.b[pos : pos+n], nil
}

func (d *arrayDecoder) element(pos int, t *types.DataType) (any, error) {
	le := binary.LittleEndian
	b := d.b
	switch t.Kind {
	case types.Boolean:
		return b[pos] != 0, nil
	case types.TinyInt:
		return int8(b[pos]), nil
	case types.SmallInt:
		return int16(le.Uint16(b[pos:])), nil
	case types.Int:
		return int32(le.Uint32(b[pos:])), nil
	case types.Date:
		return Date(int32(le.Uint32(b[pos:]))), nil
	case types.Time:
		return Time(int32(le.Uint32(b[pos:]))), nil
	case types.Float:
		return math.Float32frombits(le.Uint32(b[pos:])), nil
	case types.BigInt:
		return int64(d.u64(pos)), nil
	case types.Double:
		return math.Float64frombits(d.u64(pos)), nil
	case types.Char, types.String:
		s, err := d.bytes(pos)
		return string(s), err
	case types.Binary, types.Bytes:
		s, err := d.bytes(pos)
		if err != nil {
			return nil, err
		}
		return append([]byte{}, s...), nil
	case types.Decimal:
		if t.Precision <= MaxCompactPrecision {
			return checkedDecimal(datum.NewDecimal(int64(d.u64(pos)), t.Scale), t)
		}
		raw, err := d.offsetAndSize(pos)
		if err != nil {
			return nil, err
		}
		dec, err := decimalFromTwosComplement(raw, t.Scale)
		if err != nil {
			return nil, err
		}
		return checkedDecimal(dec, t)
	case types.Timestamp, types.TimestampLTZ:
		return d.timestamp(pos, t)
	case types.Array:
		raw, err := d.offsetAndSize(pos)
		if err != nil {
			return nil, err
		}
		return decodeBinaryArray(raw, d.f, t.Elem, false, d.depth+1)
	case types.Map:
		raw, err := d.offsetAndSize(pos)
		if err != nil {
			return nil, err
		}
		return decodeBinaryMap(raw, d.f, t, d.depth+1)
	case types.Row:
		raw, err := d.offsetAndSize(pos)
		if err != nil {
			return nil, err
		}
		if d.f == Indexed {
			return decodeIndexedRow(raw, rowFieldTypes(t), d.depth+1)
		}
		return decodeCompactedRow(raw, rowFieldTypes(t), d.depth+1)
	}
	return nil, fmt.Errorf("%w: %s", ErrUnsupportedType, t)
}

func (d *arrayDecoder) timestamp(pos int, t *types.DataType) (any, error) {
	v := d.u64(pos)
	millis, nanos := int64(v), int32(0)
	if !isCompactTimestamp(t.Precision) {
		raw, err := d.region(int64(v>>32), 8)
		if err != nil {
			return nil, err
		}
		millis, nanos = int64(binary.LittleEndian.Uint64(raw)), int32(uint32(v))
		if err := checkNanoOfMilli(nanos); err != nil {
			return nil, err
		}
	}
	if t.Kind == types.Timestamp {
		return TimestampNTZ{Millis: millis, NanoOfMilli: nanos}, nil
	}
	return TimestampLTZ{EpochMillis: millis, NanoOfMilli: nanos}, nil
}
