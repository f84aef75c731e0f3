package codec

import (
	"cmp"
	"encoding/binary"
	"math"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"google.golang.org/protobuf/proto"

	"github.com/flussql/flussql/fluss/internal/protocol"
	"github.com/flussql/flussql/fluss/types"
)

// BOOLEAN (bool), TINYINT (int8), SMALLINT (int16), INT (int32) and BIGINT (int64).
// CompactedRow: 1 byte, 1 byte, int16 LE, varint32, varint64; IndexedRow: 1, 1, 2, 4
// and 8 bytes LE; BinaryArray slots of the same widths.

func init() { register(boolean, tinyInt, smallInt, intCodec, bigInt) }

var le = binary.LittleEndian

var boolean = &Codec{
	Kind: types.Boolean, GoType: "bool", Check: noParams,
	AppendCompacted: appendBool,
	ReadCompacted: func(b []byte, _ *types.DataType) (any, int, error) {
		if len(b) < 1 {
			return nil, 0, ErrTruncated
		}
		return b[0] != 0, 1, nil
	},
	IndexedSize:   fixedSize(1),
	AppendIndexed: appendBool,
	ReadIndexed:   func(b []byte, _ *types.DataType) (any, error) { return b[0] != 0, nil },
	ArraySlot:     1,
	AppendArray: func(dst []byte, _, pos int, t *types.DataType, v any) ([]byte, error) {
		b, ok := v.(bool)
		if !ok {
			return dst, TypeError(t, "bool", v)
		}
		if b {
			dst[pos] = 1
		}
		return dst, nil
	},
	ReadArray: func(a ArrayReader, pos int, _ *types.DataType) (any, int, error) { return a.B[pos] != 0, a.Next, nil },
	Arrow: func(t types.DataType) (ArrowColumn, error) {
		return ArrowColumn{
			Check: fixedCheck[bool](t, "bool", 1),
			Put:   func(b array.Builder, v any) { b.(*array.BooleanBuilder).Append(v.(bool)) },
			Get:   func(a arrow.Array, i int) any { return a.(*array.Boolean).Value(i) },
		}, nil
	},
	IndexedToArrow: func(bl array.Builder, _ *types.DataType, b []byte) error {
		bl.(*array.BooleanBuilder).Append(b[0] != 0)
		return nil
	},
	StatsCompute: func(a arrow.Array, t *types.DataType) (any, any, error) {
		arr, ok := a.(*array.Boolean)
		if !ok {
			return nil, nil, wrongArray(a, t)
		}
		lo, hi := minMax(arr.Len(), arr.IsNull, arr.Value, func(x, y bool) int { return cmp.Compare(b2i(x), b2i(y)) })
		return lo, hi, nil
	},
	StatsPut: func(row []byte, off int, v any) ([]byte, bool) {
		b, ok := v.(bool)
		row[off] = byte(b2i(b))
		return row, ok
	},
	StatsGet: func(row []byte, off int) (any, error) { return row[off] != 0, nil },
	Partition: func(t *types.DataType, v any) (string, error) {
		b, ok := v.(bool)
		if !ok {
			return "", badPartitionValue(t, "bool", v)
		}
		return strconv.FormatBool(b), nil
	},
	Literal: func(t *types.DataType, v any) (*protocol.PbLiteralValue, error) {
		b, ok := v.(bool)
		if !ok {
			return nil, badLiteral(t, v)
		}
		lit := newLiteral(literalBoolean)
		lit.BooleanValue = proto.Bool(b)
		return lit, nil
	},
}

func appendBool(dst []byte, t *types.DataType, v any) ([]byte, error) {
	b, ok := v.(bool)
	if !ok {
		return dst, TypeError(t, "bool", v)
	}
	if b {
		return append(dst, 1), nil
	}
	return append(dst, 0), nil
}

