package engine

import (
	"fmt"

	"github.com/flussql/flussql/fluss/types"
)

// The ARRAY functions of Flink SQL (family "collection"): their type rules
// here, their kernels in funcs_array_kernels.go, ARRAY_AGG in
// funcs_array_agg.go. Kernels work on the list arrays' offsets: a result
// array is a selection of the arguments' elements gathered in one take
// (listSel), elements are compared by their key encoding or a typed
// comparator, never boxed one by one.

func init() {
	def := func(name, sig, desc, example string, rule TypeRule, k Kernel, nullArgs bool) *FuncDef {
		return &FuncDef{Name: name, Kind: ScalarFunc, Family: "collection", Signature: sig, Desc: desc, Example: example,
			Type: rule, Kernel: k, NullArgs: nullArgs}
	}
	register(
		def("ARRAY_APPEND", "ARRAY_APPEND(a ARRAY<T>, x T) → ARRAY<T>", "a with x added at the end (NULL when a is NULL; a NULL x is appended)",
			"ARRAY_APPEND(ARRAY[1, 2], 3)[3] = 3", appendType, arrayAppend(false), true),
		def("ARRAY_PREPEND", "ARRAY_PREPEND(a ARRAY<T>, x T) → ARRAY<T>", "a with x added at the front (NULL when a is NULL; a NULL x is prepended)",
			"ARRAY_PREPEND(ARRAY[1, 2], 0)[1] = 0", appendType, arrayAppend(true), true),
		def("ARRAY_CONCAT", "ARRAY_CONCAT(a ARRAY<T>, …) → ARRAY<T>", "the elements of every a in turn; NULL when any a is NULL",
			"CARDINALITY(ARRAY_CONCAT(ARRAY[1], ARRAY[2, 3])) = 3", concatType, arrayConcat, false),
		def("ARRAY_CONTAINS", "ARRAY_CONTAINS(a ARRAY<T>, x T) → BOOLEAN", "whether a has an element equal to x (a NULL x finds a NULL element); NULL when a is NULL",
			"ARRAY_CONTAINS(ARRAY[1, 2], 2) = TRUE", needleType(types.NewBoolean(), false), arrayContains, true),
		def("ARRAY_DISTINCT", "ARRAY_DISTINCT(a ARRAY<T>) → ARRAY<T>", "the elements of a without repeats (one NULL at most), in their order",
			"CARDINALITY(ARRAY_DISTINCT(ARRAY[1, 1, 2])) = 2", sameArrayType(1, 1), arrayDistinct, false),
		def("ARRAY_EXCEPT", "ARRAY_EXCEPT(a ARRAY<T>, b ARRAY<T>) → ARRAY<T>", "the distinct elements of a that are not in b, in a's order",
			"ARRAY_EXCEPT(ARRAY[1, 2, 3], ARRAY[2])[2] = 3", setType, arraySetOp(setExcept), true),
		def("ARRAY_INTERSECT", "ARRAY_INTERSECT(a ARRAY<T>, b ARRAY<T>) → ARRAY<T>", "the distinct elements of a that are also in b, in a's order; NULL when a or b is NULL",
			"ARRAY_INTERSECT(ARRAY[1, 2, 3], ARRAY[3, 2])[1] = 2", setType, arraySetOp(setIntersect), false),
		def("ARRAY_UNION", "ARRAY_UNION(a ARRAY<T>, b ARRAY<T>) → ARRAY<T>", "the distinct elements of a, then those of b not in a; NULL when a or b is NULL",
			"CARDINALITY(ARRAY_UNION(ARRAY[1, 2], ARRAY[2, 3])) = 3", setType, arraySetOp(setUnion), false),
		def("ARRAY_JOIN", "ARRAY_JOIN(a ARRAY<STRING>, sep STRING[, null STRING]) → STRING",
			"the elements of a joined by sep, NULL elements skipped or replaced by null", "ARRAY_JOIN(ARRAY['a', NULL, 'b'], '-', '?') = 'a-?-b'",
			arrayJoinType, arrayJoin, false),
		def("ARRAY_MAX", "ARRAY_MAX(a ARRAY<T>) → T", "the largest non-NULL element of a; NULL when there is none",
			"ARRAY_MAX(ARRAY[1, 3, 2]) = 3", elemResultType, arrayExtreme(1), false),
		def("ARRAY_MIN", "ARRAY_MIN(a ARRAY<T>) → T", "the smallest non-NULL element of a; NULL when there is none",
			"ARRAY_MIN(ARRAY[3, 1, 2]) = 1", elemResultType, arrayExtreme(-1), false),
		def("ARRAY_POSITION", "ARRAY_POSITION(a ARRAY<T>, x T) → INT", "the 1-based position of the first element equal to x, 0 when none is",
			"ARRAY_POSITION(ARRAY[5, 6, 7], 6) = 2", needleType(types.NewInt(), true), arrayPosition, false),
		def("ARRAY_REMOVE", "ARRAY_REMOVE(a ARRAY<T>, x T) → ARRAY<T>", "a without the elements equal to x (a NULL x removes the NULL elements)",
			"CARDINALITY(ARRAY_REMOVE(ARRAY[1, 2, 1], 1)) = 1", removeType, arrayRemove, true),
		def("ARRAY_REVERSE", "ARRAY_REVERSE(a ARRAY<T>) → ARRAY<T>", "the elements of a in reverse order",
			"ARRAY_REVERSE(ARRAY[1, 2, 3])[1] = 3", sameArrayType(1, 1), arrayReverse, false),
		def("ARRAY_SLICE", "ARRAY_SLICE(a ARRAY<T>, from INT[, to INT]) → ARRAY<T>",
			"the elements from position from to to, both included: 1-based, 0 the first, negative from the end; to the last by default",
			"ARRAY_SLICE(ARRAY[1, 2, 3, 4], -2)[1] = 3", sliceType, arraySlice, false),
		def("ARRAY_SORT", "ARRAY_SORT(a ARRAY<T>[, ascending BOOLEAN[, nulls_first BOOLEAN]]) → ARRAY<T>",
			"the elements of a sorted, ascending with NULLs first by default; nulls_first defaults to ascending",
			"ARRAY_SORT(ARRAY[3, NULL, 1])[2] = 1", sortType, arraySort, false),
		def("ELEMENT", "ELEMENT(a ARRAY<T>) → T", "the one element of a; NULL when a is empty, an error when it has more than one",
			"ELEMENT(ARRAY[7]) = 7", elemResultType, arrayElement, false),
	)
}

