package engine

import (
	"fmt"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/flussql/flussql/fluss/types"
)

// The bitmap family: Fluss's rb_* functions (the Fluss catalog's Flink functions, newer than
// the 0.9.1 connector), over BYTES holding a 32-bit RoaringBitmap in its portable
// serialization — the format of the rbm32 aggregation of Fluss's merge engine, and of
// github.com/RoaringBitmap/roaring. INT values are the bitmap's unsigned 32-bit values
// (a negative INT is the value of its bits; RB_TO_ARRAY lists them in unsigned order, as
// Java's RoaringBitmap). A value that is not a serialized bitmap is an error.

var (
	bytesType = types.NewBytes()
	intType   = types.NewInt()
)

func init() {
	set := func(name, op, example string, f func(a, b *roaring.Bitmap) *roaring.Bitmap) *FuncDef {
		return &FuncDef{Name: name, Family: "bitmap", Signature: name + "(a BYTES, b BYTES) → BYTES",
			Desc: "the " + op + " of bitmaps a and b", Example: example,
			Type: bitmapType(bytesType, bytesType, bytesType), Kernel: bitmapKernel(func(ec *evalCtx, n int, ins []arrow.Array) (arrow.Array, error) {
				return bytesRows(ec, n, ins, func(i int) ([]byte, bool, error) {
					a, err := bitmapAt(name, ins[0], i)
					if err != nil {
						return nil, false, err
					}
					b, err := bitmapAt(name, ins[1], i)
					if err != nil {
						return nil, false, err
					}
					out, err := f(a, b).ToBytes()
					return out, true, err
				})
			})}
	}
	register(
		&FuncDef{Name: "RB_BUILD", Family: "bitmap", Signature: "RB_BUILD(values ARRAY<INT>) → BYTES",
			Desc: "the bitmap of the non-NULL values (an empty bitmap for none)", Example: "RB_BUILD(ARRAY[1, 2, 2]) = X'3a30…' (the bitmap {1, 2})",
			Type: rbBuildType, Kernel: bitmapKernel(func(ec *evalCtx, n int, ins []arrow.Array) (arrow.Array, error) {
				l, ok := ins[0].(array.ListLike)
				if !ok {
					return nil, fmt.Errorf("RB_BUILD of %s", ins[0].DataType())
				}
				vals := intValuesOf(l.ListValues())
				return bytesRows(ec, n, ins, func(i int) ([]byte, bool, error) {
					b := roaring.New()
					start, end := l.ValueOffsets(i)
					for j := start; j < end; j++ {
						if l.ListValues().IsValid(int(j)) {
							b.Add(uint32(vals(int(j))))
						}
					}
					out, err := b.ToBytes()
					return out, true, err
				})
			})},
		&FuncDef{Name: "RB_CARDINALITY", Family: "bitmap", Signature: "RB_CARDINALITY(bitmap BYTES) → BIGINT",
			Desc: "the number of values in the bitmap", Example: "RB_CARDINALITY(X'3a300000010000000000020010000000010002000300') = 3",
			Type: bitmapType(types.NewBigInt(), bytesType), Kernel: bitmapKernel(func(ec *evalCtx, n int, ins []arrow.Array) (arrow.Array, error) {
				return intRows(ec, types.NewBigInt(), n, ins, false, func(i int) (int64, bool, error) {
					b, err := bitmapAt("RB_CARDINALITY", ins[0], i)
					if err != nil {
						return 0, false, err
					}
					return int64(b.GetCardinality()), true, nil
				})
			})},
		&FuncDef{Name: "RB_CONTAINS", Family: "bitmap", Signature: "RB_CONTAINS(bitmap BYTES, value INT) → BOOLEAN",
			Desc: "whether the bitmap holds value", Example: "RB_CONTAINS(X'3a300000010000000000020010000000010002000300', 2) = TRUE",
			Type: bitmapType(types.NewBoolean(), bytesType, intType), Kernel: bitmapKernel(func(ec *evalCtx, n int, ins []arrow.Array) (arrow.Array, error) {
				v := intValuesOf(ins[1])
				return boolRows(ec, n, ins, false, func(i int) (bool, bool, error) {
					b, err := bitmapAt("RB_CONTAINS", ins[0], i)
					if err != nil {
						return false, false, err
					}
					return b.Contains(uint32(v(i))), true, nil
				})
			})},
		&FuncDef{Name: "RB_TO_ARRAY", Family: "bitmap", Signature: "RB_TO_ARRAY(bitmap BYTES) → ARRAY<INT>",
			Desc: "the bitmap's values in ascending (unsigned) order", Example: "CARDINALITY(RB_TO_ARRAY(X'3a300000010000000000020010000000010002000300')) = 3",
			Type: bitmapType(types.NewArray(intType), bytesType), Kernel: bitmapKernel(func(ec *evalCtx, n int, ins []arrow.Array) (arrow.Array, error) {
				lb := array.NewListBuilder(ec.mem, arrow.PrimitiveTypes.Int32)
				defer lb.Release()
				vb := lb.ValueBuilder().(*array.Int32Builder)
				for i := range n {
					if ins[0].IsNull(i) {
						lb.AppendNull()
						continue
					}
					b, err := bitmapAt("RB_TO_ARRAY", ins[0], i)
					if err != nil {
						return nil, err
					}
					lb.Append(true)
					for it := b.Iterator(); it.HasNext(); {
						vb.Append(int32(it.Next()))
					}
				}
				return lb.NewArray(), nil
			})},
		set("RB_OR", "union", "RB_CARDINALITY(RB_OR(X'3a30000001000000000001001000000001000200', X'3a30000001000000000001001000000002000300')) = 3", roaring.Or),
		set("RB_AND", "intersection", "RB_CARDINALITY(RB_AND(X'3a30000001000000000001001000000001000200', X'3a30000001000000000001001000000002000300')) = 1", roaring.And),
		set("RB_XOR", "symmetric difference", "RB_CARDINALITY(RB_XOR(X'3a30000001000000000001001000000001000200', X'3a30000001000000000001001000000002000300')) = 2", roaring.Xor),
		set("RB_ANDNOT", "difference (a's values not in b)", "RB_CARDINALITY(RB_ANDNOT(X'3a30000001000000000001001000000001000200', X'3a30000001000000000001001000000002000300')) = 1", roaring.AndNot),
		bitmapAgg("RB_BUILD_AGG", "RB_BUILD_AGG(value INT) → BYTES", "the bitmap of the non-NULL values; NULL for none", intType, rbBuild),
		bitmapAgg("RB_OR_AGG", "RB_OR_AGG(bitmap BYTES) → BYTES", "the union of the non-NULL, non-empty bitmaps; NULL for none", bytesType, rbOr),
		bitmapAgg("RB_AND_AGG", "RB_AND_AGG(bitmap BYTES) → BYTES", "the intersection of the non-NULL, non-empty bitmaps; NULL for none or an empty intersection", bytesType, rbAnd),
		bitmapAgg("RB_XOR_AGG", "RB_XOR_AGG(bitmap BYTES) → BYTES", "the values in an odd number of the non-NULL bitmaps (empty when they cancel); NULL for none", bytesType, rbXor),
	)
}

