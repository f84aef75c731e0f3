package engine

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/flussql/flussql/fluss/types"
)

// boolToString is CAST(BOOLEAN AS STRING): 'TRUE' or 'FALSE', as Flink writes them (Arrow's
// cast writes 'true' and 'false').
func (e *Cast) boolToString(ec *evalCtx, b arrow.RecordBatch) (arrow.Array, error) {
	x, err := e.X.eval(ec, b)
	if err != nil {
		return nil, err
	}
	defer x.Release()
	return mapRows(ec, e.T, []arrow.Array{x}, int(b.NumRows()), false, func(v []any) (any, error) {
		if v[0].(bool) {
			return "TRUE", nil
		}
		return "FALSE", nil
	})
}

// trimmedToNumber is CAST(STRING AS an integer or floating-point type) of the string without
// its leading and trailing spaces, as Flink reads it (CAST(' 12 ' AS INT) is 12).
func (e *Cast) trimmedToNumber(ec *evalCtx, b arrow.RecordBatch) (arrow.Array, error) {
	x, err := e.X.eval(ec, b)
	if err != nil {
		return nil, err
	}
	defer x.Release()
	trimmed, err := mapRows(ec, types.NewString(), []arrow.Array{x}, int(b.NumRows()), false, func(v []any) (any, error) {
		return strings.TrimSpace(v[0].(string)), nil
	})
	if err != nil {
		return nil, err
	}
	defer trimmed.Release()
	return castArray(ec, trimmed, e.T)
}

// fromDecimal is CAST(DECIMAL AS STRING), the digits with the type's scale
// (CAST(99.50 AS STRING) is '99.50', as in Flink), or AS BOOLEAN: TRUE for
// any value but zero.
func (e *Cast) fromDecimal(ec *evalCtx, b arrow.RecordBatch) (arrow.Array, error) {
	x, err := e.X.eval(ec, b)
	if err != nil {
		return nil, err
	}
	defer x.Release()
	from := e.X.Type()
	return mapRows(ec, e.T, []arrow.Array{x}, int(b.NumRows()), false, func(v []any) (any, error) {
		d := v[0].(decimal128.Num)
		if e.T.Kind == types.Boolean {
			return d.Sign() != 0, nil
		}
		return d.ToString(int32(from.Scale)), nil
	})
}
