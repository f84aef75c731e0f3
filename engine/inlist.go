package engine

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// maxInConsts bounds the constants evalConsts compares a row with one
// after another.
const maxInConsts = 16

// evalConsts is X [NOT] IN over a list of at most maxInConsts non-NULL
// constants when X is an integer, a temporal held as one or a string: the
// constants are brought to the common type once per batch (on its first
// row), and each row is compared with them in one loop; ok is false for
// the other lists, which make a column per entry and compare and OR the
// columns (TPC-H Q16's p_size IN (49, 14, 23, 45, 19, 3, 36, 9) made
// eight columns of the batch's length).
func (e *In) evalConsts(ec *evalCtx, x arrow.Array, b arrow.RecordBatch) (arrow.Array, bool, error) {
	if len(e.List) > maxInConsts || b.NumRows() == 0 {
		return nil, false, nil
	}
	for _, v := range e.List {
		if c, ok := v.(*Const); !ok || c.Value == nil {
			return nil, false, nil
		}
	}
	xs, isStr := x.(*array.String)
	if !isStr && intValues(x) == nil {
		return nil, false, nil
	}
	one := b.NewSlice(0, 1)
	defer one.Release()
	var ints []int64
	var strs []string
	for _, v := range e.List {
		a, err := evalAs(ec, v, e.T, one)
		if err != nil {
			return nil, false, err
		}
		switch {
		case a.IsNull(0):
			a.Release()
			return nil, false, nil
		case isStr:
			s, ok := a.(*array.String)
			if !ok {
				a.Release()
				return nil, false, nil
			}
			strs = append(strs, s.Value(0))
		default:
			k := intValues(a)
			if k == nil {
				a.Release()
				return nil, false, nil
			}
			ints = append(ints, k(0))
		}
		a.Release()
	}
	n := x.Len()
	vals := memory.NewResizableBuffer(ec.mem)
	defer vals.Release()
	vals.Resize(int(bitutil.BytesForBits(int64(n))))
	bits := vals.Bytes()
	clear(bits)
	if isStr {
		for r := range n {
			v := xs.Value(r)
			for _, s := range strs {
				if s == v {
					bitutil.SetBit(bits, r)
					break
				}
			}
		}
	} else {
		switch c := x.(type) {
		case *array.Int8:
			inInts(c.Int8Values(), ints, bits)
		case *array.Int16:
			inInts(c.Int16Values(), ints, bits)
		case *array.Int32:
			inInts(c.Int32Values(), ints, bits)
		case *array.Int64:
			inInts(c.Int64Values(), ints, bits)
		case *array.Date32:
			inInts(c.Date32Values(), ints, bits)
		}
	}
	if e.Not {
		bitutil.InvertBitmap(bits, 0, n, bits, 0)
	}
	var valid *memory.Buffer
	if x.NullN() > 0 {
		valid = memory.NewResizableBuffer(ec.mem)
		defer valid.Release()
		valid.Resize(len(bits))
		bitutil.CopyBitmap(x.NullBitmapBytes(), x.Data().Offset(), n, valid.Bytes(), 0)
	}
	d := array.NewData(arrow.FixedWidthTypes.Boolean, n, []*memory.Buffer{valid, vals}, nil, x.NullN(), 0)
	defer d.Release()
	return array.NewBooleanData(d), true, nil
}

// inInts sets bit r of bits where vals[r] is one of list.
func inInts[T ~int8 | ~int16 | ~int32 | ~int64](vals []T, list []int64, bits []byte) {
	for r, v := range vals {
		k := int64(v)
		for _, c := range list {
			if c == k {
				bits[r>>3] |= 1 << (r & 7)
				break
			}
		}
	}
}

// intValues reads an integer column, or a temporal one Arrow holds as
// integers, as int64 (nil for other columns).
func intValues(a arrow.Array) func(int) int64 {
	switch c := a.(type) {
	case *array.Int8:
		return func(r int) int64 { return int64(c.Value(r)) }
	case *array.Int16:
		return func(r int) int64 { return int64(c.Value(r)) }
	case *array.Int32:
		return func(r int) int64 { return int64(c.Value(r)) }
	case *array.Int64:
		return c.Value
	case *array.Date32:
		return func(r int) int64 { return int64(c.Value(r)) }
	}
	return nil
}
