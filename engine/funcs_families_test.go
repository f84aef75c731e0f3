package engine

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestJavaRegex(t *testing.T) {
	for _, c := range []struct{ java, re2, refused string }{
		{java: `\d+[a-z]*`, re2: `\d+[a-z]*`},
		{java: `(?<year>\d{4})-(?<m>\d\d)`, re2: `(?P<year>\d{4})-(?P<m>\d\d)`},
		{java: `\p{Upper}\p{Lower}+`, re2: `[[:upper:]][[:lower:]]+`},
		{java: `[\p{Alpha}_]`, re2: `[[:alpha:]_]`},
		{java: `\P{Digit}`, re2: `[^[:digit:]]`},
		{java: `\Q(a+)\E`, re2: `\Q(a+)\E`},
		{java: `a\+b`, re2: `a\+b`},
		{java: `(a)\1`, refused: "backreference"},
		{java: `a(?=b)`, refused: "lookahead"},
		{java: `(?<!a)b`, refused: "lookbehind"},
		{java: `(?>a+)`, refused: "atomic group"},
		{java: `a++`, refused: "possessive"},
		{java: `\Gx`, refused: `\G`},
		{java: `(?x) a b`, refused: "flag"},
	} {
		got, err := javaRegex(c.java)
		if c.refused != "" {
			require.Error(t, err, c.java)
			assert.True(t, errors.Is(err, ErrUnsupported), c.java)
			assert.Contains(t, err.Error(), c.refused, c.java)
			continue
		}
		require.NoError(t, err, c.java)
		assert.Equal(t, c.re2, got, c.java)
	}
}

func TestJavaNumbers(t *testing.T) {
	for in, want := range map[string]string{
		"20.00": "2E+1", "1.50": "1.5", "-0.75": "-0.75", "100.10": "100.1", "0.00": "0", "100": "1E+2",
		"120": "1.2E+2", "0.0000000001": "1E-10", "0.000001": "0.000001", "-12.34": "-12.34",
	} {
		assert.Equal(t, want, javaStrippedDecimal(in), in)
	}
	for in, want := range map[float64]string{1.5: "1.5", 1: "1.0", 1e10: "1.0E10", 0.0001: "1.0E-4", -2.25: "-2.25"} {
		assert.Equal(t, want, javaDouble(in), in)
	}
}

func TestJSONPath(t *testing.T) {
	doc, err := parseJSON(`{"a": {"z": 1, "b": [1, 2.50, {"c": "x"}]}, "s": "t"}`)
	require.NoError(t, err)
	text := func(path string) []string {
		p, err := parseJSONPath(path)
		require.NoError(t, err, path)
		vs, _, err := p.eval(doc)
		if err != nil {
			return []string{"error"}
		}
		var out []string
		for _, v := range vs {
			var b stringsBuilder
			v.text(&b.Builder)
			out = append(out, b.String())
		}
		return out
	}
	assert.Equal(t, []string{`{"z":1,"b":[1,2.5,{"c":"x"}]}`}, text("$.a"))
	assert.Equal(t, []string{`"x"`}, text("$.a.b[2].c"))
	assert.Equal(t, []string{`2.5`}, text("lax $.a['b'][1]"))
	assert.Equal(t, []string{`1`, `2.5`, `{"c":"x"}`}, text("$.a.b[*]"))
	assert.Empty(t, text("$.nope"))
	assert.Equal(t, []string{"error"}, text("strict $.nope"))
	_, err = parseJSONPath("a.b")
	assert.Error(t, err)
}

type stringsBuilder struct{ strings.Builder }
