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

// Logic is L AND R or L OR R with SQL's three-valued logic, which is
// Kleene's: FALSE AND NULL is FALSE, TRUE OR NULL is TRUE, otherwise NULL
// wins. Arrow's and_kleene / or_kleene kernels implement exactly this.
type Logic struct {
	And  bool
	L, R Expr
}

// NewLogic types l AND r (and) or l OR r.
func NewLogic(and bool, l, r Expr) (Expr, error) {
	l, r = retype(l, types.NewBoolean()), retype(r, types.NewBoolean())
	for _, x := range []Expr{l, r} {
		if x.Type().Kind != types.Boolean {
			return nil, fmt.Errorf("%s is %s, not a condition (BOOLEAN)", x, TypeName(x.Type()))
		}
	}
	return &Logic{And: and, L: l, R: r}, nil
}

// Type implements Expr.
func (e *Logic) Type() types.DataType {
	return nullable(types.NewBoolean(), bothNotNull(e.L.Type(), e.R.Type()))
}

// String renders the operation in parentheses.
func (e *Logic) String() string {
	op := " OR "
	if e.And {
		op = " AND "
	}
	return "(" + e.L.String() + op + e.R.String() + ")"
}

func (e *Logic) children() []Expr      { return []Expr{e.L, e.R} }
func (e *Logic) rebuild(c []Expr) Expr { return &Logic{And: e.And, L: c[0], R: c[1]} }

func (e *Logic) eval(ec *evalCtx, b arrow.RecordBatch) (arrow.Array, error) {
	ins, err := evalAll(ec, []Expr{e.L, e.R}, b)
	if err != nil {
		return nil, err
	}
	defer releaseAll(ins)
	fn := "or_kleene"
	if e.And {
		fn = "and_kleene"
	}
	return boolKernel(ec, fn, ins...)
}

// boolKernel calls a boolean kernel; "invert" is Kleene's NOT (NULL stays
// NULL), arrow-go's "not".
func boolKernel(ec *evalCtx, fn string, args ...arrow.Array) (arrow.Array, error) {
	if fn == "invert" {
		if b, ok := args[0].(*array.Boolean); ok {
			return invertBool(ec, b), nil
		}
		fn = "not"
	}
	ds := make([]compute.Datum, len(args))
	for i, a := range args {
		ds[i] = compute.NewDatumWithoutOwning(a)
	}
	out, err := compute.CallFunction(ec.ctx, fn, nil, ds...)
	if err != nil {
		return nil, err
	}
	return out.(*compute.ArrayDatum).MakeArray(), nil
}

// Not is NOT X: NULL stays NULL.
type Not struct{ X Expr }

// NewNot types NOT x.
func NewNot(x Expr) (Expr, error) {
	x = retype(x, types.NewBoolean())
	if x.Type().Kind != types.Boolean {
		return nil, fmt.Errorf("NOT %s: %s is not a condition (BOOLEAN)", x, TypeName(x.Type()))
	}
	return &Not{X: x}, nil
}

// Type implements Expr.
func (e *Not) Type() types.DataType { return e.X.Type() }

// String renders the negation.
func (e *Not) String() string        { return "NOT " + e.X.String() }
func (e *Not) children() []Expr      { return []Expr{e.X} }
func (e *Not) rebuild(c []Expr) Expr { return &Not{X: c[0]} }

func (e *Not) eval(ec *evalCtx, b arrow.RecordBatch) (arrow.Array, error) {
	x, err := e.X.eval(ec, b)
	if err != nil {
		return nil, err
	}
	defer x.Release()
	return boolKernel(ec, "invert", x)
}

// IsNull is X IS [NOT] NULL: never NULL itself.
type IsNull struct {
	X   Expr
	Not bool
}

// Type implements Expr.
func (e *IsNull) Type() types.DataType { return types.NewBoolean().AsNotNull() }

// String renders the predicate.
func (e *IsNull) String() string {
	if e.Not {
		return e.X.String() + " IS NOT NULL"
	}
	return e.X.String() + " IS NULL"
}

func (e *IsNull) children() []Expr      { return []Expr{e.X} }
func (e *IsNull) rebuild(c []Expr) Expr { return &IsNull{X: c[0], Not: e.Not} }

func (e *IsNull) eval(ec *evalCtx, b arrow.RecordBatch) (arrow.Array, error) {
	x, err := e.X.eval(ec, b)
	if err != nil {
		return nil, err
	}
	defer x.Release()
	// Read from the validity bitmap: arrow-go's is_null kernel dispatches as a comparison
	// and panics on a DECIMAL input (castBinaryDecimalArgs with one argument).
	n := x.Len()
	bld := array.NewBooleanBuilder(ec.mem)
	defer bld.Release()
	bld.Reserve(n)
	switch {
	case x.NullN() == 0:
		for range n {
			bld.UnsafeAppend(e.Not)
		}
	default:
		for i := range n {
			bld.UnsafeAppend(x.IsNull(i) != e.Not)
		}
	}
	return bld.NewArray(), nil
}

// invertBool is NOT over a BOOLEAN column: its value bits inverted into a
// new buffer, its validity bitmap shared. (arrow-go's "not" kernel kept a
// reference to the input's validity buffer that it never released.)
func invertBool(ec *evalCtx, b *array.Boolean) arrow.Array {
	d := b.Data()
	off, n := d.Offset(), d.Len()
	vals := memory.NewResizableBuffer(ec.mem)
	defer vals.Release()
	vals.Resize(int(bitutil.BytesForBits(int64(off + n))))
	if n > 0 {
		bitutil.InvertBitmap(d.Buffers()[1].Bytes(), off, n, vals.Bytes(), off)
	}
	var valid *memory.Buffer
	if b.NullN() > 0 {
		valid = d.Buffers()[0]
	}
	out := array.NewData(arrow.FixedWidthTypes.Boolean, n, []*memory.Buffer{valid, vals}, nil, b.NullN(), off)
	defer out.Release()
	return array.NewBooleanData(out)
}
