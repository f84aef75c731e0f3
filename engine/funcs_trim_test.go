package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTrimPosition(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []any
		want any
	}{
		{"TRIM", []any{"  a b  "}, "a b"},
		{"TRIM", []any{"xxaxbxx", "x"}, "axb"},
		{"TRIM", []any{"abcab", "ab"}, "c"},
		{"LTRIM", []any{"  a  "}, "a  "},
		{"LTRIM", []any{"xxa", "x"}, "a"},
		{"RTRIM", []any{"  a  "}, "  a"},
		{"RTRIM", []any{"axx", "x"}, "a"},
		{"TRIM", []any{"", "x"}, ""},
		{"POSITION", []any{"b", "abc"}, int64(2)},
		{"POSITION", []any{"z", "abc"}, int64(0)},
		{"POSITION", []any{"", "abc"}, int64(1)},
		{"POSITION", []any{"é", "aéé"}, int64(2)},
		{"POSITION", []any{"c", "éàc"}, int64(3)},
	} {
		args := make([]Expr, len(tc.args))
		for i, a := range tc.args {
			args[i] = strConst(a.(string))
		}
		call, err := NewCall(tc.name, args)
		require.NoError(t, err)
		got, err := EvalConstant(call)
		require.NoError(t, err)
		assert.Equal(t, tc.want, got, "%s%q", tc.name, tc.args)
	}
}