// bitmapType converts the arguments to their types (BYTES, INT); the result is t, NULL when
// an argument is.
func bitmapType(t types.DataType, want ...types.DataType) TypeRule {
	return func(name string, args []Expr) ([]Expr, types.DataType, any, error) {
		args, err := castArgs(name, args, want)
		if err != nil {
			return nil, t, nil, err
		}
		return args, nullable(t, allNotNull(args)), nil, nil
	}
}

func rbBuildType(name string, args []Expr) ([]Expr, types.DataType, any, error) {
	if err := argc(name, args, 1, 1); err != nil {
		return nil, bytesType, nil, err
	}
	if t := args[0].Type(); t.Kind != types.Array || !isInt(t.Elem.Kind) {
		return nil, bytesType, nil, fmt.Errorf("%s takes an ARRAY<INT>, not %s", name, TypeName(t))
	}
	return args, nullable(bytesType, allNotNull(args)), nil, nil
}

// bitmapKernel is a kernel of the family (one place to wrap its errors).
func bitmapKernel(f func(ec *evalCtx, n int, ins []arrow.Array) (arrow.Array, error)) Kernel {
	return func(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
		return f(ec, n, ins)
	}
}

// bytesRows builds a BYTES array of n rows, as fillRows.
func bytesRows(ec *evalCtx, n int, ins []arrow.Array, f func(i int) ([]byte, bool, error)) (arrow.Array, error) {
	return fillRows[[]byte](array.NewBinaryBuilder(ec.mem, arrow.BinaryTypes.Binary), n, ins, false, f)
}

