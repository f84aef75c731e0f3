package engine

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/types"
)

// evalText evaluates e over rec (columns cols) and renders the result as Arrow prints it.
func evalText(t *testing.T, mem memory.Allocator, rec arrow.RecordBatch, cols []Column, e Expr) (string, error) {
	t.Helper()
	rec.Retain()
	in := &sliceInput{batches: []arrow.RecordBatch{rec}}
	defer in.Close()
	op, err := Build(context.Background(), &Project{Input: &Input{Cols: cols}, Exprs: []Expr{e}, Names: []string{"x"}}, in, Options{Mem: mem})
	require.NoError(t, err)
	var out string
	err = Drain(op, func(b arrow.RecordBatch) error {
		out += b.Column(0).String()
		return nil
	})
	return out, err
}

// TestArrayFunctions runs the ARRAY functions over collectionBatch's rows:
// tags ['a', NULL, 'c'], NULL, [], ['z'] and i 3, 1, NULL, 0, and ARRAY[i, 2, i] built from i.
func TestArrayFunctions(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec, cols := collectionBatch(t, mem)
	defer rec.Release()
	tags, i := col(0, "tags", cols[0].Type), col(2, "i", cols[2].Type)
	ints := must(NewArrayValue([]Expr{i, intConst(2), i}))
	call := func(name string, args ...Expr) Expr { return must(NewCall(name, args)) }
	null := NewNull()
	for _, tc := range []struct {
		name string
		e    Expr
		want string
	}{
		{"constructor over a column", ints, "[[3 2 3] [1 2 1] [(null) 2 (null)] [0 2 0]]"},
		{"nested constructor", must(NewArrayValue([]Expr{ints, must(NewArrayValue([]Expr{intConst(9)}))})), "[[[3 2 3] [9]] [[1 2 1] [9]] [[(null) 2 (null)] [9]] [[0 2 0] [9]]]"},
		{"append a column, NULL appended", call("ARRAY_APPEND", tags, must(NewCast(i, types.NewString()))), `[["a" (null) "c" "3"] (null) [(null)] ["z" "0"]]`},
		{"prepend", call("ARRAY_PREPEND", ints, intConst(7)), "[[7 3 2 3] [7 1 2 1] [7 (null) 2 (null)] [7 0 2 0]]"},
		{"concat, NULL with a NULL array", call("ARRAY_CONCAT", tags, tags), `[["a" (null) "c" "a" (null) "c"] (null) [] ["z" "z"]]`},
		{"concat widens INT to BIGINT", call("ARRAY_CONCAT", ints, must(NewArrayValue([]Expr{&Const{Value: int64(5), T: types.NewBigInt()}}))), "[[3 2 3 5] [1 2 1 5] [(null) 2 (null) 5] [0 2 0 5]]"},
		{"contains", call("ARRAY_CONTAINS", tags, strConst("z")), "[false (null) false true]"},
		{"contains NULL finds a NULL element", call("ARRAY_CONTAINS", tags, null), "[true (null) false false]"},
		{"position is 1-based, 0 when absent", call("ARRAY_POSITION", ints, intConst(2)), "[2 2 2 2]"},
		{"position of a column", call("ARRAY_POSITION", tags, strConst("c")), "[3 (null) 0 0]"},
		{"position of NULL is NULL", call("ARRAY_POSITION", ints, null), "[(null) (null) (null) (null)]"},
		{"distinct keeps one NULL", call("ARRAY_DISTINCT", ints), "[[3 2] [1 2] [(null) 2] [0 2]]"},
		{"remove", call("ARRAY_REMOVE", ints, i), "[[2] [2] [2] [2]]"},
		{"remove a value", call("ARRAY_REMOVE", ints, intConst(2)), "[[3 3] [1 1] [(null) (null)] [0 0]]"},
		{"except", call("ARRAY_EXCEPT", ints, must(NewArrayValue([]Expr{intConst(1), intConst(3)}))), "[[2] [2] [(null) 2] [0 2]]"},
		{"intersect", call("ARRAY_INTERSECT", ints, must(NewArrayValue([]Expr{intConst(1), intConst(0), null}))), "[[] [1] [(null)] [0]]"},
		{"union", call("ARRAY_UNION", ints, must(NewArrayValue([]Expr{intConst(4), i}))), "[[3 2 4] [1 2 4] [(null) 2 4] [0 2 4]]"},
		{"reverse", call("ARRAY_REVERSE", tags), `[["c" (null) "a"] (null) [] ["z"]]`},
		{"slice from 2", call("ARRAY_SLICE", tags, intConst(2)), `[[(null) "c"] (null) [] []]`},
		{"slice negative", call("ARRAY_SLICE", tags, intConst(-2), intConst(-1)), `[[(null) "c"] (null) [] ["z"]]`},
		{"slice 0 is the first", call("ARRAY_SLICE", tags, intConst(0), intConst(1)), `[["a"] (null) [] ["z"]]`},
		{"slice from after to", call("ARRAY_SLICE", tags, intConst(3), intConst(2)), `[[] (null) [] []]`},
		{"slice by a NULL column", call("ARRAY_SLICE", ints, i), "[[3] [1 2 1] (null) [0 2 0]]"},
		{"sort, NULLs first", call("ARRAY_SORT", tags), `[[(null) "a" "c"] (null) [] ["z"]]`},
		{"sort descending, NULLs last", call("ARRAY_SORT", tags, &Const{Value: false, T: types.NewBoolean().AsNotNull()}), `[["c" "a" (null)] (null) [] ["z"]]`},
		{"sort ascending, NULLs last", call("ARRAY_SORT", ints, &Const{Value: true, T: types.NewBoolean().AsNotNull()}, &Const{Value: false, T: types.NewBoolean().AsNotNull()}), "[[2 3 3] [1 1 2] [2 (null) (null)] [0 0 2]]"},
		{"max skips NULL", call("ARRAY_MAX", tags), `["c" (null) (null) "z"]`},
		{"min", call("ARRAY_MIN", ints), "[2 1 2 0]"},
		{"join skips NULL", call("ARRAY_JOIN", tags, strConst("-")), `["a-c" (null) "" "z"]`},
		{"join replaces NULL", call("ARRAY_JOIN", tags, strConst("-"), strConst("?")), `["a-?-c" (null) "" "z"]`},
		{"element of 0 and 1", call("ELEMENT", call("ARRAY_SLICE", tags, intConst(1), intConst(1))), `["a" (null) (null) "z"]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := evalText(t, mem, rec, cols, tc.e)
			require.NoError(t, err, tc.e.String())
			assert.Equal(t, tc.want, got, tc.e.String())
		})
	}
	_, err := evalText(t, mem, rec, cols, call("ELEMENT", tags))
	assert.ErrorContains(t, err, "the array has 3 elements")
}

// TestArrayTypes checks the result types, Flink's.
func TestArrayTypes(t *testing.T) {
	a := col(0, "a", types.NewInt())
	lit := must(NewArrayValue([]Expr{intConst(1), intConst(2)}))
	typ := func(name string, args ...Expr) string {
		c, err := NewCall(name, args)
		require.NoError(t, err, name)
		return c.Type().String()
	}
	assert.Equal(t, "ARRAY<INT NOT NULL> NOT NULL", lit.Type().String())
	assert.Equal(t, "ARRAY<INT> NOT NULL", must(NewArrayValue([]Expr{a, intConst(1)})).Type().String())
	assert.Equal(t, "ARRAY<DECIMAL(11, 1)> NOT NULL", must(NewArrayValue([]Expr{a, &Const{Value: int64(15), T: types.NewDecimal(2, 1)}})).Type().String())
	assert.Equal(t, "ARRAY<INT> NOT NULL", must(NewArrayValue([]Expr{intConst(1), NewNull()})).Type().String())
	assert.Equal(t, "ARRAY<INT>", typ("ARRAY_APPEND", lit, a))
	assert.Equal(t, "ARRAY<INT NOT NULL> NOT NULL", typ("ARRAY_PREPEND", lit, intConst(0)))
	assert.Equal(t, "BOOLEAN NOT NULL", typ("ARRAY_CONTAINS", lit, a))
	assert.Equal(t, "INT", typ("ARRAY_POSITION", lit, a))
	assert.Equal(t, "INT", typ("ARRAY_MAX", lit))
	assert.Equal(t, "INT", typ("ELEMENT", lit))
	assert.Equal(t, "STRING NOT NULL", typ("ARRAY_JOIN", must(NewArrayValue([]Expr{strConst("a")})), strConst(",")))
	for _, bad := range []struct {
		name string
		args []Expr
		want string
	}{
		{"ARRAY_CONTAINS", []Expr{a, intConst(1)}, "needs an ARRAY"},
		{"ARRAY_CONTAINS", []Expr{lit, strConst("x")}, "is no element of an ARRAY<INT>"},
		{"ARRAY_JOIN", []Expr{lit, strConst(",")}, "ARRAY of strings"},
		{"ARRAY_SORT", []Expr{lit, intConst(1)}, "is no BOOLEAN"},
		{"ARRAY_CONCAT", []Expr{lit, must(NewArrayValue([]Expr{strConst("x")}))}, "no common element type"},
	} {
		_, err := NewCall(bad.name, bad.args)
		assert.ErrorContains(t, err, bad.want, bad.name)
	}
	_, err := NewArrayValue(nil)
	assert.ErrorContains(t, err, "at least one element")
}
