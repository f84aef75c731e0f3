package engine

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/flussql/flussql/fluss/types"
)

// Helpers of the registry's type rules and kernels.

// argc checks the argument count (hi < 0: no upper bound).
func argc(name string, args []Expr, lo, hi int) error {
	switch {
	case len(args) >= lo && (hi < 0 || len(args) <= hi):
		return nil
	case hi < 0:
		return fmt.Errorf("%s takes at least %d argument(s), not %d", name, lo, len(args))
	case lo == hi:
		return fmt.Errorf("%s takes %d argument(s), not %d", name, lo, len(args))
	}
	return fmt.Errorf("%s takes %d to %d arguments, not %d", name, lo, hi, len(args))
}

// wantString types argument i as a character string (an untyped NULL or
// placeholder becomes STRING).
func wantString(name string, args []Expr, i int) error {
	args[i] = retype(args[i], types.NewString())
	if !isString(args[i].Type().Kind) {
		return fmt.Errorf("%s needs a string, not %s (%s)", name, args[i], TypeName(args[i].Type()))
	}
	return nil
}

// wantInt types argument i as an integer.
func wantInt(name string, args []Expr, i int) error {
	args[i] = retype(args[i], types.NewInt())
	if !isInt(args[i].Type().Kind) {
		return fmt.Errorf("%s needs an integer, not %s (%s)", name, args[i], TypeName(args[i].Type()))
	}
	return nil
}

// wantNum types argument i as a number.
func wantNum(name string, args []Expr, i int) error {
	args[i] = retype(args[i], types.NewDouble())
	if !isNumeric(args[i].Type().Kind) {
		return fmt.Errorf("%s needs a number, not %s (%s)", name, args[i], TypeName(args[i].Type()))
	}
	return nil
}

// wantStrings types arguments from..len(args)-1 as strings.
func wantStrings(name string, args []Expr, idx ...int) error {
	for _, i := range idx {
		if err := wantString(name, args, i); err != nil {
			return err
		}
	}
	return nil
}

// allNotNull reports whether no argument can be NULL.
func allNotNull(args []Expr) bool {
	for _, a := range args {
		if !a.Type().NotNull {
			return false
		}
	}
	return true
}

// constString is argument e's value when it is a non-NULL string constant.
func constString(e Expr) (string, bool) {
	c, ok := e.(*Const)
	if !ok || c.Value == nil {
		return "", false
	}
	s, ok := c.Value.(string)
	return s, ok
}

// constInt is argument e's value when it is a non-NULL integer constant.
func constInt(e Expr) (int64, bool) {
	c, ok := e.(*Const)
	if !ok || c.Value == nil {
		return 0, false
	}
	v, ok := c.Value.(int64)
	return v, ok
}

// strs reads a string array's values without copying them (the views live
// as long as the array).
func strs(a arrow.Array) func(i int) string {
	switch x := a.(type) {
	case *array.String:
		return x.Value
	case *array.LargeString:
		return x.Value
	case *array.Binary:
		return func(i int) string { return string(x.Value(i)) }
	}
	return func(int) string { return "" }
}

// intValuesOf reads an integer array's values as int64.
func intValuesOf(a arrow.Array) func(i int) int64 {
	switch x := a.(type) {
	case *array.Int8:
		return func(i int) int64 { return int64(x.Value(i)) }
	case *array.Int16:
		return func(i int) int64 { return int64(x.Value(i)) }
	case *array.Int32:
		return func(i int) int64 { return int64(x.Value(i)) }
	case *array.Int64:
		return x.Value
	}
	return func(int) int64 { return 0 }
}

// anyNull reports whether row i of any of ins is NULL.
func anyNull(ins []arrow.Array, i int) bool {
	for _, a := range ins {
		if a.IsNull(i) {
			return true
		}
	}
	return false
}

// rowBuilder is an Arrow builder that appends values of Go type T.
type rowBuilder[T any] interface {
	array.Builder
	Append(T)
}

// fillRows appends n rows to b: NULL where an input is NULL (unless
// nullArgs) or f says so, f's value otherwise; it releases b. No boxing: the
// kernels of the string, regex, JSON, hash and math families run on it.
func fillRows[T any](b rowBuilder[T], n int, ins []arrow.Array, nullArgs bool, f func(i int) (T, bool, error)) (arrow.Array, error) {
	defer b.Release()
	b.Reserve(n)
	var nullable []arrow.Array // the inputs with NULLs: others are not read per row
	if !nullArgs {
		nullable = withNulls(ins)
	}
	for i := range n {
		if len(nullable) > 0 && anyNull(nullable, i) {
			b.AppendNull()
			continue
		}
		v, ok, err := f(i)
		if err != nil {
			return nil, err
		}
		if !ok {
			b.AppendNull()
			continue
		}
		b.Append(v)
	}
	return b.NewArray(), nil
}

