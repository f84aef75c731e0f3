package engine

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/flussql/flussql/fluss/types"
)

// Binary is L Op R for + - * / % (numbers) and || (strings).
type Binary struct {
	Op   string
	L, R Expr
	T    types.DataType
}

// ErrArithmetic is matched by overflow and division-by-zero errors.
var ErrArithmetic = errors.New("arithmetic error")

// NewBinary types l op r (see ArithType).
func NewBinary(op string, l, r Expr) (Expr, error) {
	if op == "||" {
		if isUntyped(l) {
			l = retype(l, types.NewString())
		}
		if isUntyped(r) {
			r = retype(r, types.NewString())
		}
		if !isString(l.Type().Kind) || !isString(r.Type().Kind) {
			return nil, fmt.Errorf("|| needs strings, not %s and %s; CAST them to STRING", TypeName(l.Type()), TypeName(r.Type()))
		}
		return &Binary{Op: op, L: l, R: r, T: nullable(types.NewString(), bothNotNull(l.Type(), r.Type()))}, nil
	}
	if isUntyped(l) {
		l = retype(l, r.Type())
	}
	if isUntyped(r) {
		r = retype(r, l.Type())
	}
	t, err := ArithType(op, l.Type(), r.Type())
	if err != nil {
		return nil, fmt.Errorf("%s %s %s: %w", l, op, r, err)
	}
	if op == "/" || op == "%" {
		t = t.AsNullable()
	}
	if t.Kind == types.Decimal {
		l, r = decimalConst(l), decimalConst(r)
	}
	return &Binary{Op: op, L: l, R: r, T: t}, nil
}

// Type implements Expr.
func (e *Binary) Type() types.DataType { return e.T }

// String renders the operation in parentheses.
func (e *Binary) String() string { return "(" + e.L.String() + " " + e.Op + " " + e.R.String() + ")" }

func (e *Binary) children() []Expr { return []Expr{e.L, e.R} }
func (e *Binary) rebuild(c []Expr) Expr {
	n, err := NewBinary(e.Op, c[0], c[1])
	if err != nil {
		return &Binary{Op: e.Op, L: c[0], R: c[1], T: e.T}
	}
	return n
}

var kernelNames = map[string]string{"+": "add", "-": "subtract", "*": "multiply", "/": "divide"}

func (e *Binary) eval(ec *evalCtx, b arrow.RecordBatch) (arrow.Array, error) {
	// Operands are brought to the result type first; the integer result type
	// then bounds the computation, so the checked kernels report overflow.
	opType := e.T
	if e.Op == "||" {
		opType = types.NewString()
	}
	if e.T.Kind == types.Decimal {
		opType = asDecimal(e.L.Type())
	}
	l, err := evalAs(ec, e.L, opType, b)
	if err != nil {
		return nil, err
	}
	defer l.Release()
	rt := opType
	if e.T.Kind == types.Decimal {
		rt = asDecimal(e.R.Type())
	}
	r, err := evalAs(ec, e.R, rt, b)
	if err != nil {
		return nil, err
	}
	defer r.Release()
	n := int(b.NumRows())
	switch {
	case e.Op == "||":
		return mapRows(ec, e.T, []arrow.Array{l, r}, n, false, func(v []any) (any, error) {
			return v[0].(string) + v[1].(string), nil
		})
	case e.T.Kind == types.Decimal:
		return e.decimal(ec, l, r, n)
	case e.Op == "%":
		return mapRows(ec, e.T, []arrow.Array{l, r}, n, false, func(v []any) (any, error) {
			if x, ok := v[0].(int64); ok {
				y := v[1].(int64)
				if y == 0 {
					return nil, fmt.Errorf("%w: division by zero in %s", ErrArithmetic, e)
				}
				if y == -1 {
					return int64(0), nil
				}
				return x % y, nil
			}
			y := v[1].(float64)
			if y == 0 {
				return nil, fmt.Errorf("%w: division by zero in %s", ErrArithmetic, e)
			}
			return math.Mod(v[0].(float64), y), nil
		})
	}
	out, err := compute.CallFunction(ec.ctx, kernelNames[e.Op], nil, compute.NewDatumWithoutOwning(l), compute.NewDatumWithoutOwning(r))
	if err != nil {
		return nil, arithError(e, err)
	}
	return out.(*compute.ArrayDatum).MakeArray(), nil
}

func arithError(e Expr, err error) error {
	msg := err.Error()
	switch {
	case strings.Contains(msg, "overflow"):
		return fmt.Errorf("%w: %s overflows %s", ErrArithmetic, e, TypeName(e.Type()))
	case strings.Contains(msg, "divide by zero"):
		return fmt.Errorf("%w: division by zero in %s", ErrArithmetic, e)
	}
	return fmt.Errorf("%s: %w", e, err)
}

