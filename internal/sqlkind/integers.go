package sqlkind

import (
	"errors"
	"math"
	"reflect"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/flussql/flussql/fluss/types"
)

// The integer kinds: values are int8, int16, int32 and int64; nothing wraps around.
func init() {
	for k, bits := range map[types.Kind]int{types.TinyInt: 8, types.SmallInt: 16, types.Int: 32, types.BigInt: 64} {
		fit := fitInt(bits)
		number := func(col string, t types.DataType, text string) (any, error) { return intNumber(fit, col, t, text) }
		e := &Kind{Family: Integer, Width: bits, Partition: true, Model: intModels[bits],
			Text: numberText(number), Number: number, Int: fit, Uint: intUint,
			Float: func(col string, t types.DataType, f float64, b int) (any, error) { return intFloat(fit, col, t, f, b) }}
		e.Driver = intDriver(bits)
		if bits < 64 {
			e.Wide = func(types.DataType) types.DataType { return types.NewBigInt() }
		}
		register(k, e)
	}
}

// intModels are the Go types of the integer kinds' values, by width.
var intModels = map[int]reflect.Type{8: typeInt8, 16: typeInt16, 32: typeInt32, 64: typeInt64}

// intFunc is Kind.Int of an integer kind.
type intFunc = func(col string, t types.DataType, n int64) (any, error)

// IntRange is the range of the values of an integer kind of width bits.
func IntRange(bits int) (lo, hi int64) {
	switch bits {
	case 8:
		return math.MinInt8, math.MaxInt8
	case 16:
		return math.MinInt16, math.MaxInt16
	case 32:
		return math.MinInt32, math.MaxInt32
	}
	return math.MinInt64, math.MaxInt64
}

// fitInt returns the Kind.Int of the integer kind of width bits: it checks n against
// the kind's range and returns it in the kind's Go type.
func fitInt(bits int) intFunc {
	lo, hi := IntRange(bits)
	out := func(col string, t types.DataType, n int64) error {
		return OutOfRange(col, t, strconv.FormatInt(n, 10))
	}
	switch bits {
	case 8:
		return func(col string, t types.DataType, n int64) (any, error) {
			if n < lo || n > hi {
				return nil, out(col, t, n)
			}
			return int8(n), nil
		}
	case 16:
		return func(col string, t types.DataType, n int64) (any, error) {
			if n < lo || n > hi {
				return nil, out(col, t, n)
			}
			return int16(n), nil
		}
	case 32:
		return func(col string, t types.DataType, n int64) (any, error) {
			if n < lo || n > hi {
				return nil, out(col, t, n)
			}
			return int32(n), nil
		}
	}
	return func(_ string, _ types.DataType, n int64) (any, error) { return n, nil }
}

func intUint(col string, t types.DataType, n uint64) (any, error) {
	return nil, OutOfRange(col, t, strconv.FormatUint(n, 10))
}

// intFloat takes integral floats in range.
func intFloat(fit intFunc, col string, t types.DataType, f float64, bits int) (any, error) {
	if f != math.Trunc(f) || math.IsInf(f, 0) || math.IsNaN(f) {
		return nil, Mismatch(col, t, "float "+strconv.FormatFloat(f, 'g', -1, bits))
	}
	if f < math.MinInt64 || f >= math.MaxInt64 {
		return nil, OutOfRange(col, t, strconv.FormatFloat(f, 'g', -1, bits))
	}
	return fit(col, t, int64(f))
}

// intNumber takes integers, also written with a fraction or exponent (1e3, 2.0).
func intNumber(fit intFunc, col string, t types.DataType, text string) (any, error) {
	n, err := strconv.ParseInt(text, 10, 64)
	if err == nil {
		return fit(col, t, n)
	}
	if errors.Is(err, strconv.ErrRange) {
		return nil, OutOfRange(col, t, text)
	}
	r, ok := ParseRat(text)
	if !ok || !r.IsInt() {
		return nil, ErrNoFit
	}
	if !r.Num().IsInt64() {
		return nil, OutOfRange(col, t, text)
	}
	return fit(col, t, r.Num().Int64())
}

// intDriver is the Driver of the integer kind of width bits: Next returns int64; a NOT
// NULL column scans into the kind's own Go type.
func intDriver(bits int) Driver {
	d := Driver{NullScan: typeNullInt64, Value: typeInt64, FromValue: intValue}
	switch bits {
	case 8:
		d.Scan = typeInt8
		d.Cell = cellOf(func(_ types.DataType, a *array.Int8) Cell { return func(i int) any { return int64(a.Value(i)) } })
		d.Slab = slabOf(func(a *array.Int8) Cell {
			return int64Slab(a.Len(), func(i int) int64 { return int64(a.Value(i)) })
		})
	case 16:
		d.Scan = typeInt16
		d.Cell = cellOf(func(_ types.DataType, a *array.Int16) Cell { return func(i int) any { return int64(a.Value(i)) } })
		d.Slab = slabOf(func(a *array.Int16) Cell {
			return int64Slab(a.Len(), func(i int) int64 { return int64(a.Value(i)) })
		})
	case 32:
		d.Scan = typeInt32
		d.Cell = cellOf(func(_ types.DataType, a *array.Int32) Cell { return func(i int) any { return int64(a.Value(i)) } })
		d.Slab = slabOf(func(a *array.Int32) Cell {
			vals := a.Int32Values()
			return int64Slab(a.Len(), func(i int) int64 { return int64(vals[i]) })
		})
	default:
		d.Scan = typeInt64
		d.Cell = cellOf(func(_ types.DataType, a *array.Int64) Cell { return func(i int) any { return a.Value(i) } })
		d.Slab = slabOf(func(a *array.Int64) Cell {
			vals := a.Int64Values()
			return int64Slab(a.Len(), func(i int) int64 { return vals[i] })
		})
	}
	return d
}

func intValue(_ types.DataType, v any) (any, bool) {
	n, ok := AsInt64(v)
	if !ok {
		return nil, false
	}
	return n, true
}

// AsInt64 widens a value of an integer kind's value model (int8, int16, int32, int64).
func AsInt64(v any) (int64, bool) {
	switch x := v.(type) {
	case int64:
		return x, true
	case int8:
		return int64(x), true
	case int16:
		return int64(x), true
	case int32:
		return int64(x), true
	}
	return 0, false
}
