package engine

import (
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/types"
)

// evalRows evaluates e over rows of testCols and returns one value per row.
func evalRows(t *testing.T, e Expr, rows [][]any) ([]any, error) {
	t.Helper()
	out, err := run(t, &Project{Input: &Input{Cols: testCols}, Exprs: []Expr{e}, Names: []string{"x"}}, rows, 2, nil)
	if err != nil {
		return nil, err
	}
	vals := make([]any, len(out))
	for i, r := range out {
		vals[i] = r[0]
	}
	return vals, nil
}

var (
	ca = col(0, "a", types.NewInt())
	cs = col(1, "s", types.NewString())
	cd = col(2, "d", types.NewDouble())
)

func dec(s string, p, sc int) *Const {
	n, err := decimal128.FromString(s, int32(p), int32(sc))
	if err != nil {
		panic(err)
	}
	return &Const{Value: n, T: types.NewDecimal(p, sc).AsNotNull()}
}

func TestExpressions(t *testing.T) {
	null := NewNull()
	tests := []struct {
		name string
		e    func() (Expr, error)
		want []any // over testRows: a = 3, NULL, 1, 3, 2
	}{
		{"add", func() (Expr, error) { return NewBinary("+", ca, intConst(10)) }, []any{int64(13), nil, int64(11), int64(13), int64(12)}},
		{"int division truncates", func() (Expr, error) { return NewBinary("/", &Neg{X: ca}, intConst(2)) }, []any{int64(-1), nil, int64(0), int64(-1), int64(-1)}},
		{"mod keeps the dividend's sign", func() (Expr, error) { return NewBinary("%", &Neg{X: ca}, intConst(2)) }, []any{int64(-1), nil, int64(-1), int64(-1), int64(0)}},
		{"null literal propagates", func() (Expr, error) { return NewBinary("*", ca, null) }, []any{nil, nil, nil, nil, nil}},
		{"int and double make double", func() (Expr, error) { return NewBinary("+", ca, cd) }, []any{4.5, nil, nil, 2.5, 6.25}},
		{"compare with null is unknown", func() (Expr, error) { return NewCompare("=", ca, null) }, []any{nil, nil, nil, nil, nil}},
		{"string compare", func() (Expr, error) { return NewCompare(">=", cs, strConst("y")) }, []any{false, true, nil, false, true}},
		{"and: false wins over null", func() (Expr, error) {
			return NewLogic(true, must(NewCompare(">", ca, intConst(2))), must(NewCompare("=", cs, strConst("x"))))
		}, []any{true, false, false, true, false}},
		{"or: true wins over null", func() (Expr, error) {
			return NewLogic(false, must(NewCompare(">", ca, intConst(2))), &IsNull{X: ca})
		}, []any{true, true, false, true, false}},
		{"not null is null", func() (Expr, error) { return NewNot(must(NewCompare(">", ca, intConst(2)))) }, []any{false, nil, true, false, true}},
		{"in", func() (Expr, error) { return NewIn(ca, []Expr{intConst(1), intConst(2)}, false) }, []any{false, nil, true, false, true}},
		{"not in of constants", func() (Expr, error) { return NewIn(ca, []Expr{intConst(1), intConst(2)}, true) }, []any{true, nil, false, true, false}},
		{"in of strings", func() (Expr, error) { return NewIn(cs, []Expr{strConst("x"), strConst("z")}, false) }, []any{true, false, nil, true, true}},
		{"not in of strings", func() (Expr, error) { return NewIn(cs, []Expr{strConst("y")}, true) }, []any{true, false, nil, true, true}},
		{"in of an int and a double", func() (Expr, error) {
			return NewIn(ca, []Expr{&Const{Value: 2.0, T: types.NewDouble().AsNotNull()}, intConst(3)}, false)
		}, []any{true, nil, false, true, true}},
		{"in of a column", func() (Expr, error) { return NewIn(ca, []Expr{intConst(7), ca}, false) }, []any{true, nil, true, true, true}},
		{"not in with null is never true", func() (Expr, error) { return NewIn(ca, []Expr{intConst(1), null}, true) }, []any{nil, nil, false, nil, nil}},
		{"like", func() (Expr, error) { return NewLike(cs, strConst("_"), false) }, []any{true, true, nil, true, true}},
		{"like is case-sensitive", func() (Expr, error) { return NewLike(cs, strConst("X%"), false) }, []any{false, false, nil, false, false}},
		{"case", func() (Expr, error) {
			return NewCase([]When{{Cond: must(NewCompare(">", ca, intConst(2))), Result: strConst("big")}, {Cond: &IsNull{X: ca}, Result: strConst("none")}}, nil)
		}, []any{"big", "none", nil, "big", nil}},
		{"coalesce", func() (Expr, error) { return NewCall("COALESCE", []Expr{ca, null, intConst(-1)}) }, []any{int64(3), int64(-1), int64(1), int64(3), int64(2)}},
		{"nullif", func() (Expr, error) { return NewCall("NULLIF", []Expr{ca, intConst(3)}) }, []any{nil, nil, int64(1), nil, int64(2)}},
		{"upper concat", func() (Expr, error) { return NewBinary("||", must(NewCall("UPPER", []Expr{cs})), strConst("!")) }, []any{"X!", "Y!", nil, "X!", "Z!"}},
		{"substring", func() (Expr, error) {
			return NewCall("SUBSTRING", []Expr{must(NewBinary("||", cs, strConst("abc"))), intConst(2), intConst(2)})
		}, []any{"ab", "ab", nil, "ab", "ab"}},
		{"char_length trim", func() (Expr, error) {
			return NewCall("CHAR_LENGTH", []Expr{must(NewCall("TRIM", []Expr{must(NewBinary("||", strConst(" é "), cs))}))})
		}, []any{int64(3), int64(3), nil, int64(3), int64(3)}},
		{"round half away from zero", func() (Expr, error) { return NewCall("ROUND", []Expr{cd}) }, []any{2.0, 2.0, nil, -1.0, 4.0}},
		{"floor ceil abs", func() (Expr, error) {
			return NewBinary("+", must(NewCall("FLOOR", []Expr{cd})), must(NewCall("ABS", []Expr{must(NewCall("CEIL", []Expr{cd}))})))
		}, []any{3.0, 4.0, nil, -1.0, 9.0}},
		{"cast double to int truncates", func() (Expr, error) { return NewCast(&Neg{X: cd}, types.NewInt()) }, []any{int64(-1), int64(-2), nil, int64(0), int64(-4)}},
		{"cast int to string", func() (Expr, error) { return NewCast(ca, types.NewString()) }, []any{"3", nil, "1", "3", "2"}},
		{"decimal add", func() (Expr, error) { return NewBinary("+", dec("1.25", 3, 2), ca) }, []any{num(425), nil, num(225), num(425), num(325)}},
		{"decimal divide rounds half up", func() (Expr, error) { return NewBinary("/", dec("2.00", 3, 2), ca) }, []any{num(6666666666667), nil, num(20000000000000), num(6666666666667), num(10000000000000)}},
		{"concat is NULL with a NULL argument", func() (Expr, error) { return NewCall("CONCAT", []Expr{cs, strConst("-"), cs}) }, []any{"x-x", "y-y", nil, "x-x", "z-z"}},
		{"lower", func() (Expr, error) { return NewCall("LOWER", []Expr{must(NewBinary("||", strConst("AbC"), cs))}) }, []any{"abcx", "abcy", nil, "abcx", "abcz"}},
		{"double modulo", func() (Expr, error) { return NewBinary("%", cd, intConst(2)) }, []any{1.5, 0.0, nil, -0.5, 0.25}},
		{"cast of a double at the edge of INT", func() (Expr, error) {
			return NewCast(&Const{Value: -2147483648.9, T: types.NewDouble()}, types.NewInt())
		}, []any{int64(-2147483648), int64(-2147483648), int64(-2147483648), int64(-2147483648), int64(-2147483648)}},
		{"cast boolean to string as Flink writes it", func() (Expr, error) {
			return NewCast(must(NewCompare(">", ca, intConst(1))), types.NewString())
		}, []any{"TRUE", nil, "FALSE", "TRUE", "TRUE"}},
		{"cast a padded string to INT", func() (Expr, error) {
			return NewCast(&Const{Value: " 12 ", T: types.NewString()}, types.NewInt())
		}, []any{int64(12), int64(12), int64(12), int64(12), int64(12)}},
		{"FLOAT times INT is FLOAT", func() (Expr, error) {
			return NewBinary("*", &Const{Value: 1.5, T: types.NewFloat()}, ca)
		}, []any{4.5, nil, 1.5, 4.5, 3.0}},
		{"round decimal to hundreds", func() (Expr, error) { return NewCall("ROUND", []Expr{dec("12345.67", 7, 2), intConst(-2)}) }, []any{num(12300), num(12300), num(12300), num(12300), num(12300)}},
		{"round decimal to tens, half away from zero", func() (Expr, error) { return NewCall("ROUND", []Expr{dec("-25.00", 4, 2), intConst(-1)}) }, []any{num(-30), num(-30), num(-30), num(-30), num(-30)}},
		{"round decimal to 1 digit", func() (Expr, error) { return NewCall("ROUND", []Expr{dec("-2.75", 3, 2), intConst(1)}) }, []any{num(-28), num(-28), num(-28), num(-28), num(-28)}},
		{"round integer to tens", func() (Expr, error) {
			return NewCall("ROUND", []Expr{must(NewBinary("*", ca, intConst(5))), intConst(-1)})
		}, []any{int64(20), nil, int64(10), int64(20), int64(10)}},
		{"floor and ceil of a negative decimal", func() (Expr, error) {
			return NewBinary("+", must(NewCall("FLOOR", []Expr{dec("-2.25", 3, 2)})), must(NewCall("CEIL", []Expr{dec("-2.25", 3, 2)})))
		}, []any{num(-5), num(-5), num(-5), num(-5), num(-5)}},
		{"decimal to int truncates", func() (Expr, error) { return NewCast(dec("-2.75", 3, 2), types.NewInt()) }, []any{int64(-2), int64(-2), int64(-2), int64(-2), int64(-2)}},
		{"is null of a decimal", func() (Expr, error) { return &IsNull{X: must(NewCast(ca, types.NewDecimal(10, 2)))}, nil }, []any{false, true, false, false, false}},
		{"is not null of a decimal", func() (Expr, error) {
			return &IsNull{X: must(NewBinary("*", dec("1.50", 3, 2), ca)), Not: true}, nil
		}, []any{true, false, true, true, true}},
		{"not of is null holds no buffer past the batch", func() (Expr, error) { return NewNot(&IsNull{X: ca}) }, []any{true, false, true, true, true}},
		{"not of a comparison keeps its NULLs", func() (Expr, error) { return NewNot(must(NewCompare(">", ca, intConst(2)))) }, []any{false, nil, true, false, true}},
		{"is null of a string and of NULL", func() (Expr, error) {
			return NewLogic(true, &IsNull{X: cs}, &IsNull{X: null})
		}, []any{false, false, true, false, false}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e, err := tc.e()
			require.NoError(t, err)
			got, err := evalRows(t, e, testRows)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got, e.String())
		})
	}
}

