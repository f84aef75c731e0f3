package engine

import (
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// u128 is an unsigned 128-bit magnitude: the fixed-point kernels of DECIMAL
// work on sign and magnitude, so that rounding half away from zero is
// rounding the magnitude half up.
type u128 struct{ hi, lo uint64 }

// pow10u holds 10^0 … 10^38 (10^38 < 2^127).
var pow10u = func() (t [maxDecimalDigits + 1]u128) {
	t[0] = u128{lo: 1}
	for i := 1; i < len(t); i++ {
		t[i], _ = t[i-1].mul64(10)
	}
	return t
}()

// magOf splits a decimal128 value into its sign and magnitude.
func magOf(n decimal128.Num) (neg bool, m u128) {
	hi, lo := n.HighBits(), n.LowBits()
	if hi >= 0 {
		return false, u128{uint64(hi), lo}
	}
	lo, c := bits.Add64(^lo, 1, 0)
	return true, u128{^uint64(hi) + c, lo}
}

// numOf joins a sign and a magnitude below 2^127 into a decimal128 value.
func numOf(neg bool, m u128) decimal128.Num {
	if !neg || m.isZero() {
		return decimal128.New(int64(m.hi), m.lo)
	}
	lo, c := bits.Add64(^m.lo, 1, 0)
	return decimal128.New(int64(^m.hi+c), lo)
}

func (a u128) isZero() bool { return a.hi|a.lo == 0 }

func (a u128) cmp(b u128) int {
	switch {
	case a.hi < b.hi:
		return -1
	case a.hi > b.hi:
		return 1
	case a.lo < b.lo:
		return -1
	case a.lo > b.lo:
		return 1
	}
	return 0
}

// fits reports whether a has at most p decimal digits.
func (a u128) fits(p int) bool { return a.cmp(pow10u[p]) < 0 }

// add is a + b, false on a carry out of 128 bits.
func (a u128) add(b u128) (u128, bool) {
	lo, c := bits.Add64(a.lo, b.lo, 0)
	hi, c := bits.Add64(a.hi, b.hi, c)
	return u128{hi, lo}, c == 0
}

// sub is a - b for a ≥ b.
func (a u128) sub(b u128) u128 {
	lo, c := bits.Sub64(a.lo, b.lo, 0)
	hi, _ := bits.Sub64(a.hi, b.hi, c)
	return u128{hi, lo}
}

// mul64 is a × k, false on overflow of 128 bits.
func (a u128) mul64(k uint64) (u128, bool) {
	h1, l := bits.Mul64(a.lo, k)
	h2, m := bits.Mul64(a.hi, k)
	hi, c := bits.Add64(h1, m, 0)
	return u128{hi, l}, h2 == 0 && c == 0
}

// mul is a × b, false on overflow of 128 bits.
func (a u128) mul(b u128) (u128, bool) {
	switch {
	case a.hi == 0:
		return b.mul64(a.lo)
	case b.hi == 0:
		return a.mul64(b.lo)
	}
	return u128{}, false
}

// scaleUp is a × 10^k, false on overflow of 128 bits (or k > 38).
func (a u128) scaleUp(k int) (u128, bool) {
	if k == 0 {
		return a, true
	}
	if k > maxDecimalDigits {
		return u128{}, false
	}
	return a.mul(pow10u[k])
}

// rescale is a × 10^k for k ≥ 0, a / 10^-k rounded half up for k < 0
// (as rescaleBig), false when that needs more than 128 bits.
func (a u128) rescale(k int) (u128, bool) {
	switch {
	case k >= 0:
		return a.scaleUp(k)
	case k >= -19:
		return a.divHalfUp64(pow10u[-k].lo), true
	}
	return u128{}, false
}

// divmod64 is a / d and a % d (d > 0).
func (a u128) divmod64(d uint64) (u128, uint64) {
	qhi, r := a.hi/d, a.hi%d
	qlo, r := bits.Div64(r, a.lo, d)
	return u128{qhi, qlo}, r
}

// divHalfUp64 is a / d rounded half up (d > 0).
func (a u128) divHalfUp64(d uint64) u128 {
	q, r := a.divmod64(d)
	if r >= d-r {
		q, _ = q.add(u128{lo: 1})
	}
	return q
}

// decimalTrunc is the integer part of x at scale s (truncated toward
// zero), false when it does not fit an int64 or s > 19.
func decimalTrunc(x decimal128.Num, s int) (int64, bool) {
	if s > 19 {
		return 0, false
	}
	neg, m := magOf(x)
	q, _ := m.divmod64(pow10u[s].lo)
	if q.hi != 0 || q.lo > 1<<63-1 {
		return 0, false
	}
	if neg {
		return -int64(q.lo), true
	}
	return int64(q.lo), true
}
