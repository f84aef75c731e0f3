package row

import (
	"encoding/binary"
	"fmt"

	"github.com/flussql/flussql/fluss/types"
)

// indexedHeaderSize returns the sizes of an IndexedRow's null bits and of its
// whole header (null bits plus one length slot per variable-length column).
func indexedHeaderSize(ts []types.DataType, l *layout) (nullBytes, header int) {
	nullBytes = nullBitsSize(len(ts))
	if l != nil && l.header > 0 {
		return nullBytes, l.header
	}
	header = nullBytes
	for i := range ts {
		if indexedSize(l.codec(ts, i), &ts[i]) < 0 {
			header += 4
		}
	}
	return nullBytes, header
}

// IndexedEncoder encodes rows as Fluss IndexedRow bytes (IndexedRowWriter).
// It is safe for concurrent use.
type IndexedEncoder struct {
	types  []types.DataType
	layout *layout
}

// NewIndexedEncoder returns an encoder for rows of fieldTypes. CHAR and BINARY
// columns need their length, as IndexedRow pads them to it.
func NewIndexedEncoder(fieldTypes []types.DataType) (*IndexedEncoder, error) {
	if err := checkTypes(fieldTypes, true); err != nil {
		return nil, err
	}
	ts := append([]types.DataType(nil), fieldTypes...)
	return &IndexedEncoder{types: ts, layout: newLayout(ts)}, nil
}

// Format returns Indexed.
func (e *IndexedEncoder) Format() Format { return Indexed }

// Append appends the IndexedRow encoding of values to dst.
func (e *IndexedEncoder) Append(dst []byte, values []any) ([]byte, error) {
	out, err := appendIndexedRow(dst, e.types, e.layout, values)
	if err != nil {
		return dst, err
	}
	return out, nil
}

// appendIndexedRow appends an IndexedRow; l is ts's layout, nil for a nested ROW.
func appendIndexedRow(dst []byte, ts []types.DataType, l *layout, values []any) ([]byte, error) {
	if len(values) != len(ts) {
		return dst, fmt.Errorf("row: got %d values for %d columns", len(values), len(ts))
	}
	start := len(dst)
	nullBytes, header := indexedHeaderSize(ts, l)
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
		c := l.codec(ts, i)
		before := len(dst)
		var err error
		if c != nil {
			dst, err = c.AppendIndexed(dst, t, v)
		} else {
			dst, err = appendIndexedNested(dst, t, v)
		}
		if err != nil {
			return dst, fmt.Errorf("column %d: %w", i, err)
		}
		if l != nil && l.sizes[i] < 0 || l == nil && indexedSize(c, t) < 0 {
			binary.LittleEndian.PutUint32(dst[slot:], uint32(len(dst)-before))
			slot += 4
		}
	}
	return dst, nil
}

// appendIndexedNested appends one non-null ROW, ARRAY or MAP value (raw: its length
// goes to the header slot).
func appendIndexedNested(dst []byte, t *types.DataType, v any) ([]byte, error) {
	switch t.Kind {
	case types.Row:
		fields, ok := v.([]any)
		if !ok {
			return dst, typeError(t, "[]any", v)
		}
		return appendIndexedRow(dst, rowFieldTypes(t), nil, fields)
	case types.Array, types.Map:
		return appendNested(dst, Indexed, t, v)
	}
	return dst, fmt.Errorf("%w: %s", ErrUnsupportedType, t)
}

// IndexedDecoder decodes Fluss IndexedRow bytes. It is safe for concurrent use.
type IndexedDecoder struct {
	types  []types.DataType
	layout *layout
}

// NewIndexedDecoder returns a decoder for rows of fieldTypes.
func NewIndexedDecoder(fieldTypes []types.DataType) (*IndexedDecoder, error) {
	if err := checkTypes(fieldTypes, true); err != nil {
		return nil, err
	}
	ts := append([]types.DataType(nil), fieldTypes...)
	return &IndexedDecoder{types: ts, layout: newLayout(ts)}, nil
}

// Format returns Indexed.
func (d *IndexedDecoder) Format() Format { return Indexed }

// Decode decodes an IndexedRow that spans all of b. As Java's IndexedRow does, CHAR
// and BINARY values lose their trailing zero bytes (the padding).
func (d *IndexedDecoder) Decode(b []byte) ([]any, error) {
	return decodeIndexedRow(b, d.types, d.layout, 0)
}

// decodeIndexedRow decodes an IndexedRow; l is ts's layout, nil for a nested ROW.
func decodeIndexedRow(b []byte, ts []types.DataType, l *layout, depth int) ([]any, error) {
	if depth > maxNesting {
		return nil, fmt.Errorf("row: nesting deeper than %d", maxNesting)
	}
	nullBytes, header := indexedHeaderSize(ts, l)
	if len(b) < header {
		return nil, fmt.Errorf("row: indexed row header: %w", errTruncated)
	}
	bits := b[:nullBytes]
	slots := reader{B: b[nullBytes:header]}
	r := reader{B: b, Pos: header}
	values := make([]any, len(ts))
	for i := range ts {
		// like Java's IndexedRowReader, the null bit counts for nullable columns only
		if !ts[i].NotNull && isNullBit(bits, i) {
			continue
		}
		t := &ts[i]
		c := l.codec(ts, i)
		n := -1 // ROW, ARRAY, MAP have a length slot
		if l != nil {
			n = l.sizes[i]
		} else if c != nil {
			n = c.IndexedSize(t)
		}
		var err error
		var raw []byte
		if n < 0 {
			var size int32
			if size, err = slots.Int32LE(); err == nil {
				raw, err = r.Fixed(int(size))
			}
		} else {
			raw, err = r.Fixed(n)
		}
		if err == nil {
			if c != nil {
				values[i], err = c.ReadIndexed(raw, t)
			} else {
				values[i], err = indexedNested(raw, t, depth)
			}
		}
		if err != nil {
			return nil, fmt.Errorf("row: column %d (%s): %w", i, t, err)
		}
	}
	if r.Remaining() != 0 {
		return nil, fmt.Errorf("row: %d bytes left after the last column", r.Remaining())
	}
	return values, nil
}

func indexedNested(raw []byte, t *types.DataType, depth int) (any, error) {
	switch t.Kind {
	case types.Row:
		return decodeIndexedRow(raw, rowFieldTypes(t), nil, depth+1)
	case types.Array:
		return decodeBinaryArray(raw, Indexed, t.Elem, false, depth+1)
	case types.Map:
		return decodeBinaryMap(raw, Indexed, t, depth+1)
	}
	return nil, fmt.Errorf("%w: %s", ErrUnsupportedType, t)
}
