package engine

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/types"
)

func TestSemiAntiJoin(t *testing.T) {
	left, right := &Input{Cols: ordersCols}, &Input{Cols: custCols, ID: 1}
	lk, rk := []Expr{col(1, "cust", types.NewInt())}, []Expr{col(0, "cid", types.NewInt())}
	// On the pair (orders' 3 columns, then customers' 2): the customer's name is not "bob".
	notBob := must(NewCompare("<>", col(4, "name", types.NewString()), &Const{Value: "bob", T: types.NewString().AsNotNull(), Text: "'bob'"}))
	noNulls := [][]any{{int64(10), "ann"}, {int64(20), "bob"}}
	o := func(i int) []any { return orders[i] }
	cases := []struct {
		name      string
		kind      JoinKind
		nullAware bool
		residual  Expr
		l, r      [][]any
		want      [][]any
	}{
		{"semi: each matching left row once, NULL keys never match", SemiJoin, false, nil, orders, customers,
			[][]any{o(0), o(1), o(3)}},
		{"anti: unmatched and NULL-keyed left rows (NOT EXISTS)", AntiJoin, false, nil, orders, customers,
			[][]any{o(2), o(4)}},
		{"semi with residual on the pair: bob matches, bob2 passes it", SemiJoin, false, notBob, orders, customers,
			[][]any{o(0), o(1), o(3)}},
		{"semi with residual: a row whose only match fails it drops", SemiJoin, false, notBob, orders, noNulls,
			[][]any{o(0), o(3)}},
		{"anti with residual: a match failing it counts as none", AntiJoin, false, notBob, orders, noNulls,
			[][]any{o(1), o(2), o(4)}},
		{"semi over an empty right side", SemiJoin, false, nil, orders, nil, nil},
		{"anti over an empty right side: every row", AntiJoin, false, nil, orders, nil, orders},
		{"NOT IN without NULLs on the right: the left NULL key drops", AntiJoin, true, nil, orders, noNulls,
			[][]any{o(4)}},
		{"NOT IN with a NULL on the right: no row", AntiJoin, true, nil, orders, customers, nil},
		{"NOT IN over an empty right side: every row, NULL key included", AntiJoin, true, nil, orders, nil, orders},
		{"NOT IN whose right side is only NULL: no row", AntiJoin, true, nil, orders, [][]any{{nil, "x"}}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n := &HashJoin{Kind: c.kind, Left: left, Right: right, LeftKeys: lk, RightKeys: rk, Residual: c.residual, NullAware: c.nullAware}
			// The left side small enough to be read first (op_semifirst.go), and too big
			// for it; the right side as given (it has no more rows than the left: it is
			// indexed) and four times over (the same answer; more rows than the left:
			// the left is indexed and the right streams through it).
			defer func(v int64) { semiFirstBytes = v }(semiFirstBytes)
			var r4 [][]any
			for range 4 {
				r4 = append(r4, c.r...)
			}
			for _, first := range []int64{semiFirstBytes, 0} {
				semiFirstBytes = first
				for _, right := range [][][]any{c.r, r4} {
					for _, per := range []int{1, 10} {
						rows, err := runMany(t, n, [][][]any{c.l, right}, per, nil, nil)
						require.NoError(t, err)
						assert.ElementsMatch(t, c.want, rows, "batches of %d, left read first up to %d bytes, %d right rows", per, first, len(right))
					}
				}
			}
		})
	}
	t.Run("output is the left columns only", func(t *testing.T) {
		n := &HashJoin{Kind: SemiJoin, Left: left, Right: right, LeftKeys: lk, RightKeys: rk}
		assert.Equal(t, ordersCols, n.Columns())
	})
	t.Run("without keys: the residual against every right row", func(t *testing.T) {
		// EXISTS (SELECT * FROM customers c WHERE c.cid > o.cust)
		gt := must(NewCompare(">", col(3, "cid", types.NewInt()), col(1, "cust", types.NewInt())))
		n := &HashJoin{Kind: SemiJoin, Left: left, Right: right, Residual: gt}
		rows, err := runMany(t, n, [][][]any{orders, customers}, 2, nil, nil)
		require.NoError(t, err)
		assert.ElementsMatch(t, [][]any{o(0), o(3)}, rows, "cust 10 < 20; NULL and 20, 99 have no greater cid")
	})
	t.Run("EXPLAIN names the kind", func(t *testing.T) {
		n := &HashJoin{Kind: AntiJoin, NullAware: true, Left: left, Right: right, LeftKeys: lk, RightKeys: rk}
		assert.Contains(t, n.Describe(), "HashJoin ANTI (null-aware) ON cust = cid")
	})
}

