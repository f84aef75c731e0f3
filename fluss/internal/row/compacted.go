package row

import (
	"fmt"

	"github.com/flussql/flussql/fluss/internal/codec"
	"github.com/flussql/flussql/fluss/types"
)

// CompactedEncoder encodes rows as Fluss CompactedRow bytes (CompactedRowWriter).
// It is safe for concurrent use.
type CompactedEncoder struct {
	types  []types.DataType
	layout *layout
}

// NewCompactedEncoder returns an encoder for rows of fieldTypes.
func NewCompactedEncoder(fieldTypes []types.DataType) (*CompactedEncoder, error) {
	if err := checkTypes(fieldTypes, false); err != nil {
		return nil, err
	}
	ts := append([]types.DataType(nil), fieldTypes...)
	return &CompactedEncoder{types: ts, layout: newLayout(ts)}, nil
}

// Format returns Compacted.
func (e *CompactedEncoder) Format() Format { return Compacted }

// Append appends the CompactedRow encoding of values to dst.
func (e *CompactedEncoder) Append(dst []byte, values []any) ([]byte, error) {
	out, err := appendCompactedRow(dst, e.types, e.layout, values)
	if err != nil {
		return dst, err
	}
	return out, nil
}

// appendCompactedRow appends a CompactedRow; l is ts's layout, nil for a nested ROW.
func appendCompactedRow(dst []byte, ts []types.DataType, l *layout, values []any) ([]byte, error) {
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
		if c := l.codec(ts, i); c != nil {
			dst, err = c.AppendCompacted(dst, &ts[i], v)
		} else {
			dst, err = appendCompactedNested(dst, &ts[i], v)
		}
		if err != nil {
			return dst, fmt.Errorf("column %d: %w", i, err)
		}
	}
	return dst, nil
}

// appendCompactedValue appends one non-null field value in CompactedRow encoding.
func appendCompactedValue(dst []byte, t *types.DataType, v any) ([]byte, error) {
	if c := codec.For(t.Kind); c != nil {
		return c.AppendCompacted(dst, t, v)
	}
	return appendCompactedNested(dst, t, v)
}

// appendCompactedNested appends one non-null ROW, ARRAY or MAP value.
func appendCompactedNested(dst []byte, t *types.DataType, v any) ([]byte, error) {
	switch t.Kind {
	case types.Row:
		fields, ok := v.([]any)
		if !ok {
			return dst, typeError(t, "[]any", v)
		}
		nested, err := appendCompactedRow(nil, rowFieldTypes(t), nil, fields)
		if err != nil {
			return dst, err
		}
		dst = codec.AppendVarint32(dst, int32(len(nested)))
		return append(dst, nested...), nil
	case types.Array, types.Map:
		nested, err := appendNested(nil, Compacted, t, v)
		if err != nil {
			return dst, err
		}
		dst = codec.AppendVarint32(dst, int32(len(nested)))
		return append(dst, nested...), nil
	}
	return dst, fmt.Errorf("%w: %s", ErrUnsupportedType, t)
}

// CompactedDecoder decodes Fluss CompactedRow bytes. It is safe for concurrent use.
type CompactedDecoder struct {
	types  []types.DataType
	layout *layout
}

// NewCompactedDecoder returns a decoder for rows of fieldTypes.
func NewCompactedDecoder(fieldTypes []types.DataType) (*CompactedDecoder, error) {
	if err := checkTypes(fieldTypes, false); err != nil {
		return nil, err
	}
	ts := append([]types.DataType(nil), fieldTypes...)
	return &CompactedDecoder{types: ts, layout: newLayout(ts)}, nil
}

// Format returns Compacted.
func (d *CompactedDecoder) Format() Format { return Compacted }

// Decode decodes a CompactedRow that spans all of b.
func (d *CompactedDecoder) Decode(b []byte) ([]any, error) {
	return decodeCompactedRow(b, d.types, d.layout, 0)
}

// maxNesting bounds ROW nesting while decoding untrusted bytes.
const maxNesting = 64

// decodeCompactedRow decodes a CompactedRow; l is ts's layout, nil for a nested ROW.
func decodeCompactedRow(b []byte, ts []types.DataType, l *layout, depth int) ([]any, error) {
	if depth > maxNesting {
		return nil, fmt.Errorf("row: nesting deeper than %d", maxNesting)
	}
	r := reader{B: b}
	bits, err := r.Fixed(nullBitsSize(len(ts)))
	if err != nil {
		return nil, fmt.Errorf("row: compacted row null bits: %w", err)
	}
	values := make([]any, len(ts))
	for i := range ts {
		// like Java's CompactedRowReader, the null bit counts for nullable columns only
		if !ts[i].NotNull && isNullBit(bits, i) {
			continue
		}
		if values[i], err = readCompactedValue(&r, &ts[i], l.codec(ts, i), depth); err != nil {
			return nil, fmt.Errorf("row: column %d (%s): %w", i, &ts[i], err)
		}
	}
	if r.Remaining() != 0 {
		return nil, fmt.Errorf("row: %d bytes left after the last column", r.Remaining())
	}
	return values, nil
}

// readCompactedValue reads one non-null field in CompactedRow encoding; c is its
// codec, nil for ROW, ARRAY and MAP.
func readCompactedValue(r *reader, t *types.DataType, c *codec.Codec, depth int) (any, error) {
	if c != nil {
		v, n, err := c.ReadCompacted(r.B[r.Pos:], t)
		r.Pos += n
		return v, err
	}
	switch t.Kind {
	case types.Row:
		b, err := r.LengthPrefixed()
		if err != nil {
			return nil, err
		}
		return decodeCompactedRow(b, rowFieldTypes(t), nil, depth+1)
	case types.Array:
		b, err := r.LengthPrefixed()
		if err != nil {
			return nil, err
		}
		return decodeBinaryArray(b, Compacted, t.Elem, false, depth+1)
	case types.Map:
		b, err := r.LengthPrefixed()
		if err != nil {
			return nil, err
		}
		return decodeBinaryMap(b, Compacted, t, depth+1)
	}
	return nil, fmt.Errorf("%w: %s", ErrUnsupportedType, t)
}
