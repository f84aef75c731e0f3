package engine

import (
	"fmt"
	"math/big"
	"strings"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/flussql/flussql/fluss/types"
)

// Call is a scalar function: UPPER, LOWER, TRIM, CHAR_LENGTH, CONCAT,
// SUBSTRING, ABS, ROUND, FLOOR, CEIL, COALESCE, NULLIF. Build it with
// NewCall.
type Call struct {
	Name string
	Args []Expr
	T    types.DataType
	// layout is DATE_FORMAT's pattern as a Go time layout.
	layout string
}

// ScalarFunctions lists the names NewCall knows (MOD is NewBinary("%")).
var ScalarFunctions = []string{"ABS", "CARDINALITY", "CEIL", "CEILING", "CHAR_LENGTH", "CHARACTER_LENGTH", "COALESCE", "CONCAT",
	"DATE_FORMAT", "FLOOR", "LOWER", "LTRIM", "NULLIF", "POSITION", "ROUND", "RTRIM", "SUBSTRING", "TRIM", "UPPER"}

// NewCall types a scalar function call.
func NewCall(name string, args []Expr) (Expr, error) {
	name = strings.ToUpper(name)
	argc := func(lo, hi int) error {
		if len(args) < lo || len(args) > hi {
			if lo == hi {
				return fmt.Errorf("%s takes %d argument(s), not %d", name, lo, len(args))
			}
			return fmt.Errorf("%s takes %d to %d arguments, not %d", name, lo, hi, len(args))
		}
		return nil
	}
	str := func(i int) error {
		args[i] = retype(args[i], types.NewString())
		if !isString(args[i].Type().Kind) {
			return fmt.Errorf("%s needs a string, not %s (%s)", name, args[i], TypeName(args[i].Type()))
		}
		return nil
	}
	integer := func(i int) error {
		args[i] = retype(args[i], types.NewInt())
		if !isInt(args[i].Type().Kind) {
			return fmt.Errorf("%s needs an integer, not %s (%s)", name, args[i], TypeName(args[i].Type()))
		}
		return nil
	}
	num := func(i int) error {
		args[i] = retype(args[i], types.NewDouble())
		if !isNumeric(args[i].Type().Kind) {
			return fmt.Errorf("%s needs a number, not %s (%s)", name, args[i], TypeName(args[i].Type()))
		}
		return nil
	}
	allNotNull := func() bool {
		for _, a := range args {
			if !a.Type().NotNull {
				return false
			}
		}
		return true
	}
	var t types.DataType
	switch name {
	case "DATE_FORMAT":
		return newDateFormat(args)
	case "CARDINALITY":
		if err := argc(1, 1); err != nil {
			return nil, err
		}
		return NewCardinality(args[0])
	case "UPPER", "LOWER":
		if err := firstErr(argc(1, 1), str(0)); err != nil {
			return nil, err
		}
		t = types.NewString()
	case "TRIM", "LTRIM", "RTRIM", "POSITION":
		var err error
		if t, err = trimPositionType(name, args, argc, str); err != nil {
			return nil, err
		}
	case "CHAR_LENGTH", "CHARACTER_LENGTH":
		if err := firstErr(argc(1, 1), str(0)); err != nil {
			return nil, err
		}
		name, t = "CHAR_LENGTH", types.NewInt()
	case "CONCAT":
		if len(args) == 0 {
			return nil, fmt.Errorf("CONCAT takes at least one argument")
		}
		for i := range args {
			if err := str(i); err != nil {
				return nil, err
			}
		}
		t = types.NewString()
	case "SUBSTRING":
		if err := argc(2, 3); err != nil {
			return nil, err
		}
		if err := str(0); err != nil {
			return nil, err
		}
		for i := 1; i < len(args); i++ {
			if err := integer(i); err != nil {
				return nil, err
			}
		}
		t = types.NewString()
	case "ABS":
		if err := firstErr(argc(1, 1), num(0)); err != nil {
			return nil, err
		}
		t = args[0].Type()
	case "FLOOR", "CEIL", "CEILING":
		if err := firstErr(argc(1, 1), num(0)); err != nil {
			return nil, err
		}
		if name == "CEILING" {
			name = "CEIL"
		}
		t = args[0].Type()
		if t.Kind == types.Decimal { // Flink keeps the precision, drops the scale
			t = types.NewDecimal(t.Precision, 0)
		}
	case "ROUND":
		if err := argc(1, 2); err != nil {
			return nil, err
		}
		if err := num(0); err != nil {
			return nil, err
		}
		if len(args) == 1 {
			args = append(args, &Const{Value: int64(0), T: types.NewInt().AsNotNull()})
		}
		d, ok := args[1].(*Const)
		if !ok || d.Value == nil {
			return nil, fmt.Errorf("ROUND takes a constant integer as its second argument")
		}
		if _, ok := d.Value.(int64); !ok {
			return nil, fmt.Errorf("ROUND takes a constant integer as its second argument")
		}
		t = args[0].Type()
		if t.Kind == types.Decimal {
			digits := int(max(0, d.Value.(int64)))
			t = types.NewDecimal(min(38, t.Precision-t.Scale+min(digits, t.Scale)+1), min(digits, t.Scale))
		}
	case "COALESCE":
		if len(args) == 0 {
			return nil, fmt.Errorf("COALESCE takes at least one argument")
		}
		var ct *types.DataType
		for _, a := range args {
			if isUntyped(a) {
				continue
			}
			if ct == nil {
				at := a.Type()
				ct = &at
				continue
			}
			c, err := CommonType(*ct, a.Type())
			if err != nil {
				return nil, fmt.Errorf("COALESCE: %w", err)
			}
			ct = &c
		}
		if ct == nil {
			s := types.NewString()
			ct = &s
		}
		t = ct.AsNullable()
		for i, a := range args {
			args[i] = retype(a, t)
			if args[i].Type().NotNull {
				t.NotNull = true
			}
		}
		return &Call{Name: name, Args: args, T: t}, nil
	case "NULLIF":
		if err := argc(2, 2); err != nil {
			return nil, err
		}
		l, r, _, err := coerce("compare", args[0], args[1])
		if err != nil {
			return nil, fmt.Errorf("NULLIF: %w", err)
		}
		args[0], args[1] = l, r
		return &Call{Name: name, Args: args, T: l.Type().AsNullable()}, nil
	default:
		return nil, fmt.Errorf("function %s is not supported; scalar functions: %s, MOD", name, strings.Join(ScalarFunctions, ", "))
	}
	t.NotNull = allNotNull()
	return &Call{Name: name, Args: args, T: t}, nil
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// Type implements Expr.
func (e *Call) Type() types.DataType { return e.T }

// String renders the call.
func (e *Call) String() string {
	parts := make([]string, len(e.Args))
	for i, a := range e.Args {
		parts[i] = a.String()
	}
	return e.Name + "(" + strings.Join(parts, ", ") + ")"
}

func (e *Call) children() []Expr { return e.Args }
func (e *Call) rebuild(c []Expr) Expr {
	if e.Name == "DATE_FORMAT" {
		return &Call{Name: e.Name, Args: c, T: e.T, layout: e.layout}
	}
	n, err := NewCall(e.Name, append([]Expr(nil), c...))
	if err != nil {
		return &Call{Name: e.Name, Args: c, T: e.T}
	}
	return n
}

func (e *Call) eval(ec *evalCtx, b arrow.RecordBatch) (arrow.Array, error) {
	n := int(b.NumRows())
	switch e.Name {
	case "COALESCE":
		ins := make([]arrow.Array, 0, len(e.Args))
		defer func() { releaseAll(ins) }()
		for _, a := range e.Args {
			x, err := evalAs(ec, a, e.T, b)
			if err != nil {
				return nil, err
			}
			ins = append(ins, x)
		}
		pick := make([]int, n)
		for i := range pick {
			pick[i] = len(ins) - 1
			for k, x := range ins {
				if x.IsValid(i) {
					pick[i] = k
					break
				}
			}
		}
		return choose(ec, ins, pick)
	case "NULLIF":
		eq, err := (&Compare{Op: "=", L: e.Args[0], R: e.Args[1], T: mustCommon(e.Args[0], e.Args[1])}).eval(ec, b)
		if err != nil {
			return nil, err
		}
		defer eq.Release()
		x, err := evalAs(ec, e.Args[0], e.T, b)
		if err != nil {
			return nil, err
		}
		defer x.Release()
		pick := make([]int, n)
		for i := range pick {
			if eq.IsValid(i) && eq.(interface{ Value(int) bool }).Value(i) {
				pick[i] = 1
			}
		}
		// choose takes row i of the value or of an all-NULL array.
		nulls, err := repeat(ec.mem, e.T, nil, n)
		if err != nil {
			return nil, err
		}
		defer nulls.Release()
		return choose(ec, []arrow.Array{x, nulls}, pick)
	}
	ins, err := evalAll(ec, e.Args, b)
	if err != nil {
		return nil, err
	}
	defer releaseAll(ins)
	switch e.Name {
	case "DATE_FORMAT":
		t := e.Args[0].Type()
		return mapRows(ec, e.T, ins[:1], n, false, func(v []any) (any, error) {
			return toTime(t, v[0]).Format(e.layout), nil
		})
	case "UPPER", "LOWER", "TRIM", "LTRIM", "RTRIM", "POSITION", "CHAR_LENGTH", "CONCAT", "SUBSTRING":
		// Arrow-go has no string kernels: row by row.
		return mapRows(ec, e.T, ins, n, false, e.stringFunc)
	case "ABS":
		if e.T.Kind == types.Decimal {
			return mapRows(ec, e.T, ins, n, false, func(v []any) (any, error) { return v[0].(decimal128.Num).Abs(), nil })
		}
		return e.kernel(ec, "abs", nil, ins[0])
	case "FLOOR", "CEIL":
		switch k := e.Args[0].Type().Kind; {
		case isInt(k):
			ins[0].Retain()
			return ins[0], nil
		case k == types.Decimal:
			s := e.Args[0].Type().Scale
			return mapRows(ec, e.T, ins, n, false, func(v []any) (any, error) {
				x := v[0].(decimal128.Num).BigInt()
				q, m := new(big.Int).DivMod(x, pow10(s), new(big.Int)) // Euclidean: floor for a positive divisor
				if e.Name == "CEIL" && m.Sign() != 0 {
					q.Add(q, big.NewInt(1))
				}
				return decimal128.FromBigInt(q), nil
			})
		}
		return e.kernel(ec, strings.ToLower(e.Name), nil, ins[0])
	case "ROUND":
		d := e.Args[1].(*Const).Value.(int64)
		switch k := e.Args[0].Type().Kind; {
		case isInt(k) && d >= 0:
			ins[0].Retain()
			return ins[0], nil
		case isInt(k):
			unit := pow10(int(-d))
			return mapRows(ec, e.T, ins[:1], n, false, func(v []any) (any, error) {
				q := divHalfUp(big.NewInt(v[0].(int64)), unit)
				q.Mul(q, unit)
				if !q.IsInt64() {
					return nil, fmt.Errorf("%w: %s overflows", ErrArithmetic, e)
				}
				return q.Int64(), nil
			})
		case k == types.Decimal && d < 0: // to tens, hundreds…: the scale-0 result ends in -d zeros
			s := e.Args[0].Type().Scale
			unit := pow10(int(-d))
			return mapRows(ec, e.T, ins[:1], n, false, func(v []any) (any, error) {
				q := divHalfUp(v[0].(decimal128.Num).BigInt(), pow10(s-int(d)))
				return decimal128.FromBigInt(q.Mul(q, unit)), nil
			})
		case k == types.Decimal:
			s := e.Args[0].Type().Scale
			return mapRows(ec, e.T, ins[:1], n, false, func(v []any) (any, error) {
				return decimal128.FromBigInt(rescaleBig(v[0].(decimal128.Num).BigInt(), s, e.T.Scale)), nil
			})
		}
		return e.kernel(ec, "round", compute.RoundOptions{NDigits: d, Mode: compute.RoundHalfTowardsInfinity}, ins[0])
	}
	return nil, fmt.Errorf("engine: function %s cannot run", e.Name)
}

func mustCommon(a, b Expr) types.DataType {
	t, _ := CommonType(a.Type(), b.Type())
	return t
}

func (e *Call) kernel(ec *evalCtx, fn string, opts compute.FunctionOptions, x arrow.Array) (arrow.Array, error) {
	out, err := compute.CallFunction(ec.ctx, fn, opts, compute.NewDatumWithoutOwning(x))
	if err != nil {
		return nil, arithError(e, err)
	}
	a := out.(*compute.ArrayDatum).MakeArray()
	if !arrow.TypeEqual(a.DataType(), x.DataType()) { // floor/ceil of FLOAT may widen
		defer a.Release()
		return castArray(ec, a, e.T)
	}
	return a, nil
}

func (e *Call) stringFunc(v []any) (any, error) {
	switch e.Name {
	case "UPPER":
		return strings.ToUpper(v[0].(string)), nil
	case "LOWER":
		return strings.ToLower(v[0].(string)), nil
	case "TRIM", "LTRIM", "RTRIM", "POSITION":
		return trimPosition(e.Name, v)
	case "CHAR_LENGTH":
		return int64(utf8.RuneCountInString(v[0].(string))), nil
	case "CONCAT":
		var b strings.Builder
		for _, x := range v {
			b.WriteString(x.(string))
		}
		return b.String(), nil
	}
	// SUBSTRING(s, pos[, len]), SQL's: characters pos .. pos+len-1 (1-based),
	// clipped to the string.
	r := []rune(v[0].(string))
	start := v[1].(int64)
	end := int64(len(r)) + 1
	if len(v) > 2 {
		l := v[2].(int64)
		if l < 0 {
			return nil, fmt.Errorf("SUBSTRING length %d is negative", l)
		}
		end = start + l
	}
	start, end = max(start, 1), min(end, int64(len(r))+1)
	if start >= end {
		return "", nil
	}
	return string(r[start-1 : end-1]), nil
}
