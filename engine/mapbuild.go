package engine

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/flussql/flussql/fluss/types"
)

// Assembling ARRAY and MAP arrays without a value-by-value builder: a
// kernel computes, per row, which elements of flattened inputs it takes
// (indexes into them, or -1 for a NULL row), and nestedTake gathers them
// with Arrow's take kernel and sets the offsets and validity around them.
// MAP_KEYS, MAP_VALUES and MAP_ENTRIES need not even that: their lists are
// the map's own offsets over its keys, items or entries (listOverMap).

// rowPicks collects the picked element indexes of each row.
type rowPicks struct {
	offsets []int32 // len rows+1
	valid   []byte  // validity bitmap
	nulls   int
	idx     []int64 // indexes into the flattened input, in row order
}

func newRowPicks(n int) *rowPicks {
	return &rowPicks{offsets: make([]int32, 1, n+1), valid: make([]byte, bitutil.BytesForBits(int64(n)))}
}

// add appends one element index to the current row.
func (p *rowPicks) add(i int64) { p.idx = append(p.idx, i) }

// end closes the current row: a value (of the indexes added since the last
// end) or NULL.
func (p *rowPicks) end(valid bool) {
	r := len(p.offsets) - 1
	if valid {
		bitutil.SetBit(p.valid, r)
	} else {
		p.nulls++
	}
	p.offsets = append(p.offsets, int32(len(p.idx)))
}

// takeIdx gathers the picked elements of flat (release the result).
func takeIdx(ec *evalCtx, flat arrow.Array, idx []int64) (arrow.Array, error) {
	ib := array.NewInt64Builder(ec.mem)
	defer ib.Release()
	ib.AppendValues(idx, nil)
	ia := ib.NewArray()
	defer ia.Release()
	return compute.TakeArray(ec.ctx, flat, ia)
}

// nestedData wraps children in the offsets and validity of p as an array
// of the Arrow type at (a list or a map).
func (p *rowPicks) nestedData(at arrow.DataType, child arrow.ArrayData) arrow.Array {
	bufs := []*memory.Buffer{memory.NewBufferBytes(p.valid), memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(p.offsets))}
	if p.nulls == 0 {
		bufs[0] = nil
	}
	d := array.NewData(at, len(p.offsets)-1, bufs, []arrow.ArrayData{child}, p.nulls, 0)
	defer d.Release()
	return array.MakeFromData(d)
}

// mapOf makes a MAP of type t from the picks: the keys and items taken
// from the flattened keys and items at the same indexes.
func (p *rowPicks) mapOf(ec *evalCtx, t types.DataType, keys, items arrow.Array) (arrow.Array, error) {
	at, err := arrowType(t)
	if err != nil {
		return nil, err
	}
	mt, ok := at.(*arrow.MapType)
	if !ok {
		return nil, fmt.Errorf("engine: %s is no MAP", t)
	}
	k, err := takeIdx(ec, keys, p.idx)
	if err != nil {
		return nil, err
	}
	defer k.Release()
	v, err := takeIdx(ec, items, p.idx)
	if err != nil {
		return nil, err
	}
	defer v.Release()
	entries := array.NewData(mt.Elem(), len(p.idx), []*memory.Buffer{nil}, []arrow.ArrayData{k.Data(), v.Data()}, 0, 0)
	defer entries.Release()
	return p.nestedData(mt, entries), nil
}

// mapParts returns the keys and items of a MAP array in the coordinates of
// its offsets (release both).
func mapParts(m *array.Map) (keys, items arrow.Array) {
	entries := m.Data().Children()[0]
	off, n := entries.Offset(), entries.Len()
	ks := array.NewSliceData(entries.Children()[0], int64(off), int64(off+n))
	defer ks.Release()
	is := array.NewSliceData(entries.Children()[1], int64(off), int64(off+n))
	defer is.Release()
	return array.MakeFromData(ks), array.MakeFromData(is)
}

// listOverMap is an ARRAY of type t whose rows are m's rows over child (the
// map's keys, items or entries, in the coordinates of its offsets): no
// element is copied.
func listOverMap(t types.DataType, m *array.Map, child arrow.ArrayData) (arrow.Array, error) {
	at, err := arrowType(t)
	if err != nil {
		return nil, err
	}
	md := m.Data()
	d := array.NewData(at, md.Len(), md.Buffers()[:2], []arrow.ArrayData{child}, md.NullN(), md.Offset())
	defer d.Release()
	return array.MakeFromData(d), nil
}

// hashKey is a map key's value as a Go map key ([]byte is not comparable).
func hashKey(v any) any {
	if b, ok := v.([]byte); ok {
		return string(b)
	}
	return v
}

// sameShape reports whether two types are equal but for nullability, at
// every level.
func sameShape(a, b types.DataType) bool {
	return stripNull(a).Equal(stripNull(b))
}

func stripNull(t types.DataType) types.DataType {
	t = t.AsNullable()
	switch {
	case t.Elem != nil:
		e := stripNull(*t.Elem)
		t.Elem = &e
	case t.Key != nil && t.Value != nil:
		k, v := stripNull(*t.Key), stripNull(*t.Value)
		t.Key, t.Value = &k, &v
	case len(t.Fields) > 0:
		fs := make([]types.Field, len(t.Fields))
		for i, f := range t.Fields {
			fs[i] = f
			fs[i].Type = stripNull(f.Type)
		}
		t.Fields = fs
	}
	return t
}

// widest is the type of a list of operands of one role (the keys of MAP[…],
// say): their common type, or for nested types the one shape they share
// (nullable when any is).
func widest(what string, es []Expr) (types.DataType, error) {
	var nested []types.DataType
	for _, e := range es {
		if !isUntyped(e) && e.Type().Kind.Nested() {
			nested = append(nested, e.Type())
		}
	}
	if len(nested) == 0 {
		return commonOf(what, es)
	}
	t := nested[0]
	for _, u := range nested[1:] {
		if !sameShape(t, u) {
			return t, fmt.Errorf("%s: %s and %s have no common type", what, TypeName(t), TypeName(u))
		}
		if !u.NotNull {
			t = t.AsNullable()
		}
	}
	if len(nested) < len(es) {
		for _, e := range es {
			if !isUntyped(e) && !e.Type().Kind.Nested() {
				return t, fmt.Errorf("%s: %s and %s have no common type", what, TypeName(t), TypeName(e.Type()))
			}
		}
		t = t.AsNullable()
	}
	return t, nil
}
