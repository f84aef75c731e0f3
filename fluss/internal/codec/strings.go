package codec

import (
	"bytes"
	"encoding/hex"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"google.golang.org/protobuf/proto"

	"github.com/flussql/flussql/fluss/internal/protocol"
	"github.com/flussql/flussql/fluss/types"
)

// CHAR(n) and STRING (string), BINARY(n) and BYTES ([]byte). CompactedRow: varint32
// length + bytes. IndexedRow: CHAR/BINARY zero-padded to n bytes (readers trim the
// zeros, as Java's getChar/getBinary do), STRING/BYTES variable-length. BinaryArray:
// inline up to 7 bytes, else a region. Arrow: Utf8, Binary, FixedSizeBinary(n).
// Statistics and predicate literals exist for STRING only.

func init() { register(char, stringCodec, binaryCodec, bytesCodec) }

func checkLength(t *types.DataType, needLength bool) error {
	if needLength && t.Length < 1 {
		return fmt.Errorf("row: %s needs a length >= 1", t)
	}
	return nil
}

func appendCompactedString(dst []byte, t *types.DataType, v any) ([]byte, error) {
	s, ok := v.(string)
	if !ok {
		return dst, TypeError(t, "string", v)
	}
	dst = AppendVarint32(dst, int32(len(s)))
	return append(dst, s...), nil
}

func readCompactedString(b []byte, _ *types.DataType) (any, int, error) {
	s, n, err := LengthPrefixed(b)
	if err != nil {
		return nil, 0, err
	}
	return string(s), n, nil
}

func appendArrayString(dst []byte, base, pos int, t *types.DataType, v any) ([]byte, error) {
	s, ok := v.(string)
	if !ok {
		return dst, TypeError(t, "string", v)
	}
	return appendArrayBytes(dst, base, pos, s), nil
}

func readArrayString(a ArrayReader, pos int, _ *types.DataType) (any, int, error) {
	s, err := a.Bytes(pos)
	if err != nil {
		return nil, 0, err
	}
	return string(s), a.Next, nil
}

func stringArrow(t types.DataType) (ArrowColumn, error) {
	return ArrowColumn{
		Check: func(v any) (int, error) {
			s, ok := v.(string)
			if !ok {
				return 0, badArrowValue(t, "string", v)
			}
			return len(s) + 4, nil
		},
		Put: func(b array.Builder, v any) { b.(*array.StringBuilder).Append(v.(string)) },
		Get: func(a arrow.Array, i int) any { return string([]byte(a.(*array.String).Value(i))) },
	}, nil
}

func partitionString(t *types.DataType, v any) (string, error) {
	s, ok := v.(string)
	if !ok {
		return "", badPartitionValue(t, "string", v)
	}
	return s, nil
}

// appendPadded appends b zero-padded to t.Length (IndexedRow CHAR/BINARY).
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

func trimZeros(b []byte) []byte {
	n := len(b)
	for n > 0 && b[n-1] == 0 {
		n--
	}
	return b[:n]
}

var char = &Codec{
	Kind: types.Char, GoType: "string", Check: checkLength,
	AppendCompacted: appendCompactedString,
	ReadCompacted:   readCompactedString,
	IndexedSize:     func(t *types.DataType) int { return t.Length },
	AppendIndexed: func(dst []byte, t *types.DataType, v any) ([]byte, error) {
		s, ok := v.(string)
		if !ok {
			return dst, TypeError(t, "string", v)
		}
		return appendPadded(dst, t, []byte(s))
	},
	ReadIndexed: func(b []byte, _ *types.DataType) (any, error) { return string(trimZeros(b)), nil },
	ArraySlot:   8,
	AppendArray: appendArrayString,
	ReadArray:   readArrayString,
	Arrow:       stringArrow,
	IndexedToArrow: func(bl array.Builder, _ *types.DataType, b []byte) error {
		// CHAR(n) is stored zero-padded to n bytes; Java's getChar trims the zeros.
		bl.(*array.StringBuilder).BinaryBuilder.Append(bytes.TrimRight(b, "\x00"))
		return nil
	},
	Partition: partitionString,
}

