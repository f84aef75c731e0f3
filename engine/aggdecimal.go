package engine

import (
	"fmt"
	"math/big"
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// maxDec38 and minDec38 bound a DECIMAL(38, s) value's unscaled integer.
var (
	maxDec38 = numOf(false, pow10u[maxDecimalDigits].sub(u128{lo: 1}))
	minDec38 = maxDec38.Negate()
)

// decSumAcc is SUM or AVG of a DECIMAL: 128-bit sums of the unscaled
// values (at the argument's scale) and counts, with the overflow rule of
// decState (a running sum beyond 38 digits is an error).
type decSumAcc struct {
	agg     *Agg
	avg     bool
	in, out int // the argument's scale, the result's
	sum     []decimal128.Num
	n       []int64
}

func newDecSumAcc(a *Agg) *decSumAcc {
	return &decSumAcc{agg: a, avg: a.Func == "AVG", in: a.Arg.Type().Scale, out: a.T.Scale}
}

func (s *decSumAcc) resize(n int) { s.sum, s.n = grown(s.sum, n), grown(s.n, n) }
func (s *decSumAcc) bytes() int64 { return int64(cap(s.sum))*16 + int64(cap(s.n))*8 }

func (s *decSumAcc) update(gids []int32, arg arrow.Array) error {
	a, ok := arg.(*array.Decimal128)
	if !ok {
		return unexpected(s.agg, arg)
	}
	vals, nulls := a.Values(), a.NullN() > 0
	sum, cnt := s.sum, s.n
	for r, g := range gids {
		if nulls && a.IsNull(r) {
			continue
		}
		t, ok := addDec(sum[g], vals[r])
		if !ok || t.Greater(maxDec38) || t.Less(minDec38) {
			return fmt.Errorf("%w: SUM overflows DECIMAL(38, %d)", ErrArithmetic, s.in)
		}
		sum[g] = t
		cnt[g]++
	}
	return nil
}

// addDec is x + y in 128-bit two's complement, false on overflow.
func addDec(x, y decimal128.Num) (decimal128.Num, bool) {
	lo, c := bits.Add64(x.LowBits(), y.LowBits(), 0)
	xh, yh := x.HighBits(), y.HighBits()
	hi := xh + yh + int64(c)
	return decimal128.New(hi, lo), (xh < 0) != (yh < 0) || (hi < 0) == (xh < 0)
}

func (s *decSumAcc) build(memory.Allocator) (arrow.Array, error) {
	out := make([]decimal128.Num, len(s.sum))
	valid := make([]byte, bitutil.BytesForBits(int64(len(out))))
	nulls := 0
	for g, v := range s.sum {
		if s.n[g] == 0 {
			nulls++
			continue
		}
		bitutil.SetBit(valid, g)
		out[g] = s.result(v, s.n[g])
	}
	return decimalArray(s.agg.T, out, valid, nulls), nil
}

// result is a group's value as decState.result computes it: the sum at
// the result scale, divided by the count rounding half up for AVG.
func (s *decSumAcc) result(sum decimal128.Num, n int64) decimal128.Num {
	neg, m := magOf(sum)
	if q, ok := m.scaleUp(s.out - s.in); ok && s.out >= s.in {
		if s.avg {
			q = q.divHalfUp64(uint64(n))
		}
		if q.fits(maxDecimalDigits) {
			return numOf(neg, q)
		}
	}
	q := rescaleBig(sum.BigInt(), s.in, s.out)
	if s.avg {
		q = divHalfUp(q, big.NewInt(n))
	}
	return decimal128.FromBigInt(q)
}

// decMinMaxAcc is MIN or MAX of a DECIMAL.
type decMinMaxAcc struct {
	agg *Agg
	max bool
	v   []decimal128.Num
	has []bool
}

func (m *decMinMaxAcc) resize(n int) { m.v, m.has = grown(m.v, n), grown(m.has, n) }
func (m *decMinMaxAcc) bytes() int64 { return int64(cap(m.v))*16 + int64(cap(m.has)) }

func (m *decMinMaxAcc) update(gids []int32, arg arrow.Array) error {
	a, ok := arg.(*array.Decimal128)
	if !ok {
		return unexpected(m.agg, arg)
	}
	vals, nulls := a.Values(), a.NullN() > 0
	for r, g := range gids {
		if nulls && a.IsNull(r) {
			continue
		}
		x := vals[r]
		if !m.has[g] || (m.max && x.Greater(m.v[g])) || (!m.max && x.Less(m.v[g])) {
			m.v[g], m.has[g] = x, true
		}
	}
	return nil
}

func (m *decMinMaxAcc) build(memory.Allocator) (arrow.Array, error) {
	valid := make([]byte, bitutil.BytesForBits(int64(len(m.v))))
	nulls := 0
	for g, ok := range m.has {
		if ok {
			bitutil.SetBit(valid, g)
		} else {
			nulls++
		}
	}
	return decimalArray(m.agg.T, m.v[:len(m.v):len(m.v)], valid, nulls), nil
}
