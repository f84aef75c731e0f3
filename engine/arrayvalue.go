package engine

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/flussql/flussql/fluss/types"
)

// ArrayValue is the value constructor ARRAY[e1, e2, …] over any expressions,
// as in Flink SQL: its elements have the common type of the e (ARRAY[a, 1.5]
// is ARRAY<DECIMAL(11, 1)>), NOT NULL when every e is; the array itself is
// never NULL.
type ArrayValue struct {
	Elems []Expr
	T     types.DataType
}

// NewArrayValue types ARRAY[elems…]; an untyped NULL element takes the
// others' type.
func NewArrayValue(elems []Expr) (Expr, error) {
	if len(elems) == 0 {
		return nil, fmt.Errorf("ARRAY[] needs at least one element here (an empty array is only written as a value to insert)")
	}
	var et types.DataType
	typed := false
	for _, e := range elems {
		if isUntyped(e) {
			continue
		}
		if !typed {
			et, typed = e.Type(), true
			continue
		}
		t, err := commonElem(et, e.Type())
		if err != nil {
			return nil, fmt.Errorf("ARRAY[…]: the elements %s have no common type: %w", joinExprs(elems), err)
		}
		et = t
	}
	if !typed {
		et = types.NewString() // ARRAY[NULL]: Flink refuses it; a STRING element is the harmless reading
	}
	out := make([]Expr, len(elems))
	nn := true
	for i, e := range elems {
		e = retype(e, et)
		nn = nn && e.Type().NotNull
		out[i] = e
	}
	return &ArrayValue{Elems: out, T: types.NewArray(nullable(et, nn)).AsNotNull()}, nil
}

func joinExprs(es []Expr) string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = e.String()
	}
	return strings.Join(parts, ", ")
}

// Type implements Expr.
func (e *ArrayValue) Type() types.DataType { return e.T }

// String renders ARRAY[…].
func (e *ArrayValue) String() string   { return "ARRAY[" + joinExprs(e.Elems) + "]" }
func (e *ArrayValue) children() []Expr { return e.Elems }
func (e *ArrayValue) rebuild(c []Expr) Expr {
	if n, err := NewArrayValue(append([]Expr(nil), c...)); err == nil {
		return n
	}
	return &ArrayValue{Elems: c, T: e.T}
}

// eval interleaves the elements' columns: row r's array is element 1's row
// r, element 2's row r, …, gathered from their concatenation in one take.
func (e *ArrayValue) eval(ec *evalCtx, b arrow.RecordBatch) (arrow.Array, error) {
	n := int(b.NumRows())
	k := len(e.Elems)
	parts := make([]arrow.Array, 0, k)
	defer func() { releaseAll(parts) }()
	for _, x := range e.Elems {
		v, err := x.eval(ec, b)
		if err != nil {
			return nil, err
		}
		a, err := castElems(ec, v, *e.T.Elem)
		v.Release()
		if err != nil {
			return nil, err
		}
		parts = append(parts, a)
	}
	pool, err := concatArrays(ec, parts)
	if err != nil {
		return nil, err
	}
	defer pool.Release()
	sel := newListSel(n)
	for r := range n {
		for j := range k {
			sel.add(int64(j*n + r))
		}
		sel.end(true)
	}
	return sel.build(ec, e.T, pool)
}

// concatArrays is the concatenation of arrays of one type (the one array
// itself, retained, when there is one).
func concatArrays(ec *evalCtx, parts []arrow.Array) (arrow.Array, error) {
	if len(parts) == 1 {
		parts[0].Retain()
		return parts[0], nil
	}
	return array.Concatenate(parts, ec.mem)
}

// listSel builds a list array whose elements are taken from a pool of
// values: the kernels of the ARRAY functions say which pool elements each
// row's array holds, and the values are gathered in one take.
type listSel struct {
	offs  []int32
	valid []bool
	nulls int
	idx   []int64
}

func newListSel(n int) *listSel {
	return &listSel{offs: append(make([]int32, 0, n+1), 0), valid: make([]bool, 0, n)}
}

// add appends pool element j to the current row's array.
func (s *listSel) add(j int64) { s.idx = append(s.idx, j) }

