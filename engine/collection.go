package engine

import (
	"bytes"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"

	"github.com/flussql/flussql/fluss/types"
)

// Collections, as in Flink SQL: CARDINALITY(x) and x[i] for ARRAY and MAP
// values.

// Cardinality is CARDINALITY(X): the number of elements of an ARRAY or
// entries of a MAP, an INT; NULL for a NULL X.
type Cardinality struct{ X Expr }

// NewCardinality types CARDINALITY.
func NewCardinality(x Expr) (Expr, error) {
	if k := x.Type().Kind; k != types.Array && k != types.Map {
		return nil, fmt.Errorf("CARDINALITY needs an ARRAY or a MAP, not %s (%s)", x, TypeName(x.Type()))
	}
	return &Cardinality{X: x}, nil
}

// Type implements Expr.
func (e *Cardinality) Type() types.DataType { return nullable(types.NewInt(), e.X.Type().NotNull) }

// String renders the call.
func (e *Cardinality) String() string        { return "CARDINALITY(" + e.X.String() + ")" }
func (e *Cardinality) children() []Expr      { return []Expr{e.X} }
func (e *Cardinality) rebuild(c []Expr) Expr { return &Cardinality{X: c[0]} }

func (e *Cardinality) eval(ec *evalCtx, b arrow.RecordBatch) (arrow.Array, error) {
	x, err := e.X.eval(ec, b)
	if err != nil {
		return nil, err
	}
	defer x.Release()
	offs, ok := x.(array.ListLike)
	if !ok {
		return nil, fmt.Errorf("engine: %s got a %s column, not an ARRAY or MAP", e, x.DataType())
	}
	ib := array.NewInt32Builder(ec.mem)
	defer ib.Release()
	n := x.Len()
	ib.Reserve(n)
	for i := range n {
		if x.IsNull(i) {
			ib.AppendNull()
			continue
		}
		start, end := offs.ValueOffsets(i)
		ib.Append(int32(end - start))
	}
	return ib.NewArray(), nil
}

// Subscript is X[I]: element I of an ARRAY (from 1, as in Flink; NULL when
// out of range) or the value of key I in a MAP (NULL when absent).
type Subscript struct {
	X, I Expr
	T    types.DataType
}

// NewSubscript types x[i]: i an integer for an ARRAY, a key for a MAP
// (cast to the key type when it differs).
func NewSubscript(x, i Expr) (Expr, error) {
	xt := x.Type()
	switch xt.Kind {
	case types.Array:
		i = retype(i, types.NewInt())
		if !isInt(i.Type().Kind) {
			return nil, fmt.Errorf("%s[%s]: the index of an ARRAY is an integer, not %s", x, i, TypeName(i.Type()))
		}
		return &Subscript{X: x, I: i, T: xt.Elem.AsNullable()}, nil
	case types.Map:
		kt := *xt.Key
		i = retype(i, kt)
		if it := i.Type(); it.Kind != kt.Kind || it.Precision != kt.Precision || it.Scale != kt.Scale {
			_, err := CommonType(kt, it)
			var c Expr
			if err == nil {
				c, err = NewCast(i, kt.AsNullable())
			}
			if err != nil {
				return nil, fmt.Errorf("%s[%s]: the key of this MAP is %s, not %s", x, i, TypeName(kt), TypeName(it))
			}
			i = c
		}
		return &Subscript{X: x, I: i, T: xt.Value.AsNullable()}, nil
	}
	return nil, fmt.Errorf("%s[%s]: only an ARRAY or a MAP has elements, not %s", x, i, TypeName(xt))
}

// Type implements Expr.
func (e *Subscript) Type() types.DataType { return e.T }

// String renders x[i].
func (e *Subscript) String() string        { return e.X.String() + "[" + e.I.String() + "]" }
func (e *Subscript) children() []Expr      { return []Expr{e.X, e.I} }
func (e *Subscript) rebuild(c []Expr) Expr { return &Subscript{X: c[0], I: c[1], T: e.T} }

// eval finds each row's element and takes them from the ARRAY's values or
// the MAP's items with Arrow's take kernel.
func (e *Subscript) eval(ec *evalCtx, b arrow.RecordBatch) (arrow.Array, error) {
	ins, err := evalAll(ec, []Expr{e.X, e.I}, b)
	if err != nil {
		return nil, err
	}
	defer releaseAll(ins)
	x, idx := ins[0], ins[1]
	getIdx, err := getter(idx)
	if err != nil {
		return nil, err
	}
	var values arrow.Array
	var find func(start, end int64, key any) int64 // -1: no element
	switch a := x.(type) {
	case *array.Map:
		values = a.Items()
		getKey, err := getter(a.Keys())
		if err != nil {
			return nil, err
		}
		find = func(start, end int64, key any) int64 {
			for j := start; j < end; j++ {
				if a.Keys().IsValid(int(j)) && sameValue(getKey(int(j)), key) {
					return j
				}
			}
			return -1
		}
	case *array.List:
		values = a.ListValues()
		find = func(start, end int64, key any) int64 {
			k := key.(int64)
			if k < 1 || k > end-start {
				return -1
			}
			return start + k - 1
		}
	default:
		return nil, fmt.Errorf("engine: %s got a %s column, not an ARRAY or MAP", e, x.DataType())
	}
	offs := x.(array.ListLike)
	ib := array.NewInt64Builder(ec.mem)
	defer ib.Release()
	n := x.Len()
	ib.Reserve(n)
	for r := range n {
		if x.IsNull(r) || idx.IsNull(r) {
			ib.AppendNull()
			continue
		}
		start, end := offs.ValueOffsets(r)
		if j := find(start, end, getIdx(r)); j >= 0 {
			ib.Append(j)
		} else {
			ib.AppendNull()
		}
	}
	take := ib.NewArray()
	defer take.Release()
	return compute.TakeArray(ec.ctx, values, take)
}

// sameValue compares two values of the model of one type.
func sameValue(a, b any) bool {
	if x, ok := a.([]byte); ok {
		y, ok := b.([]byte)
		return ok && bytes.Equal(x, y)
	}
	return a == b
}
