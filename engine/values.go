package engine

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"math"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/flussql/flussql/fluss/types"
)

// getter returns a function reading row i (not NULL) of arr in the value
// model of the package documentation; strings and bytes are copied, so the
// values outlive the batch.
func getter(arr arrow.Array) (func(i int) any, error) {
	switch a := arr.(type) {
	case *array.Boolean:
		return func(i int) any { return a.Value(i) }, nil
	case *array.Int8:
		return func(i int) any { return int64(a.Value(i)) }, nil
	case *array.Int16:
		return func(i int) any { return int64(a.Value(i)) }, nil
	case *array.Int32:
		return func(i int) any { return int64(a.Value(i)) }, nil
	case *array.Int64:
		return func(i int) any { return a.Value(i) }, nil
	case *array.Float32:
		return func(i int) any { return float64(a.Value(i)) }, nil
	case *array.Float64:
		return func(i int) any { return a.Value(i) }, nil
	case *array.Decimal128:
		return func(i int) any { return a.Value(i) }, nil
	case *array.String:
		return func(i int) any { return strings.Clone(a.Value(i)) }, nil
	case *array.Binary:
		return func(i int) any { return bytes.Clone(a.Value(i)) }, nil
	case *array.FixedSizeBinary:
		return func(i int) any { return bytes.Clone(a.Value(i)) }, nil
	case *array.Date32:
		return func(i int) any { return int32(a.Value(i)) }, nil
	case *array.Time32:
		return func(i int) any { return int64(a.Value(i)) }, nil
	case *array.Time64:
		return func(i int) any { return int64(a.Value(i)) }, nil
	case *array.Timestamp:
		return func(i int) any { return int64(a.Value(i)) }, nil
	case *array.Null:
		return func(int) any { return nil }, nil
	}
	return nil, fmt.Errorf("engine: values of Arrow type %s are not supported here", arr.DataType())
}

// values reads a whole array, nil for NULL.
func values(arr arrow.Array) ([]any, error) {
	get, err := getter(arr)
	if err != nil {
		return nil, err
	}
	out := make([]any, arr.Len())
	for i := range out {
		if arr.IsValid(i) {
			out[i] = get(i)
		}
	}
	return out, nil
}

// appender returns a function appending a value of the model (nil: NULL)
// to a builder of the Arrow type of t.
func appender(b array.Builder) func(v any) {
	put := putter(b)
	return func(v any) {
		if v == nil {
			b.AppendNull()
			return
		}
		put(v)
	}
}

func putter(b array.Builder) func(v any) {
	switch x := b.(type) {
	case *array.BooleanBuilder:
		return func(v any) { x.Append(v.(bool)) }
	case *array.Int8Builder:
		return func(v any) { x.Append(int8(v.(int64))) }
	case *array.Int16Builder:
		return func(v any) { x.Append(int16(v.(int64))) }
	case *array.Int32Builder:
		return func(v any) { x.Append(int32(v.(int64))) }
	case *array.Int64Builder:
		return func(v any) { x.Append(v.(int64)) }
	case *array.Float32Builder:
		return func(v any) { x.Append(float32(v.(float64))) }
	case *array.Float64Builder:
		return func(v any) { x.Append(v.(float64)) }
	case *array.Decimal128Builder:
		return func(v any) { x.Append(v.(decimal128.Num)) }
	case *array.StringBuilder:
		return func(v any) { x.Append(v.(string)) }
	case *array.BinaryBuilder:
		return func(v any) { x.Append(v.([]byte)) }
	case *array.FixedSizeBinaryBuilder:
		return func(v any) { x.Append(v.([]byte)) }
	case *array.Date32Builder:
		return func(v any) { x.Append(arrow.Date32(v.(int32))) }
	case *array.Time32Builder:
		return func(v any) { x.Append(arrow.Time32(v.(int64))) }
	case *array.Time64Builder:
		return func(v any) { x.Append(arrow.Time64(v.(int64))) }
	case *array.TimestampBuilder:
		return func(v any) { x.Append(arrow.Timestamp(v.(int64))) }
	case *array.ListBuilder: // an ARRAY: []any of its elements' values
		put := appender(x.ValueBuilder())
		return func(v any) {
			x.Append(true)
			for _, e := range v.([]any) {
				put(e)
			}
		}
	}
	if put := nestedPutter(b); put != nil {
		return put
	}
	return func(any) { b.AppendNull() }
}

// arrowType maps t as Fluss's Arrow format does.
func arrowType(t types.DataType) (arrow.DataType, error) { return types.ArrowType(t) }

// newBuilder makes a builder for values of t.
func newBuilder(mem memory.Allocator, t types.DataType) (array.Builder, error) {
	at, err := arrowType(t)
	if err != nil {
		return nil, err
	}
	return array.NewBuilder(mem, at), nil
}

// buildArray makes an array of t from values.
func buildArray(mem memory.Allocator, t types.DataType, vals []any) (arrow.Array, error) {
	b, err := newBuilder(mem, t)
	if err != nil {
		return nil, err
	}
	defer b.Release()
	b.Reserve(len(vals))
	put := appender(b)
	for _, v := range vals {
		put(v)
	}
	return b.NewArray(), nil
}