func TestSingleRowJoin(t *testing.T) {
	left := &Input{Cols: ordersCols}
	right := &Input{Cols: []Column{{"v", types.NewBigInt()}}, ID: 1}
	n := &SingleRowJoin{Left: left, Right: right}
	cases := []struct {
		name string
		r    [][]any
		want [][]any
		err  error
	}{
		{"one row is appended to every row", [][]any{{int64(7)}}, [][]any{
			{int64(1), int64(10), int64(100), int64(7)}, {int64(2), int64(20), int64(200), int64(7)},
			{int64(3), nil, int64(300), int64(7)}}, nil},
		{"no row gives NULL", nil, [][]any{
			{int64(1), int64(10), int64(100), nil}, {int64(2), int64(20), int64(200), nil},
			{int64(3), nil, int64(300), nil}}, nil},
		{"a NULL row gives NULL", [][]any{{nil}}, [][]any{
			{int64(1), int64(10), int64(100), nil}, {int64(2), int64(20), int64(200), nil},
			{int64(3), nil, int64(300), nil}}, nil},
		{"two rows are an error", [][]any{{int64(1)}, {int64(2)}}, nil, ErrScalarSubqueryRows},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, per := range []int{1, 2} {
				rows, err := runMany(t, n, [][][]any{orders[:3], c.r}, per, nil, nil)
				if c.err != nil {
					require.True(t, errors.Is(err, c.err), "%v", err)
					continue
				}
				require.NoError(t, err)
				assert.Equal(t, c.want, rows)
			}
		})
	}
	t.Run("the value's column is nullable", func(t *testing.T) {
		r := &Input{Cols: []Column{{"v", types.NewBigInt().AsNotNull()}}, ID: 1}
		assert.False(t, (&SingleRowJoin{Left: left, Right: r}).Columns()[3].Type.NotNull)
	})
	t.Run("the row is held under the budget", func(t *testing.T) {
		b := &Budget{Limit: 4, Setting: "the DSN key query_memory"}
		_, err := runMany(t, n, [][][]any{orders[:3], {{int64(1)}}}, 1, nil, b)
		var me *MemoryError
		require.True(t, errors.As(err, &me), "%v", err)
		assert.Contains(t, err.Error(), "scalar subquery")
		assert.Zero(t, b.Used(), "given back on Close")
	})
	t.Run("an empty left side", func(t *testing.T) {
		rows, err := runMany(t, n, [][][]any{nil, {{int64(1)}}}, 1, nil, nil)
		require.NoError(t, err)
		assert.Empty(t, rows)
	})
}