var stringCodec = &Codec{
	Kind: types.String, GoType: "string", Check: noParams,
	AppendCompacted: appendCompactedString,
	ReadCompacted:   readCompactedString,
	IndexedSize:     variableSize,
	AppendIndexed: func(dst []byte, t *types.DataType, v any) ([]byte, error) {
		s, ok := v.(string)
		if !ok {
			return dst, TypeError(t, "string", v)
		}
		return append(dst, s...), nil
	},
	ReadIndexed: func(b []byte, _ *types.DataType) (any, error) { return string(b), nil },
	ArraySlot:   8,
	AppendArray: appendArrayString,
	ReadArray:   readArrayString,
	Arrow:       stringArrow,
	IndexedToArrow: func(bl array.Builder, _ *types.DataType, b []byte) error {
		bl.(*array.StringBuilder).BinaryBuilder.Append(b)
		return nil
	},
	StatsCompute: func(a arrow.Array, t *types.DataType) (any, any, error) {
		arr, ok := a.(*array.String)
		if !ok {
			return nil, nil, wrongArray(a, t)
		}
		lo, hi := minMax(arr.Len(), arr.IsNull, arr.Value, func(x, y string) int { return bytes.Compare([]byte(x), []byte(y)) })
		if lo == nil {
			return nil, nil, nil
		}
		// do not alias the record's buffers
		return string([]byte(lo.(string))), string([]byte(hi.(string))), nil
	},
	StatsPut: func(row []byte, off int, v any) ([]byte, bool) {
		str, ok := v.(string)
		if !ok {
			return row, false
		}
		if len(str) <= 7 {
			copy(row[off:off+8], str)
			row[off+7] = 0x80 | byte(len(str))
			return row, true
		}
		le.PutUint64(row[off:], uint64(len(row))<<32|uint64(len(str)))
		row = append(row, str...)
		return append(row, make([]byte, (8-len(str)%8)%8)...), true
	},
	StatsGet: func(row []byte, off int) (any, error) {
		field := row[off : off+8]
		if field[7]&0x80 != 0 {
			n := int(field[7] & 0x7f)
			if n > 7 {
				return nil, fmt.Errorf("inline string of %d bytes", n)
			}
			return string(field[:n]), nil
		}
		w := le.Uint64(field)
		o, n := int64(w>>32), int64(uint32(w))
		if o+n > int64(len(row)) {
			return nil, fmt.Errorf("statistics string at %d+%d outside its %d-byte row", o, n, len(row))
		}
		return string(row[o : o+n]), nil
	},
	Partition: partitionString,
	Literal: func(t *types.DataType, v any) (*protocol.PbLiteralValue, error) {
		s, ok := v.(string)
		if !ok {
			return nil, badLiteral(t, v)
		}
		lit := newLiteral(literalString)
		lit.StringValue = proto.String(s)
		return lit, nil
	},
}

func appendCompactedBytes(dst []byte, t *types.DataType, v any) ([]byte, error) {
	b, ok := v.([]byte)
	if !ok {
		return dst, TypeError(t, "[]byte", v)
	}
	dst = AppendVarint32(dst, int32(len(b)))
	return append(dst, b...), nil
}

func readCompactedBytes(b []byte, _ *types.DataType) (any, int, error) {
	s, n, err := LengthPrefixed(b)
	if err != nil {
		return nil, 0, err
	}
	return append([]byte{}, s...), n, nil
}

func appendArrayBinary(dst []byte, base, pos int, t *types.DataType, v any) ([]byte, error) {
	b, ok := v.([]byte)
	if !ok {
		return dst, TypeError(t, "[]byte", v)
	}
	return appendArrayBytes(dst, base, pos, b), nil
}

