package parser

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/xwb1989/sqlparser"
)

// The parser relies on these properties of sqlparser's Tokenizer; a
// different version of the library must not break them silently.
func TestLexOffsets(t *testing.T) {
	src := "SELECT `a b`, x FROM t\n  WHERE s = 'it''s' AND n >= 1.5e3 -- c\n AND p = ? AND q = :name /* x */;"
	l, err := lex(src)
	require.NoError(t, err)
	var got []string
	for _, tk := range l.toks {
		got = append(got, src[tk.start:tk.end])
	}
	assert.Equal(t, []string{"SELECT", "`a b`", ",", "x", "FROM", "t", "WHERE", "s", "=", "'it''s'", "AND", "n",
		">=", "1.5e3", "AND", "p", "=", "?", "AND", "q", "=", ":name", ";"}, got)
	require.Len(t, l.comments, 2)
	assert.Equal(t, "-- c\n", src[l.comments[0].start:l.comments[0].end])
	assert.Equal(t, "/* x */", src[l.comments[1].start:l.comments[1].end])

	byText := map[string]token{}
	for _, tk := range l.toks {
		byText[src[tk.start:tk.end]] = tk
	}
	assert.Equal(t, "it's", byText["'it''s'"].val, "strings are unescaped")
	assert.Equal(t, "select", byText["SELECT"].val, "keywords are lower-cased")
	assert.Equal(t, "a b", byText["`a b`"].val)
	assert.True(t, byText["`a b`"].quoted)
	assert.Equal(t, ":v1", byText["?"].val, "? becomes :v1")
	assert.True(t, l.isPositional(byText["?"]))
	assert.False(t, l.isPositional(byText[":name"]))
	assert.Equal(t, sqlparser.FLOAT, byText["1.5e3"].typ)
}

func TestLexWords(t *testing.T) {
	l, err := lex("PARTITIONED `with` With date `Date`")
	require.NoError(t, err)
	require.Len(t, l.toks, 5)
	assert.True(t, l.isWord(l.toks[0], "partitioned"), "unknown words are plain identifiers")
	assert.False(t, l.isWord(l.toks[1], "with"), "a quoted word is never a keyword")
	assert.True(t, l.isWord(l.toks[2], "with"))
	v, ok := l.identValue(l.toks[3])
	assert.True(t, ok)
	assert.Equal(t, "date", v, "a bare keyword used as a name keeps its written case")
	v, _ = l.identValue(l.toks[4])
	assert.Equal(t, "Date", v)
}

func TestLexErrors(t *testing.T) {
	for _, tc := range []struct {
		src, msg string
		col      int
	}{
		{"SELECT 'abc", "unterminated string literal", 8},
		{"SELECT * FROM t$x", `unexpected character "$" (identifiers with such characters must be quoted in backticks)`, 16},
		{"SELECT `", "unterminated or empty quoted identifier", 8},
		{"SELECT ``", "unterminated or empty quoted identifier", 8},
		{"SELECT /* x", "unterminated comment", 8},
		{"SELECT 1x", `malformed number "1x"`, 8},
		{"SELECT X'0'", `malformed hex or bit literal "X'0'"`, 8},
		{"SELECT /*! 1 */", "MySQL-specific comments /*! … */ are not supported", 8},
	} {
		_, err := lex(tc.src)
		var pe *Error
		require.ErrorAs(t, err, &pe, tc.src)
		assert.Equal(t, tc.msg, pe.Message, tc.src)
		assert.Equal(t, 1, pe.Line, tc.src)
		assert.Equal(t, tc.col, pe.Column, tc.src)
	}
}

func TestPosition(t *testing.T) {
	src := "ab\ncdé f\n"
	for _, tc := range []struct{ off, line, col int }{
		{0, 1, 1}, {2, 1, 3}, {3, 2, 1}, {5, 2, 3}, {8, 2, 5}, {10, 3, 1}, {99, 3, 1},
	} {
		line, col := position(src, tc.off)
		assert.Equal(t, [2]int{tc.line, tc.col}, [2]int{line, col}, "offset %d", tc.off)
	}
}

func TestRewriteMapsOffsets(t *testing.T) {
	rw := &rewrite{src: "EXPLAIN UPSERT INTO t VALUES (DATE '2024-01-01', x)"}
	rw.add(0, 8, "")
	rw.add(8, 14, "INSERT")
	rw.add(30, 47, "__f0('2024-01-01')")
	text := rw.text()
	assert.Equal(t, "INSERT INTO t VALUES (__f0('2024-01-01'), x)", text)
	assert.Equal(t, 8, rw.toOrig(0), "inside a replacement: start of the replaced span")
	assert.Equal(t, 15, rw.toOrig(7), "INTO")
	assert.Equal(t, 30, rw.toOrig(25), "inside the typed literal")
	assert.Equal(t, 49, rw.toOrig(42), "x after the literal")
}

// A bare name directly followed by $changelog or $binlog is one identifier.
func TestLexVirtualTableNames(t *testing.T) {
	l, err := lex("FROM db.Orders$ChangeLog WHERE status$binlog.x = 1")
	require.NoError(t, err)
	var got []string
	for _, tk := range l.toks {
		v, ok := l.identValue(tk)
		if !ok {
			v = tk.text(l.src)
		}
		got = append(got, v)
	}
	assert.Equal(t, []string{"FROM", "db", ".", "Orders$changelog", "WHERE", "status$binlog", ".", "x", "=", "1"}, got)
	assert.True(t, l.toks[3].virtual)
	assert.Equal(t, "Orders$ChangeLog", l.src[l.toks[3].start:l.toks[3].end], "the token spans the name as written")

	for _, src := range []string{"FROM t$changelogs", "FROM t $changelog", "FROM `t`$changelog", "FROM t$snapshots"} {
		_, err := lex(src)
		var pe *Error
		require.ErrorAs(t, err, &pe, src)
		assert.Contains(t, pe.Message, `unexpected character "$"`, src)
	}
}
