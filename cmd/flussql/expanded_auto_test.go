package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAutoWriter(t *testing.T) {
	cols := []column{newColumn("id", "BIGINT"), newColumn("text", "STRING")}
	rows := [][]any{{int64(1), "short"}, {int64(2), strings.Repeat("w", 30)}}
	for _, tc := range []struct {
		name     string
		width    int
		expanded bool
	}{
		{name: "fits", width: 80},
		{name: "too wide", width: 30, expanded: true},
		{name: "no terminal", width: 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			w := newAutoWriter(&b, cols, 10, tc.width)
			for _, r := range rows {
				require.NoError(t, w.row(r))
			}
			assert.True(t, w.holding())
			require.NoError(t, w.finish())
			assert.Equal(t, tc.expanded, strings.Contains(b.String(), "-[ RECORD 2 ]"), b.String())
			assert.Contains(t, b.String(), "(2 rows)")
			// The window decides: with a window of one short row, a wider row after it
			// stays in the table chosen.
			b.Reset()
			w = newAutoWriter(&b, cols, 1, tc.width)
			for _, r := range rows {
				require.NoError(t, w.row(r))
			}
			require.NoError(t, w.finish())
			assert.NotContains(t, b.String(), "RECORD")
			assert.Contains(t, b.String(), "  2 | "+strings.Repeat("w", 30))
		})
	}
	assert.Equal(t, len(" 1 | short"), tableWidth([]int{1, 5}))
}

func TestExpandedCommand(t *testing.T) {
	code, out := runFake(t, "\\x auto\n\\x\n\\x off\n\\x auto\n\\x sideways\n")
	assert.Equal(t, exitError, code)
	assert.Equal(t, "Expanded display is used automatically.\nExpanded display is on.\nExpanded display is off.\nExpanded display is used automatically.\n", out[:strings.Index(out, "<stdin>")])
	assert.Contains(t, out, `\x: say on, off or auto`)
}
