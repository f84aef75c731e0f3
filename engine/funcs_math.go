package engine

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/flussql/flussql/fluss/types"
)

// The math family: arrow-go's compute kernels where it has them (abs,
// floor, ceil, round, sign, power, sqrt, ln, log10, log2, exp), loops over
// the Float64 values otherwise.

var doubleType = types.NewDouble()

func init() {
	register(
		&FuncDef{Name: "ABS", Family: "math", Signature: "ABS(x NUMERIC) → type of x",
			Desc: "the absolute value of x", Example: "ABS(-2) = 2",
			Type: sameNumber, Kernel: absKernel},
		&FuncDef{Name: "FLOOR", Family: "math", Signature: "FLOOR(x NUMERIC) → type of x (DECIMAL(p, 0))",
			Desc: "the largest integer not above x (FLOOR(t TO unit) for times)", Example: "FLOOR(-1.5) = -2",
			Type: floorCeilType, Kernel: floorCeilKernel("floor")},
		&FuncDef{Name: "CEIL", Aliases: []string{"CEILING"}, Family: "math", Signature: "CEIL(x NUMERIC) → type of x (DECIMAL(p, 0))",
			Desc: "the smallest integer not below x (CEIL(t TO unit) for times)", Example: "CEIL(1.2) = 2",
			Type: floorCeilType, Kernel: floorCeilKernel("ceil")},
		&FuncDef{Name: "ROUND", Family: "math", Signature: "ROUND(x NUMERIC[, d INT]) → type of x",
			Desc: "x rounded half away from zero to d decimals (0 by default; d < 0: tens, hundreds…)", Example: "ROUND(2.567, 2) = 2.57",
			Type: roundType, Kernel: roundKernel},
		&FuncDef{Name: "TRUNCATE", Family: "math", Signature: "TRUNCATE(x NUMERIC[, d INT]) → type of x",
			Desc: "x cut toward zero to d decimals (0 by default)", Example: "TRUNCATE(2.567, 2) = 2.56",
			Type: roundType, Kernel: truncateKernel},
		&FuncDef{Name: "MOD", Kind: SyntaxFunc, Family: "math", Signature: "MOD(a INTEGER|DECIMAL, b INTEGER|DECIMAL) → as a % b",
			Desc: "the remainder of a / b, with the sign of a (a % b)", Example: "MOD(-7, 3) = -1",
			Build: func(args []Expr) (Expr, error) {
				if len(args) != 2 {
					return nil, fmt.Errorf("MOD takes 2 arguments, not %d", len(args))
				}
				return NewBinary("%", args[0], args[1])
			}},
		&FuncDef{Name: "SIGN", Family: "math", Signature: "SIGN(x NUMERIC) → type of x",
			Desc: "-1, 0 or 1 as x is negative, zero or positive", Example: "SIGN(-4.2) = -1.0",
			Type: sameNumber, Kernel: signKernel},
		&FuncDef{Name: "POWER", Aliases: []string{"POW"}, Family: "math", Signature: "POWER(x NUMERIC, y NUMERIC) → DOUBLE",
			Desc: "x to the power y", Example: "POWER(2, 10) = 1024.0",
			Type: fixedType("nn", 0, doubleType), Kernel: arrowDouble("power")},
		&FuncDef{Name: "SQRT", Family: "math", Signature: "SQRT(x NUMERIC) → DOUBLE",
			Desc: "the square root of x (NaN when x < 0)", Example: "SQRT(16) = 4.0",
			Type: fixedType("n", 0, doubleType), Kernel: arrowDouble("sqrt_unchecked")},
		&FuncDef{Name: "LN", Family: "math", Signature: "LN(x NUMERIC) → DOUBLE",
			Desc: "the natural logarithm of x", Example: "LN(1) = 0.0",
			Type: fixedType("n", 0, doubleType), Kernel: floatMath(math.Log)},
		&FuncDef{Name: "LOG10", Family: "math", Signature: "LOG10(x NUMERIC) → DOUBLE",
			Desc: "the base-10 logarithm of x", Example: "LOG10(1000) = 3.0",
			Type: fixedType("n", 0, doubleType), Kernel: floatMath(math.Log10)},
		&FuncDef{Name: "LOG2", Family: "math", Signature: "LOG2(x NUMERIC) → DOUBLE",
			Desc: "the base-2 logarithm of x", Example: "LOG2(8) = 3.0",
			Type: fixedType("n", 0, doubleType), Kernel: floatMath(math.Log2)},
		&FuncDef{Name: "LOG", Family: "math", Signature: "LOG([base NUMERIC,] x NUMERIC) → DOUBLE",
			Desc: "the natural logarithm of x, or its logarithm to base", Example: "LOG(2, 8) = 3.0",
			Type: fixedType("nn", 1, doubleType), Kernel: logKernel},
		&FuncDef{Name: "EXP", Family: "math", Signature: "EXP(x NUMERIC) → DOUBLE",
			Desc: "e to the power x", Example: "EXP(0) = 1.0",
			Type: fixedType("n", 0, doubleType), Kernel: floatMath(math.Exp)},
		&FuncDef{Name: "PI", Family: "math", Signature: "PI() → DOUBLE NOT NULL",
			Desc: "π", Example: "PI() = 3.141592653589793",
			Type: fixedType("", 0, doubleType.AsNotNull()), Kernel: func(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
				return repeat(ec.mem, c.T, math.Pi, n)
			}},
		&FuncDef{Name: "RAND", Family: "math", Signature: "RAND([seed INT]) → DOUBLE NOT NULL",
			Desc: "a pseudo-random number in [0, 1); with a seed, the same sequence each run", Example: "RAND() = 0.7275636800328681",
			Volatile: true, NullArgs: true, Type: fixedType("i", 1, doubleType.AsNotNull()), Kernel: randKernel},
	)
}

