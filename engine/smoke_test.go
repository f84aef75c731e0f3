package engine

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/types"
)

var testCols = []Column{{"a", types.NewInt()}, {"s", types.NewString()}, {"d", types.NewDouble()}}

var testRows = [][]any{
	{int64(3), "x", 1.5},
	{nil, "y", 2.0},
	{int64(1), nil, nil},
	{int64(3), "x", -0.5},
	{int64(2), "z", 4.25},
}

func TestSmoke(t *testing.T) {
	in := &Input{Cols: testCols, From: "test"}
	a, s, d := col(0, "a", types.NewInt()), col(1, "s", types.NewString()), col(2, "d", types.NewDouble())
	exprs := []Expr{
		must(NewBinary("+", a, intConst(1))),
		must(NewCompare("<", s, strConst("y"))),
		must(NewBinary("||", s, strConst("!"))),
		must(NewCall("UPPER", []Expr{s})),
		must(NewBinary("*", a, d)),
		must(NewCase([]When{{Cond: must(NewCompare(">", a, intConst(2))), Result: strConst("big")}}, strConst("small"))),
		must(NewCall("COALESCE", []Expr{a, intConst(0)})),
		must(NewCall("ROUND", []Expr{d})),
		must(NewIn(a, []Expr{intConst(1), intConst(3)}, false)),
	}
	names := make([]string, len(exprs))
	for i, e := range exprs {
		names[i] = e.String()
	}
	rows, err := run(t, &Project{Input: in, Exprs: exprs, Names: names}, testRows, 2, nil)
	require.NoError(t, err)
	for _, r := range rows {
		t.Log(r)
	}
	agg := &Aggregate{Input: in, Keys: []Expr{a}, Names: []string{"a"},
		Aggs: []*Agg{must(NewAgg("COUNT", nil, false)), must(NewAgg("SUM", d, false)), must(NewAgg("COUNT", s, true)), must(NewAgg("AVG", a, false))}}
	rows, err = run(t, agg, testRows, 2, nil)
	require.NoError(t, err)
	t.Log(rows)
	for _, lim := range []int64{-1, 2} {
		rows, err = run(t, &Sort{Input: in, Keys: []SortKey{{Col: 0, Desc: true}, {Col: 2}}, Limit: lim, Offset: 1}, testRows, 2, nil)
		require.NoError(t, err)
		t.Log(rows)
	}
	rows, err = run(t, &Distinct{Input: &Project{Input: in, Exprs: []Expr{a, s}, Names: []string{"a", "s"}}}, testRows, 2, nil)
	require.NoError(t, err)
	t.Log(rows)
}