// repeat makes an array of n copies of v.
func repeat(mem memory.Allocator, t types.DataType, v any, n int) (arrow.Array, error) {
	b, err := newBuilder(mem, t)
	if err != nil {
		return nil, err
	}
	defer b.Release()
	b.Reserve(n)
	put := appender(b)
	for range n {
		put(v)
	}
	return b.NewArray(), nil
}

// compareValues orders two non-NULL values of one type of the model.
func compareValues(a, b any) int {
	switch x := a.(type) {
	case bool:
		y := b.(bool)
		switch {
		case x == y:
			return 0
		case !x:
			return -1
		}
		return 1
	case int64:
		return cmp.Compare(x, b.(int64))
	case int32:
		return cmp.Compare(x, b.(int32))
	case float64:
		return cmp.Compare(x, b.(float64))
	case decimal128.Num:
		return x.Cmp(b.(decimal128.Num))
	case string:
		return strings.Compare(x, b.(string))
	case []byte:
		return bytes.Compare(x, b.([]byte))
	}
	return 0
}

// appendKey appends an encoding of v (nil: NULL) to a key: equal values
// of one type encode equally, different ones differently.
func appendKey(key []byte, v any) []byte {
	switch x := v.(type) {
	case nil:
		return append(key, 0)
	case bool:
		if x {
			return append(key, 1, 1)
		}
		return append(key, 1, 0)
	case int64:
		return binary.LittleEndian.AppendUint64(append(key, 2), uint64(x))
	case int32:
		return binary.LittleEndian.AppendUint32(append(key, 3), uint32(x))
	case float64:
		if x == 0 {
			x = 0 // -0 groups with 0
		}
		if math.IsNaN(x) {
			x = math.NaN()
		}
		return binary.LittleEndian.AppendUint64(append(key, 4), math.Float64bits(x))
	case decimal128.Num:
		key = binary.LittleEndian.AppendUint64(append(key, 5), x.LowBits())
		return binary.LittleEndian.AppendUint64(key, uint64(x.HighBits()))
	case string:
		key = binary.AppendUvarint(append(key, 6), uint64(len(x)))
		return append(key, x...)
	case []byte:
		key = binary.AppendUvarint(append(key, 7), uint64(len(x)))
		return append(key, x...)
	}
	return append(key, 9)
}

// valueSize estimates the memory a value holds.
func valueSize(v any) int64 {
	switch x := v.(type) {
	case string:
		return 16 + int64(len(x))
	case []byte:
		return 24 + int64(len(x))
	}
	return 16
}

// KeyAppender returns a function appending the key encoding of row i of arr to key:
// equal values have equal encodings whatever their integer width or batch, a NULL its own
// (the hash joins', GROUP BY's and DISTINCT's keys; the executor's union-read merge).
func KeyAppender(arr arrow.Array) (func(key []byte, i int) []byte, error) {
	return keyAppender(arr)
}

// keyAppender returns a function appending the key encoding of row i of arr
// (as appendKey of its value would) without boxing the value.
func keyAppender(arr arrow.Array) (func(key []byte, i int) []byte, error) {
	switch a := arr.(type) {
	case *array.Int8:
		return func(key []byte, i int) []byte { return appendIntKey(key, a.IsNull(i), int64(a.Value(i))) }, nil
	case *array.Int16:
		return func(key []byte, i int) []byte { return appendIntKey(key, a.IsNull(i), int64(a.Value(i))) }, nil
	case *array.Int32:
		return func(key []byte, i int) []byte { return appendIntKey(key, a.IsNull(i), int64(a.Value(i))) }, nil
	case *array.Int64:
		return func(key []byte, i int) []byte { return appendIntKey(key, a.IsNull(i), a.Value(i)) }, nil
	// Temporal values unboxed, encoded as appendKey encodes their model values
	// (DATE an int32, TIME and TIMESTAMP an int64).
	case *array.Date32:
		return func(key []byte, i int) []byte {
			if a.IsNull(i) {
				return append(key, 0)
			}
			return binary.LittleEndian.AppendUint32(append(key, 3), uint32(a.Value(i)))
		}, nil
	case *array.Time32:
		return func(key []byte, i int) []byte { return appendIntKey(key, a.IsNull(i), int64(a.Value(i))) }, nil
	case *array.Time64:
		return func(key []byte, i int) []byte { return appendIntKey(key, a.IsNull(i), int64(a.Value(i))) }, nil
	case *array.Timestamp:
		return func(key []byte, i int) []byte { return appendIntKey(key, a.IsNull(i), int64(a.Value(i))) }, nil
	case *array.String:
		return func(key []byte, i int) []byte {
			if a.IsNull(i) {
				return append(key, 0)
			}
			s := a.Value(i)
			key = binary.AppendUvarint(append(key, 6), uint64(len(s)))
			return append(key, s...)
		}, nil
	}
	get, err := getter(arr)
	if err != nil {
		return nil, err
	}
	return func(key []byte, i int) []byte {
		if arr.IsNull(i) {
			return append(key, 0)
		}
		return appendKey(key, get(i))
	}, nil
}

func appendIntKey(key []byte, null bool, v int64) []byte {
	if null {
		return append(key, 0)
	}
	return binary.LittleEndian.AppendUint64(append(key, 2), uint64(v))
}
