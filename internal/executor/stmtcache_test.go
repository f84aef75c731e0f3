package executor

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestStmtCacheReusesParsedStatements(t *testing.T) {
	var sc stmtCache
	const q = "SELECT * FROM users WHERE id = ?"
	first, err := sc.parse(q)
	require.NoError(t, err)
	again, err := sc.parse(q)
	require.NoError(t, err)
	assert.Same(t, first, again, "the same text is parsed once")

	_, err = sc.parse("SELEC nonsense")
	require.Error(t, err)
	assert.NotContains(t, sc.byText, "SELEC nonsense", "a text that fails to parse is not kept")
}

func TestStmtCacheEvictsLeastRecentlyUsed(t *testing.T) {
	var sc stmtCache
	text := func(i int) string { return fmt.Sprintf("SELECT * FROM t WHERE id = %d", i) }
	kept, err := sc.parse(text(0))
	require.NoError(t, err)
	for i := 1; i <= stmtCacheSize; i++ {
		_, err := sc.parse(text(i))
		require.NoError(t, err)
		if i == stmtCacheSize/2 {
			again, err := sc.parse(text(0)) // used again: moves to the front
			require.NoError(t, err)
			require.Same(t, kept, again)
		}
	}
	assert.Len(t, sc.byText, stmtCacheSize)
	assert.Equal(t, stmtCacheSize, sc.order.Len())
	assert.Contains(t, sc.byText, text(0), "recently used text kept")
	assert.NotContains(t, sc.byText, text(1), "least recently used text evicted")
	assert.Contains(t, sc.byText, text(stmtCacheSize))
}
