package engine

import (
	"fmt"
	"strconv"

	"github.com/flussql/flussql/fluss/types"
	"github.com/flussql/flussql/internal/sqlkind"
)

// Result types, in the style of Flink SQL:
//
//   - integers: the wider of the two (TINYINT < SMALLINT < INT < BIGINT), for
//     + - * / % alike (INT / INT is INT, truncated toward zero);
//   - an integer with FLOAT or DOUBLE, or FLOAT with DOUBLE: DOUBLE (FLOAT
//     only when both are FLOAT);
//   - DECIMAL(p1,s1) with DECIMAL(p2,s2) (an integer counts as DECIMAL(3|5|10|19, 0)):
//     + and -: DECIMAL(max(p1-s1, p2-s2) + max(s1,s2) + 1, max(s1,s2));
//     *: DECIMAL(p1+p2, s1+s2); /: scale max(6, s1+p2+1), precision
//     p1-s1+s2+scale; %: DECIMAL(min(p1-s1, p2-s2) + max(s1,s2), max(s1,s2));
//     precision capped at 38: the integer digits are kept and the scale shrinks
//     to fit, but not below min(scale, 6);
//   - DECIMAL with FLOAT or DOUBLE: DOUBLE;
//   - || and string functions: STRING.
//
// A result is NOT NULL when every operand is.

// The families of the type rules are those of internal/sqlkind.

func isInt(k types.Kind) bool { return sqlkind.Is(k, sqlkind.Integer) }

// isIntLike reports whether values of kind k are integers in Arrow: DATE
// (days), TIME and TIMESTAMP, TIMESTAMP_LTZ (units of their precision).
func isIntLike(k types.Kind) bool { return sqlkind.Is(k, sqlkind.Temporal) }

func isFloat(k types.Kind) bool { return sqlkind.Is(k, sqlkind.Float) }

func isNumeric(k types.Kind) bool { return sqlkind.Numeric(k) }

func isString(k types.Kind) bool { return sqlkind.Is(k, sqlkind.String) }

func isBinary(k types.Kind) bool { return sqlkind.Is(k, sqlkind.Binary) }

// intDigits is the decimal precision of an integer type: the digits of its largest value.
func intDigits(k types.Kind) int {
	_, hi := sqlkind.IntRange(sqlkind.IntWidth(k))
	return len(strconv.FormatInt(hi, 10))
}

func asDecimal(t types.DataType) types.DataType {
	if isInt(t.Kind) {
		return types.NewDecimal(intDigits(t.Kind), 0)
	}
	return t
}

func nullable(t types.DataType, notNull bool) types.DataType {
	t.NotNull = notNull
	return t
}

func bothNotNull(a, b types.DataType) bool { return a.NotNull && b.NotNull }

// maxDecimalDigits is the largest DECIMAL precision, Flink's and Arrow's decimal128's.
const maxDecimalDigits = 38

func capDecimal(p, s, _ int) types.DataType {
	if p > maxDecimalDigits {
		s = max(min(s, maxDecimalDigits-(p-s)), min(s, 6))
		p = maxDecimalDigits
	}
	return types.NewDecimal(max(p, 1), s)
}

// ArithType is the type of l op r for op one of + - * / %.
func ArithType(op string, l, r types.DataType) (types.DataType, error) {
	nn := bothNotNull(l, r)
	switch {
	case isInt(l.Kind) && isInt(r.Kind):
		if sqlkind.IntWidth(l.Kind) >= sqlkind.IntWidth(r.Kind) {
			return nullable(types.DataType{Kind: l.Kind}, nn), nil
		}
		return nullable(types.DataType{Kind: r.Kind}, nn), nil
	case !isNumeric(l.Kind) || !isNumeric(r.Kind):
		return types.DataType{}, fmt.Errorf("%s needs numbers, not %s and %s", op, TypeName(l), TypeName(r))
	case isFloat(l.Kind) || isFloat(r.Kind):
		// Flink: FLOAT with FLOAT or an integer stays FLOAT; with DOUBLE or a DECIMAL, DOUBLE.
		if (l.Kind == types.Float || isInt(l.Kind)) && (r.Kind == types.Float || isInt(r.Kind)) {
			return nullable(types.NewFloat(), nn), nil
		}
		return nullable(types.NewDouble(), nn), nil
	}
	a, b := asDecimal(l), asDecimal(r)
	p1, s1, p2, s2 := a.Precision, a.Scale, b.Precision, b.Scale
	var t types.DataType
	switch op {
	case "+", "-":
		s := max(s1, s2)
		t = capDecimal(max(p1-s1, p2-s2)+s+1, s, 0)
	case "*": // Flink's LogicalTypeMerging: one digit more than p1 + p2
		t = capDecimal(p1+p2+1, s1+s2, 0)
	case "/":
		s := max(6, s1+p2+1)
		t = capDecimal(p1-s1+s2+s, s, 6)
	default: // %
		s := max(s1, s2)
		t = capDecimal(min(p1-s1, p2-s2)+s, s, 0)
	}
	return nullable(t, nn), nil
}

// CommonType is the type two operands of a comparison, CASE branches or
// COALESCE arguments are brought to: the wider integer, DOUBLE for any
// floating point, a DECIMAL that holds both, STRING for strings, BYTES for
// binary strings, the finer TIMESTAMP; other kinds only with themselves.
func CommonType(a, b types.DataType) (types.DataType, error) {
	nn := bothNotNull(a, b)
	switch {
	case isNumeric(a.Kind) && isNumeric(b.Kind):
		switch {
		case isInt(a.Kind) && isInt(b.Kind), isFloat(a.Kind) || isFloat(b.Kind):
			return ArithType("+", a, b)
		}
		x, y := asDecimal(a), asDecimal(b)
		s := max(x.Scale, y.Scale)
		return nullable(capDecimal(max(x.Precision-x.Scale, y.Precision-y.Scale)+s, s, 0), nn), nil
	case isString(a.Kind) && isString(b.Kind):
		return nullable(types.NewString(), nn), nil
	case isBinary(a.Kind) && isBinary(b.Kind):
		return nullable(types.NewBytes(), nn), nil
	case a.Kind == b.Kind && hasPrecision(a.Kind):
		t := a
		t.Precision = max(a.Precision, b.Precision)
		return nullable(t, nn), nil
	case a.Kind == b.Kind && !a.Kind.Nested():
		return nullable(types.DataType{Kind: a.Kind}, nn), nil
	}
	return types.DataType{}, fmt.Errorf("%s and %s have no common type", TypeName(a), TypeName(b))
}

// TypeName renders a type as SQL, e.g. DECIMAL(10, 2) or INT: a scalar type
// without NOT NULL, a nested type as types.DataType.String writes it.
func TypeName(t types.DataType) string {
	if t.Kind.Nested() {
		return t.String()
	}
	return t.AsNullable().String()
}

// hasPrecision reports whether the parameter of kind k is a fractional-seconds precision.
func hasPrecision(k types.Kind) bool {
	e := sqlkind.Of(k)
	return e != nil && e.Precision
}
