package engine

import (
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/types"
)

func aggs(t *testing.T, specs ...[3]any) []*Agg {
	var out []*Agg
	for _, s := range specs {
		var arg Expr
		if s[1] != nil {
			arg = s[1].(Expr)
		}
		a, err := NewAgg(s[0].(string), arg, s[2].(bool))
		require.NoError(t, err)
		out = append(out, a)
	}
	return out
}

func TestAggregate(t *testing.T) {
	in := &Input{Cols: testCols}
	all := aggs(t, [3]any{"COUNT", nil, false}, [3]any{"COUNT", ca, false}, [3]any{"COUNT", ca, true},
		[3]any{"SUM", ca, false}, [3]any{"AVG", ca, false}, [3]any{"MIN", cs, false}, [3]any{"MAX", cd, false}, [3]any{"AVG", cd, false})
	t.Run("global", func(t *testing.T) {
		rows, err := run(t, &Aggregate{Input: in, Aggs: all}, testRows, 2, nil)
		require.NoError(t, err)
		// a: 3, NULL, 1, 3, 2 — AVG of INT is an INT, truncated (9/4).
		assert.Equal(t, [][]any{{int64(5), int64(4), int64(3), int64(9), int64(2), "x", 4.25, 1.8125}}, rows)
	})
	t.Run("global over no rows is one row", func(t *testing.T) {
		rows, err := run(t, &Aggregate{Input: in, Aggs: all}, nil, 2, nil)
		require.NoError(t, err)
		assert.Equal(t, [][]any{{int64(0), int64(0), int64(0), nil, nil, nil, nil, nil}}, rows)
	})
	t.Run("grouped, NULL is a group", func(t *testing.T) {
		rows, err := run(t, &Aggregate{Input: in, Keys: []Expr{cs}, Names: []string{"s"}, Aggs: all[:4]}, testRows, 2, nil)
		require.NoError(t, err)
		assert.Equal(t, [][]any{
			{"x", int64(2), int64(2), int64(1), int64(6)},
			{"y", int64(1), int64(0), int64(0), nil},
			{nil, int64(1), int64(1), int64(1), int64(1)},
			{"z", int64(1), int64(1), int64(1), int64(2)},
		}, rows)
	})
	t.Run("grouped by an integer key (its own index), NULL is a group, across batches", func(t *testing.T) {
		// a: 3, NULL, 1, 3, 2 in batches of 2 rows; groups in order of first appearance.
		rows, err := run(t, &Aggregate{Input: in, Keys: []Expr{ca}, Names: []string{"a"},
			Aggs: aggs(t, [3]any{"COUNT", nil, false}, [3]any{"SUM", ca, false})}, testRows, 2, nil)
		require.NoError(t, err)
		assert.Equal(t, [][]any{
			{int64(3), int64(2), int64(6)},
			{nil, int64(1), nil},
			{int64(1), int64(1), int64(1)},
			{int64(2), int64(1), int64(2)},
		}, rows)
	})
	t.Run("grouped over no rows is empty", func(t *testing.T) {
		rows, err := run(t, &Aggregate{Input: in, Keys: []Expr{cs}, Names: []string{"s"}, Aggs: all[:1]}, nil, 2, nil)
		require.NoError(t, err)
		assert.Empty(t, rows)
	})
	t.Run("sum overflow", func(t *testing.T) {
		big := [][]any{{int64(1), "a", nil}, {int64(2), "b", nil}}
		e := must(NewBinary("*", must(NewCast(ca, types.NewBigInt())), &Const{Value: int64(1) << 62, T: types.NewBigInt()}))
		_, err := run(t, &Aggregate{Input: in, Aggs: aggs(t, [3]any{"SUM", e, false})}, big, 1, nil)
		require.ErrorIs(t, err, ErrArithmetic)
	})
	t.Run("decimal sum and avg", func(t *testing.T) {
		e := must(NewBinary("+", dec("0.10", 3, 2), ca))
		rows, err := run(t, &Aggregate{Input: in, Aggs: aggs(t, [3]any{"SUM", e, false}, [3]any{"AVG", e, false})}, testRows, 2, nil)
		require.NoError(t, err)
		assert.Equal(t, [][]any{{num(940), num(2350000)}}, rows) // 9.40 and 2.350000
	})
}

