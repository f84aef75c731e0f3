package engine

import (
	"math"
	"math/rand/v2"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/flussql/flussql/fluss/types"
)

// The trigonometric and other DOUBLE functions of the math family (Java's
// Math semantics: NaN and ±Infinity as IEEE 754 has them).

func init() {
	unary := func(name, desc, example string, f func(float64) float64) *FuncDef {
		return &FuncDef{Name: name, Family: "math", Signature: name + "(x NUMERIC) → DOUBLE", Desc: desc, Example: example,
			Type: fixedType("n", 0, doubleType), Kernel: floatMath(f)}
	}
	register(
		unary("SIN", "the sine of x (radians)", "SIN(0) = 0.0", math.Sin),
		unary("COS", "the cosine of x (radians)", "COS(0) = 1.0", math.Cos),
		unary("TAN", "the tangent of x (radians)", "TAN(0) = 0.0", math.Tan),
		unary("COT", "the cotangent of x (radians)", "COT(1) = 1 / TAN(1)", func(x float64) float64 { return 1 / math.Tan(x) }),
		unary("ASIN", "the arc sine of x", "ASIN(0) = 0.0", math.Asin),
		unary("ACOS", "the arc cosine of x", "ACOS(1) = 0.0", math.Acos),
		unary("ATAN", "the arc tangent of x", "ATAN(0) = 0.0", math.Atan),
		unary("SINH", "the hyperbolic sine of x", "SINH(0) = 0.0", math.Sinh),
		unary("COSH", "the hyperbolic cosine of x", "COSH(0) = 1.0", math.Cosh),
		unary("TANH", "the hyperbolic tangent of x", "TANH(0) = 0.0", math.Tanh),
		unary("DEGREES", "x radians in degrees", "DEGREES(0) = 0.0", func(x float64) float64 { return x * 180 / math.Pi }),
		unary("RADIANS", "x degrees in radians", "RADIANS(180) = 3.141592653589793", func(x float64) float64 { return x * math.Pi / 180 }),
		&FuncDef{Name: "ATAN2", Family: "math", Signature: "ATAN2(y NUMERIC, x NUMERIC) → DOUBLE",
			Desc: "the angle of the point (x, y)", Example: "ATAN2(0, 1) = 0.0",
			Type: fixedType("nn", 0, doubleType), Kernel: func(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
				y, err := doubles(ec, ins[0])
				if err != nil {
					return nil, err
				}
				defer y.Release()
				x, err := doubles(ec, ins[1])
				if err != nil {
					return nil, err
				}
				defer x.Release()
				return floatRows(ec, n, ins, false, func(i int) (float64, bool, error) { return math.Atan2(y.Value(i), x.Value(i)), true, nil })
			}},
		&FuncDef{Name: "E", Family: "math", Signature: "E() → DOUBLE NOT NULL",
			Desc: "Euler's number e", Example: "E() = 2.718281828459045",
			Type: fixedType("", 0, doubleType.AsNotNull()), Kernel: func(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
				return repeat(ec.mem, c.T, math.E, n)
			}},
		&FuncDef{Name: "RAND_INTEGER", Family: "math", Signature: "RAND_INTEGER([seed INT,] bound INT) → INT",
			Desc: "a pseudo-random integer in [0, bound); with a seed, the same sequence each run", Example: "RAND_INTEGER(10) = 7",
			Volatile: true, Type: fixedType("ii", 1, types.NewInt()), Kernel: func(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
				r := rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
				bound := intValuesOf(ins[len(ins)-1])
				if len(ins) == 2 && ins[0].IsValid(0) {
					seed := uint64(intValuesOf(ins[0])(0))
					r = rand.New(rand.NewPCG(seed, seed))
				}
				return intRows(ec, c.T, n, ins, false, func(i int) (int64, bool, error) {
					if bound(i) <= 0 {
						return 0, false, nil
					}
					return r.Int64N(bound(i)), true, nil
				})
			}},
	)
}
