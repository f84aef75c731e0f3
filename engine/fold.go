package engine

import (
	"context"
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/flussql/flussql/fluss/types"
)

// Constant folding. A constant expression (no column, no placeholder, no
// clock, only operations known to depend on their operands alone) has one
// value for every row; evaluating it once, with the engine's own kernels,
// gives exactly the value every row would get, or the error every row
// would get, in which case it is left as it is.

// Constant reports whether e depends on nothing but its constants: every
// node is a constant or a pure operation (arithmetic, casts, comparisons,
// logic, CASE, scalar functions, interval arithmetic, EXTRACT and FLOOR/CEIL
// TO a unit). A column, a placeholder, CURRENT_TIMESTAMP and its friends,
// and any node kind not listed make it not constant.
func Constant(e Expr) bool {
	ok := true
	Walk(e, func(x Expr) {
		switch x := x.(type) {
		case *Call:
			ok = ok && (x.def == nil || !x.def.Volatile)
		case *Const, *Binary, *Neg, *Cast, *Compare, *In, *Like, *Logic, *Not, *IsNull,
			*Case, *TimeAdd, *TimeDiff, *Extract, *FloorTo:
		default:
			ok = false
		}
	})
	return ok
}

// EvalConstant evaluates a Constant expression once: its value in the
// value model of the package documentation (nil for NULL), or the error
// evaluating it on any row gives.
func EvalConstant(e Expr) (any, error) {
	if !Constant(e) {
		return nil, fmt.Errorf("engine: %s is not constant", e)
	}
	ec := &evalCtx{ctx: context.Background(), mem: memory.DefaultAllocator, now: time.Now(), consts: map[*Const]arrow.Array{}}
	defer ec.release()
	b := array.NewRecordBatch(arrow.NewSchema(nil, nil), nil, 1)
	defer b.Release()
	a, err := e.eval(ec, b)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	if a.IsNull(0) {
		return nil, nil
	}
	get, err := getter(a)
	if err != nil {
		return nil, err
	}
	return get(0), nil
}

// FoldConstants returns e with every constant subtree that is more than a
// constant replaced by its value: a constant of the same type that renders
// as the subtree did. Subtrees whose evaluation fails are kept, so that
// they fail as before, row by row.
func FoldConstants(e Expr) Expr {
	if e == nil {
		return nil
	}
	if _, ok := e.(*Const); ok {
		return e
	}
	if Constant(e) {
		if v, err := EvalConstant(e); err == nil {
			return &Const{Value: v, T: e.Type(), Text: e.String()}
		}
		return e
	}
	kids := e.children()
	if len(kids) == 0 {
		return e
	}
	out := make([]Expr, len(kids))
	changed := false
	for i, k := range kids {
		out[i] = FoldConstants(k)
		changed = changed || out[i] != k
	}
	if !changed {
		return e
	}
	return e.rebuild(out)
}

// foldTree folds the constants of every expression of the tree.
func foldTree(n Node) Node {
	out, err := MapExprs(n, func(e Expr) (Expr, error) { return FoldConstants(e), nil })
	if err != nil {
		return n
	}
	return out
}

// constAs returns a typed constant operand converted once to t, the type
// an operation brings it to for every batch (castArray, as evalAs does);
// it renders as before. Anything else, or a conversion that fails (which
// then fails row by row as before), is returned as it is.
func constAs(e Expr, t types.DataType) Expr {
	c, ok := e.(*Const)
	if !ok || c.Untyped || c.Value == nil || c.T.Kind == t.Kind && c.T.Precision == t.Precision && c.T.Scale == t.Scale && c.T.Length == t.Length {
		return e
	}
	ec := &evalCtx{ctx: context.Background(), mem: memory.DefaultAllocator}
	a, err := repeat(ec.mem, c.T, c.Value, 1)
	if err != nil {
		return e
	}
	defer a.Release()
	out, err := castArray(ec, a, t)
	if err != nil {
		return e
	}
	defer out.Release()
	if out.IsNull(0) {
		return e
	}
	get, err := getter(out)
	if err != nil {
		return e
	}
	t.NotNull = c.T.NotNull
	return &Const{Value: get(0), T: t, Text: c.String()}
}
