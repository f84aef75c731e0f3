package engine

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/flussql/flussql/fluss/types"
)

// TRY_CAST(x AS t) is CAST with the same conversions, whose value is NULL
// where CAST fails (an unparsable string, an overflow): Flink's result type
// is t made nullable.

// NewTryCast types TRY_CAST(x AS t).
func NewTryCast(x Expr, t types.DataType) (Expr, error) {
	if t.Kind.Nested() || x.Type().Kind.Nested() {
		return nil, fmt.Errorf("TRY_CAST between %s and %s is not supported", TypeName(x.Type()), TypeName(t))
	}
	if isUntyped(x) {
		return retype(x, t.AsNullable()), nil
	}
	if t.Kind == types.Char {
		t = types.NewString()
	}
	return &Cast{X: x, T: t.AsNullable(), Try: true}, nil
}

// tryEval casts the batch at once; when that fails, row by row, a row
// whose cast fails being NULL. An error of x itself stays an error.
func (e *Cast) tryEval(ec *evalCtx, b arrow.RecordBatch) (arrow.Array, error) {
	out, err := e.castEval(ec, b)
	if err == nil {
		return out, nil
	}
	if x, err := e.X.eval(ec, b); err != nil {
		return nil, err
	} else {
		x.Release()
	}
	return e.rowByRow(ec, b)
}

// rowByRow casts each row of b alone, NULL where that fails.
func (e *Cast) rowByRow(ec *evalCtx, b arrow.RecordBatch) (arrow.Array, error) {
	n := int(b.NumRows())
	vals := make([]any, n)
	for i := range n {
		row := b.NewSlice(int64(i), int64(i+1))
		a, err := e.castEval(ec, row)
		row.Release()
		if err != nil {
			continue
		}
		vs, err := values(a)
		a.Release()
		if err != nil {
			return nil, err
		}
		vals[i] = vs[0]
	}
	return buildArray(ec.mem, e.T, vals)
}