func TestHashJoinSingleMatch(t *testing.T) {
	left, right := &Input{Cols: ordersCols}, &Input{Cols: custCols, ID: 1}
	lk, rk := []Expr{col(1, "cust", types.NewInt())}, []Expr{col(0, "cid", types.NewInt())}
	n := &HashJoin{Kind: LeftJoin, SingleMatch: true, Left: left, Right: right, LeftKeys: lk, RightKeys: rk}
	t.Run("one match or none per row", func(t *testing.T) {
		rows, err := runMany(t, n, [][][]any{orders, customers[:3]}, 2, nil, nil)
		require.NoError(t, err)
		assert.ElementsMatch(t, [][]any{
			{int64(1), int64(10), int64(100), int64(10), "ann"}, {int64(2), int64(20), int64(200), int64(20), "bob"},
			{int64(3), nil, int64(300), nil, nil}, {int64(4), int64(10), int64(400), int64(10), "ann"},
			{int64(5), int64(99), int64(500), nil, nil},
		}, rows)
	})
	t.Run("two matches for a row are an error", func(t *testing.T) {
		_, err := runMany(t, n, [][][]any{orders, customers}, 2, nil, nil)
		require.True(t, errors.Is(err, ErrScalarSubqueryRows), "%v", err)
	})
	t.Run("two right rows no left row probes are not", func(t *testing.T) {
		_, err := runMany(t, n, [][][]any{orders[:1], customers}, 2, nil, nil)
		require.NoError(t, err)
	})
}

func TestMarkJoin(t *testing.T) {
	left, right := &Input{Cols: ordersCols}, &Input{Cols: custCols, ID: 1}
	lk, rk := []Expr{col(1, "cust", types.NewInt())}, []Expr{col(0, "cid", types.NewInt())}
	noNulls := [][]any{{int64(10), "ann"}, {int64(20), "bob"}}
	// The mark of orders' rows (cust 10, 20, NULL, 10, 99) in order.
	cases := []struct {
		name      string
		nullAware bool
		r         [][]any
		want      []any
	}{
		{"EXISTS: TRUE or FALSE", false, customers, []any{true, true, false, true, false}},
		{"IN without NULLs: a NULL key is NULL", true, noNulls, []any{true, true, nil, true, false}},
		{"IN with a NULL on the right: no FALSE", true, customers, []any{true, true, nil, true, nil}},
		{"IN of an empty right side: FALSE, NULL key included", true, nil, []any{false, false, false, false, false}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n := &HashJoin{Kind: MarkJoin, NullAware: c.nullAware, Left: left, Right: right, LeftKeys: lk, RightKeys: rk}
			rows, err := runMany(t, n, [][][]any{orders, c.r}, 2, nil, nil)
			require.NoError(t, err)
			require.Len(t, rows, len(orders))
			for i, row := range rows {
				assert.Equal(t, orders[i], row[:3])
				assert.Equal(t, c.want[i], row[3], "row %d", i)
			}
		})
	}
}

func TestLookupSemiAntiJoin(t *testing.T) {
	left := &Input{Cols: ordersCols}
	key := []Expr{col(1, "cust", types.NewInt())}
	pk := [][]any{{int64(10), "ann"}, {int64(20), "bob"}}
	notAnn := must(NewCompare("<>", col(4, "name", types.NewString()), strConst("ann")))
	o := func(i int) []any { return orders[i] }
	cases := []struct {
		name     string
		kind     JoinKind
		residual Expr
		want     [][]any
	}{
		{"semi: found keys, once each", SemiJoin, nil, [][]any{o(0), o(1), o(3)}},
		{"anti: missing and NULL keys", AntiJoin, nil, [][]any{o(2), o(4)}},
		{"semi with a residual on the pair", SemiJoin, notAnn, [][]any{o(1)}},
		{"anti with a residual on the pair", AntiJoin, notAnn, [][]any{o(0), o(2), o(3), o(4)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			lk := &fakeLooker{cols: custCols, rows: pk}
			n := &LookupJoin{Kind: c.kind, Left: left, Table: "customers", KeyCols: []string{"cid"}, KeyExprs: key, Cols: custCols, Residual: c.residual}
			assert.Equal(t, ordersCols, n.Columns())
			rows, err := runMany(t, n, [][][]any{orders}, 2, []Looker{lk}, nil)
			require.NoError(t, err)
			assert.ElementsMatch(t, c.want, rows)
		})
	}
}
