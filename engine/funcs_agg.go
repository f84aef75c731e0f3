package engine

import (
	"fmt"
	"math"
	"math/big"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/flussql/flussql/fluss/types"
)

// The aggregate family. COUNT, SUM, AVG, MIN and MAX have the hash
// aggregation's typed accumulators (aggacc.go); the others keep one state
// per group (AggState), fed the group's non-NULL values.

func init() {
	builtin := func(name, sig, desc, example string) *FuncDef {
		return &FuncDef{Name: name, Kind: AggregateFunc, Family: "aggregate", Signature: sig, Desc: desc, Example: example,
			Type: builtinAggType, Builtin: true}
	}
	register(
		builtin("COUNT", "COUNT(*) | COUNT([DISTINCT] x) → BIGINT NOT NULL", "the number of rows, or of non-NULL x", "COUNT(*) = 3"),
		builtin("SUM", "SUM([DISTINCT] x NUMERIC) → BIGINT | DOUBLE | DECIMAL(38, s)", "the sum of the non-NULL x; NULL over none", "SUM(x) = 6"),
		builtin("AVG", "AVG([DISTINCT] x NUMERIC) → type of x | DOUBLE | DECIMAL(38, max(6, s))", "the mean of the non-NULL x (integers truncated toward zero)", "AVG(x) = 2"),
		builtin("MIN", "MIN(x) → type of x", "the smallest non-NULL x", "MIN(x) = 1"),
		builtin("MAX", "MAX(x) → type of x", "the largest non-NULL x", "MAX(x) = 3"),
		varianceDef("VAR_POP", nil, "the population variance of the non-NULL x", false, false),
		varianceDef("VAR_SAMP", []string{"VARIANCE"}, "the sample variance of the non-NULL x (NULL for one row)", true, false),
		varianceDef("STDDEV_POP", nil, "the population standard deviation of the non-NULL x", false, true),
		varianceDef("STDDEV_SAMP", []string{"STDDEV"}, "the sample standard deviation of the non-NULL x (NULL for one row)", true, true),
		&FuncDef{Name: "LISTAGG", Kind: AggregateFunc, Family: "aggregate", Signature: "LISTAGG(x STRING[, sep STRING]) → STRING",
			Desc: "the non-NULL x joined by sep (',' by default), in the order rows arrive", Example: "LISTAGG(name, ';') = 'a;b'",
			Type: listaggType, AggState: func(a *Agg) aggState {
				sep := ","
				if len(a.Extra) > 0 {
					sep, _ = constString(a.Extra[0])
				}
				return &listaggState{sep: sep}
			}},
		&FuncDef{Name: "FIRST_VALUE", Kind: AggregateFunc, Family: "aggregate", Signature: "FIRST_VALUE(x) → type of x",
			Desc: "the first non-NULL x in the order rows arrive (also a window function)", Example: "FIRST_VALUE(x) = 1",
			Type: sameAggType, AggState: func(*Agg) aggState { return &firstLastState{} }},
		&FuncDef{Name: "LAST_VALUE", Kind: AggregateFunc, Family: "aggregate", Signature: "LAST_VALUE(x) → type of x",
			Desc: "the last non-NULL x in the order rows arrive (also a window function)", Example: "LAST_VALUE(x) = 3",
			Type: sameAggType, AggState: func(*Agg) aggState { return &firstLastState{last: true} }},
	)
}

func sameAggType(fn string, args []Expr) ([]Expr, types.DataType, any, error) {
	if len(args) != 1 {
		return nil, types.DataType{}, nil, fmt.Errorf("%s takes one argument", fn)
	}
	return args, args[0].Type().AsNullable(), nil, nil
}

func listaggType(fn string, args []Expr) ([]Expr, types.DataType, any, error) {
	if err := argc(fn, args, 1, 2); err != nil {
		return nil, stringType, nil, err
	}
	if err := wantString(fn, args, 0); err != nil {
		return nil, stringType, nil, err
	}
	if len(args) == 2 {
		if _, ok := constString(args[1]); !ok {
			return nil, stringType, nil, fmt.Errorf("LISTAGG takes a constant string separator, not %s", args[1])
		}
	}
	return args, stringType.AsNullable(), nil, nil
}

type listaggState struct {
	sep string
	b   strings.Builder
	n   int
}

