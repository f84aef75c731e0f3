package datum

import (
	"fmt"
	"math"
	"math/big"
	"strings"
)

// Decimal is an exact decimal number: an unscaled integer times 10^-scale. The zero
// value is 0 with scale 0. Values fitting an int64 are held without allocation.
type Decimal struct {
	small int64
	big   *big.Int // non-nil only when the unscaled value does not fit in int64
	scale int32
}

// NewDecimal returns unscaled × 10^-scale.
func NewDecimal(unscaled int64, scale int) Decimal {
	return Decimal{small: unscaled, scale: int32(scale)}
}

// NewDecimalFromBig returns unscaled × 10^-scale; unscaled is copied.
func NewDecimalFromBig(unscaled *big.Int, scale int) Decimal {
	if unscaled.IsInt64() {
		return Decimal{small: unscaled.Int64(), scale: int32(scale)}
	}
	return Decimal{big: new(big.Int).Set(unscaled), scale: int32(scale)}
}

// ParseDecimal parses a plain decimal literal such as "123.45", "-0.001" or "+7".
// The scale is the number of digits after the point.
func ParseDecimal(s string) (Decimal, error) {
	t := s
	neg := false
	if t != "" && (t[0] == '+' || t[0] == '-') {
		neg = t[0] == '-'
		t = t[1:]
	}
	intPart, frac, _ := strings.Cut(t, ".") // "1." and ".5" are accepted, as by Java BigDecimal
	digits := intPart + frac
	if digits == "" || !allDigits(digits) {
		return Decimal{}, fmt.Errorf("datum: invalid decimal literal %q: write digits with an optional sign and at most one point, such as -123.45 (no exponent, no spaces)", s)
	}
	u, ok := new(big.Int).SetString(digits, 10)
	if !ok {
		return Decimal{}, fmt.Errorf("datum: invalid decimal literal %q: write digits with an optional sign and at most one point, such as -123.45 (no exponent, no spaces)", s)
	}
	if neg {
		u.Neg(u)
	}
	return NewDecimalFromBig(u, len(frac)), nil
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// Scale returns the number of digits after the decimal point.
func (d Decimal) Scale() int { return int(d.scale) }

// Unscaled returns a new big.Int holding the unscaled value.
func (d Decimal) Unscaled() *big.Int {
	if d.big != nil {
		return new(big.Int).Set(d.big)
	}
	return big.NewInt(d.small)
}

// UnscaledInt64 returns the unscaled value if it fits in an int64.
func (d Decimal) UnscaledInt64() (int64, bool) {
	if d.big != nil {
		return 0, false
	}
	return d.small, true
}

// Sign returns -1, 0 or +1.
func (d Decimal) Sign() int {
	if d.big != nil {
		return d.big.Sign()
	}
	switch {
	case d.small < 0:
		return -1
	case d.small > 0:
		return 1
	}
	return 0
}

// Precision returns the number of decimal digits of the unscaled value (1 for zero).
func (d Decimal) Precision() int {
	if d.big == nil {
		v := d.small
		if v == math.MinInt64 {
			return 19
		}
		if v < 0 {
			v = -v
		}
		n := 1
		for v >= 10 {
			v /= 10
			n++
		}
		return n
	}
	s := d.big.String()
	if s[0] == '-' {
		return len(s) - 1
	}
	return len(s)
}

var bigTen = big.NewInt(10)

// Rescale returns d with the given scale. Raising the scale is always exact;
// lowering it fails unless the dropped digits are zero (no rounding).
func (d Decimal) Rescale(scale int) (Decimal, error) {
	if scale == int(d.scale) {
		return d, nil
	}
	if scale < 0 {
		return Decimal{}, fmt.Errorf("datum: negative decimal scale %d: a scale counts the digits after the point, 0 or more", scale)
	}
	u := d.Unscaled()
	diff := scale - int(d.scale)
	if diff > 0 {
		u.Mul(u, new(big.Int).Exp(bigTen, big.NewInt(int64(diff)), nil))
		return NewDecimalFromBig(u, scale), nil
	}
	q, r := new(big.Int).QuoRem(u, new(big.Int).Exp(bigTen, big.NewInt(int64(-diff)), nil), new(big.Int))
	if r.Sign() != 0 {
		return Decimal{}, fmt.Errorf("datum: decimal %s cannot be rescaled to scale %d without rounding: round it first, or use a scale of at least %d", d, scale, d.scale)
	}
	return NewDecimalFromBig(q, scale), nil
}

// Equal reports whether d and e have the same unscaled value and scale.
func (d Decimal) Equal(e Decimal) bool {
	if d.scale != e.scale {
		return false
	}
	if d.big == nil && e.big == nil {
		return d.small == e.small
	}
	return d.Unscaled().Cmp(e.Unscaled()) == 0
}

// String renders d in plain notation with exactly Scale digits after the point,
// like Java's BigDecimal.toPlainString.
func (d Decimal) String() string {
	var digits string
	if d.big != nil {
		digits = d.big.String()
	} else {
		digits = big.NewInt(d.small).String()
	}
	neg := strings.HasPrefix(digits, "-")
	digits = strings.TrimPrefix(digits, "-")
	sc := int(d.scale)
	if sc > 0 {
		if len(digits) <= sc {
			digits = strings.Repeat("0", sc-len(digits)+1) + digits
		}
		digits = digits[:len(digits)-sc] + "." + digits[len(digits)-sc:]
	}
	if neg {
		return "-" + digits
	}
	return digits
}
