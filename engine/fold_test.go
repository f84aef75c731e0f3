package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/types"
)

func TestFoldConstants(t *testing.T) {
	date := &Const{Value: int32(8766), T: types.NewDate().AsNotNull(), Text: "DATE '1994-01-01'"}
	yearLater := must(NewIntervalAdd(date, "YEAR", 1, false, "INTERVAL '1' YEAR"))
	for _, tc := range []struct {
		name     string
		e        Expr
		constant bool
		folded   any    // the value, when the whole expression folds
		shown    string // the folded expression's text
	}{
		{"date plus a year", yearLater, true, int32(9131), "(DATE '1994-01-01' + INTERVAL '1' YEAR)"},
		{"decimal difference", must(NewBinary("-", dec("0.06", 3, 2), dec("0.01", 3, 2))), true, num(5), "(0.06 - 0.01)"},
		{"cast of a string to DATE", must(NewCast(strConst("1995-1-1"), types.NewDate())), true, int32(9131), "CAST('1995-1-1' AS DATE)"},
		{"integer sum", must(NewBinary("+", intConst(1), intConst(2))), true, int64(3), "(1 + 2)"},
		{"division by zero stays", must(NewBinary("/", intConst(1), intConst(0))), true, nil, "(1 / 0)"},
		{"overflow stays", must(NewBinary("*", intConst(2147483647), intConst(2))), true, nil, "(2147483647 * 2)"},
		{"the clock is not constant", must(NewCompare("<", must(NewCurrent("CURRENT_DATE")), date)), false, nil, "CURRENT_DATE() < DATE '1994-01-01'"},
		{"a column is not constant; its constant operand folds", must(NewBinary("+", ca, must(NewBinary("*", intConst(2), intConst(3))))), false, nil, "(a + (2 * 3))"},
		{"a placeholder is not constant", must(NewBinary("+", NewParam(1, ""), intConst(1))), false, nil, "(?1 + 1)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.constant, Constant(tc.e))
			f := FoldConstants(tc.e)
			assert.Equal(t, tc.shown, f.String(), "a folded expression renders as written")
			assert.Equal(t, tc.e.Type(), f.Type(), "folding keeps the type")
			if c, ok := f.(*Const); ok {
				require.NotNil(t, tc.folded, "folded unexpectedly")
				assert.Equal(t, tc.folded, c.Value)
				return
			}
			assert.Nil(t, tc.folded, "not folded")
		})
	}
	// Below a column, constant operands fold.
	f := FoldConstants(must(NewBinary("+", ca, must(NewBinary("*", intConst(2), intConst(3)))))).(*Binary)
	assert.Equal(t, int64(6), f.R.(*Const).Value)
}

func TestCastStringToDate(t *testing.T) {
	got, err := evalRows(t, must(NewCast(cs, types.NewDate())), [][]any{{int64(1), " 1970-01-02 ", 0.0}, {int64(1), nil, 0.0}, {int64(1), "1969-12-31", 0.0}})
	require.NoError(t, err)
	assert.Equal(t, []any{int32(1), nil, int32(-1)}, got)
	_, err = evalRows(t, must(NewCast(cs, types.NewDate())), [][]any{{int64(1), "1970-13-01", 0.0}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "'1970-13-01' is not a DATE")
}

// TestConstantsTakeTheComparedType: a constant compared with a column is
// converted once to the type both are compared as, and renders as written.
func TestConstantsTakeTheComparedType(t *testing.T) {
	price := col(0, "price", types.NewDecimal(15, 2))
	c := must(NewCompare("<", price, &Const{Value: num(24), T: types.NewDecimal(2, 0).AsNotNull()})).(*Compare)
	assert.Equal(t, "price < 24", c.String())
	assert.Equal(t, &Const{Value: num(2400), T: types.NewDecimal(15, 2).AsNotNull(), Text: "24"}, c.R)
	in := must(NewIn(price, []Expr{dec("0.5", 2, 1), NewNull()}, false)).(*In)
	assert.Equal(t, num(50), in.List[0].(*Const).Value)
	assert.Equal(t, "price IN (0.5, NULL)", in.String())
	// A constant that does not fit the compared type is left to fail as before.
	tiny := col(0, "ti", types.NewTinyInt())
	big := must(NewCompare("=", tiny, &Const{Value: int64(300), T: types.NewInt().AsNotNull()})).(*Compare)
	assert.Equal(t, types.Int, big.R.Type().Kind, "INT is the compared type here: nothing to convert")
}