// end closes the current row: its array, or NULL when !ok.
func (s *listSel) end(ok bool) {
	if !ok {
		s.nulls++
	}
	s.valid = append(s.valid, ok)
	s.offs = append(s.offs, int32(len(s.idx)))
}

// build makes the list array of ARRAY type t.
func (s *listSel) build(ec *evalCtx, t types.DataType, pool arrow.Array) (arrow.Array, error) {
	vals, err := takeArray(ec, pool, s.idx)
	if err != nil {
		return nil, err
	}
	defer vals.Release()
	return newListArray(t, s.offs, s.valid, s.nulls, vals)
}

// newListArray assembles a list array of the ARRAY type t from its offsets,
// the validity of its rows and the element values.
func newListArray(t types.DataType, offs []int32, valid []bool, nulls int, vals arrow.Array) (arrow.Array, error) {
	at, err := arrowType(t)
	if err != nil {
		return nil, err
	}
	n := len(offs) - 1
	var bitmap *memory.Buffer
	if nulls > 0 {
		bits := make([]byte, bitutil.BytesForBits(int64(n)))
		for i, ok := range valid {
			if ok {
				bitutil.SetBit(bits, i)
			}
		}
		bitmap = memory.NewBufferBytes(bits)
	}
	ob := memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(offs))
	data := array.NewData(at, n, []*memory.Buffer{bitmap, ob}, []arrow.ArrayData{vals.Data()}, nulls, 0)
	defer data.Release()
	return array.MakeFromData(data), nil
}

// listOf reads an ARRAY argument's column.
func listOf(c *Call, a arrow.Array) (*array.List, error) {
	l, ok := a.(*array.List)
	if !ok {
		return nil, fmt.Errorf("engine: %s got a %s column, not an ARRAY", c, a.DataType())
	}
	return l, nil
}

// elemPool casts the element values of lists (and plain columns) to the
// element type t and concatenates them: the pool the result's elements are
// taken from; base[i] is where part i starts in it.
func elemPool(ec *evalCtx, t types.DataType, parts ...arrow.Array) (pool arrow.Array, base []int64, err error) {
	cast := make([]arrow.Array, 0, len(parts))
	defer func() { releaseAll(cast) }()
	base = make([]int64, len(parts))
	var at int64
	for i, p := range parts {
		if l, ok := p.(*array.List); ok {
			p = l.ListValues()
		}
		c, err := castElems(ec, p, t)
		if err != nil {
			return nil, nil, err
		}
		cast = append(cast, c)
		base[i] = at
		at += int64(c.Len())
	}
	pool, err = concatArrays(ec, cast)
	return pool, base, err
}

// commonElem is CommonType, and for two ARRAYs of one element type that
// type with the nullability of both (ARRAY[ARRAY[a], ARRAY[b, 1]]).
func commonElem(a, b types.DataType) (types.DataType, error) {
	if a.Kind != types.Array || b.Kind != types.Array || a.Elem == nil || b.Elem == nil {
		return CommonType(a, b)
	}
	et, err := commonElem(*a.Elem, *b.Elem)
	if err != nil || !sameType(et, *a.Elem) || !sameType(et, *b.Elem) {
		return types.DataType{}, fmt.Errorf("%s and %s have no common type", TypeName(a), TypeName(b))
	}
	return nullable(types.NewArray(et), a.NotNull && b.NotNull), nil
}

// castElems is castArray, except that an ARRAY column only changes the
// nullability its Arrow type records (the values stay).
func castElems(ec *evalCtx, a arrow.Array, t types.DataType) (arrow.Array, error) {
	if t.Kind != types.Array {
		return castArray(ec, a, t)
	}
	at, err := arrowType(t)
	if err != nil {
		return nil, err
	}
	if arrow.TypeEqual(a.DataType(), at) {
		a.Retain()
		return a, nil
	}
	d := a.Data()
	nd := array.NewData(at, d.Len(), d.Buffers(), d.Children(), d.NullN(), d.Offset())
	defer nd.Release()
	return array.MakeFromData(nd), nil
}