// TestTopNMatchesSort checks the bounded heap against the full sort on random data
// with NULLs and ties.
func TestTopNMatchesSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 200 {
		var rows [][]any
		for range rng.IntN(40) {
			r := []any{int64(rng.IntN(5)), []string{"a", "b", "c"}[rng.IntN(3)], float64(rng.IntN(7)) / 2}
			for i := range r {
				if rng.IntN(5) == 0 {
					r[i] = nil
				}
			}
			rows = append(rows, r)
		}
		keys := []SortKey{{Col: rng.IntN(3), Desc: rng.IntN(2) == 0, NullsFirst: rng.IntN(2) == 0}, {Col: rng.IntN(3), Desc: rng.IntN(2) == 0}}
		if rng.IntN(2) == 0 {
			keys = keys[:1] // one integer key: the top-N's unboxed probe
		}
		limit, offset := int64(rng.IntN(10)), int64(rng.IntN(5))
		in := &Input{Cols: testCols}
		full, err := run(t, &Sort{Input: in, Keys: keys, Limit: -1}, rows, 7, nil)
		require.NoError(t, err)
		top, err := run(t, &Sort{Input: in, Keys: keys, Limit: limit, Offset: offset}, rows, 7, nil)
		require.NoError(t, err)
		want := full[min(int(offset), len(full)):]
		want = want[:min(int(limit), len(want))]
		if len(want) == 0 {
			want = nil
		}
		assert.Equal(t, want, top, "keys %v limit %d offset %d", keys, limit, offset)
		for i := 1; i < len(full); i++ {
			assert.LessOrEqual(t, compareRows(keys, full[i-1], full[i]), 0, "sorted")
		}
	}
}

func TestDistinctAndLimit(t *testing.T) {
	in := &Input{Cols: testCols}
	proj := &Project{Input: in, Exprs: []Expr{ca}, Names: []string{"a"}}
	rows, err := run(t, &Distinct{Input: proj}, testRows, 2, nil)
	require.NoError(t, err)
	assert.Equal(t, [][]any{{int64(3)}, {nil}, {int64(1)}, {int64(2)}}, rows)
	rows, err = run(t, &Limit{Input: proj, Limit: 2, Offset: 1}, testRows, 2, nil)
	require.NoError(t, err)
	assert.Equal(t, [][]any{{nil}, {int64(1)}}, rows)
	rows, err = run(t, &Limit{Input: proj, Limit: -1, Offset: 4}, testRows, 2, nil)
	require.NoError(t, err)
	assert.Equal(t, [][]any{{int64(2)}}, rows)
}

func TestLimitStopsReading(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	src := input(t, mem, testCols, testRows, 1)
	op, err := Build(context.Background(), &Limit{Input: &Input{Cols: testCols}, Limit: 2}, src, Options{Mem: mem})
	require.NoError(t, err)
	for range 2 {
		b, err := op.Next()
		require.NoError(t, err)
		b.Release()
	}
	_, err = op.Next()
	assert.Equal(t, io.EOF, err)
	assert.Equal(t, 2, src.read, "the third batch is never read")
	assert.Equal(t, 1, src.closed, "the input is closed once the limit is reached")
	op.Close()
}

func TestFilter(t *testing.T) {
	in := &Input{Cols: testCols}
	cond := must(NewLogic(false, must(NewCompare(">", ca, intConst(2))), must(NewCompare("=", cs, strConst("z")))))
	rows, err := run(t, &Filter{Input: in, Cond: cond}, testRows, 2, nil)
	require.NoError(t, err)
	assert.Equal(t, [][]any{testRows[0], testRows[3], testRows[4]}, rows, "a NULL condition drops the row")
}

// TestFilterConjuncts: an AND's conjuncts are applied one after another,
// each to the rows the ones before kept: the same rows as the whole
// condition (NULL drops a row), and a conjunct is not evaluated on rows an
// earlier one dropped (a <> 3 AND 6 / (a - 3) > 1 divides by zero only on
// the dropped rows).
func TestFilterConjuncts(t *testing.T) {
	in := &Input{Cols: testCols}
	guard := must(NewCompare("<>", ca, intConst(3)))
	div := must(NewCompare(">", must(NewBinary("/", intConst(6), must(NewBinary("-", ca, intConst(3))))), intConst(-4)))
	rows, err := run(t, &Filter{Input: in, Cond: must(NewLogic(true, guard, div))}, testRows, 5, nil)
	require.NoError(t, err)
	assert.Equal(t, [][]any{testRows[2]}, rows, "a = 1: 6 / -2 = -3 > -4; a = 2: 6 / -1 = -6 is not")
	cond := must(NewLogic(true, must(NewCompare(">", ca, intConst(1))), must(NewLogic(true, &IsNull{X: cs, Not: true}, must(NewCompare(">", cd, NewNull()))))))
	rows, err = run(t, &Filter{Input: in, Cond: cond}, testRows, 2, nil)
	require.NoError(t, err)
	assert.Empty(t, rows, "a NULL conjunct drops every row")
}

