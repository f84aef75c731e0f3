package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/flussql/flussql/fluss/types"
)

// Call is a call of a Scalar function of the registry (SHOW FUNCTIONS lists
// them). Build it with NewCall.
type Call struct {
	Name string
	Args []Expr
	T    types.DataType
	def  *FuncDef
	// state is what the type rule prepared for the kernel (a Go time
	// layout, a compiled pattern, …).
	state any
}

// Def is the registry entry of the call.
func (e *Call) Def() *FuncDef { return e.def }

// Type implements Expr.
func (e *Call) Type() types.DataType { return e.T }

// String renders the call.
func (e *Call) String() string {
	parts := make([]string, len(e.Args))
	for i, a := range e.Args {
		parts[i] = a.String()
		if e.Name == "JSON_OBJECT" && i%2 == 1 { // Flink's KEY k VALUE v
			parts[i-1], parts[i] = "KEY "+parts[i-1]+" VALUE "+parts[i], ""
		}
	}
	if e.Name == "JSON_OBJECT" {
		parts = slices.DeleteFunc(parts, func(s string) bool { return s == "" })
	}
	if e.Name == "IS_JSON" && len(e.Args) == 2 {
		if k, ok := constString(e.Args[1]); ok {
			return "(" + parts[0] + " IS JSON " + k + ")"
		}
	}
	// Trailing clauses follow the arguments without commas: Flink's
	// JSON_ARRAY(a, b ABSENT ON NULL), JSON_VALUE(j, p RETURNING INT).
	n := len(e.Args)
	for n > 0 && isClause(e.Args[n-1]) {
		n--
	}
	if n < len(e.Args) {
		args := strings.Join(slices.DeleteFunc(parts[:n], func(s string) bool { return s == "" }), ", ")
		for _, c := range e.Args[n:] {
			if args != "" {
				args += " "
			}
			args += c.String()
		}
		return e.Name + "(" + args + ")"
	}
	return e.Name + "(" + strings.Join(parts, ", ") + ")"
}

func (e *Call) children() []Expr { return e.Args }
func (e *Call) rebuild(c []Expr) Expr {
	var n Expr
	var err error
	if e.def != nil && e.def.Family == "user" {
		n, err = NewCallOf(e.def, append([]Expr(nil), c...))
	} else {
		n, err = NewCall(e.Name, append([]Expr(nil), c...))
	}
	if err != nil {
		return &Call{Name: e.Name, Args: c, T: e.T, def: e.def, state: e.state}
	}
	return n
}

func (e *Call) eval(ec *evalCtx, b arrow.RecordBatch) (arrow.Array, error) {
	if e.def == nil || e.def.Kernel == nil {
		return nil, fmt.Errorf("engine: function %s cannot run", e.Name)
	}
	n := int(b.NumRows())
	ins, err := evalAll(ec, e.Args, b)
	if err != nil {
		return nil, err
	}
	defer releaseAll(ins)
	out, err := e.def.Kernel(ec, e, ins, n)
	if err != nil || e.def.NullArgs {
		return out, err
	}
	return maskNulls(ec.mem, out, ins)
}

// maskNulls makes row i of out NULL where any of ins is NULL (the kernels
// write a placeholder there); out is released when replaced.
func maskNulls(mem memory.Allocator, out arrow.Array, ins []arrow.Array) (arrow.Array, error) {
	masked := false
	for _, a := range ins {
		if a.NullN() > 0 && !nullNotMasked(a, out) {
			masked = true
			break
		}
	}
	if !masked {
		return out, nil
	}
	n := out.Len()
	bits := make([]byte, bitutil.BytesForBits(int64(n)))
	nulls := 0
	for i := range n {
		ok := out.IsValid(i)
		for _, a := range ins {
			if ok && a.IsNull(i) {
				ok = false
			}
		}
		if ok {
			bitutil.SetBit(bits, i)
		} else {
			nulls++
		}
	}
	if out.Data().Offset() != 0 { // the bitmap below starts at row 0: copy out first
		cp, err := array.Concatenate([]arrow.Array{out}, mem)
		out.Release()
		if err != nil {
			return nil, err
		}
		out = cp
	}
	d := out.Data()
	bufs := append([]*memory.Buffer{memory.NewBufferBytes(bits)}, d.Buffers()[1:]...)
	nd := array.NewData(d.DataType(), n, bufs, d.Children(), nulls, 0)
	defer nd.Release()
	defer out.Release()
	return array.MakeFromData(nd), nil
}

// nullNotMasked reports whether out is already NULL wherever a is.
func nullNotMasked(a, out arrow.Array) bool {
	if out.NullN() < a.NullN() {
		return false
	}
	for i := range a.Len() {
		if a.IsNull(i) && out.IsValid(i) {
			return false
		}
	}
	return true
}

// callKernel runs an Arrow compute function over x, cast back to c's type
// when the kernel widens (floor/ceil of FLOAT).
func callKernel(ec *evalCtx, c *Call, fn string, opts compute.FunctionOptions, xs ...arrow.Array) (arrow.Array, error) {
	args := make([]compute.Datum, len(xs))
	for i, x := range xs {
		args[i] = compute.NewDatumWithoutOwning(x)
	}
	out, err := compute.CallFunction(ec.ctx, fn, opts, args...)
	if err != nil {
		return nil, arithError(c, err)
	}
	a := out.(*compute.ArrayDatum).MakeArray()
	want, err := arrowType(c.T)
	if err == nil && !arrow.TypeEqual(a.DataType(), want) {
		defer a.Release()
		return castArray(ec, a, c.T)
	}
	return a, nil
}

func mustCommon(a, b Expr) types.DataType {
	t, _ := CommonType(a.Type(), b.Type())
	return t
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}
