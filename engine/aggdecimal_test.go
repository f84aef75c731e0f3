package engine

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/types"
)

// TestDecimalAccumulatorsMatchStates feeds random DECIMAL columns (NULLs,
// edges, several groups) to the typed accumulators and to the per-group
// states they replace (decState, minMaxState): same results, same errors.
func TestDecimalAccumulatorsMatchStates(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 2))
	mem := memory.NewGoAllocator()
	for round := range 400 {
		at := randomDecimalType(rng)
		if round%4 == 0 {
			at = types.NewDecimal(38, rng.IntN(39)) // sums that may overflow
		}
		fn := []string{"SUM", "AVG", "MIN", "MAX"}[rng.IntN(4)]
		agg := must(NewAgg(fn, col(0, "v", at), false))
		fast, ref := newAccumulator(agg, nil), accumulator(&stateAcc{agg: agg})
		_, isState := fast.(*stateAcc)
		require.False(t, isState, "%s has a typed accumulator", agg)
		groups := 1 + rng.IntN(5)
		fast.resize(groups)
		ref.resize(groups)
		var ferr, rerr error
		for range 1 + rng.IntN(3) {
			n := rng.IntN(50)
			b := array.NewDecimal128Builder(mem, &arrow.Decimal128Type{Precision: int32(at.Precision), Scale: int32(at.Scale)})
			gids := make([]int32, n)
			for i := range n {
				gids[i] = int32(rng.IntN(groups))
				if rng.IntN(6) == 0 {
					b.AppendNull()
				} else {
					b.Append(randomUnscaled(rng, at.Precision))
				}
			}
			arr := b.NewArray()
			b.Release()
			if ferr == nil {
				ferr = fast.update(gids, arr)
			}
			if rerr == nil {
				rerr = ref.update(gids, arr)
			}
			arr.Release()
		}
		desc := fmt.Sprintf("%s over %s", agg, TypeName(at))
		if rerr != nil {
			require.Error(t, ferr, desc)
			assert.Equal(t, rerr.Error(), ferr.Error(), desc)
			continue
		}
		require.NoError(t, ferr, desc)
		got, err := fast.build(mem)
		require.NoError(t, err)
		want, err := ref.build(mem)
		require.NoError(t, err)
		assert.True(t, arrow.TypeEqual(want.DataType(), got.DataType()), "%s: type %s, want %s", desc, got.DataType(), want.DataType())
		assert.Equal(t, mustValues(t, want), mustValues(t, got), desc)
		got.Release()
		want.Release()
	}
}

func mustValues(t *testing.T, a arrow.Array) []any {
	v, err := values(a)
	require.NoError(t, err)
	return v
}

// TestDecimalAggregates pins SUM, AVG, MIN and MAX of DECIMAL(15, 2): result
// types, half-up rounding of AVG, NULL groups and the SUM overflow error.
func TestDecimalAggregates(t *testing.T) {
	d := func(s string, scale int32) any {
		if s == "" {
			return nil
		}
		n, err := decimal128.FromString(s, 38, scale)
		require.NoError(t, err)
		return n
	}
	cols := []Column{{"k", types.NewBigInt()}, {"v", types.NewDecimal(15, 2)}}
	v := col(1, "v", cols[1].Type)
	node := &Aggregate{Input: &Input{Cols: cols}, Keys: []Expr{col(0, "k", types.NewBigInt())}, Names: []string{"k"},
		Aggs: []*Agg{must(NewAgg("SUM", v, false)), must(NewAgg("AVG", v, false)), must(NewAgg("MIN", v, false)), must(NewAgg("MAX", v, false))}}
	assert.Equal(t, "DECIMAL(38, 2)", TypeName(node.Aggs[0].T))
	assert.Equal(t, "DECIMAL(38, 6)", TypeName(node.Aggs[1].T))
	assert.Equal(t, "DECIMAL(15, 2)", TypeName(node.Aggs[2].T))
	rows := [][]any{
		{int64(1), d("0.01", 2)}, {int64(1), d("0.01", 2)}, {int64(1), d("0.02", 2)}, // avg 0.013333…
		{int64(2), d("-0.01", 2)}, {int64(2), d("-0.02", 2)}, {int64(2), nil}, // avg -0.015
		{int64(3), nil},
		{int64(4), d("9999999999999.99", 2)}, {int64(4), d("-9999999999999.99", 2)},
	}
	out, err := run(t, node, rows, 4, nil)
	require.NoError(t, err)
	assert.ElementsMatch(t, [][]any{
		{int64(1), d("0.04", 2), d("0.013333", 6), d("0.01", 2), d("0.02", 2)},
		{int64(2), d("-0.03", 2), d("-0.015000", 6), d("-0.02", 2), d("-0.01", 2)},
		{int64(3), nil, nil, nil, nil},
		{int64(4), d("0.00", 2), d("0", 6), d("-9999999999999.99", 2), d("9999999999999.99", 2)},
	}, out)

	big := []Column{{"v", types.NewDecimal(38, 0)}}
	max38 := d("99999999999999999999999999999999999999", 0)
	_, err = run(t, &Aggregate{Input: &Input{Cols: big}, Aggs: []*Agg{must(NewAgg("SUM", col(0, "v", big[0].Type), false))}},
		[][]any{{max38}, {d("1", 0)}}, 2, nil)
	require.ErrorIs(t, err, ErrArithmetic)
	assert.Contains(t, err.Error(), "SUM overflows DECIMAL(38, 0)")
}
