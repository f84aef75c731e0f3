package engine

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

// jsonFastCalls are the calls the fast path answers, compared with the tree path.
var jsonFastCalls = []struct {
	name    string
	clauses []string
}{
	{"JSON_VALUE", nil},
	{"JSON_VALUE", []string{"ERROR ON ERROR"}},
	{"JSON_QUERY", nil},
	{"JSON_QUERY", []string{"WITH CONDITIONAL ARRAY WRAPPER"}},
	{"JSON_QUERY", []string{"WITH UNCONDITIONAL ARRAY WRAPPER", "EMPTY OBJECT ON ERROR"}},
	{"JSON_QUERY", []string{"EMPTY ARRAY ON ERROR"}},
	{"JSON_EXISTS", nil},
	{"JSON_EXISTS", []string{"UNKNOWN ON ERROR"}},
	{"JSON_EXISTS", []string{"ERROR ON ERROR"}},
}

// jsonAnswer evaluates name(docs, path, clauses…) over the docs (nil: NULL)
// by the fast path (fast) or the tree path, rendered per row.
func jsonAnswer(t testing.TB, fast bool, name, path string, clauses []string, docs []*string) []string {
	t.Helper()
	args := []Expr{&Col{Index: 0, Name: "j", T: stringType}, strConst(path)}
	for _, c := range clauses {
		args = append(args, &JSONClause{Text: c})
	}
	e, err := NewCall(name, args)
	require.NoError(t, err)
	if fast {
		require.NotNil(t, jsonFastPath(e.(*Call)), "%s(%s) takes the fast path", name, path)
	}
	b := array.NewStringBuilder(memory.DefaultAllocator)
	for _, d := range docs {
		if d == nil {
			b.AppendNull()
		} else {
			b.Append(*d)
		}
	}
	col := b.NewArray()
	batch := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "j", Type: arrow.BinaryTypes.String, Nullable: true}}, nil), []arrow.Array{col}, int64(len(docs)))
	defer batch.Release()
	col.Release()
	ec := &evalCtx{ctx: context.Background(), mem: memory.DefaultAllocator, now: time.Now(), consts: map[*Const]arrow.Array{}}
	defer ec.release()
	jsonFastOff = !fast
	defer func() { jsonFastOff = false }()
	out, err := e.eval(ec, batch)
	if err != nil {
		return []string{"error: " + err.Error()}
	}
	defer out.Release()
	rows := make([]string, out.Len())
	for i := range rows {
		if out.IsNull(i) {
			rows[i] = "NULL"
		} else {
			rows[i] = fmt.Sprintf("%q", out.ValueStr(i))
		}
	}
	return rows
}

func ptr(s string) *string { return &s }

func TestJSONFastPathEqualsTree(t *testing.T) {
	docs := []*string{nil,
		ptr(`{"a": {"b": 7}, "d": [1, "x", {"e": null}], "s": "h\u00e9\"llo\n", "t": true}`),
		ptr(` { "a" : { "b" : [ 1.50 , -0 , 1e7 , 12345678901234567890, 0.0001 ] } , "a": 2 } `),
		ptr(`{"a": {"b": "<&>"}, "d": ["\u2028", "é", "\ud800"], "k\u0061": 1}`),
		ptr(`{"a": {"b": {"c": [ ]}}, "d": [[1,2],[3]], "x": false}`),
		ptr(`{"a": 1,}`), ptr(`{"a": 01}`), ptr(`[1, 2] x`), ptr(`"abc`), ptr(`{"a": "\x"}`), ptr(`{"a": "\u12g4"}`),
		ptr(`[1, 2, 3]`), ptr(`"just a string"`), ptr(`42`), ptr(`null`), ptr(``), ptr(`{"a": 1e}`), ptr(`{"a":-}`),
		ptr(`{"d": [0, {"z": "tail\u0001"}], "a": {"b": 1}}`),
	}
	paths := []string{"$", "$.a", "$.a.b", "$.d[1]", "$.d[0]", "$.d[2].e", "$.d[5]", "$.s", "$.t", `$."a".b`, "$['a']", "$.ka", "lax $.a.b[0]", "$.a.b[3]", "$[1]", "$.x", "$.d[0][1]"}
	for _, c := range jsonFastCalls {
		for _, p := range paths {
			want := jsonAnswer(t, false, c.name, p, c.clauses, docs)
			got := jsonAnswer(t, true, c.name, p, c.clauses, docs)
			require.Equal(t, want, got, "%s(…, %q %v)", c.name, p, c.clauses)
		}
	}
}

func TestJSONFastPathScope(t *testing.T) {
	for _, tc := range []struct {
		name, path string
		clauses    []string
		fast       bool
	}{
		{"JSON_VALUE", "$.a.b", nil, true},
		{"JSON_VALUE", "$.a[*]", nil, false},
		{"JSON_VALUE", "strict $.a", nil, false},
		{"JSON_VALUE", "$.a", []string{"RETURNING INT"}, false},
		{"JSON_QUERY", "$.*", nil, false},
		{"JSON_EXISTS", "$.d[1]", nil, true},
	} {
		args := []Expr{&Col{Index: 0, Name: "j", T: stringType}, strConst(tc.path)}
		for _, c := range tc.clauses {
			args = append(args, &JSONClause{Text: c})
		}
		e, err := NewCall(tc.name, args)
		require.NoError(t, err)
		require.Equal(t, tc.fast, jsonFastPath(e.(*Call)) != nil, "%s(%s %v)", tc.name, tc.path, tc.clauses)
	}
}

func TestJSONNumberValid(t *testing.T) {
	for s, ok := range map[string]bool{"0": true, "-0": true, "1.5": true, "1e7": true, "1E+7": true, "-1.25e-3": true,
		"01": false, "1.": false, ".5": false, "1e": false, "-": false, "1-2": false, "+1": false, "": false} {
		require.Equal(t, ok, jsonNumberValid(s), s)
	}
}

func FuzzJSONFastPath(f *testing.F) {
	for _, s := range []string{`{"a": {"b": 7}}`, `{"d": [1, "x\n", {"e": null}]}`, `[1.5e3, -0, true]`, `{"a": "<\u00e9>", "a": 1}`, `{"a":{"b":[{"c":"\ud800"}]}}`} {
		f.Add(s, uint8(0))
	}
	paths := []string{"$", "$.a", "$.a.b", "$.d[1]", "$.d[2].e", "$[0]", "$.a.b[0].c", "$.e"}
	f.Fuzz(func(t *testing.T, doc string, k uint8) {
		p := paths[int(k)%len(paths)]
		c := jsonFastCalls[int(k/8)%len(jsonFastCalls)]
		docs := []*string{&doc}
		require.Equal(t, jsonAnswer(t, false, c.name, p, c.clauses, docs), jsonAnswer(t, true, c.name, p, c.clauses, docs), "%s(%q, %q %v)", c.name, doc, p, c.clauses)
	})
}