var tinyInt = &Codec{
	Kind: types.TinyInt, GoType: "int8", Check: noParams,
	AppendCompacted: appendInt8,
	ReadCompacted: func(b []byte, _ *types.DataType) (any, int, error) {
		if len(b) < 1 {
			return nil, 0, ErrTruncated
		}
		return int8(b[0]), 1, nil
	},
	IndexedSize:   fixedSize(1),
	AppendIndexed: appendInt8,
	ReadIndexed:   func(b []byte, _ *types.DataType) (any, error) { return int8(b[0]), nil },
	ArraySlot:     1,
	AppendArray: func(dst []byte, _, pos int, t *types.DataType, v any) ([]byte, error) {
		x, ok := v.(int8)
		if !ok {
			return dst, TypeError(t, "int8", v)
		}
		dst[pos] = byte(x)
		return dst, nil
	},
	ReadArray: func(a ArrayReader, pos int, _ *types.DataType) (any, int, error) { return int8(a.B[pos]), a.Next, nil },
	Arrow: func(t types.DataType) (ArrowColumn, error) {
		return ArrowColumn{
			Check: fixedCheck[int8](t, "int8", 1),
			Put:   func(b array.Builder, v any) { b.(*array.Int8Builder).Append(v.(int8)) },
			Get:   func(a arrow.Array, i int) any { return a.(*array.Int8).Value(i) },
		}, nil
	},
	IndexedToArrow: func(bl array.Builder, _ *types.DataType, b []byte) error {
		bl.(*array.Int8Builder).Append(int8(b[0]))
		return nil
	},
	StatsCompute: func(a arrow.Array, t *types.DataType) (any, any, error) {
		arr, ok := a.(*array.Int8)
		if !ok {
			return nil, nil, wrongArray(a, t)
		}
		lo, hi := minMax(arr.Len(), arr.IsNull, arr.Value, cmp.Compare[int8])
		return lo, hi, nil
	},
	StatsPut: func(row []byte, off int, v any) ([]byte, bool) {
		n, ok := v.(int8)
		row[off] = byte(n)
		return row, ok
	},
	StatsGet: func(row []byte, off int) (any, error) { return int8(row[off]), nil },
	Partition: func(t *types.DataType, v any) (string, error) {
		x, ok := v.(int8)
		if !ok {
			return "", badPartitionValue(t, "int8", v)
		}
		return strconv.Itoa(int(x)), nil
	},
	Literal: intLiteral(literalTinyInt, math.MinInt8, math.MaxInt8),
}

func appendInt8(dst []byte, t *types.DataType, v any) ([]byte, error) {
	x, ok := v.(int8)
	if !ok {
		return dst, TypeError(t, "int8", v)
	}
	return append(dst, byte(x)), nil
}

