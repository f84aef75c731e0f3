package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/types"
)

// Registry aggregates over frames: LISTAGG keeps the window's order also in
// frames ending at the partition's last row (accumulated forwards, not
// backwards as the commutative aggregates are) and takes its separator;
// ARRAY_AGG is fed the NULLs.
func TestWindowAggregates(t *testing.T) {
	// Order t DESC NULLS LAST (no partition): x 7, 20, 2, 30, nil, 10, 1, 5.
	win := func(fn string, args []Expr, f WindowFrame) *Window {
		w, err := NewWindowAggregate(fn, args, f)
		require.NoError(t, err)
		return &Window{Input: &Input{Cols: winCols}, Order: []WindowOrder{{Expr: wt, Desc: true}},
			Funcs: []*WindowFunc{w}, Names: []string{"v"}}
	}
	last := func(rows [][]any) []any {
		var out []any
		for _, r := range rows {
			out = append(out, r[len(r)-1])
		}
		return out
	}
	xs, err := NewCast(wx, types.NewString())
	require.NoError(t, err)
	got, err := run(t, win("LISTAGG", []Expr{xs, strConst("|")}, rowsFrame(WindowBound{Kind: BoundFollowing, Offset: 3}, unbFol)), winRows, 3, nil)
	require.NoError(t, err)
	assert.Equal(t, []any{"30|10|1|5", "10|1|5", "10|1|5", "1|5", "5", nil, nil, nil}, last(got))

	got, err = run(t, win("LISTAGG", []Expr{xs, strConst("|")}, rowsFrame(WindowBound{Kind: BoundPreceding, Offset: 1}, cur)), winRows, 3, nil)
	require.NoError(t, err)
	assert.Equal(t, []any{"7", "7|20", "20|2", "2|30", "30", "10", "10|1", "1|5"}, last(got))

	// ARRAY_AGG keeps NULLs: its state takes them (the window feeds them).
	w, err := NewWindowAggregate("ARRAY_AGG", []Expr{wx}, DefaultFrame)
	require.NoError(t, err)
	st := w.agg.newState()
	require.NoError(t, addWindowRow(st, []any{nil, nil, int64(1)}, 2))
	require.NoError(t, addWindowRow(st, []any{nil, nil, nil}, 2))
	v, err := st.result()
	require.NoError(t, err)
	assert.Equal(t, []any{int64(1), nil}, v)

	_, err = NewWindowAggregate("UPPER", []Expr{wk}, DefaultFrame)
	assert.ErrorContains(t, err, "not an aggregate function")
}