func readArrayBinary(a ArrayReader, pos int, _ *types.DataType) (any, int, error) {
	s, err := a.Bytes(pos)
	if err != nil {
		return nil, 0, err
	}
	return append([]byte{}, s...), a.Next, nil
}

func partitionBytes(t *types.DataType, v any) (string, error) {
	b, ok := v.([]byte)
	if !ok {
		return "", badPartitionValue(t, "[]byte", v)
	}
	return hex.EncodeToString(b), nil
}

var binaryCodec = &Codec{
	Kind: types.Binary, GoType: "[]byte", Check: checkLength,
	AppendCompacted: appendCompactedBytes,
	ReadCompacted:   readCompactedBytes,
	IndexedSize:     func(t *types.DataType) int { return t.Length },
	AppendIndexed: func(dst []byte, t *types.DataType, v any) ([]byte, error) {
		b, ok := v.([]byte)
		if !ok {
			return dst, TypeError(t, "[]byte", v)
		}
		return appendPadded(dst, t, b)
	},
	ReadIndexed: func(b []byte, _ *types.DataType) (any, error) { return append([]byte{}, trimZeros(b)...), nil },
	ArraySlot:   8,
	AppendArray: appendArrayBinary,
	ReadArray:   readArrayBinary,
	Arrow: func(t types.DataType) (ArrowColumn, error) {
		n := t.Length
		return ArrowColumn{
			Check: func(v any) (int, error) {
				s, ok := v.([]byte)
				if !ok {
					return 0, badArrowValue(t, "[]byte", v)
				}
				if len(s) > n {
					return 0, fmt.Errorf("%d bytes do not fit %s", len(s), t)
				}
				return n, nil
			},
			Put: func(b array.Builder, v any) {
				s := v.([]byte)
				if len(s) < n { // BINARY(n) is zero-padded, as Fluss's row encoders do
					p := make([]byte, n)
					copy(p, s)
					s = p
				}
				b.(*array.FixedSizeBinaryBuilder).Append(s)
			},
			Get: func(a arrow.Array, i int) any { return cloneBytes(a.(*array.FixedSizeBinary).Value(i)) },
		}, nil
	},
	IndexedToArrow: func(bl array.Builder, _ *types.DataType, b []byte) error {
		bl.(*array.FixedSizeBinaryBuilder).Append(b)
		return nil
	},
	Partition: partitionBytes,
}

var bytesCodec = &Codec{
	Kind: types.Bytes, GoType: "[]byte", Check: noParams,
	AppendCompacted: appendCompactedBytes,
	ReadCompacted:   readCompactedBytes,
	IndexedSize:     variableSize,
	AppendIndexed: func(dst []byte, t *types.DataType, v any) ([]byte, error) {
		b, ok := v.([]byte)
		if !ok {
			return dst, TypeError(t, "[]byte", v)
		}
		return append(dst, b...), nil
	},
	ReadIndexed: func(b []byte, _ *types.DataType) (any, error) { return append([]byte{}, b...), nil },
	ArraySlot:   8,
	AppendArray: appendArrayBinary,
	ReadArray:   readArrayBinary,
	Arrow: func(t types.DataType) (ArrowColumn, error) {
		return ArrowColumn{
			Check: func(v any) (int, error) {
				s, ok := v.([]byte)
				if !ok {
					return 0, badArrowValue(t, "[]byte", v)
				}
				return len(s) + 4, nil
			},
			Put: func(b array.Builder, v any) { b.(*array.BinaryBuilder).Append(v.([]byte)) },
			Get: func(a arrow.Array, i int) any { return cloneBytes(a.(*array.Binary).Value(i)) },
		}, nil
	},
	IndexedToArrow: func(bl array.Builder, _ *types.DataType, b []byte) error {
		bl.(*array.BinaryBuilder).Append(b)
		return nil
	},
	Partition: partitionBytes,
}
