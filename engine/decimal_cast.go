package engine

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/flussql/flussql/fluss/types"
)

// castDecimalFast is castArray for DECIMAL → DECIMAL and integer → DECIMAL
// in 128-bit fixed point (Arrow's kernels multiply and divide with math/big
// per value): a larger scale multiplies, a smaller one rounds half up (away
// from zero), as Flink's DecimalData does (Arrow's cast truncates). A DECIMAL value
// with more digits than the target's precision is checkPrecision's error
// (Arrow's kernel panicked on one beyond 128 bits). handled is false for
// other casts and for an integer that does not fit: Arrow's path then
// gives the result or the error as before.
func castDecimalFast(arr arrow.Array, at arrow.DataType, t types.DataType) (_ arrow.Array, handled bool, _ error) {
	dt, ok := at.(*arrow.Decimal128Type)
	if !ok {
		return nil, false, nil
	}
	p, s := int(dt.Precision), int(dt.Scale)
	n := arr.Len()
	out := make([]decimal128.Num, n)
	var ok2 bool
	switch a := arr.(type) {
	case *array.Decimal128:
		from := a.DataType().(*arrow.Decimal128Type)
		bad := rescaleColumn(a.Values(), out, int(from.Scale), s, p, a)
		if bad >= 0 {
			if !mayOverflow(from, dt) {
				return nil, false, nil // a value beyond its own type: Arrow decides
			}
			return nil, true, fmt.Errorf("%w: %s does not fit %d digits", ErrArithmetic, rescaledText(a.Value(bad), int(from.Scale), s), p)
		}
		ok2 = true
	case *array.Int8:
		ok2 = intsToDecimal(a.Int8Values(), out, s, p, a)
	case *array.Int16:
		ok2 = intsToDecimal(a.Int16Values(), out, s, p, a)
	case *array.Int32:
		ok2 = intsToDecimal(a.Int32Values(), out, s, p, a)
	case *array.Int64:
		ok2 = intsToDecimal(a.Int64Values(), out, s, p, a)
	}
	if !ok2 {
		return nil, false, nil
	}
	var valid []byte
	if arr.NullN() > 0 {
		valid = make([]byte, bitutil.BytesForBits(int64(n)))
		for i := range n {
			if arr.IsValid(i) {
				bitutil.SetBit(valid, i)
			}
		}
	}
	return decimalArray(t, out, valid, arr.NullN()), true, nil
}

// rescaleColumn moves the unscaled values xs from scale from to scale to
// (rounding half up); the index of the first valid value that does not fit p
// digits, or -1.
func rescaleColumn(xs, out []decimal128.Num, from, to, p int, a arrow.Array) int {
	nulls := a.NullN() > 0
	for i, x := range xs {
		if nulls && a.IsNull(i) {
			continue
		}
		neg, m := magOf(x)
		var q u128
		ok := true
		switch k := to - from; {
		case k >= 0:
			q, ok = m.scaleUp(k)
		case k >= -19:
			q = m.divHalfUp64(pow10u[-k].lo)
		default:
			// a / 10^19 / d with d = 10^(-k-19), even: the whole remainder
			// is at least half of 10^-k exactly when the second one is at
			// least d/2.
			q, _ = m.divmod64(pow10u[19].lo)
			var r uint64
			d := pow10u[-k-19].lo
			if q, r = q.divmod64(d); r >= d-r {
				q, _ = q.add(u128{lo: 1})
			}
		}
		if !ok || !q.fits(p) {
			return i
		}
		out[i] = numOf(neg, q)
	}
	return -1
}

// rescaledText renders x (at scale from) moved to scale to, rounded half up.
func rescaledText(x decimal128.Num, from, to int) string {
	v := x.BigInt()
	if to >= from {
		v.Mul(v, pow10(to-from))
	} else {
		v = divHalfUp(v, pow10(from-to))
	}
	neg := v.Sign() < 0
	digits := new(big.Int).Abs(v).String()
	if to > 0 {
		if len(digits) <= to {
			digits = strings.Repeat("0", to-len(digits)+1) + digits
		}
		digits = digits[:len(digits)-to] + "." + digits[len(digits)-to:]
	}
	if neg {
		digits = "-" + digits
	}
	return digits
}

// intsToDecimal makes DECIMAL(p, s) values of integers, false when a valid
// value does not fit p digits.
func intsToDecimal[T int8 | int16 | int32 | int64](xs []T, out []decimal128.Num, s, p int, a arrow.Array) bool {
	nulls := a.NullN() > 0
	for i, x := range xs {
		if nulls && a.IsNull(i) {
			continue
		}
		v := int64(x)
		q, ok := u128{lo: absU64(v)}.scaleUp(s)
		if !ok || !q.fits(p) {
			return false
		}
		out[i] = numOf(v < 0, q)
	}
	return true
}