var smallInt = &Codec{
	Kind: types.SmallInt, GoType: "int16", Check: noParams,
	AppendCompacted: appendInt16,
	ReadCompacted: func(b []byte, _ *types.DataType) (any, int, error) {
		if len(b) < 2 {
			return nil, 0, ErrTruncated
		}
		return int16(le.Uint16(b)), 2, nil
	},
	IndexedSize:   fixedSize(2),
	AppendIndexed: appendInt16,
	ReadIndexed:   func(b []byte, _ *types.DataType) (any, error) { return int16(le.Uint16(b)), nil },
	ArraySlot:     2,
	AppendArray: func(dst []byte, _, pos int, t *types.DataType, v any) ([]byte, error) {
		x, ok := v.(int16)
		if !ok {
			return dst, TypeError(t, "int16", v)
		}
		le.PutUint16(dst[pos:], uint16(x))
		return dst, nil
	},
	ReadArray: func(a ArrayReader, pos int, _ *types.DataType) (any, int, error) {
		return int16(le.Uint16(a.B[pos:])), a.Next, nil
	},
	Arrow: func(t types.DataType) (ArrowColumn, error) {
		return ArrowColumn{
			Check: fixedCheck[int16](t, "int16", 2),
			Put:   func(b array.Builder, v any) { b.(*array.Int16Builder).Append(v.(int16)) },
			Get:   func(a arrow.Array, i int) any { return a.(*array.Int16).Value(i) },
		}, nil
	},
	IndexedToArrow: func(bl array.Builder, _ *types.DataType, b []byte) error {
		bl.(*array.Int16Builder).Append(int16(le.Uint16(b)))
		return nil
	},
	StatsCompute: func(a arrow.Array, t *types.DataType) (any, any, error) {
		arr, ok := a.(*array.Int16)
		if !ok {
			return nil, nil, wrongArray(a, t)
		}
		lo, hi := minMax(arr.Len(), arr.IsNull, arr.Value, cmp.Compare[int16])
		return lo, hi, nil
	},
	StatsPut: func(row []byte, off int, v any) ([]byte, bool) {
		n, ok := v.(int16)
		le.PutUint16(row[off:], uint16(n))
		return row, ok
	},
	StatsGet: func(row []byte, off int) (any, error) { return int16(le.Uint16(row[off:])), nil },
	Partition: func(t *types.DataType, v any) (string, error) {
		x, ok := v.(int16)
		if !ok {
			return "", badPartitionValue(t, "int16", v)
		}
		return strconv.Itoa(int(x)), nil
	},
	Literal: intLiteral(literalSmall, math.MinInt16, math.MaxInt16),
}

func appendInt16(dst []byte, t *types.DataType, v any) ([]byte, error) {
	x, ok := v.(int16)
	if !ok {
		return dst, TypeError(t, "int16", v)
	}
	return le.AppendUint16(dst, uint16(x)), nil
}

var intCodec = &Codec{
	Kind: types.Int, GoType: "int32", Check: noParams,
	AppendCompacted: func(dst []byte, t *types.DataType, v any) ([]byte, error) {
		x, ok := v.(int32)
		if !ok {
			return dst, TypeError(t, "int32", v)
		}
		return AppendVarint32(dst, x), nil
	},
	ReadCompacted: func(b []byte, _ *types.DataType) (any, int, error) {
		x, n, err := Varint32(b)
		if err != nil {
			return nil, 0, err
		}
		return x, n, nil
	},
	IndexedSize: fixedSize(4),
	AppendIndexed: func(dst []byte, t *types.DataType, v any) ([]byte, error) {
		x, ok := v.(int32)
		if !ok {
			return dst, TypeError(t, "int32", v)
		}
		return le.AppendUint32(dst, uint32(x)), nil
	},
	ReadIndexed: func(b []byte, _ *types.DataType) (any, error) { return int32(le.Uint32(b)), nil },
	ArraySlot:   4,
	AppendArray: func(dst []byte, _, pos int, t *types.DataType, v any) ([]byte, error) {
		x, ok := v.(int32)
		if !ok {
			return dst, TypeError(t, "int32", v)
		}
		le.PutUint32(dst[pos:], uint32(x))
		return dst, nil
	},
	ReadArray: func(a ArrayReader, pos int, _ *types.DataType) (any, int, error) {
		return int32(le.Uint32(a.B[pos:])), a.Next, nil
	},
	Arrow: func(t types.DataType) (ArrowColumn, error) {
		return ArrowColumn{
			Check: fixedCheck[int32](t, "int32", 4),
			Put:   func(b array.Builder, v any) { b.(*array.Int32Builder).Append(v.(int32)) },
			Get:   func(a arrow.Array, i int) any { return a.(*array.Int32).Value(i) },
		}, nil
	},
	IndexedToArrow: func(bl array.Builder, _ *types.DataType, b []byte) error {
		bl.(*array.Int32Builder).Append(int32(le.Uint32(b)))
		return nil
	},
	StatsCompute: func(a arrow.Array, t *types.DataType) (any, any, error) {
		arr, ok := a.(*array.Int32)
		if !ok {
			return nil, nil, wrongArray(a, t)
		}
		lo, hi := minMax(arr.Len(), arr.IsNull, arr.Value, cmp.Compare[int32])
		return lo, hi, nil
	},
	StatsPut: putInt32Stat,
	StatsGet: getInt32Stat,
	Partition: func(t *types.DataType, v any) (string, error) {
		x, ok := v.(int32)
		if !ok {
			return "", badPartitionValue(t, "int32", v)
		}
		return strconv.Itoa(int(x)), nil
	},
	Literal: intLiteral(literalInt, math.MinInt32, math.MaxInt32),
}

