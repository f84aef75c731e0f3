package engine

import (
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/flussql/flussql/fluss/types"
)

// decimalOp is one DECIMAL operation x op y in fixed point: operands at
// scales s1 and s2, the result at scale s with at most p digits.
type decimalOp struct {
	op        byte
	s1, s2, s int
	p         int
}

// fast computes x op y on 128-bit magnitudes, rounding half away from zero
// as divHalfUp does; ok is false when the operation needs more than 128
// bits, divides by zero or overflows the result type: then the big-number
// path decides (and reports the error).
func (d *decimalOp) fast(x, y decimal128.Num) (_ decimal128.Num, ok bool) {
	xn, xm := magOf(x)
	yn, ym := magOf(y)
	var neg bool
	var q u128
	switch d.op {
	case '+', '-':
		if xm, ok = xm.rescale(d.s - d.s1); !ok {
			return
		}
		if ym, ok = ym.rescale(d.s - d.s2); !ok {
			return
		}
		if d.op == '-' {
			yn = !yn
		}
		switch {
		case xn == yn:
			if q, ok = xm.add(ym); !ok {
				return
			}
			neg = xn
		case xm.cmp(ym) >= 0:
			q, neg = xm.sub(ym), xn
		default:
			q, neg = ym.sub(xm), yn
		}
	case '*':
		if q, ok = xm.mul(ym); !ok {
			return
		}
		neg = xn != yn
		switch k := d.s1 + d.s2 - d.s; {
		case k > 19:
			return decimal128.Num{}, false
		case k > 0:
			q = q.divHalfUp64(pow10u[k].lo)
		case k < 0:
			if q, ok = q.scaleUp(-k); !ok {
				return
			}
		}
	case '/':
		if ym.isZero() {
			return decimal128.Num{}, false
		}
		num, den := xm, ym
		if k := d.s2 + d.s - d.s1; k >= 0 {
			if num, ok = num.scaleUp(k); !ok {
				return
			}
		} else if den, ok = den.scaleUp(-k); !ok {
			return
		}
		if den.hi != 0 {
			return decimal128.Num{}, false
		}
		q, neg = num.divHalfUp64(den.lo), xn != yn
	default: // %
		if ym.isZero() {
			return decimal128.Num{}, false
		}
		if xm, ok = xm.rescale(d.s - d.s1); !ok {
			return
		}
		if ym, ok = ym.rescale(d.s - d.s2); !ok || ym.hi != 0 || ym.lo == 0 {
			return decimal128.Num{}, false
		}
		_, r := xm.divmod64(ym.lo)
		q, neg = u128{lo: r}, xn
	}
	if !q.fits(d.p) {
		return decimal128.Num{}, false
	}
	return numOf(neg, q), true
}

// exact64 computes the whole column at once when the types alone
// guarantee that no row overflows or rounds: operands of at most 18 digits
// (int64 unscaled values) and + or - at a result precision of at most 18
// (each rescaled operand has fewer digits than the result), or * at the
// full scale s1+s2 (the product of a p1- and a p2-digit number has at most
// p1+p2 digits, within 128 bits). Rows under NULL compute garbage that is
// never read. false: the row path decides.
func (d *decimalOp) exact64(p1, p2 int, xs, ys, out []decimal128.Num) bool {
	if p1 > 18 || p2 > 18 {
		return false
	}
	switch {
	case (d.op == '+' || d.op == '-') && d.p <= 18 && d.s >= d.s1 && d.s >= d.s2:
		f1, f2 := int64(pow10u[d.s-d.s1].lo), int64(pow10u[d.s-d.s2].lo)
		if d.op == '-' {
			f2 = -f2
		}
		for i := range out {
			out[i] = decimal128.FromI64(int64(xs[i].LowBits())*f1 + int64(ys[i].LowBits())*f2)
		}
		return true
	case d.op == '*' && d.s == d.s1+d.s2 && d.p <= 18:
		for i := range out {
			out[i] = decimal128.FromI64(int64(xs[i].LowBits()) * int64(ys[i].LowBits()))
		}
		return true
	case d.op == '*' && d.s == d.s1+d.s2:
		for i := range out {
			x, y := int64(xs[i].LowBits()), int64(ys[i].LowBits())
			neg := (x < 0) != (y < 0)
			hi, lo := bits.Mul64(absU64(x), absU64(y))
			out[i] = numOf(neg, u128{hi, lo})
		}
		return true
	}
	return false
}

