package engine

import (
	"errors"
	"fmt"
	"math/big"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/flussql/flussql/fluss/types"
	"github.com/flussql/flussql/internal/sqlkind"
)

// Cast is CAST(X AS T), done by Arrow's cast kernel: numbers truncate
// toward zero when their target has fewer fractional digits, out-of-range
// values and unparsable strings are errors.
type Cast struct {
	X Expr
	T types.DataType
	// Try is TRY_CAST: a value that does not convert is NULL (trycast.go).
	Try bool
}

// NewCast types the cast; ARRAY, MAP and ROW cannot be cast.
func NewCast(x Expr, t types.DataType) (Expr, error) {
	if c, ok := x.(*Const); ok && c.Untyped || isUntyped(x) && !t.Kind.Nested() {
		return retype(x, t), nil // CAST(NULL AS MAP<STRING, INT>) is a typed NULL
	}
	if t.Kind.Nested() || x.Type().Kind.Nested() {
		return nil, fmt.Errorf("CAST between %s and %s: %w (only CAST(NULL AS %s) makes a value of a nested type; build one with ARRAY[…], MAP[…] or ROW(…))",
			TypeName(x.Type()), TypeName(t), ErrUnsupported, TypeName(t))
	}
	t.NotNull = x.Type().NotNull
	if t.Kind == types.Char {
		t = types.NewString().AsNullable() // CHAR(n) values are not padded
		t.NotNull = x.Type().NotNull
	}
	return &Cast{X: x, T: t}, nil
}

// Type implements Expr.
func (e *Cast) Type() types.DataType { return e.T }

// String renders the cast.
func (e *Cast) String() string {
	name := "CAST("
	if e.Try {
		name = "TRY_CAST("
	}
	return name + e.X.String() + " AS " + TypeName(e.T) + ")"
}
func (e *Cast) children() []Expr      { return []Expr{e.X} }
func (e *Cast) rebuild(c []Expr) Expr { return &Cast{X: c[0], T: e.T, Try: e.Try} }

func (e *Cast) eval(ec *evalCtx, b arrow.RecordBatch) (arrow.Array, error) {
	if e.Try {
		return e.tryEval(ec, b)
	}
	out, err := e.castEval(ec, b)
	if err != nil && e.T.Kind == types.Decimal && !e.T.NotNull && errors.Is(err, ErrArithmetic) {
		// Flink's CAST to a DECIMAL too narrow for a value is NULL (an error
		// only into a NOT NULL column).
		return e.rowByRow(ec, b)
	}
	return out, err
}

func (e *Cast) castEval(ec *evalCtx, b arrow.RecordBatch) (arrow.Array, error) {
	if from := e.X.Type(); from.Kind == types.Decimal && isInt(e.T.Kind) {
		return e.decimalToInt(ec, b)
	}
	if isString(e.X.Type().Kind) && e.T.Kind == types.Date {
		return e.stringToDate(ec, b) // Arrow has no cast kernel for it
	}
	if e.X.Type().Kind == types.Boolean && isString(e.T.Kind) {
		return e.boolToString(ec, b)
	}
	if e.X.Type().Kind == types.Decimal && (isString(e.T.Kind) || e.T.Kind == types.Boolean) {
		return e.fromDecimal(ec, b) // Arrow has no cast kernel for them
	}
	if isString(e.X.Type().Kind) && e.T.Kind == types.Decimal {
		return e.stringToDecimal(ec, b) // Arrow has no cast kernel for it
	}
	if isString(e.X.Type().Kind) && (isInt(e.T.Kind) || isFloat(e.T.Kind)) {
		a, err := e.trimmedToNumber(ec, b)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", e, err)
		}
		return a, nil
	}
	a, err := evalAs(ec, e.X, e.T, b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", e, err)
	}
	return a, nil
}

// decimalToInt truncates toward zero, as Flink does (Arrow's cast rounds).
func (e *Cast) decimalToInt(ec *evalCtx, b arrow.RecordBatch) (arrow.Array, error) {
	x, err := e.X.eval(ec, b)
	if err != nil {
		return nil, err
	}
	defer x.Release()
	scale := pow10(e.X.Type().Scale)
	lo, hi := sqlkind.IntRange(sqlkind.IntWidth(e.T.Kind))
	return mapRows(ec, e.T, []arrow.Array{x}, int(b.NumRows()), false, func(v []any) (any, error) {
		if q, ok := decimalTrunc(v[0].(decimal128.Num), e.X.Type().Scale); ok && q >= lo && q <= hi {
			return q, nil
		}
		q := new(big.Int).Quo(v[0].(decimal128.Num).BigInt(), scale)
		if !q.IsInt64() || q.Int64() < lo || q.Int64() > hi {
			return nil, fmt.Errorf("%w: %s overflows %s", ErrArithmetic, e, TypeName(e.T))
		}
		return q.Int64(), nil
	})
}
