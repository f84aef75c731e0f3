package row

import (
	"encoding/binary"
	"fmt"

	"github.com/flussql/flussql/fluss/internal/codec"
	"github.com/flussql/flussql/fluss/types"
)

// arrayDecoder reads the elements of one BinaryArray (see array.go) from untrusted
// bytes. Every slot and region is bounds-checked, and the variable-length regions must
// follow the fixed part in element order without overlapping (as Java writes them), so
// no byte is decoded twice: the work is bounded by the input size times the nesting.
type arrayDecoder struct {
	codec.ArrayReader
	f     Format // format of nested ROW elements
	depth int
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
	d := arrayDecoder{ArrayReader: codec.ArrayReader{B: b, Next: int(fixedEnd)}, f: f, depth: depth}
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

func (d *arrayDecoder) element(pos int, t *types.DataType) (any, error) {
	if c := codec.For(t.Kind); c != nil {
		v, next, err := c.ReadArray(d.ArrayReader, pos, t)
		d.Next = next
		return v, err
	}
	if !t.Kind.Nested() {
		return nil, fmt.Errorf("%w: %s", ErrUnsupportedType, t)
	}
	raw, err := d.OffsetAndSize(pos)
	if err != nil {
		return nil, err
	}
	switch t.Kind {
	case types.Array:
		return decodeBinaryArray(raw, d.f, t.Elem, false, d.depth+1)
	case types.Map:
		return decodeBinaryMap(raw, d.f, t, d.depth+1)
	}
	if d.f == Indexed {
		return decodeIndexedRow(raw, rowFieldTypes(t), nil, d.depth+1)
	}
	return decodeCompactedRow(raw, rowFieldTypes(t), nil, d.depth+1)
}