// decimal computes the operation exactly with big integers (Arrow's decimal
// kernels follow Arrow's result types, not Flink's) and rounds half up to
// the result scale.
func (e *Binary) decimal(ec *evalCtx, l, r arrow.Array, n int) (arrow.Array, error) {
	if out, ok, err := e.decimalFast(ec, l, r, n, e.bigDecimal); ok {
		return out, err
	}
	return mapRows(ec, e.T, []arrow.Array{l, r}, n, false, func(v []any) (any, error) {
		return e.bigDecimal(v[0].(decimal128.Num), v[1].(decimal128.Num))
	})
}

// bigDecimal is x op y for one row, exactly with big integers.
func (e *Binary) bigDecimal(xn, yn decimal128.Num) (decimal128.Num, error) {
	s1, s2, s := asDecimal(e.L.Type()).Scale, asDecimal(e.R.Type()).Scale, e.T.Scale
	limit := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(e.T.Precision)), nil)
	x, y := xn.BigInt(), yn.BigInt()
	var num, den *big.Int // result = num / den, unscaled at scale s
	switch e.Op {
	case "+", "-":
		x, y = rescaleBig(x, s1, s), rescaleBig(y, s2, s)
		if e.Op == "+" {
			num = x.Add(x, y)
		} else {
			num = x.Sub(x, y)
		}
		den = big.NewInt(1)
	case "*":
		num, den = x.Mul(x, y), pow10(s1+s2-s)
		if s1+s2 < s {
			num, den = rescaleBig(num, s1+s2, s), big.NewInt(1)
		}
	case "/":
		if y.Sign() == 0 {
			return decimal128.Num{}, fmt.Errorf("%w: division by zero in %s", ErrArithmetic, e)
		}
		// x/10^s1 / (y/10^s2) * 10^s = x * 10^(s2+s-s1) / y
		num, den = x, y
		if k := s2 + s - s1; k >= 0 {
			num.Mul(num, pow10(k))
		} else {
			den = new(big.Int).Mul(y, pow10(-k))
		}
	default: // %
		if y.Sign() == 0 {
			return decimal128.Num{}, fmt.Errorf("%w: division by zero in %s", ErrArithmetic, e)
		}
		x, y = rescaleBig(x, s1, s), rescaleBig(y, s2, s)
		num, den = x.Rem(x, y), big.NewInt(1)
	}
	q := divHalfUp(num, den)
	if new(big.Int).Abs(q).Cmp(limit) >= 0 {
		return decimal128.Num{}, fmt.Errorf("%w: %s overflows %s", ErrArithmetic, e, TypeName(e.T))
	}
	return decimal128.FromBigInt(q), nil
}

func pow10(k int) *big.Int { return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(k)), nil) }

// rescaleBig moves an unscaled value from scale from to scale to (to ≥ from).
func rescaleBig(x *big.Int, from, to int) *big.Int {
	if to > from {
		return new(big.Int).Mul(x, pow10(to-from))
	}
	return divHalfUp(x, pow10(from-to))
}

// divHalfUp divides rounding half away from zero.
func divHalfUp(num, den *big.Int) *big.Int {
	q, m := new(big.Int).QuoRem(num, den, new(big.Int))
	if m.Sign() != 0 {
		twice := new(big.Int).Abs(m)
		twice.Lsh(twice, 1)
		if twice.Cmp(new(big.Int).Abs(den)) >= 0 {
			if (num.Sign() < 0) != (den.Sign() < 0) {
				q.Sub(q, big.NewInt(1))
			} else {
				q.Add(q, big.NewInt(1))
			}
		}
	}
	return q
}

// Neg is -X.
type Neg struct{ X Expr }

// NewNeg types -x.
func NewNeg(x Expr) (Expr, error) {
	if !isNumeric(x.Type().Kind) {
		return nil, fmt.Errorf("-%s needs a number, not %s", x, TypeName(x.Type()))
	}
	return &Neg{X: x}, nil
}

// Type implements Expr.
func (e *Neg) Type() types.DataType { return e.X.Type() }

// String renders the negation.
func (e *Neg) String() string        { return "-" + e.X.String() }
func (e *Neg) children() []Expr      { return []Expr{e.X} }
func (e *Neg) rebuild(c []Expr) Expr { return &Neg{X: c[0]} }

func (e *Neg) eval(ec *evalCtx, b arrow.RecordBatch) (arrow.Array, error) {
	x, err := e.X.eval(ec, b)
	if err != nil {
		return nil, err
	}
	defer x.Release()
	if e.Type().Kind == types.Decimal {
		if out, ok := negateDecimals(e.Type(), x); ok {
			return out, nil
		}
		return mapRows(ec, e.Type(), []arrow.Array{x}, int(b.NumRows()), false, func(v []any) (any, error) {
			return v[0].(decimal128.Num).Negate(), nil
		})
	}
	out, err := compute.CallFunction(ec.ctx, "negate", nil, compute.NewDatumWithoutOwning(x))
	if err != nil {
		return nil, arithError(e, err)
	}
	return out.(*compute.ArrayDatum).MakeArray(), nil
}