func absU64(x int64) uint64 {
	if x < 0 {
		return uint64(-x)
	}
	return uint64(x)
}

// decimalFast computes e over two DECIMAL columns in fixed point, falling
// back to big for a row the fixed point cannot do; handled is false when
// an input is not a decimal128 column (then the caller takes the row path).
func (e *Binary) decimalFast(ec *evalCtx, l, r arrow.Array, n int, big func(x, y decimal128.Num) (decimal128.Num, error)) (arrow.Array, bool, error) {
	la, ok1 := l.(*array.Decimal128)
	ra, ok2 := r.(*array.Decimal128)
	if !ok1 || !ok2 {
		return nil, false, nil
	}
	d := decimalOp{op: e.Op[0], s1: asDecimal(e.L.Type()).Scale, s2: asDecimal(e.R.Type()).Scale, s: e.T.Scale, p: e.T.Precision}
	xs, ys := la.Values(), ra.Values()
	out := make([]decimal128.Num, n)
	var valid []byte
	nulls := 0
	if la.NullN() > 0 || ra.NullN() > 0 {
		valid = make([]byte, bitutil.BytesForBits(int64(n)))
		for i := range n {
			if la.IsNull(i) || ra.IsNull(i) {
				nulls++
			} else {
				bitutil.SetBit(valid, i)
			}
		}
	}
	p1, p2 := asDecimal(e.L.Type()).Precision, asDecimal(e.R.Type()).Precision
	if d.exact64(p1, p2, xs[:n], ys[:n], out) {
		return decimalArray(e.T, out, valid, nulls), true, nil
	}
	for i := range n {
		if valid != nil && !bitutil.BitIsSet(valid, i) {
			continue
		}
		v, ok := d.fast(xs[i], ys[i])
		if !ok {
			var err error
			if v, err = big(xs[i], ys[i]); err != nil {
				return nil, true, err
			}
		}
		out[i] = v
	}
	return decimalArray(e.T, out, valid, nulls), true, nil
}

// decimalArray makes a DECIMAL array of t over vals itself, NULL where the
// bit of valid is clear (valid nil: no NULLs).
func decimalArray(t types.DataType, vals []decimal128.Num, valid []byte, nulls int) arrow.Array {
	bufs := []*memory.Buffer{nil, memory.NewBufferBytes(arrow.Decimal128Traits.CastToBytes(vals))}
	if nulls > 0 {
		bufs[0] = memory.NewBufferBytes(valid)
	}
	dt, err := arrowType(t)
	if err != nil { // DECIMAL always maps to decimal128
		panic(err)
	}
	data := array.NewData(dt, len(vals), bufs, nil, nulls, 0)
	defer data.Release()
	return array.NewDecimal128Data(data)
}

// decimalConst turns an integer constant operand of a DECIMAL operation
// into the DECIMAL(digits, 0) constant it is computed as (asDecimal), so
// that it is not cast again for every batch; it renders as before.
func decimalConst(e Expr) Expr {
	c, ok := e.(*Const)
	if !ok || c.Untyped || !isInt(c.T.Kind) {
		return e
	}
	t := asDecimal(c.T)
	t.NotNull = c.T.NotNull
	out := &Const{T: t, Text: c.String()}
	if c.Value != nil {
		out.Value = decimal128.FromI64(c.Value.(int64))
	}
	return out
}

// negateDecimals is -x over a DECIMAL column (a DECIMAL value has at most
// 38 digits, so its negation never overflows); ok is false for another
// kind of array.
func negateDecimals(t types.DataType, x arrow.Array) (arrow.Array, bool) {
	a, ok := x.(*array.Decimal128)
	if !ok {
		return nil, false
	}
	out := make([]decimal128.Num, a.Len())
	for i, v := range a.Values() {
		out[i] = v.Negate()
	}
	var valid []byte
	if a.NullN() > 0 {
		valid = make([]byte, bitutil.BytesForBits(int64(a.Len())))
		for i := range out {
			if a.IsValid(i) {
				bitutil.SetBit(valid, i)
			}
		}
	}
	return decimalArray(t, out, valid, a.NullN()), true
}
