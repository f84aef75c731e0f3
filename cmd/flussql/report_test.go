package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCodeStart(t *testing.T) {
	for _, tc := range []struct {
		text      string
		line, col int
	}{
		{"SELECT 1", 1, 1},
		{"  SELECT 1", 1, 3},
		{"-- note\n# more\n// and more\n  SELECT 1", 4, 3},
		{"/* a */ SELECT", 1, 9},
		{"/* a\n b */ SELECT", 2, 7},
		{"/*+ hint */", 1, 1},
		{"/* open", 1, 1},
		{"", 1, 1},
	} {
		line, col := codeStart(tc.text)
		assert.Equal(t, [2]int{tc.line, tc.col}, [2]int{line, col}, "%q", tc.text)
	}
}

func TestCaretLine(t *testing.T) {
	assert.Equal(t, "^", caretLine("abc", 1))
	assert.Equal(t, "  ^", caretLine("abc", 3))
	assert.Equal(t, "\t  ^", caretLine("\tab", 4), "tabs are kept so the caret lines up")
	assert.Equal(t, "    ^", caretLine("日本x", 3), "wide characters take two columns")
}
