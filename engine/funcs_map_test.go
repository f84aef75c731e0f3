package engine

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/types"
)

// render prints row i of a (nested) array as Flink's gateway does: [a, b], {k=v}, (a, b).
func render(a arrow.Array, i int) string {
	if a.IsNull(i) {
		return "NULL"
	}
	var parts []string
	switch x := a.(type) {
	case *array.Map:
		s, e := x.ValueOffsets(i)
		entries := x.ListValues().(*array.Struct)
		for j := s; j < e; j++ {
			parts = append(parts, render(entries.Field(0), int(j))+"="+render(entries.Field(1), int(j)))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case *array.List:
		s, e := x.ValueOffsets(i)
		for j := s; j < e; j++ {
			parts = append(parts, render(x.ListValues(), int(j)))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case *array.Struct:
		for f := range x.NumField() {
			parts = append(parts, render(x.Field(f), i))
		}
		return "(" + strings.Join(parts, ", ") + ")"
	}
	return a.ValueStr(i)
}

// runRendered evaluates e over rec and renders every row.
func runRendered(t *testing.T, mem memory.Allocator, rec arrow.RecordBatch, cols []Column, e Expr) ([]string, error) {
	rec.Retain()
	in := &sliceInput{batches: []arrow.RecordBatch{rec}}
	defer in.Close()
	op, err := Build(context.Background(), &Project{Input: &Input{Cols: cols}, Exprs: []Expr{e}, Names: []string{"x"}}, in, Options{Mem: mem})
	require.NoError(t, err)
	var out []string
	err = Drain(op, func(b arrow.RecordBatch) error {
		for i := range int(b.NumRows()) {
			out = append(out, render(b.Column(0), i))
		}
		return nil
	})
	return out, err
}

func call(name string, args ...Expr) Expr { return must(NewCall(name, args)) }

func TestMapFunctions(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec, cols := collectionBatch(t, mem)
	defer rec.Release()
	tags, attrs, i := col(0, "tags", cols[0].Type), col(1, "attrs", cols[1].Type), col(2, "i", cols[2].Type)
	nullStr := &Const{T: types.NewString(), Untyped: true, Text: "NULL"}
	for _, tc := range []struct {
		name string
		e    Expr
		want []string
	}{
		{"MAP_KEYS", call("MAP_KEYS", attrs), []string{"[x, y]", "NULL", "[]", "[y]"}},
		{"MAP_VALUES keeps NULL values", call("MAP_VALUES", attrs), []string{"[1, NULL]", "NULL", "[]", "[7]"}},
		{"MAP_ENTRIES", call("MAP_ENTRIES", attrs), []string{"[(x, 1), (y, NULL)]", "NULL", "[]", "[(y, 7)]"}},
		{"MAP[…] over a column", must(NewMapValue([]Expr{strConst("k"), i, strConst("j"), intConst(2)})),
			[]string{"{k=3, j=2}", "{k=1, j=2}", "{k=NULL, j=2}", "{k=0, j=2}"}},
		{"MAP[…] repeated key: the last wins", must(NewMapValue([]Expr{strConst("a"), intConst(1), strConst("b"), i, strConst("a"), i})),
			[]string{"{b=3, a=3}", "{b=1, a=1}", "{b=NULL, a=NULL}", "{b=0, a=0}"}},
		{"MAP[…] subscript", must(NewSubscript(must(NewMapValue([]Expr{strConst("k"), i})), strConst("k"))), []string{"3", "1", "NULL", "0"}},
		{"MAP_FROM_ARRAYS keeps a repeated key", call("MAP_FROM_ARRAYS", call("SPLIT", strConst("a,b,a"), strConst(",")), call("SPLIT", strConst("1,2,3"), strConst(","))),
			[]string{"{a=1, b=2, a=3}", "{a=1, b=2, a=3}", "{a=1, b=2, a=3}", "{a=1, b=2, a=3}"}},
		{"MAP_FROM_ARRAYS of a map's parts", call("MAP_FROM_ARRAYS", call("MAP_KEYS", attrs), call("MAP_VALUES", attrs)), []string{"{x=1, y=NULL}", "NULL", "{}", "{y=7}"}},
		{"MAP_UNION: the later value wins, NULL for a NULL map", call("MAP_UNION", attrs, must(NewMapValue([]Expr{strConst("y"), i, strConst("z"), intConst(9)}))),
			[]string{"{x=1, y=3, z=9}", "NULL", "{y=NULL, z=9}", "{y=0, z=9}"}},
		{"MAP_UNION of one", call("MAP_UNION", attrs), []string{"{x=1, y=NULL}", "NULL", "{}", "{y=7}"}},
		{"SPLIT", call("SPLIT", strConst("a,b,,c,"), strConst(",")), []string{"[a, b, , c, ]", "[a, b, , c, ]", "[a, b, , c, ]", "[a, b, , c, ]"}},
		{"SPLIT by '' and of ''", call("SPLIT", must(NewSubscript(tags, intConst(1))), strConst("")), []string{"[a]", "NULL", "NULL", "[z]"}},
		{"SPLIT of '' is []", call("SPLIT", strConst(""), strConst(",")), []string{"[]", "[]", "[]", "[]"}},
		{"SPLIT by NULL", call("SPLIT", strConst("a"), nullStr), []string{"NULL", "NULL", "NULL", "NULL"}},
		{"STR_TO_MAP defaults", call("STR_TO_MAP", strConst("a=1,b=2=3,c,=d,a=4")), repeat4("{a=4, b=2=3, c=NULL, =d}")},
		{"STR_TO_MAP regex delimiters", call("STR_TO_MAP", strConst("a : 1 ;b:2"), strConst(`\s*;\s*`), strConst(`\s*:\s*`)), repeat4("{a=1, b=2}")},
		{"STR_TO_MAP zero-width list delimiter", call("STR_TO_MAP", strConst("a1b"), strConst(""), strConst("1")), repeat4("{a=NULL, =, b=NULL}")},
		{"STR_TO_MAP of ''", call("STR_TO_MAP", strConst("")), repeat4("{}")},
		{"STR_TO_MAP of NULL", call("STR_TO_MAP", nullStr), repeat4("NULL")},
		{"STR_TO_MAP trailing delimiters", call("STR_TO_MAP", strConst("a=1,,,")), repeat4("{a=1}")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := runRendered(t, mem, rec, cols, tc.e)
			require.NoError(t, err, tc.e.String())
			assert.Equal(t, tc.want, got, tc.e.String())
		})
	}
	// Types.
	assert.Equal(t, "ARRAY<STRING NOT NULL>", call("MAP_KEYS", attrs).Type().String())
	assert.Equal(t, "ARRAY<ROW<`key` STRING NOT NULL, `value` INT>>", call("MAP_ENTRIES", attrs).Type().String())
	assert.True(t, must(NewMapValue([]Expr{strConst("k"), i})).Type().NotNull)
	assert.Equal(t, "MAP<BIGINT NOT NULL, INT> NOT NULL", must(NewMapValue([]Expr{intConst(1), i, &Const{Value: int64(2), T: types.NewBigInt().AsNotNull()}, i})).Type().String())
	assert.False(t, call("STR_TO_MAP", strConst("a=1")).Type().NotNull, "STR_TO_MAP is nullable, as in Flink")
	assert.True(t, call("SPLIT", strConst("a"), strConst(",")).Type().NotNull)
	// Errors.
	for _, c := range []struct {
		e   Expr
		msg string
	}{
		{must(NewMapValue([]Expr{must(NewSubscript(tags, intConst(2))), intConst(1)})), "MAP keys are never NULL"},
		{call("MAP_FROM_ARRAYS", call("SPLIT", strConst("a,b"), strConst(",")), call("SPLIT", strConst("1"), strConst(","))), "must be as many"},
		{call("MAP_FROM_ARRAYS", tags, tags), "MAP keys are never NULL"},
		{call("STR_TO_MAP", strConst("a"), must(NewSubscript(tags, intConst(1))), strConst("(")), "not a valid regular expression"},
	} {
		_, err := runRendered(t, mem, rec, cols, c.e)
		assert.ErrorContains(t, err, c.msg, c.e.String())
	}
	for _, c := range []struct {
		name string
		args []Expr
		msg  string
	}{
		{"MAP_KEYS", []Expr{tags}, "needs a MAP"},
		{"MAP_UNION", []Expr{attrs, must(NewMapValue([]Expr{strConst("k"), strConst("v")}))}, "MAPs of one type"},
		{"MAP_FROM_ARRAYS", []Expr{tags, i}, "two ARRAYs"},
		{"STR_TO_MAP", []Expr{strConst("a"), strConst(",")}, "1 or 3 arguments"},
		{"STR_TO_MAP", []Expr{strConst("a"), strConst("("), strConst("=")}, "not a valid regular expression"},
	} {
		_, err := NewCall(c.name, c.args)
		assert.ErrorContains(t, err, c.msg, c.name)
	}
	_, err := NewCall("STR_TO_MAP", []Expr{strConst("a"), strConst(`(a)\1`), strConst("=")})
	assert.True(t, errors.Is(err, ErrUnsupported), "a backreference RE2 lacks: %v", err)
	_, err = NewMapValue([]Expr{strConst("k")})
	assert.ErrorContains(t, err, "in pairs")
	_, err = NewMapValue([]Expr{strConst("k"), intConst(1), intConst(2), intConst(3)})
	assert.ErrorContains(t, err, "no common type")
}

func repeat4(s string) []string { return []string{s, s, s, s} }

func TestJavaSplit(t *testing.T) {
	for _, c := range []struct {
		s, re string
		limit int
		want  []string
	}{
		{"a,b,,c,,", ",", 0, []string{"a", "b", "", "c"}},
		{",a", ",", 0, []string{"", "a"}},
		{"abc", "", 0, []string{"a", "b", "c"}},
		{"abc", "x", 0, []string{"abc"}},
		{",", ",", 0, []string{}},
		{"a=1=2", "=", 2, []string{"a", "1=2"}},
		{"a=", "=", 2, []string{"a", ""}},
		{"=a", "=", 2, []string{"", "a"}},
		{"a1b22c", `\d+`, 0, []string{"a", "b", "c"}},
	} {
		got := javaSplit(regexp.MustCompile(c.re), c.s, c.limit)
		if len(got) == 0 {
			got = []string{}
		}
		assert.Equal(t, c.want, got, "%q.split(%q, %d)", c.s, c.re, c.limit)
	}
}

func TestCollect(t *testing.T) {
	a := must(NewAgg("COLLECT", col(0, "s", types.NewString()), false))
	assert.Equal(t, "MAP<STRING NOT NULL, INT NOT NULL> NOT NULL", a.T.String())
	st := a.newState()
	for _, v := range []any{"b", "a", "b", "b"} {
		require.NoError(t, st.add(v))
	}
	got, err := st.result()
	require.NoError(t, err)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	b := must(newBuilder(mem, a.T))
	defer b.Release()
	appender(b)(got)
	appender(b)(must(a.newState().result()))
	arr := b.NewArray()
	defer arr.Release()
	assert.Equal(t, "{b=3, a=1}", render(arr, 0))
	assert.Equal(t, "{}", render(arr, 1), "COLLECT over no rows is an empty multiset, not NULL")
	_, err = NewAgg("COLLECT", col(0, "m", types.NewMap(types.NewString().AsNotNull(), types.NewInt())), false)
	assert.ErrorContains(t, err, "not supported")
}
