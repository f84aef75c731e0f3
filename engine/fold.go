package engine

import (
	"context"
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
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
		switch x.(type) {
		case *Const, *Binary, *Neg, *Cast, *Compare, *In, *Like, *Logic, *Not, *IsNull,
			*Case, *Call, *TimeAdd, *TimeDiff, *Extract, *FloorTo:
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
