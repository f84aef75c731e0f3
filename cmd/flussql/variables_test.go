package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestInterpolate(t *testing.T) {
	s := &shell{vars: map[string]string{"t": "orders", "who": "O'Brien", "col": "my col"}}
	for _, tc := range []struct{ in, want string }{
		{"SELECT * FROM :t", "SELECT * FROM orders"},
		{"WHERE name = :'who'", "WHERE name = 'O''Brien'"},
		{"SELECT :\"col\" FROM t", "SELECT `my col` FROM t"},
		{"SELECT ':t', `:t`, \":t\"", "SELECT ':t', `:t`, \":t\""},
		{"SELECT x::INT, :t", "SELECT x::INT, orders"},
		{"SELECT :unknown, :'unknown', :", "SELECT :unknown, :'unknown', :"},
		{"SELECT 1 -- :t", "SELECT 1 -- :t"},
		{"SELECT /* :t */ :t", "SELECT /* :t */ orders"},
		{"SELECT :'t", "SELECT :'t"},
		{":t:t", "ordersorders"},
	} {
		st := &interpolation{}
		assert.Equal(t, tc.want, s.interpolate(tc.in, st), tc.in)
	}
	// State carries across the lines of one statement.
	st := &interpolation{}
	assert.Equal(t, "SELECT 'a", s.interpolate("SELECT 'a", st))
	assert.Equal(t, ":t' , orders", s.interpolate(":t' , :t", st))
	assert.Equal(t, "/* :t", s.interpolate("/* :t", st))
	assert.Equal(t, ":t */ orders", s.interpolate(":t */ :t", st))
}

func TestCommandArgs(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
		err  string
	}{
		{in: "", want: nil},
		{in: "a  b\tc", want: []string{"a", "b", "c"}},
		{in: "'a b' 'it''s'x", want: []string{"a b", "it'sx"}},
		{in: `"quoted id" ''`, want: []string{`"quoted id"`, ""}},
		{in: "'open", err: "not closed"},
		{in: `"open`, err: "not closed"},
	} {
		got, err := commandArgs(tc.in, nil)
		if tc.err != "" {
			assert.ErrorContains(t, err, tc.err, tc.in)
			continue
		}
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.want, got, tc.in)
	}
}

// TestVariablesInASession: \set, \unset, \echo and :name in statements and commands.
func TestVariablesInASession(t *testing.T) {
	code, out := runFake(t, `\set n 2
\set tbl numbers
\set greeting 'hello   world'
\set
\echo :greeting from :tbl :'greeting' ':tbl'
\echo -n no newline
\echo
SELECT id FROM :tbl LIMIT :n;
\unset n
\echo :n
\set bad-name x
`)
	assert.Equal(t, exitError, code)
	assert.Contains(t, out, "greeting = 'hello   world'\nn = '2'\ntbl = 'numbers'\n")
	assert.Contains(t, out, "hello   world from numbers 'hello   world' :tbl\nno newline\n")
	assert.Contains(t, out, "(2 rows)")
	assert.Contains(t, out, "\n:n\n", "an unset variable is left as written")
	assert.Contains(t, out, `invalid variable name "bad-name"`)
	assert.Contains(t, fakeStatements(), "SELECT id FROM numbers LIMIT 2")
}
