package engine

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// stringToDecimal is CAST(STRING AS DECIMAL(p, s)), which Arrow has no kernel for: the
// trimmed text read as Java's BigDecimal reads it ('1.5', '-2', '.5', '1e3'), rounded half
// up to s digits as Flink does; text that is no number is an error, a value with more than
// p - s integer digits an arithmetic error (NULL into a nullable column, see Cast.eval).
func (e *Cast) stringToDecimal(ec *evalCtx, b arrow.RecordBatch) (arrow.Array, error) {
	x, err := e.X.eval(ec, b)
	if err != nil {
		return nil, err
	}
	defer x.Release()
	return mapRows(ec, e.T, []arrow.Array{x}, int(b.NumRows()), false, func(v []any) (any, error) {
		return parseDecimalText(v[0].(string), int32(e.T.Precision), int32(e.T.Scale), e)
	})
}

// parseDecimalText reads s as a DECIMAL(precision, scale), for what's error messages.
func parseDecimalText(s string, precision, scale int32, what fmt.Stringer) (decimal128.Num, error) {
	t := strings.TrimSpace(s)
	r, ok := new(big.Rat).SetString(t)
	if !ok || t == "" || strings.ContainsAny(t, "/xXpP_") {
		return decimal128.Num{}, fmt.Errorf("%s: %q is not a number", what, s)
	}
	scaled := new(big.Rat).Mul(r, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale)), nil)))
	q, rem := new(big.Int).QuoRem(scaled.Num(), scaled.Denom(), new(big.Int))
	if rem.Sign() != 0 && new(big.Int).Mul(new(big.Int).Abs(rem), big.NewInt(2)).Cmp(scaled.Denom()) >= 0 {
		q.Add(q, big.NewInt(int64(scaled.Num().Sign()))) // half up: away from zero
	}
	if new(big.Int).Abs(q).Cmp(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(precision)), nil)) >= 0 {
		return decimal128.Num{}, fmt.Errorf("%w: %s: %q does not fit DECIMAL(%d, %d)", ErrArithmetic, what, s, precision, scale)
	}
	return decimal128.FromBigInt(q), nil
}