// wantArray checks that argument i is an ARRAY and returns its element type.
func wantArray(name string, args []Expr, i int) (types.DataType, error) {
	t := args[i].Type()
	if t.Kind != types.Array || t.Elem == nil {
		return types.DataType{}, fmt.Errorf("%s needs an ARRAY, not %s (%s)", name, args[i], TypeName(t))
	}
	return *t.Elem, nil
}

// asElem brings argument i to the element type et (a needle, an element to
// add), as Flink casts it implicitly: a type whose values all fit (INT for
// BIGINT elements), an untyped NULL; anything else is an error.
func asElem(name string, args []Expr, i int, et types.DataType) error {
	x := args[i]
	if isUntyped(x) {
		args[i] = retype(x, et)
		return nil
	}
	t := x.Type()
	if sameType(t, et) {
		return nil
	}
	c, err := commonElem(et, t)
	// Flink casts an integer to any DECIMAL, FLOAT or DOUBLE element implicitly.
	widens := isNumeric(t.Kind) && (et.Kind == types.Decimal || isFloat(et.Kind)) && !(isFloat(t.Kind) && et.Kind == types.Decimal)
	if !widens && (err != nil || !sameType(c, et)) {
		return fmt.Errorf("%s: %s (%s) is no element of an ARRAY<%s>", name, x, TypeName(t), TypeName(et))
	}
	if et.Kind.Nested() {
		args[i] = x // the same type but for nullability: castElems relabels it
		return nil
	}
	args[i], err = NewCast(x, et.AsNullable())
	return err
}

// sameType compares kinds and parameters, not nullability.
func sameType(a, b types.DataType) bool {
	if a.Kind == types.Array && b.Kind == types.Array && a.Elem != nil && b.Elem != nil {
		return sameType(*a.Elem, *b.Elem)
	}
	return a.Kind == b.Kind && a.Precision == b.Precision && a.Scale == b.Scale && (a.Length == b.Length || isString(a.Kind))
}

// commonArray is the type ARRAY arguments are brought to: their elements'
// common type, NOT NULL when every one's is; the array NOT NULL when every
// argument is.
func commonArray(name string, args []Expr) (types.DataType, error) {
	var et types.DataType
	nn := true
	for i := range args {
		args[i] = retype(args[i], args[0].Type())
		t, err := wantArray(name, args, i)
		if err != nil {
			return t, err
		}
		nn = nn && args[i].Type().NotNull
		if i == 0 {
			et = t
			continue
		}
		if et, err = commonElem(et, t); err != nil {
			return et, fmt.Errorf("%s: the arrays %s have no common element type: %w", name, joinExprs(args), err)
		}
	}
	return nullable(types.NewArray(et), nn), nil
}

// appendType: Flink's ARRAY_APPEND and ARRAY_PREPEND keep a's type, with
// nullable elements when x can be NULL.
//
// The result is nullable when x is, though a NULL x is appended.
func appendType(name string, args []Expr) ([]Expr, types.DataType, any, error) {
	if err := argc(name, args, 2, 2); err != nil {
		return nil, types.DataType{}, nil, err
	}
	et, err := wantArray(name, args, 0)
	if err != nil {
		return nil, et, nil, err
	}
	if err := asElem(name, args, 1, et); err != nil {
		return nil, et, nil, err
	}
	et.NotNull = et.NotNull && args[1].Type().NotNull
	return args, nullable(types.NewArray(et), allNotNull(args)), nil, nil
}

