package sqlkind

import (
	"cmp"
	"fmt"
	"math/big"
	"reflect"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/flussql/flussql/fluss/datum"
	"github.com/flussql/flussql/fluss/types"
)

// DECIMAL(p, s): values are datum.Decimal, converted exactly (no rounding).
func init() {
	register(types.Decimal, &Kind{Family: Decimal,
		Wide: func(types.DataType) types.DataType { return anyScaleDecimal },
		Text: numberText(decimalNumber), Number: decimalNumber,
		Int: func(col string, t types.DataType, n int64) (any, error) {
			return FitDecimal(col, t, new(big.Rat).SetInt64(n), strconv.FormatInt(n, 10))
		},
		Uint: func(col string, t types.DataType, n uint64) (any, error) {
			return FitDecimal(col, t, new(big.Rat).SetInt(new(big.Int).SetUint64(n)), strconv.FormatUint(n, 10))
		},
		Float:  decimalFloat,
		Model:  reflect.TypeFor[datum.Decimal](),
		Format: func(v any) string { return v.(datum.Decimal).String() },
		Plain:  func(v any) string { return v.(datum.Decimal).String() },
		Compare: func(a, b any) (int, bool) {
			x := a.(datum.Decimal)
			y, ok := b.(datum.Decimal)
			if !ok {
				return 0, false
			}
			if x.Scale() == y.Scale() {
				xu, ok1 := x.UnscaledInt64()
				yu, ok2 := y.UnscaledInt64()
				if ok1 && ok2 {
					return cmp.Compare(xu, yu), true
				}
			}
			return DecimalRat(x).Cmp(DecimalRat(y)), true
		},
		Engine: func(t types.DataType, v any) (any, error) {
			d, err := v.(datum.Decimal).Rescale(t.Scale)
			if err != nil {
				return nil, err
			}
			return decimal128.FromBigInt(d.Unscaled()), nil
		},
		// Next returns text, so that no digit is lost.
		Driver: Driver{Scan: typeString, NullScan: typeNullString, Value: typeString, Precision: PrecisionScale,
			Cell: cellOf(func(_ types.DataType, a *array.Decimal128) Cell {
				scale := a.DataType().(*arrow.Decimal128Type).Scale
				return func(i int) any { return a.Value(i).ToString(scale) }
			}),
			FromValue: func(_ types.DataType, v any) (any, bool) {
				if d, ok := v.(datum.Decimal); ok {
					return d.String(), true
				}
				return nil, false
			}},
		Datum: func(col string, t types.DataType, v any) (any, error) {
			if d, ok := v.(datum.Decimal); ok {
				return FitDecimal(col, t, DecimalRat(d), d.String())
			}
			return nil, ErrNoFit
		}})
}

// anyScaleDecimal is the type of decimal values compared with a DECIMAL column: exact,
// at the scale they are written with.
var anyScaleDecimal = types.DataType{Kind: types.Decimal, Precision: 38, Scale: -1}

// decimalFloat takes the shortest decimal that reads back as f.
func decimalFloat(col string, t types.DataType, f float64, bits int) (any, error) {
	shown := strconv.FormatFloat(f, 'g', -1, bits)
	r, ok := ParseRat(shown)
	if !ok {
		return nil, Mismatch(col, t, "float "+shown)
	}
	return FitDecimal(col, t, r, shown)
}

func decimalNumber(col string, t types.DataType, text string) (any, error) {
	if d, ok := fastDecimal(t, text); ok {
		return d, nil
	}
	r, ok := ParseRat(text)
	if !ok {
		return nil, ErrNoFit
	}
	return FitDecimal(col, t, r, text)
}

var bigTen = big.NewInt(10)

// FitDecimal converts r exactly to DECIMAL(p, s) (s < 0: the smallest scale that
// holds r): an error when digits would be lost or the value has too many digits;
// shown is r as written, for errors.
func FitDecimal(col string, t types.DataType, r *big.Rat, shown string) (any, error) {
	if t.Scale < 0 { // any scale: the smallest that holds r exactly
		t.Scale = 0
		for !new(big.Rat).Mul(r, new(big.Rat).SetInt(new(big.Int).Exp(bigTen, big.NewInt(int64(t.Scale)), nil))).IsInt() {
			if t.Scale++; t.Scale > t.Precision {
				return nil, fmt.Errorf("column %q: %s has more than %d digits", col, shown, t.Precision)
			}
		}
	}
	scaled := new(big.Rat).Mul(r, new(big.Rat).SetInt(new(big.Int).Exp(bigTen, big.NewInt(int64(t.Scale)), nil)))
	if !scaled.IsInt() {
		return nil, fmt.Errorf("column %q is %s; %s has more than %d digits after the point (no rounding is done)", col, TypeName(t), shown, t.Scale)
	}
	u := scaled.Num()
	if digits := len(new(big.Int).Abs(u).String()); u.Sign() != 0 && digits > t.Precision {
		return nil, fmt.Errorf("column %q is %s; %s has more than %d digits before the point", col, TypeName(t), shown, t.Precision-t.Scale)
	}
	return decimalOf(u, t.Scale)
}

// decimalOf returns u × 10^-scale.
func decimalOf(u *big.Int, scale int) (datum.Decimal, error) {
	if u.IsInt64() {
		return datum.NewDecimal(u.Int64(), scale), nil
	}
	s := new(big.Int).Abs(u).String()
	if len(s) <= scale {
		s = strings.Repeat("0", scale-len(s)+1) + s
	}
	if scale > 0 {
		s = s[:len(s)-scale] + "." + s[len(s)-scale:]
	}
	if u.Sign() < 0 {
		s = "-" + s
	}
	return datum.ParseDecimal(s)
}

// DecimalRat returns d as an exact rational.
func DecimalRat(d datum.Decimal) *big.Rat {
	den := new(big.Int).Exp(bigTen, big.NewInt(int64(d.Scale())), nil)
	return new(big.Rat).SetFrac(d.Unscaled(), den)
}
