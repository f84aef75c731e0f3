package engine

import (
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/types"
)

// TestAggregateMultiKeys groups by two, three and four keys of strings,
// integers of several widths, DATEs and DECIMALs, NULLs among them, which
// multiKeys codes a column at a time (strings of up to 7 bytes and longer,
// one with a NUL byte; DECIMALs in and past 64 bits), against the row-at-a-time
// reference: the same groups, in order of first appearance, with the same
// keys and aggregates.
func TestAggregateMultiKeys(t *testing.T) {
	cols := []Column{{"s", types.NewString()}, {"i", types.NewInt()}, {"d", types.NewDate()},
		{"m", types.NewDecimal(38, 2)}, {"t", types.NewTinyInt()}, {"v", types.NewBigInt()}}
	in := &Input{Cols: cols}
	c := func(i int) *Col { return col(i, cols[i].Name, cols[i].Type) }
	aggList := []*Agg{must(NewAgg("COUNT", nil, false)), must(NewAgg("SUM", c(5), false)), must(NewAgg("MAX", c(3), false))}
	argCol := []int{-1, 5, 3}
	rng := rand.New(rand.NewPCG(5, 6))
	rows := make([][]any, 3000)
	strs := []string{"A", "N", "R", "", "a\x00", "a", "Customer#000000001", "Customer#000000002", "1234567", "12345678"}
	decs := []decimal128.Num{decimal128.FromI64(-125), decimal128.FromI64(0), decimal128.New(1, 0), decimal128.New(-2, 5), decimal128.FromI64(-1)}
	for r := range rows {
		rows[r] = []any{strs[rng.IntN(len(strs))], int64(rng.IntN(50) - 25), int32(19000 + rng.IntN(7)),
			decs[rng.IntN(len(decs))], int64(rng.IntN(3)), int64(rng.IntN(1000))}
		for i := range 5 {
			if rng.IntN(12) == 0 {
				rows[r][i] = nil
			}
		}
	}
	for _, keys := range [][]int{{0, 4}, {4, 0}, {0, 1, 2}, {3, 0}, {2, 3, 4, 0}, {1, 1}} {
		var ks []Expr
		var names []string
		for _, k := range keys {
			ks, names = append(ks, c(k)), append(names, cols[k].Name)
		}
		n := &Aggregate{Input: in, Keys: ks, Names: names, Aggs: aggList}
		got, err := run(t, n, rows, 100, &Budget{Limit: 1 << 30})
		require.NoError(t, err)
		assert.Equal(t, referenceAggregate(t, keys, aggList, argCol, rows), got, "GROUP BY %v", names)
		op, err := newAggregate(&evalCtx{}, nil, &sliceInput{}, n)
		require.NoError(t, err)
		assert.Equal(t, keysMulti, op.(*aggregateOp).mode, "GROUP BY %v", names)
	}
}
