package sqlkind

import (
	"math/big"
	"math/bits"

	"github.com/flussql/flussql/fluss/datum"
	"github.com/flussql/flussql/fluss/types"
)

// fastDecimal converts plain decimal text ([+-]digits[.digits]) to
// DECIMAL(p, s) without math/big for up to 38 digits: the digits go
// straight into the unscaled integer at scale s. ok is false for anything
// else (an exponent, a missing digit, fraction digits beyond s that are
// not zeros, too many digits, an any-scale type): FitDecimal then decides,
// with its errors, so that the result and the errors are those of the
// exact path.
func fastDecimal(t types.DataType, s string) (_ datum.Decimal, ok bool) {
	if t.Scale < 0 || t.Precision > 38 || t.Scale > t.Precision {
		return datum.Decimal{}, false
	}
	i, neg := 0, false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	start := i
	for i < len(s) && s[i] == '0' {
		i++ // leading zeros are no digits of the value
	}
	ipStart := i
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	ip := s[ipStart:i]
	if i == start {
		return datum.Decimal{}, false // no integer digit
	}
	fp := ""
	if i < len(s) && s[i] == '.' {
		i++
		fs := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if fp = s[fs:i]; fp == "" {
			return datum.Decimal{}, false
		}
	}
	if i != len(s) {
		return datum.Decimal{}, false
	}
	if len(fp) > t.Scale {
		for j := t.Scale; j < len(fp); j++ {
			if fp[j] != '0' {
				return datum.Decimal{}, false // digits would be lost: FitDecimal's error
			}
		}
		fp = fp[:t.Scale]
	}
	n := len(ip) + t.Scale // digits of the unscaled value, up to leading zeros of fp
	if n > t.Precision && len(ip) > 0 {
		return datum.Decimal{}, false // too many digits before the point: FitDecimal's error
	}
	if n <= 18 {
		var u int64
		for _, part := range [2]string{ip, fp} {
			for j := 0; j < len(part); j++ {
				u = u*10 + int64(part[j]-'0')
			}
		}
		for range t.Scale - len(fp) {
			u *= 10
		}
		if t.Precision < 19 && u >= pow10i64[t.Precision] {
			return datum.Decimal{}, false
		}
		if neg {
			u = -u
		}
		return datum.NewDecimal(u, t.Scale), true
	}
	if n > 38 {
		return datum.Decimal{}, false
	}
	var hi, lo uint64
	mulAdd := func(d uint64) {
		h1, l := bits.Mul64(lo, 10)
		l, c := bits.Add64(l, d, 0)
		hi, lo = hi*10+h1+c, l
	}
	for _, part := range [2]string{ip, fp} {
		for j := 0; j < len(part); j++ {
			mulAdd(uint64(part[j] - '0'))
		}
	}
	for range t.Scale - len(fp) {
		mulAdd(0)
	}
	// The value has at most 38 digits (< 2^127); check it against 10^p.
	if p := pow10u128[t.Precision]; hi > p[0] || hi == p[0] && lo >= p[1] {
		return datum.Decimal{}, false
	}
	u := new(big.Int).SetUint64(hi)
	u.Lsh(u, 64).Or(u, new(big.Int).SetUint64(lo))
	if neg {
		u.Neg(u)
	}
	return datum.NewDecimalFromBig(u, t.Scale), true
}

// pow10i64 holds 10^0 … 10^18.
var pow10i64 = func() (t [19]int64) {
	t[0] = 1
	for i := 1; i < len(t); i++ {
		t[i] = t[i-1] * 10
	}
	return t
}()

// pow10u128 holds 10^0 … 10^38 as their high and low 64 bits.
var pow10u128 = func() (t [39][2]uint64) {
	var hi, lo uint64 = 0, 1
	for k := range t {
		t[k] = [2]uint64{hi, lo}
		h1, l := bits.Mul64(lo, 10)
		hi, lo = hi*10+h1, l
	}
	return t
}()
