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

// Field is field Index (named Name) of Base, a ROW value: r.f in Flink's
// syntax. It is NULL where the ROW is NULL.
type Field struct {
	Base  Expr
	Index int
	Name  string
	T     types.DataType
}

// NewField types r.f: name is matched exactly, else case-insensitively if
// only one field matches.
func NewField(base Expr, name string) (*Field, error) {
	bt := base.Type()
	if bt.Kind != types.Row {
		return nil, fmt.Errorf("%s.%s: %s is %s, not a ROW; only a ROW has fields", base, quoteIdent(name), base, TypeName(bt))
	}
	idx := -1
	for i, f := range bt.Fields {
		if f.Name == name {
			idx = i
			break
		}
		if strings.EqualFold(f.Name, name) {
			if idx >= 0 {
				idx = -2
			} else if idx == -1 {
				idx = i
			}
		}
	}
	if idx < 0 {
		names := make([]string, len(bt.Fields))
		for i, f := range bt.Fields {
			names[i] = f.Name
		}
		return nil, fmt.Errorf("%s has no field %s; its fields: %s", base, quoteIdent(name), strings.Join(names, ", "))
	}
	f := bt.Fields[idx]
	t := f.Type
	if !bt.NotNull {
		t = t.AsNullable()
	}
	return &Field{Base: base, Index: idx, Name: f.Name, T: t}, nil
}

// Type implements Expr.
func (f *Field) Type() types.DataType { return f.T }

// String renders r.f.
func (f *Field) String() string { return f.Base.String() + "." + quoteIdent(f.Name) }

func (f *Field) children() []Expr { return []Expr{f.Base} }

func (f *Field) rebuild(c []Expr) Expr { x := *f; x.Base = c[0]; return &x }

func (f *Field) eval(ec *evalCtx, b arrow.RecordBatch) (arrow.Array, error) {
	base, err := f.Base.eval(ec, b)
	if err != nil {
		return nil, err
	}
	defer base.Release()
	st, ok := base.(*array.Struct)
	if !ok {
		return nil, fmt.Errorf("engine: %s got a %s column, not a ROW", f, base.DataType())
	}
	child := st.Field(f.Index)
	if st.NullN() == 0 {
		child.Retain()
		return child, nil
	}
	return withParentNulls(ec.mem, child, st), nil
}

// withParentNulls is child (a field of parent) NULL also where parent is:
// its buffers with a validity bitmap that ANDs both.
func withParentNulls(mem memory.Allocator, child, parent arrow.Array) arrow.Array {
	d := child.Data()
	n, off := d.Len(), d.Offset()
	bm := memory.NewResizableBuffer(mem)
	bm.Resize(int(bitutil.BytesForBits(int64(n + off))))
	bits := bm.Bytes()
	clear(bits)
	for i := range n {
		if parent.IsValid(i) && child.IsValid(i) {
			bitutil.SetBit(bits, off+i)
		}
	}
	bufs := append([]*memory.Buffer{bm}, d.Buffers()[1:]...)
	nd := array.NewData(d.DataType(), n, bufs, d.Children(), array.UnknownNullCount, off)
	defer nd.Release()
	bm.Release()
	return array.MakeFromData(nd)
}
