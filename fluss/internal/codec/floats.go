package codec

import (
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/flussql/flussql/fluss/types"
)

// FLOAT (float32) and DOUBLE (float64): IEEE 754 bits little-endian in every row
// format; BinaryArrayWriter canonicalizes NaN. Statistics order like Java's
// Float.compare/Double.compare (NaN largest, -0 below +0). No predicate literals yet.

func init() { register(float, double) }

var float = &Codec{
	Kind: types.Float, GoType: "float32", Check: noParams,
	AppendCompacted: appendFloat32,
	ReadCompacted: func(b []byte, _ *types.DataType) (any, int, error) {
		if len(b) < 4 {
			return nil, 0, ErrTruncated
		}
		return math.Float32frombits(le.Uint32(b)), 4, nil
	},
	IndexedSize:   fixedSize(4),
	AppendIndexed: appendFloat32,
	ReadIndexed: func(b []byte, _ *types.DataType) (any, error) {
		return math.Float32frombits(le.Uint32(b)), nil
	},
	ArraySlot: 4,
	AppendArray: func(dst []byte, _, pos int, t *types.DataType, v any) ([]byte, error) {
		x, ok := v.(float32)
		if !ok {
			return dst, TypeError(t, "float32", v)
		}
		bits := math.Float32bits(x)
		if x != x { // BinaryArrayWriter.writeFloat stores every NaN as Float.NaN
			bits = 0x7fc00000
		}
		le.PutUint32(dst[pos:], bits)
		return dst, nil
	},
	ReadArray: func(a ArrayReader, pos int, _ *types.DataType) (any, int, error) {
		return math.Float32frombits(le.Uint32(a.B[pos:])), a.Next, nil
	},
	Arrow: func(t types.DataType) (ArrowColumn, error) {
		return ArrowColumn{
			Check: fixedCheck[float32](t, "float32", 4),
			Put:   func(b array.Builder, v any) { b.(*array.Float32Builder).Append(v.(float32)) },
			Get:   func(a arrow.Array, i int) any { return a.(*array.Float32).Value(i) },
		}, nil
	},
	IndexedToArrow: func(bl array.Builder, _ *types.DataType, b []byte) error {
		bl.(*array.Float32Builder).Append(math.Float32frombits(le.Uint32(b)))
		return nil
	},
	StatsCompute: func(a arrow.Array, t *types.DataType) (any, any, error) {
		arr, ok := a.(*array.Float32)
		if !ok {
			return nil, nil, wrongArray(a, t)
		}
		lo, hi := minMax(arr.Len(), arr.IsNull, arr.Value, func(x, y float32) int { return javaFloatCompare(float64(x), float64(y)) })
		return lo, hi, nil
	},
	StatsPut: func(row []byte, off int, v any) ([]byte, bool) {
		f, ok := v.(float32)
		le.PutUint32(row[off:], math.Float32bits(f))
		return row, ok
	},
	StatsGet: func(row []byte, off int) (any, error) { return math.Float32frombits(le.Uint32(row[off:])), nil },
	Partition: func(t *types.DataType, v any) (string, error) {
		x, ok := v.(float32)
		if !ok {
			return "", badPartitionValue(t, "float32", v)
		}
		return floatString(float64(x), 32), nil
	},
}

func appendFloat32(dst []byte, t *types.DataType, v any) ([]byte, error) {
	x, ok := v.(float32)
	if !ok {
		return dst, TypeError(t, "float32", v)
	}
	return le.AppendUint32(dst, math.Float32bits(x)), nil
}

var double = &Codec{
	Kind: types.Double, GoType: "float64", Check: noParams,
	AppendCompacted: appendFloat64,
	ReadCompacted: func(b []byte, _ *types.DataType) (any, int, error) {
		if len(b) < 8 {
			return nil, 0, ErrTruncated
		}
		return math.Float64frombits(le.Uint64(b)), 8, nil
	},
	IndexedSize:   fixedSize(8),
	AppendIndexed: appendFloat64,
	ReadIndexed: func(b []byte, _ *types.DataType) (any, error) {
		return math.Float64frombits(le.Uint64(b)), nil
	},
	ArraySlot: 8,
	AppendArray: func(dst []byte, _, pos int, t *types.DataType, v any) ([]byte, error) {
		x, ok := v.(float64)
		if !ok {
			return dst, TypeError(t, "float64", v)
		}
		bits := math.Float64bits(x)
		if x != x { // as writeDouble: Double.NaN
			bits = 0x7ff8000000000000
		}
		le.PutUint64(dst[pos:], bits)
		return dst, nil
	},
	ReadArray: func(a ArrayReader, pos int, _ *types.DataType) (any, int, error) {
		return math.Float64frombits(a.U64(pos)), a.Next, nil
	},
	Arrow: func(t types.DataType) (ArrowColumn, error) {
		return ArrowColumn{
			Check: fixedCheck[float64](t, "float64", 8),
			Put:   func(b array.Builder, v any) { b.(*array.Float64Builder).Append(v.(float64)) },
			Get:   func(a arrow.Array, i int) any { return a.(*array.Float64).Value(i) },
		}, nil
	},
	IndexedToArrow: func(bl array.Builder, _ *types.DataType, b []byte) error {
		bl.(*array.Float64Builder).Append(math.Float64frombits(le.Uint64(b)))
		return nil
	},
	StatsCompute: func(a arrow.Array, t *types.DataType) (any, any, error) {
		arr, ok := a.(*array.Float64)
		if !ok {
			return nil, nil, wrongArray(a, t)
		}
		lo, hi := minMax(arr.Len(), arr.IsNull, arr.Value, javaFloatCompare)
		return lo, hi, nil
	},
	StatsPut: func(row []byte, off int, v any) ([]byte, bool) {
		f, ok := v.(float64)
		le.PutUint64(row[off:], math.Float64bits(f))
		return row, ok
	},
	StatsGet: func(row []byte, off int) (any, error) { return math.Float64frombits(le.Uint64(row[off:])), nil },
	Partition: func(t *types.DataType, v any) (string, error) {
		x, ok := v.(float64)
		if !ok {
			return "", badPartitionValue(t, "float64", v)
		}
		return floatString(x, 64), nil
	},
}

func appendFloat64(dst []byte, t *types.DataType, v any) ([]byte, error) {
	x, ok := v.(float64)
	if !ok {
		return dst, TypeError(t, "float64", v)
	}
	return le.AppendUint64(dst, math.Float64bits(x)), nil
}
