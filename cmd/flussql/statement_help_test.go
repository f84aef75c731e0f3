package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestStatementHelp(t *testing.T) {
	list, err := statementHelpText(nil)
	require.NoError(t, err)
	for _, h := range statementHelps {
		assert.Contains(t, list, "\n  "+h.name+"\n")
	}
	for _, tc := range []struct {
		words []string
		want  []string // the statements shown
		err   string
	}{
		{words: []string{"select"}, want: []string{"SELECT"}},
		{words: []string{"CREATE", "table"}, want: []string{"CREATE TABLE"}},
		{words: []string{"drop"}, want: []string{"DROP ACL", "DROP DATABASE", "DROP TABLE"}},
		{words: []string{"show", "kv"}, want: []string{"SHOW KV SNAPSHOTS"}},
		{words: []string{"frobnicate"}, err: `no help for "frobnicate"`},
	} {
		text, err := statementHelpText(tc.words)
		if tc.err != "" {
			assert.ErrorContains(t, err, tc.err)
			continue
		}
		require.NoError(t, err)
		assert.Equal(t, len(tc.want), strings.Count(text, "Statement: "), text)
		for _, w := range tc.want {
			assert.Contains(t, text, "Statement: "+w+"\nSyntax:\n  ")
		}
	}
}

// TestStatementHelpParses: the syntax shown for each statement names words the shell's
// completion knows, so that \h and Tab agree.
func TestStatementHelpKeywords(t *testing.T) {
	known := map[string]bool{}
	for _, k := range sqlKeywords {
		known[k] = true
	}
	for _, h := range statementHelps {
		for _, w := range strings.Fields(h.name) {
			assert.True(t, known[w], "%s: %s is not in sqlKeywords", h.name, w)
		}
	}
}
