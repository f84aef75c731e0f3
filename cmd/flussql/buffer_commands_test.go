package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGoCommand: \g runs the statement being typed without ';', runs the last one again
// when nothing is typed, and \g file sends that result to the file only.
func TestGoCommand(t *testing.T) {
	path := filepath.Join(t.TempDir(), "result.txt")
	code, out := runFake(t, "\\g\nSELECT id\n  FROM numbers LIMIT 2\n\\g\n\\g "+path+"\nSELECT id FROM numbers LIMIT 1;\n")
	assert.Equal(t, exitError, code, "\\g with nothing run yet is an error")
	assert.Contains(t, out, `\g: no statement to run yet`)

	code, out = runFake(t, "SELECT id\n  FROM numbers LIMIT 2\n\\g\n\\g "+path+"\nSELECT id FROM numbers LIMIT 1;\n")
	assert.Equal(t, exitOK, code, out)
	assert.Equal(t, 1, strings.Count(out, "(2 rows)"), out)
	assert.Contains(t, out, "(1 row)")
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Contains(t, string(data), "(2 rows)")
	assert.NotContains(t, string(data), "(1 row)", "only \\g's result goes to the file")
	assert.Equal(t, []string{"SELECT id\n  FROM numbers LIMIT 2", "SELECT id\n  FROM numbers LIMIT 2", "SELECT id FROM numbers LIMIT 1"}, fakeStatements())
}
