package engine

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/types"
)

// TestFlinkScalars pins the conversions and functions of issue 31's scalar
// remainder to what Flink 1.20 answers (each checked on a Flink: see the
// oracle suite "scalars"), over the rows a = 3, NULL, 1, 3, 2 and
// s = 'x', 'y', NULL, 'x', 'z' of testRows unless a case has rows of its own.
func TestFlinkScalars(t *testing.T) {
	rows := func(ss ...any) [][]any {
		var out [][]any
		for _, s := range ss {
			out = append(out, []any{int64(1), s, 0.0})
		}
		return out
	}
	tests := []struct {
		name string
		e    Expr
		rows [][]any
		want []any
	}{
		{"narrowing an integer wraps", must(NewCast(intConst(300), types.NewTinyInt())), nil, []any{int64(44)}},
		{"DECIMAL to a smaller scale rounds half up", must(NewCast(dec("9.96", 5, 2), types.NewDecimal(3, 1))), nil, []any{decimal128.FromI64(100)}},
		{"negative DECIMAL rounds away from zero", must(NewCast(dec("-1.25", 5, 2), types.NewDecimal(3, 1))), nil, []any{decimal128.FromI64(-13)}},
		{"CAST of a nullable value beyond the DECIMAL is NULL", must(NewCast(must(NewBinary("*", ca, intConst(40))), types.NewDecimal(3, 1))), testRows[:3], []any{nil, nil, decimal128.FromI64(400)}},
		{"DECIMAL to STRING keeps the scale", must(NewCast(dec("-0.500", 6, 3), types.NewString())), nil, []any{"-0.500"}},
		{"DECIMAL to BOOLEAN", must(NewCast(dec("0.00", 5, 2), types.NewBoolean())), nil, []any{false}},
		{"TRY_CAST of an unparsable string is NULL", must(NewTryCast(cs, types.NewInt())), rows("12", "x", nil, " 7 "), []any{int64(12), nil, nil, int64(7)}},
		{"TRY_CAST overflow of a DECIMAL is NULL", must(NewTryCast(dec("9.96", 5, 2), types.NewDecimal(2, 1))), nil, []any{nil}},
		{"OVERLAY default length", must(NewCall("OVERLAY", []Expr{cs, strConst("XY"), intConst(3)})), rows("abcdefg", "abc", nil), []any{"abXYefg", "abXY", nil}},
		{"OVERLAY FOR 0 drops the rest (Flink)", must(NewCall("OVERLAY", []Expr{cs, strConst("XY"), intConst(3), intConst(0)})), rows("abcdefg"), []any{"abXY"}},
		{"OVERLAY outside s is s", must(NewCall("OVERLAY", []Expr{cs, strConst("XY"), intConst(0), intConst(1)})), rows("abc"), []any{"abc"}},
		{"ENCODE UTF-16 with a byte-order mark", must(NewCall("ENCODE", []Expr{cs, strConst("utf-16")})), rows("a", nil), []any{[]byte{0xFE, 0xFF, 0, 'a'}, nil}},
		{"ENCODE US-ASCII replaces with ?", must(NewCall("ENCODE", []Expr{cs, strConst("US-ASCII")})), rows("hé😀"), []any{[]byte("h??")}},
		{"DECODE ISO-8859-1", must(NewCall("DECODE", []Expr{&Const{Value: []byte{'h', 0xE9}, T: types.NewBytes()}, strConst("ISO-8859-1")})), nil, []any{"hé"}},
		{"DECODE UTF-16LE", must(NewCall("DECODE", []Expr{&Const{Value: []byte{'a', 0}, T: types.NewBytes()}, strConst("UTF-16LE")})), nil, []any{"a"}},
		{"IS JSON OBJECT, FALSE for NULL", must(NewCall("IS_JSON", []Expr{cs, strConst("OBJECT")})), rows(`{"a":1}`, "[1]", nil, "x"), []any{true, false, false, false}},
		{"IS JSON SCALAR", must(NewCall("IS_JSON", []Expr{cs, strConst("SCALAR")})), rows(" 1 ", "{}", `"s"`), []any{true, false, true}},
		{"JSON_ARRAY NULL ON NULL", must(NewCall("JSON_ARRAY", []Expr{intConst(1), NewNull(), &OnNull{}})), nil, []any{"[1,null]"}},
		{"JSON_OBJECT ABSENT ON NULL", must(NewCall("JSON_OBJECT", []Expr{strConst("a"), NewNull(), strConst("b"), intConst(2), &OnNull{Absent: true}})), nil, []any{`{"b":2}`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := tc.rows
			if r == nil {
				r = testRows[:1]
			}
			got, err := evalRows(t, tc.e, r)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
	tc := must(NewTryCast(cs, types.NewInt()))
	assert.False(t, tc.Type().NotNull, "TRY_CAST is nullable")
	assert.Equal(t, "TRY_CAST(s AS INT)", tc.String())
	_, err := evalRows(t, must(NewCall("ENCODE", []Expr{cs, strConst("EBCDIC")})), testRows[:1])
	assert.ErrorContains(t, err, "unsupported charset")
}

// TestJSONObjectAgg pins JSON_OBJECTAGG's state: keys sorted, NULL values
// null or left out, a repeated key an error.
func TestJSONObjectAgg(t *testing.T) {
	k, v := col(0, "k", types.NewString()), col(1, "v", types.NewInt())
	for _, tc := range []struct {
		absent bool
		want   string
	}{{false, `{"a":null,"b":1,"c":3}`}, {true, `{"b":1,"c":3}`}} {
		args := []Expr{k, v}
		if tc.absent {
			args = append(args, &OnNull{Absent: true})
		}
		a := must(NewAggArgs("JSON_OBJECTAGG", args, false))
		assert.True(t, a.T.NotNull)
		out, err := run(t, &Project{Input: &Input{Cols: []Column{{"k", types.NewString()}, {"v", types.NewInt()}}}, Exprs: []Expr{a.Arg}, Names: []string{"m"}},
			[][]any{{"c", int64(3)}, {"a", nil}, {"b", int64(1)}}, 2, nil)
		require.NoError(t, err)
		st := a.newState()
		for _, r := range out {
			if r[0] != nil {
				require.NoError(t, st.add(r[0]))
			}
		}
		got, err := st.result()
		require.NoError(t, err)
		assert.Equal(t, tc.want, got)
		assert.ErrorContains(t, st.add(out[2][0]), "repeated")
	}
}

// TestJSONClauses pins JSON_VALUE, JSON_QUERY and JSON_EXISTS with their
// clauses to Flink's answers (checked on Flink 1.20).
func TestJSONClauses(t *testing.T) {
	doc := `{"a": 12, "b": [1, {"c": 2}], "s": "x", "n": null}`
	rows := [][]any{{int64(1), doc, 0.0}, {int64(1), "nope", 0.0}, {int64(1), nil, 0.0}}
	clause := func(text string, def ...Expr) Expr {
		c := &JSONClause{Text: text}
		if len(def) > 0 {
			c.Default = def[0]
		}
		return c
	}
	call := func(name, path string, clauses ...Expr) Expr {
		return must(NewCall(name, append([]Expr{cs, strConst(path)}, clauses...)))
	}
	for _, tc := range []struct {
		name string
		e    Expr
		want []any
	}{
		{"RETURNING INT", call("JSON_VALUE", "$.a", clause("RETURNING INT")), []any{int64(12), nil, nil}},
		{"RETURNING INT of a string is ON ERROR's", call("JSON_VALUE", "$.s", clause("RETURNING INT"), clause("DEFAULT ON ERROR", intConst(-1))), []any{int64(-1), int64(-1), nil}},
		{"an array is an error", call("JSON_VALUE", "$.b", clause("DEFAULT ON ERROR", strConst("e"))), []any{"e", "e", nil}},
		{"lax missing is NULL whatever ON EMPTY", call("JSON_VALUE", "$.z", clause("DEFAULT ON EMPTY", strConst("d"))), []any{nil, nil, nil}},
		{"strict missing is an error", call("JSON_VALUE", "strict $.z", clause("DEFAULT ON ERROR", strConst("e"))), []any{"e", "e", nil}},
		{"WITH WRAPPER", call("JSON_QUERY", "$.a", clause("WITH WRAPPER")), []any{"[12]", nil, nil}},
		{"WITH CONDITIONAL WRAPPER keeps an array", call("JSON_QUERY", "$.b", clause("WITH CONDITIONAL ARRAY WRAPPER")), []any{`[1,{"c":2}]`, nil, nil}},
		{"a wildcard's matches are one array", call("JSON_QUERY", "$.b[*]", clause("WITH UNCONDITIONAL ARRAY WRAPPER")), []any{`[[1,{"c":2}]]`, nil, nil}},
		{"EMPTY OBJECT ON ERROR", call("JSON_QUERY", "$.a", clause("EMPTY OBJECT ON ERROR")), []any{"{}", "{}", nil}},
		{"JSON_EXISTS TRUE ON ERROR", call("JSON_EXISTS", "strict $.z", clause("TRUE ON ERROR")), []any{true, true, nil}},
		{"JSON_EXISTS UNKNOWN ON ERROR", call("JSON_EXISTS", "strict $.z", clause("UNKNOWN ON ERROR")), []any{nil, nil, nil}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := evalRows(t, tc.e, rows)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
	_, err := evalRows(t, call("JSON_VALUE", "$.b", clause("ERROR ON ERROR")), rows[:1])
	assert.ErrorContains(t, err, "ERROR ON ERROR")
	_, err = NewCall("JSON_VALUE", []Expr{cs, strConst("$"), clause("RETURNING DATE")})
	assert.ErrorIs(t, err, ErrUnsupported)
	assert.Equal(t, "JSON_VALUE(s, '$.a' RETURNING INT DEFAULT -1 ON ERROR)", call("JSON_VALUE", "$.a", clause("RETURNING INT"), clause("DEFAULT ON ERROR", intConst(-1))).String())
}