// sameNumber: one numeric argument, the result of its type.
func sameNumber(name string, args []Expr) ([]Expr, types.DataType, any, error) {
	if err := firstErr(argc(name, args, 1, 1), wantNum(name, args, 0)); err != nil {
		return nil, types.DataType{}, nil, err
	}
	return args, args[0].Type(), nil, nil
}

func absKernel(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
	if c.T.Kind == types.Decimal {
		return mapRows(ec, c.T, ins, n, false, func(v []any) (any, error) { return v[0].(decimal128.Num).Abs(), nil })
	}
	return callKernel(ec, c, "abs", nil, ins[0])
}

func floorCeilType(name string, args []Expr) ([]Expr, types.DataType, any, error) {
	args, t, _, err := sameNumber(name, args)
	if err == nil && t.Kind == types.Decimal { // Flink keeps the precision, drops the scale
		t = nullable(types.NewDecimal(t.Precision, 0), t.NotNull)
	}
	return args, t, nil, err
}

func floorCeilKernel(fn string) Kernel {
	return func(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
		switch k := c.Args[0].Type().Kind; {
		case isInt(k):
			ins[0].Retain()
			return ins[0], nil
		case k == types.Decimal:
			s := c.Args[0].Type().Scale
			return mapRows(ec, c.T, ins, n, false, func(v []any) (any, error) {
				x := v[0].(decimal128.Num).BigInt()
				q, m := new(big.Int).DivMod(x, pow10(s), new(big.Int)) // Euclidean: floor for a positive divisor
				if fn == "ceil" && m.Sign() != 0 {
					q.Add(q, big.NewInt(1))
				}
				return decimal128.FromBigInt(q), nil
			})
		}
		return callKernel(ec, c, fn, nil, ins[0])
	}
}

// roundType types ROUND and TRUNCATE: d a constant integer (0 when left out).
func roundType(name string, args []Expr) ([]Expr, types.DataType, any, error) {
	if err := argc(name, args, 1, 2); err != nil {
		return nil, types.DataType{}, nil, err
	}
	if err := wantNum(name, args, 0); err != nil {
		return nil, types.DataType{}, nil, err
	}
	if len(args) == 1 {
		args = append(args, &Const{Value: int64(0), T: types.NewInt().AsNotNull()})
	}
	d, ok := constInt(args[1])
	if !ok {
		return nil, types.DataType{}, nil, fmt.Errorf("%s takes a constant integer as its second argument", name)
	}
	t := args[0].Type()
	if t.Kind == types.Decimal {
		digits := int(max(0, d))
		p := t.Precision - t.Scale + min(digits, t.Scale) + 1 // Flink: one more digit, for TRUNCATE too
		t = nullable(types.NewDecimal(min(38, p), min(digits, t.Scale)), t.NotNull)
	}
	return args, t, nil, nil
}

func roundKernel(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
	d, _ := constInt(c.Args[1])
	switch k := c.Args[0].Type().Kind; {
	case isInt(k) && d >= 0:
		ins[0].Retain()
		return ins[0], nil
	case isInt(k):
		unit := pow10(int(-d))
		return mapRows(ec, c.T, ins[:1], n, false, func(v []any) (any, error) {
			q := divHalfUp(big.NewInt(v[0].(int64)), unit)
			q.Mul(q, unit)
			if !q.IsInt64() {
				return nil, fmt.Errorf("%w: %s overflows", ErrArithmetic, c)
			}
			return q.Int64(), nil
		})
	case k == types.Decimal && d < 0: // to tens, hundreds…: the scale-0 result ends in -d zeros
		s := c.Args[0].Type().Scale
		unit := pow10(int(-d))
		return mapRows(ec, c.T, ins[:1], n, false, func(v []any) (any, error) {
			q := divHalfUp(v[0].(decimal128.Num).BigInt(), pow10(s-int(d)))
			return decimal128.FromBigInt(q.Mul(q, unit)), nil
		})
	case k == types.Decimal:
		s := c.Args[0].Type().Scale
		return mapRows(ec, c.T, ins[:1], n, false, func(v []any) (any, error) {
			return decimal128.FromBigInt(rescaleBig(v[0].(decimal128.Num).BigInt(), s, c.T.Scale)), nil
		})
	}
	return callKernel(ec, c, "round", compute.RoundOptions{NDigits: d, Mode: compute.RoundHalfTowardsInfinity}, ins[0])
}