func TestMemoryBudget(t *testing.T) {
	in := &Input{Cols: testCols}
	proj := &Project{Input: in, Exprs: []Expr{ca, cs, cd}, Names: []string{"a", "s", "d"}}
	var many [][]any
	for i := range 500 {
		many = append(many, []any{int64(i), "row", float64(i)})
	}
	for _, tc := range []struct {
		name string
		n    Node
		op   string
	}{
		{"aggregate", &Aggregate{Input: in, Keys: []Expr{ca}, Names: []string{"a"}, Aggs: aggs(t, [3]any{"COUNT", nil, false})}, "aggregation"},
		{"count distinct", &Aggregate{Input: in, Aggs: aggs(t, [3]any{"COUNT", ca, true})}, "aggregation"},
		{"distinct", &Distinct{Input: proj}, "DISTINCT"},
		{"sort", &Sort{Input: proj, Keys: []SortKey{{Col: 0}}, Limit: -1}, "sort"},
		{"top-n", &Sort{Input: proj, Keys: []SortKey{{Col: 0}}, Limit: 400}, "top-N"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			budget := &Budget{Limit: 4 << 10, Setting: "the DSN key query_memory"}
			_, err := run(t, tc.n, many, 50, budget)
			var me *MemoryError
			require.ErrorAs(t, err, &me)
			assert.Equal(t, tc.op, me.Operator)
			assert.Contains(t, err.Error(), "4KiB")
			assert.Contains(t, err.Error(), "query_memory")
			assert.Zero(t, budget.Used(), "state is given back on Close")
			_, err = run(t, tc.n, many, 50, &Budget{Limit: 1 << 30})
			require.NoError(t, err, "fits a larger budget")
		})
	}
	t.Run("top-n memory is bounded by the limit", func(t *testing.T) {
		budget := &Budget{Limit: 4 << 10}
		rows, err := run(t, &Sort{Input: proj, Keys: []SortKey{{Col: 0, Desc: true}}, Limit: 3}, many, 50, budget)
		require.NoError(t, err)
		assert.Equal(t, []any{int64(499), "row", 499.0}, rows[0])
	})
}

func TestCancellation(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	src := input(t, mem, testCols, testRows, 1)
	for _, n := range []Node{
		&Filter{Input: &Input{Cols: testCols}, Cond: &IsNull{X: ca}},
		&Aggregate{Input: &Input{Cols: testCols}, Aggs: aggs(t, [3]any{"COUNT", nil, false})},
	} {
		op, err := Build(ctx, n, src, Options{Mem: mem})
		require.NoError(t, err)
		cancel()
		_, err = op.Next()
		assert.True(t, errors.Is(err, context.Canceled), "%T: %v", n, err)
		op.Close()
	}
}

func TestOneRow(t *testing.T) {
	e := must(NewBinary("+", intConst(1), intConst(2)))
	rows, err := run(t, &Project{Input: &OneRow{}, Exprs: []Expr{e, strConst("x")}, Names: []string{"a", "b"}}, nil, 1, nil)
	require.NoError(t, err)
	assert.Equal(t, [][]any{{int64(3), "x"}}, rows)
}

func TestUntypedIn(t *testing.T) {
	e := must(NewIn(NewParam(1, ""), []Expr{ca, intConst(2)}, false))
	assert.Equal(t, "INT", TypeName(e.(*In).X.Type()), "the placeholder takes the list's type")
	e = must(NewIn(NewNull(), []Expr{ca}, true))
	got, err := evalRows(t, e, testRows[:2])
	require.NoError(t, err)
	assert.Equal(t, []any{nil, nil}, got)
}

func TestBindParams(t *testing.T) {
	p := NewParam(1, "")
	e := must(NewBinary("+", ca, p))
	assert.Equal(t, "INT", TypeName(e.(*Binary).R.Type()), "the placeholder takes the other side's type")
	bound, err := Bind(e, func(*Param) (Expr, error) { return intConst(5), nil })
	require.NoError(t, err)
	got, err := evalRows(t, bound, testRows[:1])
	require.NoError(t, err)
	assert.Equal(t, []any{int64(8)}, got)
	_, err = evalRows(t, e, testRows[:1])
	assert.ErrorContains(t, err, "not bound")
}
