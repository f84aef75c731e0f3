package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTableWriterSizesColumnsFromTheWindow(t *testing.T) {
	cols := []column{newColumn("id", "BIGINT"), newColumn("name", "STRING"), newColumn("note", "STRING")}
	var b strings.Builder
	w := newTableWriter(&b, cols, 2)
	require.NoError(t, w.row([]any{int64(1), "a", nil}))
	assert.True(t, w.holding())
	assert.Empty(t, b.String(), "rows of an unfilled window are held")
	require.NoError(t, w.row([]any{int64(22), "éé", "x"}))
	assert.False(t, w.holding(), "a full window is written")
	// A later, wider row keeps the widths found in the window and widens its own line only.
	require.NoError(t, w.row([]any{int64(333), "a much longer name", "y"}))
	require.NoError(t, w.finish())
	assert.Equal(t, ""+
		" id | name | note\n"+
		"----+------+------\n"+
		"  1 | a    | NULL\n"+
		" 22 | éé   | x\n"+
		" 333 | a much longer name | y\n"+
		"(3 rows)\n", b.String())
}

func TestTableWriterEmptyAndWide(t *testing.T) {
	var b strings.Builder
	w := newTableWriter(&b, []column{newColumn("名前", "STRING")}, 10)
	require.NoError(t, w.finish())
	assert.Equal(t, " 名前\n------\n(0 rows)\n", b.String(), "wide characters count two columns")

	b.Reset()
	w = newTableWriter(&b, []column{newColumn("n", "STRING")}, 10)
	require.NoError(t, w.row([]any{"日本"}))
	require.NoError(t, w.flushWindow()) // the time limit of the window ran out
	require.NoError(t, w.row([]any{"x"}))
	require.NoError(t, w.finish())
	assert.Equal(t, " n\n------\n 日本\n x\n(2 rows)\n", b.String())
}

func TestExpandedWriter(t *testing.T) {
	var b strings.Builder
	w := newExpandedWriter(&b, []column{newColumn("id", "INT"), newColumn("region", "STRING")})
	require.NoError(t, w.row([]any{int64(1), "US"}))
	assert.Contains(t, b.String(), "region | US\n", "expanded rows are written at once")
	require.NoError(t, w.row([]any{int64(2), nil}))
	require.NoError(t, w.finish())
	assert.Equal(t, ""+
		"-[ RECORD 1 ]----\n"+
		"id     | 1\n"+
		"region | US\n"+
		"-[ RECORD 2 ]----\n"+
		"id     | 2\n"+
		"region | NULL\n"+
		"(2 rows)\n", b.String())
}

func TestDelimitedAndJSONWriters(t *testing.T) {
	cols := []column{newColumn("id", "INT"), newColumn("s", "STRING")}
	rows := [][]any{{int64(1), "a,b"}, {int64(2), nil}, {nil, ""}}
	for _, tc := range []struct {
		format, want string
	}{
		{formatCSV, "id,s\n1,\"a,b\"\n2,\n,\"\"\n"},
		{formatTSV, "id\ts\n1\ta,b\n2\t\\N\n\\N\t\n"},
		{formatJSON, `{"id":1,"s":"a,b"}` + "\n" + `{"id":2,"s":null}` + "\n" + `{"id":null,"s":""}` + "\n"},
	} {
		var b strings.Builder
		w, err := newRowWriter(tc.format, false, &b, cols, 1000)
		require.NoError(t, err)
		for _, r := range rows {
			require.NoError(t, w.row(r))
			assert.False(t, w.holding(), tc.format+" writes every row as it comes")
		}
		require.NoError(t, w.finish())
		assert.Equal(t, tc.want, b.String(), tc.format)
	}
	_, err := newRowWriter("xml", false, nil, cols, 1)
	assert.Error(t, err)
}
