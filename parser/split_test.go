package parser

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSplit(t *testing.T) {
	script := "CREATE DATABASE d;\n" +
		"-- a comment; not a statement\n" +
		"INSERT INTO t VALUES ('a;b', \"c;d\", 'it''s;', 'back\\', 'slash;');\n" +
		"SELECT `odd;name` FROM t /* ; */ WHERE x = 1 # ;\n;\n" +
		";;  \n" +
		"  SELECT 1 // ;\n  FROM t"
	pieces := Split(script)
	require.Len(t, pieces, 4)
	assert.Equal(t, Piece{Text: "CREATE DATABASE d", Offset: 0, Line: 1, Column: 1, Terminated: true}, pieces[0])
	assert.Equal(t, "-- a comment; not a statement\nINSERT INTO t VALUES ('a;b', \"c;d\", 'it''s;', 'back\\', 'slash;')", pieces[1].Text)
	assert.Equal(t, 2, pieces[1].Line)
	assert.Equal(t, "SELECT `odd;name` FROM t /* ; */ WHERE x = 1 # ;", pieces[2].Text)
	assert.True(t, pieces[2].Terminated)
	assert.Equal(t, "SELECT 1 // ;\n  FROM t", pieces[3].Text)
	assert.Equal(t, 7, pieces[3].Line)
	assert.Equal(t, 3, pieces[3].Column)
	assert.False(t, pieces[3].Terminated, "the last statement has no ';'")
	for _, p := range pieces {
		assert.Equal(t, p.Text, script[p.Offset:p.Offset+len(p.Text)])
	}
	for _, p := range []Piece{pieces[0], pieces[2]} {
		_, err := p.Parse()
		assert.NoError(t, err, p.Text)
	}
	// The splitter skips over "…" like any quoted text; the parser then
	// refuses the double quotes at their position (line 3 of the script).
	_, err := pieces[1].Parse()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "line 3, column 30: double quotes are not SQL quotes here: write `c;d` (backticks)")
}

func TestSplitIncomplete(t *testing.T) {
	for _, script := range []string{
		"SELECT 'open string; still open",
		"SELECT `open ident;",
		"SELECT 1 /* open comment ;",
		"SELECT * FROM t",
	} {
		pieces := Split(script)
		require.Len(t, pieces, 1, script)
		assert.False(t, pieces[0].Terminated, script)
	}
	assert.Empty(t, Split(""))
	assert.Empty(t, Split(" ;; -- x\n /* y */ ;"))
}

func TestPieceParseReportsScriptPositions(t *testing.T) {
	script := "SHOW TABLES;\nSELECT *\n  FORM t;\n  SELECT * FORM t;"
	pieces := Split(script)
	require.Len(t, pieces, 3)
	_, err := pieces[1].Parse()
	var pe *Error
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, [2]int{3, 3}, [2]int{pe.Line, pe.Column})
	assert.Equal(t, "FORM", script[pe.Offset:pe.Offset+4])
	_, err = pieces[2].Parse()
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, [2]int{4, 12}, [2]int{pe.Line, pe.Column})
	assert.Equal(t, "line 4, column 12: "+pe.Message, err.Error())
}