// withNulls is the arrays of ins that have NULLs.
func withNulls(ins []arrow.Array) []arrow.Array {
	var out []arrow.Array
	for _, a := range ins {
		if a.NullN() > 0 {
			out = append(out, a)
		}
	}
	return out
}

// stringRows builds a string array of n rows, as fillRows; the value bytes
// are reserved at once, as many as the first string argument's.
func stringRows(ec *evalCtx, n int, ins []arrow.Array, nullArgs bool, f func(i int) (string, bool, error)) (arrow.Array, error) {
	b := array.NewStringBuilder(ec.mem)
	b.ReserveData(dataHint(ins))
	return fillRows[string](b, n, ins, nullArgs, f)
}

// appendRows builds a string array of n rows as fillRows, f appending row
// i's value to dst, a scratch buffer reused from row to row (f must not
// return a view of an input): no allocation per row.
func appendRows(ec *evalCtx, n int, ins []arrow.Array, nullArgs bool, f func(i int, dst []byte) ([]byte, bool, error)) (arrow.Array, error) {
	b := array.NewStringBuilder(ec.mem)
	defer b.Release()
	b.Reserve(n)
	b.ReserveData(dataHint(ins))
	var nullable []arrow.Array
	if !nullArgs {
		nullable = withNulls(ins)
	}
	var buf []byte
	for i := range n {
		if len(nullable) > 0 && anyNull(nullable, i) {
			b.AppendNull()
			continue
		}
		v, ok, err := f(i, buf[:0])
		if err != nil {
			return nil, err
		}
		buf = v
		if !ok {
			b.AppendNull()
			continue
		}
		b.BinaryBuilder.Append(v)
	}
	return b.NewArray(), nil
}

// dataHint is the value bytes of the first string array of ins (0 without
// one): what a string result of about the same size reserves.
func dataHint(ins []arrow.Array) int {
	for _, a := range ins {
		if s, ok := a.(*array.String); ok {
			return len(s.ValueBytes())
		}
	}
	return 0
}

// intRows builds an array of the integer type t (INT or BIGINT, TINYINT,
// SMALLINT) of n rows, as fillRows.
func intRows(ec *evalCtx, t types.DataType, n int, ins []arrow.Array, nullArgs bool, f func(i int) (int64, bool, error)) (arrow.Array, error) {
	a, err := fillRows[int64](array.NewInt64Builder(ec.mem), n, ins, nullArgs, f)
	if err != nil || t.Kind == types.BigInt {
		return a, err
	}
	defer a.Release()
	return castArray(ec, a, t)
}

// floatRows builds a DOUBLE array of n rows, as fillRows.
func floatRows(ec *evalCtx, n int, ins []arrow.Array, nullArgs bool, f func(i int) (float64, bool, error)) (arrow.Array, error) {
	return fillRows[float64](array.NewFloat64Builder(ec.mem), n, ins, nullArgs, f)
}

// boolRows builds a BOOLEAN array of n rows, as fillRows.
func boolRows(ec *evalCtx, n int, ins []arrow.Array, nullArgs bool, f func(i int) (bool, bool, error)) (arrow.Array, error) {
	return fillRows[bool](array.NewBooleanBuilder(ec.mem), n, ins, nullArgs, f)
}

// doubles converts a numeric array to DOUBLE (Flink's implicit cast of the
// math functions); release the result.
func doubles(ec *evalCtx, a arrow.Array) (*array.Float64, error) {
	if f, ok := a.(*array.Float64); ok {
		f.Retain()
		return f, nil
	}
	out, err := castArray(ec, a, types.NewDouble())
	if err != nil {
		return nil, err
	}
	return out.(*array.Float64), nil
}

// fixedType is a type rule for fixed argument kinds: 's' string, 'i'
// integer, 'n' number; the result is t, NULL when any argument is.
func fixedType(kinds string, opt int, t types.DataType) TypeRule {
	return func(name string, args []Expr) ([]Expr, types.DataType, any, error) {
		if err := argc(name, args, len(kinds)-opt, len(kinds)); err != nil {
			return nil, t, nil, err
		}
		for i := range args {
			var err error
			switch kinds[i] {
			case 's':
				err = wantString(name, args, i)
			case 'i':
				err = wantInt(name, args, i)
			case 'n':
				err = wantNum(name, args, i)
			}
			if err != nil {
				return nil, t, nil, err
			}
		}
		return args, nullable(t, allNotNull(args)), nil, nil
	}
}

// orNull makes a rule's result nullable whatever its arguments (functions
// that answer NULL for some values: LPAD, SPLIT_INDEX, REGEXP_EXTRACT …).
func orNull(rule TypeRule) TypeRule {
	return func(name string, args []Expr) ([]Expr, types.DataType, any, error) {
		args, t, st, err := rule(name, args)
		return args, t.AsNullable(), st, err
	}
}