func (s *listaggState) add(v any) error {
	if s.n > 0 {
		s.b.WriteString(s.sep)
	}
	s.b.WriteString(v.(string))
	s.n++
	return nil
}

func (s *listaggState) result() (any, error) {
	if s.n == 0 {
		return nil, nil
	}
	return s.b.String(), nil
}

type firstLastState struct {
	v    any
	last bool
}

func (s *firstLastState) add(v any) error {
	if s.v == nil || s.last {
		s.v = v
	}
	return nil
}

func (s *firstLastState) result() (any, error) { return s.v, nil }

// varianceDef: VAR_POP, VAR_SAMP, STDDEV_POP, STDDEV_SAMP, computed as Flink
// reduces them (Calcite's rule): (SUM(x²) - SUM(x)²/COUNT(x)) / COUNT(x)
// (COUNT(x) - 1 for the sample), its square root for STDDEV, in the
// argument's type: integer arithmetic (truncating) for integers, DOUBLE for
// FLOAT and DOUBLE, exact for DECIMAL (then DECIMAL(38, 6), rounded half up).
func varianceDef(name string, aliases []string, desc string, sample, sqrt bool) *FuncDef {
	return &FuncDef{Name: name, Aliases: aliases, Kind: AggregateFunc, Family: "aggregate",
		Signature: name + "(x NUMERIC) → type of x (DECIMAL(38, 6) for DECIMAL)", Desc: desc, Example: name + "(x) = 1.0",
		Type: func(fn string, args []Expr) ([]Expr, types.DataType, any, error) {
			if err := firstErr(argc(fn, args, 1, 1), wantNum(fn, args, 0)); err != nil {
				return nil, types.DataType{}, nil, err
			}
			t := args[0].Type().AsNullable()
			switch {
			case t.Kind == types.Decimal: // Flink's DECIMAL(38, 6) (its division's scale)
				t = types.NewDecimal(38, 6)
			case !isInt(t.Kind) && t.Kind != types.Float:
				t = doubleType
			}
			return args, t, nil, nil
		},
		AggState: func(a *Agg) aggState {
			return &varianceState{integer: isInt(a.Arg.Type().Kind), decimal: a.T.Kind == types.Decimal, sample: sample, sqrt: sqrt, scale: int32(a.Arg.Type().Scale)}
		}}
}

type varianceState struct {
	integer, decimal bool
	sample, sqrt     bool
	dsum, dsq        big.Rat // DECIMAL arguments, exactly
	scale            int32
	n                int64
	isum, isq        int64
	fsum, fsq        float64
}

func (s *varianceState) add(v any) error {
	s.n++
	switch x := v.(type) {
	case int64:
		s.isum += x
		s.isq += x * x
	case float64:
		s.fsum += x
		s.fsq += x * x
	default:
		d, ok := v.(decimal128.Num)
		if !ok {
			return fmt.Errorf("engine: variance of %T", v)
		}
		r := new(big.Rat).SetFrac(d.BigInt(), pow10(int(s.scale)))
		s.dsum.Add(&s.dsum, r)
		s.dsq.Add(&s.dsq, r.Mul(r, r))
	}
	return nil
}

func (s *varianceState) result() (any, error) {
	if s.n == 0 || s.sample && s.n == 1 {
		return nil, nil
	}
	den := s.n
	if s.sample {
		den--
	}
	if s.decimal { // exact, rounded half up to the 6 decimals of DECIMAL(38, 6)
		n := new(big.Rat).SetInt64(s.n)
		v := new(big.Rat).Mul(&s.dsum, &s.dsum)
		v.Quo(v, n)
		v.Sub(&s.dsq, v)
		v.Quo(v, new(big.Rat).SetInt64(den))
		if s.sqrt {
			f, _ := v.Float64()
			v.SetFloat64(math.Sqrt(f))
		}
		v.Mul(v, new(big.Rat).SetInt(pow10(6)))
		return decimal128.FromBigInt(divHalfUp(v.Num(), v.Denom())), nil
	}
	if s.integer {
		v := (s.isq - s.isum*s.isum/s.n) / den
		if s.sqrt {
			v = int64(math.Sqrt(float64(v)))
		}
		return v, nil
	}
	v := (s.fsq - s.fsum*s.fsum/float64(s.n)) / float64(den)
	if s.sqrt {
		v = math.Sqrt(v)
	}
	return v, nil
}
