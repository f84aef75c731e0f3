package engine

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/types"
)

// TestSortTypes sorts every orderable kind with the full sort and the top-N and
// expects the same order.
func TestSortTypes(t *testing.T) {
	for _, tc := range []struct {
		t    types.DataType
		vals []any
	}{
		{types.NewBoolean(), []any{true, nil, false, true}},
		{types.NewTinyInt(), []any{int64(3), nil, int64(-1), int64(2)}},
		{types.NewDecimal(10, 2), []any{num(300), nil, num(-5), num(120)}},
		{types.NewDate(), []any{int32(19000), nil, int32(-3), int32(20000)}},
		{types.NewTimestamp(3), []any{int64(5000), nil, int64(-1), int64(7)}},
		{types.NewTimestampLTZ(6), []any{int64(5000), nil, int64(-1), int64(7)}},
		{types.NewTime(0), []any{int64(50), nil, int64(1), int64(7)}},
		{types.NewString(), []any{"b", nil, "a", "ab"}},
		{types.NewBytes(), []any{[]byte("b"), nil, []byte("a"), []byte{}}},
		{types.NewBinary(2), []any{[]byte("bb"), nil, []byte("ab"), []byte("ba")}},
		{types.NewFloat(), []any{1.5, nil, -2.0, 0.0}},
	} {
		t.Run(tc.t.String(), func(t *testing.T) {
			cols := []Column{{"x", tc.t}}
			var rows [][]any
			for _, v := range tc.vals {
				rows = append(rows, []any{v})
			}
			in := &Input{Cols: cols}
			for _, desc := range []bool{false, true} {
				keys := []SortKey{{Col: 0, Desc: desc, NullsFirst: !desc}}
				full, err := run(t, &Sort{Input: in, Keys: keys, Limit: -1}, rows, 2, nil)
				require.NoError(t, err)
				top, err := run(t, &Sort{Input: in, Keys: keys, Limit: 10}, rows, 2, nil)
				require.NoError(t, err)
				assert.Equal(t, full, top)
				require.Len(t, full, 4)
				assert.Nil(t, full[map[bool]int{false: 0, true: 3}[desc]][0], "NULL first for ASC, last for DESC")
				for i := 1; i < len(full); i++ {
					assert.LessOrEqual(t, compareRows(keys, full[i-1], full[i]), 0)
				}
				agg, err := run(t, &Aggregate{Input: in, Keys: []Expr{col(0, "x", tc.t)}, Names: []string{"x"},
					Aggs: []*Agg{must(NewAgg("MIN", col(0, "x", tc.t), false)), must(NewAgg("COUNT", nil, false))}}, rows, 2, nil)
				require.NoError(t, err)
				distinct := map[string]bool{}
				for _, v := range tc.vals {
					distinct[fmt.Sprint(v)] = true
				}
				assert.Len(t, agg, len(distinct))
			}
		})
	}
}
