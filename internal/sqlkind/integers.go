package sqlkind

import (
	"errors"
	"math"
	"strconv"

	"github.com/flussql/flussql/fluss/types"
)

// The integer kinds: values are int8, int16, int32 and int64; nothing wraps around.
func init() {
	for k, bits := range map[types.Kind]int{types.TinyInt: 8, types.SmallInt: 16, types.Int: 32, types.BigInt: 64} {
		fit := fitInt(bits)
		number := func(col string, t types.DataType, text string) (any, error) { return intNumber(fit, col, t, text) }
		e := &Kind{Family: Integer, Width: bits, Partition: true,
			Text: numberText(number), Number: number, Int: fit, Uint: intUint,
			Float: func(col string, t types.DataType, f float64, b int) (any, error) { return intFloat(fit, col, t, f, b) }}
		if bits < 64 {
			e.Wide = func(types.DataType) types.DataType { return types.NewBigInt() }
		}
		register(k, e)
	}
}

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