func concatType(name string, args []Expr) ([]Expr, types.DataType, any, error) {
	if err := argc(name, args, 1, -1); err != nil {
		return nil, types.DataType{}, nil, err
	}
	t, err := commonArray(name, args)
	return args, t, nil, err
}

// setType: ARRAY_EXCEPT, ARRAY_INTERSECT, ARRAY_UNION of two arrays of a
// common element type.
func setType(name string, args []Expr) ([]Expr, types.DataType, any, error) {
	if err := argc(name, args, 2, 2); err != nil {
		return nil, types.DataType{}, nil, err
	}
	t, err := commonArray(name, args)
	if name == "ARRAY_EXCEPT" { // NULL only when a is
		t.NotNull = args[0].Type().NotNull
	}
	return args, t, nil, err
}

// sameArrayType: the result is argument 0's type; lo..hi arguments, the
// others of the kinds the caller checks.
func sameArrayType(lo, hi int) TypeRule {
	return func(name string, args []Expr) ([]Expr, types.DataType, any, error) {
		if err := argc(name, args, lo, hi); err != nil {
			return nil, types.DataType{}, nil, err
		}
		if _, err := wantArray(name, args, 0); err != nil {
			return nil, types.DataType{}, nil, err
		}
		return args, nullable(args[0].Type(), allNotNull(args)), nil, nil
	}
}

// needleType: ARRAY_CONTAINS and ARRAY_POSITION, a result of type t, NULL
// when a is NULL (or, with needleNull, x).
func needleType(t types.DataType, needleNull bool) TypeRule {
	return func(name string, args []Expr) ([]Expr, types.DataType, any, error) {
		if err := argc(name, args, 2, 2); err != nil {
			return nil, t, nil, err
		}
		et, err := wantArray(name, args, 0)
		if err != nil {
			return nil, t, nil, err
		}
		if err := asElem(name, args, 1, et); err != nil {
			return nil, t, nil, err
		}
		nn := args[0].Type().NotNull && (!needleNull || args[1].Type().NotNull)
		return args, nullable(t, nn), nil, nil
	}
}

func removeType(name string, args []Expr) ([]Expr, types.DataType, any, error) {
	if err := argc(name, args, 2, 2); err != nil {
		return nil, types.DataType{}, nil, err
	}
	et, err := wantArray(name, args, 0)
	if err != nil {
		return nil, et, nil, err
	}
	if err := asElem(name, args, 1, et); err != nil {
		return nil, et, nil, err
	}
	return args, args[0].Type(), nil, nil
}

func elemResultType(name string, args []Expr) ([]Expr, types.DataType, any, error) {
	if err := argc(name, args, 1, 1); err != nil {
		return nil, types.DataType{}, nil, err
	}
	et, err := wantArray(name, args, 0)
	return args, et.AsNullable(), nil, err
}

func sliceType(name string, args []Expr) ([]Expr, types.DataType, any, error) {
	if err := argc(name, args, 2, 3); err != nil {
		return nil, types.DataType{}, nil, err
	}
	if _, err := wantArray(name, args, 0); err != nil {
		return nil, types.DataType{}, nil, err
	}
	for i := 1; i < len(args); i++ {
		if err := wantInt(name, args, i); err != nil {
			return nil, types.DataType{}, nil, err
		}
	}
	return args, nullable(args[0].Type(), allNotNull(args)), nil, nil
}

func sortType(name string, args []Expr) ([]Expr, types.DataType, any, error) {
	if err := argc(name, args, 1, 3); err != nil {
		return nil, types.DataType{}, nil, err
	}
	if _, err := wantArray(name, args, 0); err != nil {
		return nil, types.DataType{}, nil, err
	}
	for i := 1; i < len(args); i++ {
		args[i] = retype(args[i], types.NewBoolean())
		if args[i].Type().Kind != types.Boolean {
			return nil, types.DataType{}, nil, fmt.Errorf("%s: %s is no BOOLEAN (%s)", name, args[i], TypeName(args[i].Type()))
		}
	}
	return args, nullable(args[0].Type(), allNotNull(args)), nil, nil
}

func arrayJoinType(name string, args []Expr) ([]Expr, types.DataType, any, error) {
	if err := argc(name, args, 2, 3); err != nil {
		return nil, stringType, nil, err
	}
	et, err := wantArray(name, args, 0)
	if err != nil {
		return nil, stringType, nil, err
	}
	if !isString(et.Kind) {
		return nil, stringType, nil, fmt.Errorf("%s needs an ARRAY of strings, not %s (%s)", name, args[0], TypeName(args[0].Type()))
	}
	if err := wantStrings(name, args, 1, len(args)-1); err != nil {
		return nil, stringType, nil, err
	}
	return args, nullable(stringType, allNotNull(args)), nil, nil
}
