package engine

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/types"
)

// Window test input: partition k, order key t, value x, with ties in t, a
// NULL t, a NULL x and a NULL partition.
var (
	winCols = []Column{{"k", types.NewString()}, {"t", types.NewInt()}, {"x", types.NewInt()}}
	wk      = col(0, "k", types.NewString())
	wt      = col(1, "t", types.NewInt())
	wx      = col(2, "x", types.NewInt())
	winRows = [][]any{
		{"a", int64(2), int64(20)},
		{"b", int64(1), nil},
		{nil, int64(2), int64(2)},
		{"a", int64(1), int64(10)},
		{"a", nil, int64(5)},
		{"b", int64(3), int64(7)},
		{"a", int64(2), int64(30)},
		{nil, int64(1), int64(1)},
	}
)

func rowsFrame(s, e WindowBound) WindowFrame { return WindowFrame{Rows: true, Start: s, End: e} }

var (
	unbPre = WindowBound{Kind: BoundUnboundedPreceding}
	cur    = WindowBound{Kind: BoundCurrentRow}
	unbFol = WindowBound{Kind: BoundUnboundedFollowing}
)

func wfunc(t *testing.T, fn string, arg Expr, off int64, def Expr, f WindowFrame) *WindowFunc {
	w, err := NewWindowFunc(fn, arg, off, def, f)
	require.NoError(t, err)
	return w
}

func TestWindowFunctions(t *testing.T) {
	funcs := []*WindowFunc{
		wfunc(t, "ROW_NUMBER", nil, 0, nil, DefaultFrame),
		wfunc(t, "RANK", nil, 0, nil, DefaultFrame),
		wfunc(t, "DENSE_RANK", nil, 0, nil, DefaultFrame),
		wfunc(t, "LAG", wx, 1, intConst(-1), DefaultFrame),
		wfunc(t, "LEAD", wx, 2, nil, DefaultFrame),
		wfunc(t, "SUM", wx, 0, nil, DefaultFrame),
		wfunc(t, "COUNT", nil, 0, nil, rowsFrame(WindowBound{Kind: BoundPreceding, Offset: 1}, WindowBound{Kind: BoundFollowing, Offset: 1})),
		wfunc(t, "FIRST_VALUE", wx, 0, nil, DefaultFrame),
		wfunc(t, "LAST_VALUE", wx, 0, nil, DefaultFrame),
		wfunc(t, "MAX", wx, 0, nil, rowsFrame(cur, unbFol)),
		wfunc(t, "AVG", wx, 0, nil, WindowFrame{Start: unbPre, End: unbFol}),
	}
	names := make([]string, len(funcs))
	for i := range names {
		names[i] = fmt.Sprint("f", i)
	}
	n := &Window{Input: &Input{Cols: winCols}, Partition: []Expr{wk},
		Order: []WindowOrder{{Expr: wt, NullsFirst: true}}, Funcs: funcs, Names: names}
	got, err := run(t, n, winRows, 3, nil)
	require.NoError(t, err)
	i := func(v int64) any { return v }
	// Sorted: the NULL partition first, then a (t NULL first, a tie at t = 2 in input order), then b.
	want := [][]any{
		//  k, t, x,                 rn    rank  dense LAG    LEAD   SUM    COUNT FIRST LAST   MAX    AVG
		{nil, i(1), i(1) /*      */, i(1), i(1), i(1), i(-1), nil, i(1), i(2), i(1), i(1), i(2), i(1)},
		{nil, i(2), i(2) /*      */, i(2), i(2), i(2), i(1), nil, i(3), i(2), i(1), i(2), i(2), i(1)},
		{"a", nil, i(5) /*       */, i(1), i(1), i(1), i(-1), i(20), i(5), i(2), i(5), i(5), i(30), i(16)},
		{"a", i(1), i(10) /*     */, i(2), i(2), i(2), i(5), i(30), i(15), i(3), i(5), i(10), i(30), i(16)},
		{"a", i(2), i(20) /*     */, i(3), i(3), i(3), i(10), nil, i(65), i(3), i(5), i(30), i(30), i(16)},
		{"a", i(2), i(30) /*     */, i(4), i(3), i(3), i(20), nil, i(65), i(2), i(5), i(30), i(30), i(16)},
		{"b", i(1), nil /*       */, i(1), i(1), i(1), i(-1), nil, nil, i(2), nil, nil, i(7), i(7)},
		{"b", i(3), i(7) /*      */, i(2), i(2), i(2), nil, nil, i(7), i(2), i(7), i(7), i(7), i(7)},
	}
	assert.Equal(t, want, got)
	cols := n.Columns()
	assert.Equal(t, types.NewBigInt().AsNotNull(), cols[3].Type, "ROW_NUMBER is BIGINT NOT NULL")
	assert.Equal(t, types.NewBigInt(), cols[8].Type, "SUM of INT is BIGINT")
	assert.Equal(t, types.NewInt(), cols[6].Type, "LAG of INT is INT")
}

