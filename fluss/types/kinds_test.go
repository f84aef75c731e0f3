package types

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestEveryKindIsDescribed fails when a kind constant has no entry in the kinds table.
func TestEveryKindIsDescribed(t *testing.T) {
	roots := map[string]bool{}
	for _, k := range Kinds() {
		ki, ok := k.info()
		if !assert.True(t, ok, "kind %d has no entry in the kinds table", int(k)) {
			continue
		}
		assert.NotEmpty(t, ki.root, k)
		assert.False(t, roots[ki.root], "JSON root %s used twice", ki.root)
		roots[ki.root] = true
		assert.Equal(t, k.Nested(), ki.params == nestedParams, k)
		assert.Equal(t, k.Nested(), ki.arrow == nil, "%s: scalar kinds need an Arrow type", k)
	}
	assert.Equal(t, "Kind(99)", Kind(99).String())
}
