package engine

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/flussql/flussql/fluss/types"
)

// The conditional family: COALESCE, IFNULL, NULLIF, IF, GREATEST, LEAST
// (CASE is its own node).

func init() {
	register(
		&FuncDef{Name: "COALESCE", Family: "conditional", Signature: "COALESCE(x1, x2, …) → common type",
			Desc: "the first argument that is not NULL", Example: "COALESCE(NULL, 2, 3) = 2",
			NullArgs: true, Type: coalesceType, Kernel: coalesceKernel},
		&FuncDef{Name: "IFNULL", Family: "conditional", Signature: "IFNULL(x, y) → common type",
			Desc: "x, or y when x is NULL", Example: "IFNULL(NULL, 'a') = 'a'",
			NullArgs: true, Type: func(name string, args []Expr) ([]Expr, types.DataType, any, error) {
				if err := argc(name, args, 2, 2); err != nil {
					return nil, types.DataType{}, nil, err
				}
				return coalesceType(name, args)
			}, Kernel: coalesceKernel},
		&FuncDef{Name: "NULLIF", Family: "conditional", Signature: "NULLIF(x, y) → type of x",
			Desc: "NULL when x = y, x otherwise", Example: "NULLIF(1, 1) = NULL",
			NullArgs: true, Type: nullifType, Kernel: nullifKernel},
		&FuncDef{Name: "IF", Kind: SyntaxFunc, Family: "conditional", Signature: "IF(cond BOOLEAN, a, b) → common type of a and b",
			Desc: "a when cond is TRUE, b otherwise (CASE WHEN cond THEN a ELSE b END)", Example: "IF(1 < 2, 'y', 'n') = 'y'",
			Build: buildIf},
		&FuncDef{Name: "GREATEST", Family: "conditional", Signature: "GREATEST(x1, x2, …) → common type",
			Desc: "the largest argument; NULL when any is NULL", Example: "GREATEST(1, 5, 3) = 5",
			Type: extremumType, Kernel: extremumKernel(1)},
		&FuncDef{Name: "LEAST", Family: "conditional", Signature: "LEAST(x1, x2, …) → common type",
			Desc: "the smallest argument; NULL when any is NULL", Example: "LEAST(1, 5, 3) = 1",
			Type: extremumType, Kernel: extremumKernel(-1)},
	)
}

// commonOf types args to their common type (untyped NULLs take it).
func commonOf(name string, args []Expr) (types.DataType, error) {
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
			return types.DataType{}, fmt.Errorf("%s: %w", name, err)
		}
		ct = &c
	}
	if ct == nil {
		return stringType, nil
	}
	return *ct, nil
}

func coalesceType(name string, args []Expr) ([]Expr, types.DataType, any, error) {
	if err := argc(name, args, 1, -1); err != nil {
		return nil, types.DataType{}, nil, err
	}
	ct, err := commonOf(name, args)
	if err != nil {
		return nil, ct, nil, err
	}
	t := ct.AsNullable()
	for i, a := range args {
		args[i] = retype(a, t)
		if args[i].Type().NotNull {
			t.NotNull = true
		}
	}
	return args, t, nil, nil
}

func coalesceKernel(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
	cast := make([]arrow.Array, 0, len(ins))
	defer func() { releaseAll(cast) }()
	for _, x := range ins {
		y, err := asType(ec, x, c.T)
		if err != nil {
			return nil, err
		}
		cast = append(cast, y)
	}
	pick := make([]int, n)
	for i := range pick {
		pick[i] = len(cast) - 1
		for k, x := range cast {
			if x.IsValid(i) {
				pick[i] = k
				break
			}
		}
	}
	return choose(ec, cast, pick)
}

// asType is x converted to t (x itself, retained, when it has t's Arrow type).
func asType(ec *evalCtx, x arrow.Array, t types.DataType) (arrow.Array, error) {
	at, err := arrowType(t)
	if err == nil && arrow.TypeEqual(at, x.DataType()) {
		x.Retain()
		return x, nil
	}
	return castArray(ec, x, t)
}

func nullifType(name string, args []Expr) ([]Expr, types.DataType, any, error) {
	if err := argc(name, args, 2, 2); err != nil {
		return nil, types.DataType{}, nil, err
	}
	l, r, _, err := coerce("compare", args[0], args[1])
	if err != nil {
		return nil, types.DataType{}, nil, fmt.Errorf("NULLIF: %w", err)
	}
	args[0], args[1] = l, r
	return args, l.Type().AsNullable(), nil, nil
}

// evalOver evaluates e over cols as the columns of a batch of n rows.
func evalOver(ec *evalCtx, e Expr, cols []arrow.Array, n int) (arrow.Array, error) {
	fields := make([]arrow.Field, len(cols))
	for i, a := range cols {
		fields[i] = arrow.Field{Name: fmt.Sprintf("c%d", i), Type: a.DataType(), Nullable: true}
	}
	b := array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, int64(n))
	defer b.Release()
	return e.eval(ec, b)
}

func nullifKernel(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
	l, r := c.Args[0].Type(), c.Args[1].Type()
	cmp := &Compare{Op: "=", L: &Col{Index: 0, Name: "l", T: l}, R: &Col{Index: 1, Name: "r", T: r}, T: mustCommon(c.Args[0], c.Args[1])}
	eq, err := evalOver(ec, cmp, ins, n)
	if err != nil {
		return nil, err
	}
	defer eq.Release()
	x, err := asType(ec, ins[0], c.T)
	if err != nil {
		return nil, err
	}
	defer x.Release()
	pick := make([]int, n)
	for i := range pick {
		if eq.IsValid(i) && eq.(*array.Boolean).Value(i) {
			pick[i] = 1
		}
	}
	// choose takes row i of the value or of an all-NULL array.
	nulls, err := repeat(ec.mem, c.T, nil, n)
	if err != nil {
		return nil, err
	}
	defer nulls.Release()
	return choose(ec, []arrow.Array{x, nulls}, pick)
}

// buildIf is Flink's IF(cond, a, b): CASE WHEN cond THEN a ELSE b END, typed as CASE.
func buildIf(args []Expr) (Expr, error) {
	if len(args) != 3 {
		return nil, fmt.Errorf("IF takes 3 arguments (a condition, its value when TRUE, and otherwise), not %d", len(args))
	}
	return NewCase([]When{{Cond: args[0], Result: args[1]}}, args[2])
}

func extremumType(name string, args []Expr) ([]Expr, types.DataType, any, error) {
	if err := argc(name, args, 1, -1); err != nil {
		return nil, types.DataType{}, nil, err
	}
	ct, err := commonOf(name, args)
	if err != nil {
		return nil, ct, nil, err
	}
	if ct.Kind.Nested() {
		return nil, ct, nil, fmt.Errorf("%s needs comparable arguments, not %s", name, TypeName(ct))
	}
	for i, a := range args {
		args[i] = retype(a, ct)
	}
	return args, nullable(ct, allNotNull(args)), nil, nil
}

// extremumKernel: GREATEST (sign 1) and LEAST (-1).
func extremumKernel(sign int) Kernel {
	return func(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
		cast := make([]arrow.Array, 0, len(ins))
		defer func() { releaseAll(cast) }()
		for _, x := range ins {
			y, err := asType(ec, x, c.T)
			if err != nil {
				return nil, err
			}
			cast = append(cast, y)
		}
		return mapRows(ec, c.T, cast, n, false, func(v []any) (any, error) {
			best := v[0]
			for _, x := range v[1:] {
				if compareValues(x, best)*sign > 0 {
					best = x
				}
			}
			return best, nil
		})
	}
}
