package engine

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/flussql/flussql/fluss/types"
)

// MapValue is the value constructor MAP[k1, v1, k2, v2, …] over any
// expressions, as in Flink: the keys brought to their common type, the
// values to theirs; a repeated key keeps its last value (Flink's rule). A
// NULL key fails: flussql's MAP keys are never NULL (Fluss's MAP type).
type MapValue struct {
	Elems []Expr // key, value, key, value, …
	T     types.DataType
}

// NewMapValue types MAP[…] of alternating keys and values.
func NewMapValue(elems []Expr) (Expr, error) {
	if len(elems) == 0 || len(elems)%2 != 0 {
		return nil, fmt.Errorf("MAP[…] wants keys and values in pairs, at least one pair; it has %d elements", len(elems))
	}
	var keys, vals []Expr
	for i := 0; i < len(elems); i += 2 {
		keys, vals = append(keys, elems[i]), append(vals, elems[i+1])
	}
	kt, err := widest("MAP[…] keys", keys)
	if err != nil {
		return nil, err
	}
	if kt.Kind.Nested() {
		return nil, fmt.Errorf("%w: MAP[…] with keys of type %s; use scalar keys", ErrUnsupported, TypeName(kt))
	}
	vt, err := widest("MAP[…] values", vals)
	if err != nil {
		return nil, err
	}
	out := make([]Expr, len(elems))
	for i, e := range elems {
		t := kt
		if i%2 == 1 {
			t = vt
		}
		out[i] = retype(e, t.AsNullable())
	}
	return &MapValue{Elems: out, T: types.NewMap(kt.AsNotNull(), vt).AsNotNull()}, nil
}

// Type implements Expr.
func (e *MapValue) Type() types.DataType { return e.T }

// String renders MAP[…].
func (e *MapValue) String() string {
	parts := make([]string, len(e.Elems))
	for i, x := range e.Elems {
		parts[i] = x.String()
	}
	return "MAP[" + strings.Join(parts, ", ") + "]"
}

func (e *MapValue) children() []Expr      { return e.Elems }
func (e *MapValue) rebuild(c []Expr) Expr { return &MapValue{Elems: c, T: e.T} }

// eval casts the keys and the values to their types, picks per row the
// pairs whose key no later pair repeats, and gathers them (rowPicks).
func (e *MapValue) eval(ec *evalCtx, b arrow.RecordBatch) (arrow.Array, error) {
	ins, err := evalAll(ec, e.Elems, b)
	if err != nil {
		return nil, err
	}
	defer releaseAll(ins)
	pairs := len(ins) / 2
	keys, vals := make([]arrow.Array, 0, pairs), make([]arrow.Array, 0, pairs)
	defer func() { releaseAll(keys); releaseAll(vals) }()
	for i, a := range ins {
		t, dst := *e.T.Key, &keys
		if i%2 == 1 {
			t, dst = *e.T.Value, &vals
		}
		c, err := asType(ec, a, t)
		if err != nil {
			return nil, err
		}
		*dst = append(*dst, c)
	}
	gets := make([]func(int) any, pairs)
	for j, k := range keys {
		if gets[j], err = getter(k); err != nil {
			return nil, err
		}
	}
	n := int(b.NumRows())
	p := newRowPicks(n)
	for r := range n {
		for j := range pairs {
			if keys[j].IsNull(r) {
				return nil, fmt.Errorf("%s: key %s is NULL; flussql's MAP keys are never NULL (Fluss's MAP type)", e, e.Elems[2*j])
			}
		}
	pair:
		for j := range pairs {
			kj := hashKey(gets[j](r))
			for l := j + 1; l < pairs; l++ {
				if hashKey(gets[l](r)) == kj {
					continue pair // a later pair sets this key
				}
			}
			p.add(int64(j*n + r))
		}
		p.end(true)
	}
	fk, err := concatArrays(ec, keys)
	if err != nil {
		return nil, err
	}
	defer fk.Release()
	fv, err := concatArrays(ec, vals)
	if err != nil {
		return nil, err
	}
	defer fv.Release()
	return p.mapOf(ec, e.T, fk, fv)
}
