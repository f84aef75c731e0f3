package engine

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/flussql/flussql/fluss/types"
)

// Cast is CAST(X AS T), done by Arrow's cast kernel: numbers truncate
// toward zero when their target has fewer fractional digits, out-of-range
// values and unparsable strings are errors.
type Cast struct {
	X Expr
	T types.DataType
}

// NewCast types the cast; ARRAY, MAP and ROW cannot be cast.
func NewCast(x Expr, t types.DataType) (Expr, error) {
	if t.Kind.Nested() || x.Type().Kind.Nested() {
		return nil, fmt.Errorf("CAST between %s and %s is not supported", TypeName(x.Type()), TypeName(t))
	}
	if isUntyped(x) {
		return retype(x, t), nil
	}
	t.NotNull = x.Type().NotNull
	if t.Kind == types.Char {
		t = types.NewString().AsNullable() // CHAR(n) values are not padded
		t.NotNull = x.Type().NotNull
	}
	return &Cast{X: x, T: t}, nil
}

// Type implements Expr.
func (e *Cast) Type() types.DataType  { return e.T }
func (e *Cast) String() string        { return "CAST(" + e.X.String() + " AS " + TypeName(e.T) + ")" }
func (e *Cast) children() []Expr      { return []Expr{e.X} }
func (e *Cast) rebuild(c []Expr) Expr { return &Cast{X: c[0], T: e.T} }

func (e *Cast) eval(ec *evalCtx, b arrow.RecordBatch) (arrow.Array, error) {
	a, err := evalAs(ec, e.X, e.T, b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", e, err)
	}
	return a, nil
}
