package engine

import (
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var updateReadme = flag.Bool("update-readme", false, "rewrite the README's function table from the registry")

// TestRegistryComplete: every entry has a family, a signature, a description
// and an example, and what its kind needs to run: a scalar a type rule and a
// kernel, an aggregate a type rule and a state (or the built-in accumulators).
func TestRegistryComplete(t *testing.T) {
	defs := Functions()
	require.NotEmpty(t, defs)
	for _, d := range defs {
		assert.Equal(t, strings.ToUpper(d.Name), d.Name, "names are upper case")
		assert.NotEmpty(t, d.Family, "%s: no family", d.Name)
		assert.NotEmpty(t, d.Signature, "%s: no signature", d.Name)
		assert.True(t, strings.HasPrefix(d.Signature, d.Name), "%s: the signature %q starts with another name", d.Name, d.Signature)
		assert.NotEmpty(t, d.Desc, "%s: no description", d.Name)
		assert.NotEmpty(t, d.Example, "%s: no example", d.Name)
		assert.NotContains(t, d.Desc, "\n", "%s: the description is one line", d.Name)
		switch d.Kind {
		case ScalarFunc:
			assert.NotNil(t, d.Type, "%s: no type rule", d.Name)
			assert.NotNil(t, d.Kernel, "%s: no kernel", d.Name)
		case AggregateFunc:
			assert.NotNil(t, d.Type, "%s: no type rule", d.Name)
			assert.True(t, d.Builtin || d.AggState != nil, "%s: no state", d.Name)
		case SyntaxFunc, WindowOnly:
			assert.Nil(t, d.Kernel, "%s: a %s function is not run as a Call", d.Name, d.Kind)
		}
	}
}

// TestFunctionTableInREADME fails when the README's function table is not
// the registry's (go generate ./engine, or make readme-functions, rewrites it).
func TestFunctionTableInREADME(t *testing.T) {
	const path = "../README.md"
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	got, ok := ReplaceFunctionTable(string(b))
	require.True(t, ok, "README.md has no function table markers %q … %q", FunctionTableBegin, FunctionTableEnd)
	if *updateReadme {
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
		return
	}
	require.Equal(t, string(b), got, "README.md's function table is stale: run make readme-functions")
}

// TestFuncHelp: \h NAME's text names the signature and the example.
func TestFuncHelp(t *testing.T) {
	text, ok := FuncHelp("ceiling")
	require.True(t, ok)
	assert.Contains(t, text, "CEIL (scalar function; also CEILING)")
	assert.Contains(t, text, "Example: CEIL(1.2) = 2")
	_, ok = FuncHelp("NO_SUCH_FUNCTION")
	assert.False(t, ok)
}
