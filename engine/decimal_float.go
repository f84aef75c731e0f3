package engine

import (
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// DECIMAL → DOUBLE and FLOAT, correctly rounded as Java's
// BigDecimal.doubleValue (Flink's cast): CAST(100.10 AS DOUBLE) is 100.1,
// where Arrow's cast (the unscaled value times a power of ten in floating
// point) gives 100.10000000000001.

// exactPow10 are the powers of ten a float64 holds exactly.
var exactPow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// decimalToFloat64 is the float64 nearest to x × 10^-scale.
func decimalToFloat64(x decimal128.Num, scale int) float64 {
	const exact = 1 << 53
	if hi, lo := x.HighBits(), int64(x.LowBits()); scale >= 0 && scale < len(exactPow10) &&
		(hi == 0 && lo >= 0 && lo < exact || hi == -1 && lo < 0 && lo > -exact) {
		// both operands exact: one IEEE division rounds correctly
		return float64(lo) / exactPow10[scale]
	}
	f, _ := strconv.ParseFloat(x.ToString(int32(scale)), 64) // correctly rounded; ±Inf beyond range
	return f
}

// castDecimalFloat casts a DECIMAL array to DOUBLE or FLOAT (at); handled
// is false for other casts.
func castDecimalFloat(ec *evalCtx, arr arrow.Array, at arrow.DataType) (_ arrow.Array, handled bool) {
	a, ok := arr.(*array.Decimal128)
	if !ok {
		return nil, false
	}
	scale := int(a.DataType().(*arrow.Decimal128Type).Scale)
	switch at.ID() {
	case arrow.FLOAT64:
		b := array.NewFloat64Builder(ec.mem)
		defer b.Release()
		b.Reserve(a.Len())
		for i := range a.Len() {
			if a.IsNull(i) {
				b.AppendNull()
				continue
			}
			b.Append(decimalToFloat64(a.Value(i), scale))
		}
		return b.NewArray(), true
	case arrow.FLOAT32:
		b := array.NewFloat32Builder(ec.mem)
		defer b.Release()
		b.Reserve(a.Len())
		for i := range a.Len() {
			if a.IsNull(i) {
				b.AppendNull()
				continue
			}
			f, _ := strconv.ParseFloat(a.Value(i).ToString(int32(scale)), 32)
			b.Append(float32(f))
		}
		return b.NewArray(), true
	}
	return nil, false
}
