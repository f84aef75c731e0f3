package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/types"
)

func TestHashJoinRepeatedBuildKeysKeepRowOrder(t *testing.T) {
	// Build keys repeat, interleaved, with a NULL: the build side is reordered by key, and
	// each probe row still gets its matches in build row order.
	lcols := []Column{{"k", types.NewInt()}, {"tag", types.NewString()}}
	rcols := []Column{{"k", types.NewInt()}, {"id", types.NewBigInt()}}
	left, right := &Input{Cols: lcols}, &Input{Cols: rcols, ID: 1}
	probe := [][]any{{int64(3), "a"}, {int64(1), "b"}, {int64(4), "c"}, {nil, "d"}, {int64(2), "e"}, {int64(3), "f"}}
	build := [][]any{{int64(3), int64(0)}, {int64(1), int64(1)}, {int64(3), int64(2)}, {nil, int64(3)},
		{int64(1), int64(4)}, {int64(3), int64(5)}, {int64(2), int64(6)}, {int64(1), int64(7)}}
	lk, rk := []Expr{col(0, "k", types.NewInt())}, []Expr{col(0, "k", types.NewInt())}
	odd := must(NewCompare("<>", col(3, "id", types.NewBigInt()), intConst(5)))
	for _, c := range []struct {
		name     string
		kind     JoinKind
		residual Expr
		want     [][]any
	}{
		{"inner", InnerJoin, nil, [][]any{
			{int64(3), "a", int64(3), int64(0)}, {int64(3), "a", int64(3), int64(2)}, {int64(3), "a", int64(3), int64(5)},
			{int64(1), "b", int64(1), int64(1)}, {int64(1), "b", int64(1), int64(4)}, {int64(1), "b", int64(1), int64(7)},
			{int64(2), "e", int64(2), int64(6)},
			{int64(3), "f", int64(3), int64(0)}, {int64(3), "f", int64(3), int64(2)}, {int64(3), "f", int64(3), int64(5)},
		}},
		{"left with a residual", LeftJoin, odd, [][]any{
			{int64(3), "a", int64(3), int64(0)}, {int64(3), "a", int64(3), int64(2)},
			{int64(1), "b", int64(1), int64(1)}, {int64(1), "b", int64(1), int64(4)}, {int64(1), "b", int64(1), int64(7)},
			{int64(2), "e", int64(2), int64(6)},
			{int64(3), "f", int64(3), int64(0)}, {int64(3), "f", int64(3), int64(2)},
			{int64(4), "c", nil, nil}, {nil, "d", nil, nil},
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			n := &HashJoin{Kind: c.kind, Left: left, Right: right, LeftKeys: lk, RightKeys: rk, Residual: c.residual}
			rows, err := runMany(t, n, [][][]any{probe, build}, 3, nil, &Budget{Limit: 1 << 20})
			require.NoError(t, err)
			if c.kind == InnerJoin {
				assert.Equal(t, c.want, rows)
			} else {
				assert.ElementsMatch(t, c.want, rows)
				var matched [][]any
				for _, r := range rows {
					if r[3] != nil {
						matched = append(matched, r)
					}
				}
				assert.Equal(t, c.want[:8], matched, "the matched rows in probe order, each probe row's in build row order")
			}
		})
	}
	t.Run("semi and anti joins see the reordered build side", func(t *testing.T) {
		for kind, want := range map[JoinKind][][]any{
			SemiJoin: {{int64(3), "a"}, {int64(1), "b"}, {int64(2), "e"}, {int64(3), "f"}},
			AntiJoin: {{int64(4), "c"}, {nil, "d"}},
		} {
			n := &HashJoin{Kind: kind, Left: left, Right: right, LeftKeys: lk, RightKeys: rk, BuildRight: true,
				Residual: must(NewCompare("<>", col(1, "tag", types.NewString()), strConst("zz")))}
			rows, err := runMany(t, n, [][][]any{probe, build}, 3, nil, nil)
			require.NoError(t, err)
			assert.ElementsMatch(t, want, rows)
		}
	})
}