// bitmapAt reads row i of a BYTES array as a bitmap.
func bitmapAt(fn string, a arrow.Array, i int) (*roaring.Bitmap, error) {
	var raw []byte
	switch x := a.(type) {
	case *array.Binary:
		raw = x.Value(i)
	case *array.FixedSizeBinary:
		raw = x.Value(i)
	default:
		return nil, fmt.Errorf("%s of %s", fn, a.DataType())
	}
	return parseBitmap(fn, raw)
}

func parseBitmap(fn string, raw []byte) (*roaring.Bitmap, error) {
	b := roaring.New()
	if _, err := b.FromUnsafeBytes(raw); err != nil {
		return nil, fmt.Errorf("%s: %d bytes that are not a serialized 32-bit RoaringBitmap (%v); pass RB_BUILD's or RB_BUILD_AGG's result, or an rbm32 column", fn, len(raw), err)
	}
	return b.Clone(), nil // FromUnsafeBytes shares raw, which the batch owns
}

// bitmapAgg is an aggregate of the family: fold adds one non-NULL value to a group's state.
func bitmapAgg(name, sig, desc string, arg types.DataType, fold func(s *bitmapState, v any) error) *FuncDef {
	return &FuncDef{Name: name, Kind: AggregateFunc, Family: "bitmap", Signature: sig, Desc: desc,
		Example: "RB_CARDINALITY(" + name + "(x)) = 3",
		Type: func(fn string, args []Expr) ([]Expr, types.DataType, any, error) {
			args, err := castArgs(fn, args, []types.DataType{arg})
			return args, bytesType.AsNullable(), nil, err
		},
		AggState: func(a *Agg) aggState { return &bitmapState{fn: name, fold: fold} }}
}

// bitmapState is one group's bitmap; seen tells whether a value was folded in (the NULL of
// RB_XOR_AGG); and marks RB_AND_AGG, whose empty intersection is NULL.
type bitmapState struct {
	fn   string
	fold func(s *bitmapState, v any) error
	b    *roaring.Bitmap
	seen bool
	and  bool
}

func (s *bitmapState) add(v any) error { return s.fold(s, v) }

func (s *bitmapState) result() (any, error) {
	if !s.seen || s.b == nil || s.and && s.b.IsEmpty() {
		return nil, nil
	}
	return s.b.ToBytes()
}

func rbBuild(s *bitmapState, v any) error {
	if s.b == nil {
		s.b = roaring.New()
	}
	s.b.Add(uint32(v.(int64)))
	s.seen = true
	return nil
}

func rbOr(s *bitmapState, v any) error {
	x, err := parseBitmap(s.fn, v.([]byte))
	if err != nil || x.IsEmpty() {
		return err
	}
	if s.b == nil {
		s.b = x
	} else {
		s.b.Or(x)
	}
	s.seen = true
	return nil
}

func rbAnd(s *bitmapState, v any) error {
	x, err := parseBitmap(s.fn, v.([]byte))
	if err != nil || x.IsEmpty() {
		return err
	}
	s.and = true
	if s.b == nil {
		s.b = x
	} else {
		s.b.And(x)
	}
	s.seen = true
	return nil
}

func rbXor(s *bitmapState, v any) error {
	x, err := parseBitmap(s.fn, v.([]byte))
	if err != nil {
		return err
	}
	if s.b == nil {
		s.b = roaring.New()
	}
	s.b.Xor(x)
	s.seen = true
	return nil
}