func TestWindowOrderAndFrames(t *testing.T) {
	frame := func(fn string, f WindowFrame) *Window {
		return &Window{Input: &Input{Cols: winCols}, Order: []WindowOrder{{Expr: wt, Desc: true}},
			Funcs: []*WindowFunc{wfunc(t, fn, wx, 0, nil, f)}, Names: []string{"v"}}
	}
	last := func(rows [][]any) []any {
		var out []any
		for _, r := range rows {
			out = append(out, r[len(r)-1])
		}
		return out
	}
	// Order t DESC NULLS LAST (no partition): t 3, 2, 2, 2, 1, 1, 1, NULL, stable among ties
	// x: 7, 20, 2, 30, nil, 10, 1, 5.
	cases := []struct {
		name string
		fn   string
		f    WindowFrame
		want []any
	}{
		{"running sum with peers", "SUM", DefaultFrame, []any{int64(7), int64(59), int64(59), int64(59), int64(70), int64(70), int64(70), int64(75)}},
		{"rows 1 preceding to current", "SUM", rowsFrame(WindowBound{Kind: BoundPreceding, Offset: 1}, cur),
			[]any{int64(7), int64(27), int64(22), int64(32), int64(30), int64(10), int64(11), int64(6)}},
		{"rows 2 following to unbounded", "MIN", rowsFrame(WindowBound{Kind: BoundFollowing, Offset: 2}, unbFol),
			[]any{int64(1), int64(1), int64(1), int64(1), int64(1), int64(5), nil, nil}},
		{"range current row to unbounded following", "COUNT", WindowFrame{Start: cur, End: unbFol},
			[]any{int64(7), int64(6), int64(6), int64(6), int64(3), int64(3), int64(3), int64(1)}},
		{"rows 3 preceding to 1 preceding", "MAX", rowsFrame(WindowBound{Kind: BoundPreceding, Offset: 3}, WindowBound{Kind: BoundPreceding, Offset: 1}),
			[]any{nil, int64(7), int64(20), int64(20), int64(30), int64(30), int64(30), int64(10)}},
		{"last value over the whole partition", "LAST_VALUE", WindowFrame{Start: unbPre, End: unbFol},
			[]any{int64(5), int64(5), int64(5), int64(5), int64(5), int64(5), int64(5), int64(5)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := run(t, frame(c.fn, c.f), winRows, 2, nil)
			require.NoError(t, err)
			assert.Equal(t, c.want, last(got))
		})
	}
}

