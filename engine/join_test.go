package engine

import (
	"context"
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/types"
)

// runMany executes a plan whose Input leaves (by ID) get the rows of
// data[ID], in batches of per rows, with the given lookers.
func runMany(t *testing.T, n Node, data [][][]any, per int, lookers []Looker, budget *Budget) ([][]any, error) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	leaves := map[int]*Input{}
	var walk func(Node)
	walk = func(n Node) {
		if in, ok := n.(*Input); ok {
			leaves[in.ID] = in
		}
		for _, c := range n.Inputs() {
			walk(c)
		}
	}
	walk(n)
	ins := make([]*sliceInput, len(data))
	ops := make([]Operator, len(data))
	for id, rows := range data {
		ins[id] = input(t, mem, leaves[id].Cols, rows, per)
		ops[id] = ins[id]
	}
	for _, l := range lookers {
		if f, ok := l.(*fakeLooker); ok {
			f.t, f.mem = t, mem
		}
	}
	op, err := Build(context.Background(), n, ops[0], Options{Mem: mem, Budget: budget, Inputs: ops[1:], Lookers: lookers})
	if err != nil {
		return nil, err
	}
	out, err := drainRows(op)
	for _, in := range ins {
		in.Close()
	}
	return out, err
}

var (
	ordersCols = []Column{{"id", types.NewInt()}, {"cust", types.NewInt()}, {"amount", types.NewBigInt()}}
	custCols   = []Column{{"cid", types.NewInt()}, {"name", types.NewString()}}
	orders     = [][]any{
		{int64(1), int64(10), int64(100)},
		{int64(2), int64(20), int64(200)},
		{int64(3), nil, int64(300)},
		{int64(4), int64(10), int64(400)},
		{int64(5), int64(99), int64(500)},
	}
	customers = [][]any{{int64(10), "ann"}, {int64(20), "bob"}, {nil, "nobody"}, {int64(20), "bob2"}}
)

func TestHashJoin(t *testing.T) {
	left, right := &Input{Cols: ordersCols}, &Input{Cols: custCols, ID: 1}
	lk, rk := []Expr{col(1, "cust", types.NewInt())}, []Expr{col(0, "cid", types.NewInt())}
	big := must(NewCompare(">", col(2, "amount", types.NewBigInt()), intConst(150)))
	cases := []struct {
		name     string
		kind     JoinKind
		residual Expr
		l, r     [][]any
		want     [][]any
	}{
		{"inner: NULL keys never match, build duplicates give one row each", InnerJoin, nil, orders, customers, [][]any{
			{int64(1), int64(10), int64(100), int64(10), "ann"},
			{int64(2), int64(20), int64(200), int64(20), "bob"},
			{int64(2), int64(20), int64(200), int64(20), "bob2"},
			{int64(4), int64(10), int64(400), int64(10), "ann"},
		}},
		{"left: unmatched and NULL-keyed rows get NULLs", LeftJoin, nil, orders, customers, [][]any{
			{int64(1), int64(10), int64(100), int64(10), "ann"},
			{int64(2), int64(20), int64(200), int64(20), "bob"},
			{int64(2), int64(20), int64(200), int64(20), "bob2"},
			{int64(4), int64(10), int64(400), int64(10), "ann"},
			{int64(3), nil, int64(300), nil, nil},
			{int64(5), int64(99), int64(500), nil, nil},
		}},
		{"inner with residual", InnerJoin, big, orders, customers, [][]any{
			{int64(2), int64(20), int64(200), int64(20), "bob"},
			{int64(2), int64(20), int64(200), int64(20), "bob2"},
			{int64(4), int64(10), int64(400), int64(10), "ann"},
		}},
		{"left with residual: a row whose matches all fail it gets NULLs", LeftJoin, big, orders, customers, [][]any{
			{int64(2), int64(20), int64(200), int64(20), "bob"},
			{int64(2), int64(20), int64(200), int64(20), "bob2"},
			{int64(4), int64(10), int64(400), int64(10), "ann"},
			{int64(1), int64(10), int64(100), nil, nil},
			{int64(3), nil, int64(300), nil, nil},
			{int64(5), int64(99), int64(500), nil, nil},
		}},
		{"empty build side, inner", InnerJoin, nil, orders, nil, nil},
		{"empty build side, left", LeftJoin, nil, orders[:2], nil, [][]any{
			{int64(1), int64(10), int64(100), nil, nil},
			{int64(2), int64(20), int64(200), nil, nil},
		}},
		{"empty probe side", LeftJoin, nil, nil, customers, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n := &HashJoin{Kind: c.kind, Left: left, Right: right, LeftKeys: lk, RightKeys: rk, Residual: c.residual}
			rows, err := runMany(t, n, [][][]any{c.l, c.r}, 10, nil, nil)
			require.NoError(t, err)
			assert.ElementsMatch(t, c.want, rows)
		})
	}
	t.Run("types: the right columns of a LEFT join are nullable", func(t *testing.T) {
		n := &HashJoin{Kind: LeftJoin, Left: left, Right: &Input{Cols: []Column{{"cid", types.NewInt().AsNotNull()}}, ID: 1}, LeftKeys: lk, RightKeys: rk}
		assert.False(t, n.Columns()[3].Type.NotNull)
	})
	t.Run("build side over the budget", func(t *testing.T) {
		var many [][]any
		for i := range 2000 {
			many = append(many, []any{int64(i), "some name"})
		}
		n := &HashJoin{Kind: InnerJoin, Left: left, Right: right, LeftKeys: lk, RightKeys: rk}
		b := &Budget{Limit: 16 << 10, Setting: "the DSN key query_memory"}
		_, err := runMany(t, n, [][][]any{orders, many}, 100, nil, b)
		var me *MemoryError
		require.True(t, errors.As(err, &me), "%v", err)
		assert.Contains(t, err.Error(), "hash join (build side)")
		assert.Contains(t, err.Error(), "query_memory")
		assert.Zero(t, b.Used(), "the state is given back on Close")
	})
	t.Run("many matches come in several batches", func(t *testing.T) {
		var l, r [][]any
		for i := range 300 {
			l = append(l, []any{int64(i), int64(7), int64(i)})
			r = append(r, []any{int64(7), "x"})
		}
		l = append(l, []any{int64(-1), int64(8), int64(0)})
		n := &HashJoin{Kind: LeftJoin, Left: left, Right: right, LeftKeys: lk, RightKeys: rk}
		rows, err := runMany(t, n, [][][]any{l, r}, 1000, nil, nil)
		require.NoError(t, err)
		assert.Len(t, rows, 300*300+1, "every pair, and the unmatched row")
	})
	t.Run("small batches give the same join", func(t *testing.T) {
		n := &HashJoin{Kind: LeftJoin, Left: left, Right: right, LeftKeys: lk, RightKeys: rk}
		one, err := runMany(t, n, [][][]any{orders, customers}, 1, nil, nil)
		require.NoError(t, err)
		all, err := runMany(t, n, [][][]any{orders, customers}, 10, nil, nil)
		require.NoError(t, err)
		assert.ElementsMatch(t, all, one)
	})
}