func num(v int64) decimal128.Num { return decimal128.FromI64(v) }

func TestArithmeticErrors(t *testing.T) {
	big := &Const{Value: int64(2147483647), T: types.NewInt().AsNotNull()}
	for _, tc := range []struct {
		name string
		e    Expr
		want string
	}{
		{"int overflow", must(NewBinary("*", ca, big)), "overflows INT"},
		{"bigint overflow", must(NewBinary("+", &Const{Value: int64(9223372036854775807), T: types.NewBigInt()}, ca)), "overflows BIGINT"},
		{"division by zero", must(NewBinary("/", ca, intConst(0))), "division by zero"},
		{"NOT NULL int that does not fit the decimal", must(NewCast(must(NewBinary("*", intConst(3), intConst(100))), types.NewDecimal(4, 2))), "CAST((3 * 100) AS DECIMAL(4, 2))"},
		{"modulo by zero", must(NewBinary("%", ca, intConst(0))), "division by zero"},
		{"decimal division by zero", must(NewBinary("/", dec("1.5", 2, 1), &Const{Value: num(0), T: types.NewDecimal(3, 1)})), "division by zero"},
		{"negate overflow", must(NewNeg(&Const{Value: int64(-2147483648), T: types.NewInt()})), "overflows INT"},
		{"cast of a double beyond INT", must(NewCast(&Const{Value: 1e10, T: types.NewDouble()}, types.NewInt())), "1e+10 does not fit INT"},
		{"cast of 2^63 to BIGINT", must(NewCast(&Const{Value: 9223372036854775808.0, T: types.NewDouble()}, types.NewBigInt())), "does not fit BIGINT"},
		{"cast of NaN to INT", must(NewCast(&Const{Value: math.NaN(), T: types.NewDouble()}, types.NewInt())), "NaN does not fit INT"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := evalRows(t, tc.e, testRows)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestTypeRules(t *testing.T) {
	for _, tc := range []struct {
		op   string
		l, r types.DataType
		want string
	}{
		{"+", types.NewInt(), types.NewInt(), "INT"},
		{"+", types.NewInt(), types.NewBigInt(), "BIGINT"},
		{"/", types.NewInt(), types.NewInt(), "INT"},
		{"*", types.NewTinyInt(), types.NewSmallInt(), "SMALLINT"},
		{"+", types.NewInt(), types.NewDouble(), "DOUBLE"},
		{"+", types.NewFloat(), types.NewFloat(), "FLOAT"},
		{"*", types.NewFloat(), types.NewInt(), "FLOAT"},
		{"+", types.NewTinyInt(), types.NewFloat(), "FLOAT"},
		{"+", types.NewFloat(), types.NewDecimal(3, 2), "DOUBLE"},
		{"+", types.NewFloat(), types.NewDouble(), "DOUBLE"},
		{"+", types.NewDecimal(10, 2), types.NewDecimal(5, 3), "DECIMAL(12, 3)"},
		{"*", types.NewDecimal(10, 2), types.NewInt(), "DECIMAL(21, 2)"},
		{"*", types.NewDecimal(10, 2), types.NewDecimal(6, 3), "DECIMAL(17, 5)"},
		{"*", types.NewDecimal(30, 10), types.NewDecimal(30, 10), "DECIMAL(38, 6)"},
		{"*", types.NewDecimal(38, 2), types.NewDecimal(38, 3), "DECIMAL(38, 5)"},
		{"/", types.NewDecimal(10, 2), types.NewDecimal(5, 0), "DECIMAL(16, 8)"},
		{"%", types.NewDecimal(10, 2), types.NewInt(), "DECIMAL(10, 2)"},
		{"+", types.NewDecimal(38, 10), types.NewDecimal(38, 10), "DECIMAL(38, 9)"},
		{"*", types.NewDecimal(20, 10), types.NewDecimal(20, 10), "DECIMAL(38, 17)"},
		{"+", types.NewDecimal(10, 2), types.NewDouble(), "DOUBLE"},
	} {
		got, err := ArithType(tc.op, tc.l, tc.r)
		require.NoError(t, err)
		assert.Equal(t, tc.want, TypeName(got), "%s %s %s", TypeName(tc.l), tc.op, TypeName(tc.r))
	}
	_, err := ArithType("+", types.NewString(), types.NewInt())
	assert.ErrorContains(t, err, "needs numbers")
	_, err = NewCompare("=", ca, cs)
	assert.ErrorContains(t, err, "no common type")
	_, err = NewLogic(true, ca, ca)
	assert.ErrorContains(t, err, "not a condition")
}

func TestMatchLike(t *testing.T) {
	for _, tc := range []struct {
		s, p string
		want bool
	}{
		{"abc", "abc", true}, {"abc", "a%", true}, {"abc", "%c", true}, {"abc", "%b%", true},
		{"abc", "a_c", true}, {"abc", "a_", false}, {"", "%", true}, {"", "_", false},
		{"aXbXc", "a%b%c", true}, {"ab", "a%b%c", false}, {"héllo", "h_llo", true}, {"ABC", "abc", false},
	} {
		assert.Equal(t, tc.want, MatchLike(tc.s, tc.p), "%q LIKE %q", tc.s, tc.p)
	}
}

func TestMatchLikeEscape(t *testing.T) {
	for _, tc := range []struct {
		s, p, esc string
		want      bool
	}{
		{"a_c", `a\_c`, `\`, true}, {"abc", `a\_c`, `\`, false}, {"50%", `50\%`, `\`, true}, {"500", `50\%`, `\`, false},
		{`a\b`, `a\\b`, `\`, true}, {"a_b_c", `%\_c`, `\`, true}, {"a_bxc", `%\_c`, `\`, false},
		{"10%off", "10!%%", "!", true}, {"10 off", "10!%%", "!", false}, {"x!", "x!!", "!", true},
		{"%", "%", "!", true}, {"é_", "é!_", "!", true}, {"ab", "a_", "é", true}, {"a%", "aé%", "é", true},
	} {
		got, err := MatchLikeEscape(tc.s, tc.p, tc.esc)
		require.NoError(t, err, "%q LIKE %q ESCAPE %q", tc.s, tc.p, tc.esc)
		assert.Equal(t, tc.want, got, "%q LIKE %q ESCAPE %q", tc.s, tc.p, tc.esc)
	}
	for _, tc := range []struct{ p, esc, want string }{
		{`a\b`, `\`, "invalid escape sequence"}, {`a\`, `\`, "invalid escape sequence"},
		{"a", "", "must be one character"}, {"a", "!!", "must be one character"},
	} {
		_, err := MatchLikeEscape("a", tc.p, tc.esc)
		assert.ErrorContains(t, err, tc.want, "%q ESCAPE %q", tc.p, tc.esc)
	}
	// A constant escape or pattern is checked when the predicate is built.
	cs := col(1, "s", types.NewString())
	_, err := NewLikeEscape(cs, strConst("a"), strConst("ab"), false)
	assert.ErrorContains(t, err, "must be one character")
	_, err = NewLikeEscape(cs, strConst("a!x"), strConst("!"), false)
	assert.ErrorContains(t, err, "invalid escape sequence")
	_, err = NewLikeEscape(cs, strConst("a"), intConst(1), false)
	assert.ErrorContains(t, err, "one-character string")
	// Over rows: NULL in, NULL out; NOT LIKE inverts.
	e := must(NewLikeEscape(cs, strConst("x%"), strConst("!"), true))
	out, err := run(t, &Project{Input: &Input{Cols: testCols}, Exprs: []Expr{e}, Names: []string{"x"}}, testRows, 2, nil)
	require.NoError(t, err)
	var got []any
	for _, r := range out {
		got = append(got, r[0])
	}
	assert.Equal(t, []any{false, true, nil, false, true}, got)
	assert.Equal(t, "s NOT LIKE 'x%' ESCAPE '!'", e.String())
}