func truncateKernel(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
	d, _ := constInt(c.Args[1])
	switch k := c.Args[0].Type().Kind; {
	case isInt(k) && d >= 0:
		ins[0].Retain()
		return ins[0], nil
	case isInt(k):
		unit := pow10(int(-d))
		return mapRows(ec, c.T, ins[:1], n, false, func(v []any) (any, error) {
			q := new(big.Int).Quo(big.NewInt(v[0].(int64)), unit)
			return q.Mul(q, unit).Int64(), nil
		})
	case k == types.Decimal:
		s := c.Args[0].Type().Scale
		return mapRows(ec, c.T, ins[:1], n, false, func(v []any) (any, error) {
			x := v[0].(decimal128.Num).BigInt()
			if d < 0 {
				unit := pow10(s - int(d))
				q := new(big.Int).Quo(x, unit)
				return decimal128.FromBigInt(q.Mul(q, pow10(int(-d)))), nil
			}
			return decimal128.FromBigInt(new(big.Int).Quo(x, pow10(s-c.T.Scale))), nil
		})
	}
	p := math.Pow(10, float64(d))
	f, err := doubles(ec, ins[0])
	if err != nil {
		return nil, err
	}
	defer f.Release()
	out, err := floatRows(ec, n, ins, false, func(i int) (float64, bool, error) {
		return math.Trunc(f.Value(i)*p)/p + 0, true, nil // + 0: no -0
	})
	if err != nil || c.T.Kind == types.Double {
		return out, err
	}
	defer out.Release()
	return castArray(ec, out, c.T)
}

func signKernel(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
	if c.T.Kind == types.Decimal {
		one := decimal128.FromBigInt(pow10(c.T.Scale))
		return mapRows(ec, c.T, ins, n, false, func(v []any) (any, error) {
			switch v[0].(decimal128.Num).Sign() {
			case 1:
				return one, nil
			case -1:
				return one.Negate(), nil
			}
			return decimal128.Num{}, nil
		})
	}
	return callKernel(ec, c, "sign", nil, ins[0])
}

// arrowDouble runs an arrow-go compute function over the arguments cast to DOUBLE.
func arrowDouble(fn string) Kernel {
	return func(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
		fs := make([]arrow.Array, len(ins))
		for i, a := range ins {
			f, err := doubles(ec, a)
			if err != nil {
				releaseAll(fs[:i])
				return nil, err
			}
			fs[i] = f
		}
		defer releaseAll(fs)
		return callKernel(ec, c, fn, nil, fs...)
	}
}

// floatMath is the kernel of a DOUBLE function of one number (Java's Math semantics: NaN and ±Inf as IEEE).
func floatMath(f func(float64) float64) Kernel {
	return func(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
		x, err := doubles(ec, ins[0])
		if err != nil {
			return nil, err
		}
		defer x.Release()
		vals := x.Float64Values()
		out := make([]float64, n)
		for i := range n {
			out[i] = f(vals[i])
		}
		return float64Array(x, out), nil
	}
}

// float64Array makes a DOUBLE array of vals with the NULLs of like.
func float64Array(like arrow.Array, vals []float64) arrow.Array {
	n := len(vals)
	var valid *memory.Buffer
	if like.NullN() > 0 {
		bits := make([]byte, bitutil.BytesForBits(int64(n)))
		bitutil.CopyBitmap(like.NullBitmapBytes(), like.Data().Offset(), n, bits, 0)
		valid = memory.NewBufferBytes(bits)
	}
	d := array.NewData(arrow.PrimitiveTypes.Float64, n,
		[]*memory.Buffer{valid, memory.NewBufferBytes(arrow.Float64Traits.CastToBytes(vals))}, nil, like.NullN(), 0)
	defer d.Release()
	return array.NewFloat64Data(d)
}

func logKernel(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
	if len(ins) == 1 {
		return floatMath(math.Log)(ec, c, ins, n)
	}
	b, err := doubles(ec, ins[0])
	if err != nil {
		return nil, err
	}
	defer b.Release()
	x, err := doubles(ec, ins[1])
	if err != nil {
		return nil, err
	}
	defer x.Release()
	return floatRows(ec, n, ins, false, func(i int) (float64, bool, error) {
		return math.Log(x.Value(i)) / math.Log(b.Value(i)), true, nil
	})
}

func randKernel(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
	var r *rand.Rand
	if len(ins) == 1 && ins[0].IsValid(0) {
		seed := uint64(intValuesOf(ins[0])(0))
		r = rand.New(rand.NewPCG(seed, seed))
	} else {
		r = rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	}
	return floatRows(ec, n, nil, true, func(int) (float64, bool, error) { return r.Float64(), true, nil })
}