func putInt32Stat(row []byte, off int, v any) ([]byte, bool) {
	n, ok := v.(int32)
	le.PutUint32(row[off:], uint32(n))
	return row, ok
}

func getInt32Stat(row []byte, off int) (any, error) { return int32(le.Uint32(row[off:])), nil }

var bigInt = &Codec{
	Kind: types.BigInt, GoType: "int64", Check: noParams,
	AppendCompacted: func(dst []byte, t *types.DataType, v any) ([]byte, error) {
		x, ok := v.(int64)
		if !ok {
			return dst, TypeError(t, "int64", v)
		}
		return AppendVarint64(dst, x), nil
	},
	ReadCompacted: func(b []byte, _ *types.DataType) (any, int, error) {
		x, n, err := Varint64(b)
		if err != nil {
			return nil, 0, err
		}
		return x, n, nil
	},
	IndexedSize: fixedSize(8),
	AppendIndexed: func(dst []byte, t *types.DataType, v any) ([]byte, error) {
		x, ok := v.(int64)
		if !ok {
			return dst, TypeError(t, "int64", v)
		}
		return le.AppendUint64(dst, uint64(x)), nil
	},
	ReadIndexed: func(b []byte, _ *types.DataType) (any, error) { return int64(le.Uint64(b)), nil },
	ArraySlot:   8,
	AppendArray: func(dst []byte, _, pos int, t *types.DataType, v any) ([]byte, error) {
		x, ok := v.(int64)
		if !ok {
			return dst, TypeError(t, "int64", v)
		}
		le.PutUint64(dst[pos:], uint64(x))
		return dst, nil
	},
	ReadArray: func(a ArrayReader, pos int, _ *types.DataType) (any, int, error) {
		return int64(a.U64(pos)), a.Next, nil
	},
	Arrow: func(t types.DataType) (ArrowColumn, error) {
		return ArrowColumn{
			Check: fixedCheck[int64](t, "int64", 8),
			Put:   func(b array.Builder, v any) { b.(*array.Int64Builder).Append(v.(int64)) },
			Get:   func(a arrow.Array, i int) any { return a.(*array.Int64).Value(i) },
		}, nil
	},
	IndexedToArrow: func(bl array.Builder, _ *types.DataType, b []byte) error {
		bl.(*array.Int64Builder).Append(int64(le.Uint64(b)))
		return nil
	},
	StatsCompute: func(a arrow.Array, t *types.DataType) (any, any, error) {
		arr, ok := a.(*array.Int64)
		if !ok {
			return nil, nil, wrongArray(a, t)
		}
		lo, hi := minMax(arr.Len(), arr.IsNull, arr.Value, cmp.Compare[int64])
		return lo, hi, nil
	},
	StatsPut: func(row []byte, off int, v any) ([]byte, bool) {
		n, ok := v.(int64)
		le.PutUint64(row[off:], uint64(n))
		return row, ok
	},
	StatsGet: func(row []byte, off int) (any, error) { return int64(le.Uint64(row[off:])), nil },
	Partition: func(t *types.DataType, v any) (string, error) {
		x, ok := v.(int64)
		if !ok {
			return "", badPartitionValue(t, "int64", v)
		}
		return strconv.FormatInt(x, 10), nil
	},
	Literal: intLiteral(literalBigInt, math.MinInt64, math.MaxInt64),
}
