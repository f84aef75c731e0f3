package engine

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"

	"github.com/flussql/flussql/fluss/types"
)

// When is one WHEN Cond THEN Result branch.
type When struct{ Cond, Result Expr }

// Case is CASE WHEN c1 THEN r1 … [ELSE e] END (a CASE x WHEN v … is built
// as WHEN x = v). A row takes the first branch whose condition is TRUE;
// without one, Else (NULL when absent).
type Case struct {
	Whens []When
	Else  Expr
	T     types.DataType
}

// NewCase types the expression: every result is brought to one common type.
func NewCase(whens []When, els Expr) (Expr, error) {
	var t *types.DataType
	results := make([]Expr, 0, len(whens)+1)
	for _, w := range whens {
		results = append(results, w.Result)
	}
	if els != nil {
		results = append(results, els)
	}
	for _, r := range results {
		if isUntyped(r) {
			continue
		}
		if t == nil {
			rt := r.Type()
			t = &rt
			continue
		}
		ct, err := CommonType(*t, r.Type())
		if err != nil {
			return nil, fmt.Errorf("CASE branches: %w", err)
		}
		t = &ct
	}
	if t == nil {
		s := types.NewString()
		t = &s
	}
	out := &Case{T: t.AsNullable()}
	if els != nil && !isUntyped(els) && els.Type().NotNull {
		out.T.NotNull = true
	}
	for _, w := range whens {
		c := retype(w.Cond, types.NewBoolean())
		if c.Type().Kind != types.Boolean {
			return nil, fmt.Errorf("WHEN %s: %s is not a condition (BOOLEAN)", c, TypeName(c.Type()))
		}
		r := retype(w.Result, out.T)
		if !r.Type().NotNull {
			out.T.NotNull = false
		}
		out.Whens = append(out.Whens, When{Cond: c, Result: r})
	}
	if els != nil {
		out.Else = retype(els, out.T)
	} else {
		out.T.NotNull = false
	}
	return out, nil
}

// Type implements Expr.
func (e *Case) Type() types.DataType { return e.T }

// String renders the expression.
func (e *Case) String() string {
	var b strings.Builder
	b.WriteString("CASE")
	for _, w := range e.Whens {
		b.WriteString(" WHEN " + w.Cond.String() + " THEN " + w.Result.String())
	}
	if e.Else != nil {
		b.WriteString(" ELSE " + e.Else.String())
	}
	b.WriteString(" END")
	return b.String()
}

func (e *Case) children() []Expr {
	var out []Expr
	for _, w := range e.Whens {
		out = append(out, w.Cond, w.Result)
	}
	if e.Else != nil {
		out = append(out, e.Else)
	}
	return out
}

func (e *Case) rebuild(c []Expr) Expr {
	out := &Case{T: e.T}
	for i := range e.Whens {
		out.Whens = append(out.Whens, When{Cond: c[2*i], Result: c[2*i+1]})
	}
	if e.Else != nil {
		out.Else = c[len(c)-1]
	}
	return out
}

func (e *Case) eval(ec *evalCtx, b arrow.RecordBatch) (arrow.Array, error) {
	n := int(b.NumRows())
	var conds, results []arrow.Array
	defer func() { releaseAll(conds); releaseAll(results) }()
	for _, w := range e.Whens {
		c, err := w.Cond.eval(ec, b)
		if err != nil {
			return nil, err
		}
		conds = append(conds, c)
		r, err := evalAs(ec, w.Result, e.T, b)
		if err != nil {
			return nil, err
		}
		results = append(results, r)
	}
	els := e.Else
	if els == nil {
		els = &Const{T: e.T}
	}
	r, err := evalAs(ec, els, e.T, b)
	if err != nil {
		return nil, err
	}
	results = append(results, r)
	pick := make([]int, n)
	for i := range n {
		pick[i] = len(e.Whens)
		for k, c := range conds {
			bc := c.(*array.Boolean)
			if bc.IsValid(i) && bc.Value(i) {
				pick[i] = k
				break
			}
		}
	}
	return choose(ec, results, pick)
}

// choose builds the array whose row i is row i of results[pick[i]]: the
// results are concatenated and the rows taken with Arrow's take kernel.
func choose(ec *evalCtx, results []arrow.Array, pick []int) (arrow.Array, error) {
	n := len(pick)
	all, err := array.Concatenate(results, ec.mem)
	if err != nil {
		return nil, err
	}
	defer all.Release()
	ib := array.NewInt64Builder(ec.mem)
	defer ib.Release()
	ib.Reserve(n)
	for i, k := range pick {
		ib.Append(int64(k*n + i))
	}
	idx := ib.NewArray()
	defer idx.Release()
	return compute.TakeArray(ec.ctx, all, idx)
}