func TestWindowEmptyBudgetCancel(t *testing.T) {
	n := &Window{Input: &Input{Cols: winCols}, Partition: []Expr{wk}, Order: []WindowOrder{{Expr: wt}},
		Funcs: []*WindowFunc{wfunc(t, "ROW_NUMBER", nil, 0, nil, DefaultFrame)}, Names: []string{"rn"}}
	t.Run("empty input", func(t *testing.T) {
		for _, per := range []int64{0, 2} {
			n.PerPartition = per
			got, err := run(t, n, nil, 2, nil)
			require.NoError(t, err)
			assert.Empty(t, got)
		}
	})
	t.Run("budget exceeded", func(t *testing.T) {
		for _, per := range []int64{0, 100} {
			n.PerPartition = per
			_, err := run(t, n, winRows, 2, &Budget{Limit: 300, Setting: "query_memory"})
			var me *MemoryError
			require.True(t, errors.As(err, &me), "%v", err)
			assert.Contains(t, err.Error(), "query_memory")
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		for _, per := range []int64{0, 2} {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			n.PerPartition = per
			in := input(t, mem, winCols, winRows, 2)
			op, err := Build(ctx, n, in, Options{Mem: mem})
			require.NoError(t, err)
			_, err = drainRows(op)
			assert.ErrorIs(t, err, context.Canceled)
			in.Close()
			mem.AssertSize(t, 0)
		}
	})
}

// TestWindowTopNMatchesFullWindow checks the bounded per-partition heaps
// against the full window filtered on rn <= N (rank, dense rank <= N), on
// random rows with many ties.
func TestWindowTopNMatchesFullWindow(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var rows [][]any
	for range 500 {
		row := []any{fmt.Sprint("p", r.IntN(7)), int64(r.IntN(20)), int64(r.IntN(1000))}
		if r.IntN(10) == 0 {
			row[0] = nil
		}
		if r.IntN(10) == 0 {
			row[1] = nil
		}
		rows = append(rows, row)
	}
	for _, by := range []string{"ROW_NUMBER", "RANK", "DENSE_RANK"} {
		for _, per := range []int64{1, 3, 50} {
			for _, desc := range []bool{false, true} {
				t.Run(fmt.Sprint(by, per, desc), func(t *testing.T) {
					mk := func(limit int64) *Window {
						return &Window{Input: &Input{Cols: winCols}, Partition: []Expr{wk},
							Order: []WindowOrder{{Expr: wt, Desc: desc, NullsFirst: !desc}},
							Funcs: []*WindowFunc{wfunc(t, "ROW_NUMBER", nil, 0, nil, DefaultFrame), wfunc(t, "RANK", nil, 0, nil, DefaultFrame),
								wfunc(t, "DENSE_RANK", nil, 0, nil, DefaultFrame), wfunc(t, "LAG", wx, 1, nil, DefaultFrame)},
							Names: []string{"rn", "rk", "dr", "lag"}, PerPartition: limit, PerPartitionBy: by}
					}
					col := 3 + map[string]int{"ROW_NUMBER": 0, "RANK": 1, "DENSE_RANK": 2}[by]
					full, err := run(t, mk(0), rows, 64, nil)
					require.NoError(t, err)
					var want []any
					for _, row := range full {
						if row[col].(int64) <= per {
							want = append(want, fmt.Sprint(row))
						}
					}
					top, err := run(t, mk(per), rows, 64, nil)
					require.NoError(t, err)
					var got []any
					for _, row := range top {
						got = append(got, fmt.Sprint(row))
					}
					assert.ElementsMatch(t, want, got)
				})
			}
		}
	}
}

func TestWindowDescribe(t *testing.T) {
	n := &Window{Input: &Input{Cols: winCols}, Partition: []Expr{wk}, Order: []WindowOrder{{Expr: wt, Desc: true}},
		Funcs: []*WindowFunc{wfunc(t, "ROW_NUMBER", nil, 0, nil, DefaultFrame),
			wfunc(t, "SUM", wx, 0, nil, rowsFrame(WindowBound{Kind: BoundPreceding, Offset: 2}, cur))},
		Names: []string{"rn", "s"}}
	assert.Equal(t, "Window PARTITION BY k ORDER BY t DESC NULLS LAST: ROW_NUMBER() AS rn, SUM(x) ROWS BETWEEN 2 PRECEDING AND CURRENT ROW AS s", n.Describe())
	n.PerPartition, n.Funcs, n.Names = 3, n.Funcs[:1], n.Names[:1]
	assert.Equal(t, "WindowTopN PARTITION BY k ORDER BY t DESC NULLS LAST, rows 1..3 per partition (bounded heaps): ROW_NUMBER() AS rn", n.Describe())
}