// fakeLooker serves lookups from rows keyed by their first column and
// counts the calls and looked-up keys.
type fakeLooker struct {
	t     testing.TB
	mem   memory.Allocator
	cols  []Column
	rows  [][]any
	calls int
	keys  int
}

func (f *fakeLooker) Lookup(_ context.Context, keys []arrow.Array) (arrow.RecordBatch, [][]int, error) {
	f.calls++
	f.keys += keys[0].Len()
	vals, err := values(keys[0])
	if err != nil {
		return nil, nil, err
	}
	var found [][]any
	out := make([][]int, len(vals))
	for i, v := range vals {
		if v == nil {
			return nil, nil, errors.New("a NULL key was looked up")
		}
		for _, r := range f.rows {
			if r[0] == v {
				out[i] = append(out[i], len(found))
				found = append(found, r)
			}
		}
	}
	if len(found) == 0 {
		return nil, out, nil
	}
	return batchOf(f.t, f.mem, f.cols, found), out, nil
}

func TestLookupJoin(t *testing.T) {
	left := &Input{Cols: ordersCols}
	key := []Expr{col(1, "cust", types.NewInt())}
	pk := [][]any{{int64(10), "ann"}, {int64(20), "bob"}}
	cases := []struct {
		name string
		kind JoinKind
		want [][]any
	}{
		{"inner", InnerJoin, [][]any{
			{int64(1), int64(10), int64(100), int64(10), "ann"},
			{int64(2), int64(20), int64(200), int64(20), "bob"},
			{int64(4), int64(10), int64(400), int64(10), "ann"},
		}},
		{"left: missing keys and NULL keys get NULLs", LeftJoin, [][]any{
			{int64(1), int64(10), int64(100), int64(10), "ann"},
			{int64(2), int64(20), int64(200), int64(20), "bob"},
			{int64(4), int64(10), int64(400), int64(10), "ann"},
			{int64(3), nil, int64(300), nil, nil},
			{int64(5), int64(99), int64(500), nil, nil},
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			lk := &fakeLooker{cols: custCols, rows: pk}
			n := &LookupJoin{Kind: c.kind, Left: left, Table: "customers", KeyCols: []string{"cid"}, KeyExprs: key, Cols: custCols}
			rows, err := runMany(t, n, [][][]any{orders}, 10, []Looker{lk}, nil)
			require.NoError(t, err)
			assert.ElementsMatch(t, c.want, rows)
			assert.Equal(t, 1, lk.calls, "one lookup per left batch")
			assert.Equal(t, 3, lk.keys, "each distinct non-NULL key once")
		})
	}
	t.Run("one lookup per batch", func(t *testing.T) {
		lk := &fakeLooker{cols: custCols, rows: pk}
		n := &LookupJoin{Kind: InnerJoin, Left: left, Table: "customers", KeyCols: []string{"cid"}, KeyExprs: key, Cols: custCols}
		rows, err := runMany(t, n, [][][]any{orders}, 2, []Looker{lk}, nil)
		require.NoError(t, err)
		assert.Len(t, rows, 3)
		assert.Equal(t, 3, lk.calls)
	})
	t.Run("prefix lookup: several rows per key", func(t *testing.T) {
		lk := &fakeLooker{cols: custCols, rows: append(pk, []any{int64(10), "ann2"})}
		n := &LookupJoin{Kind: InnerJoin, Left: left, Table: "customers", Prefix: true, KeyCols: []string{"cid"}, KeyExprs: key, Cols: custCols}
		rows, err := runMany(t, n, [][][]any{orders}, 10, []Looker{lk}, nil)
		require.NoError(t, err)
		assert.ElementsMatch(t, [][]any{
			{int64(1), int64(10), int64(100), int64(10), "ann"},
			{int64(1), int64(10), int64(100), int64(10), "ann2"},
			{int64(2), int64(20), int64(200), int64(20), "bob"},
			{int64(4), int64(10), int64(400), int64(10), "ann"},
			{int64(4), int64(10), int64(400), int64(10), "ann2"},
		}, rows)
	})
	t.Run("residual", func(t *testing.T) {
		lk := &fakeLooker{cols: custCols, rows: pk}
		cond := must(NewCompare("=", col(4, "name", types.NewString()), strConst("ann")))
		n := &LookupJoin{Kind: LeftJoin, Left: left, Table: "customers", KeyCols: []string{"cid"}, KeyExprs: key, Cols: custCols, Residual: cond}
		rows, err := runMany(t, n, [][][]any{orders[:2]}, 10, []Looker{lk}, nil)
		require.NoError(t, err)
		assert.ElementsMatch(t, [][]any{
			{int64(1), int64(10), int64(100), int64(10), "ann"},
			{int64(2), int64(20), int64(200), nil, nil},
		}, rows)
	})
	t.Run("no looker", func(t *testing.T) {
		n := &LookupJoin{Kind: InnerJoin, Left: left, Table: "customers", KeyCols: []string{"cid"}, KeyExprs: key, Cols: custCols}
		_, err := runMany(t, n, [][][]any{orders}, 10, nil, nil)
		assert.ErrorContains(t, err, "no Looker")
	})
	t.Run("streaming", func(t *testing.T) {
		n := &LookupJoin{Kind: InnerJoin, Left: left, Table: "customers", KeyCols: []string{"cid"}, KeyExprs: key, Cols: custCols}
		assert.True(t, Streaming(n))
		assert.False(t, Streaming(&HashJoin{Left: left, Right: left}))
	})
}

func TestUnion(t *testing.T) {
	a := &Input{Cols: []Column{{"x", types.NewInt().AsNotNull()}}}
	b := &Input{Cols: []Column{{"y", types.NewInt()}}, ID: 1}
	n := &Union{Ins: []Node{a, b}}
	assert.Equal(t, "x", n.Columns()[0].Name)
	assert.False(t, n.Columns()[0].Type.NotNull, "nullable when any input is")
	rows, err := runMany(t, n, [][][]any{{{int64(1)}, {int64(2)}}, {{nil}, {int64(2)}}}, 1, nil, nil)
	require.NoError(t, err)
	assert.Equal(t, [][]any{{int64(1)}, {int64(2)}, {nil}, {int64(2)}}, rows)
	rows, err = runMany(t, n, [][][]any{nil, {{int64(3)}}}, 1, nil, nil)
	require.NoError(t, err)
	assert.Equal(t, [][]any{{int64(3)}}, rows)
}
