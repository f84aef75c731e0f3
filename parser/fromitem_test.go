package parser

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A (SELECT …) after a comma is a derived table only in a FROM list;
// elsewhere it is a scalar subquery, and the text round-trips unchanged.
func TestScalarSubqueryAfterComma(t *testing.T) {
	for _, q := range []string{
		"SELECT COALESCE(a, (SELECT MAX(b) FROM t2)) FROM t",
		"SELECT MAP['m', (SELECT MAX(a) FROM t)] FROM t",
		"SELECT GREATEST(x, (SELECT MAX(a) FROM t)) FROM t",
		"SELECT ARRAY[1, (SELECT MAX(b) FROM t2)] FROM t",
		"SELECT ROW(1, (SELECT MAX(b) FROM t2)) FROM t",
		"SELECT a, (SELECT MAX(b) FROM t2) FROM t",
		"SELECT a FROM t WHERE a IN (1, (SELECT MAX(b) FROM t2))",
		"SELECT a FROM t, (SELECT b FROM t2) AS s WHERE a = b",
		"SELECT a FROM t JOIN u ON t.a = u.a, (SELECT b FROM t2) AS s WHERE a = b",
		"SELECT a FROM t WHERE a = COALESCE(b, (SELECT MAX(b) FROM t2, (SELECT 1 AS one) AS o))",
	} {
		st, err := Parse(q)
		require.NoError(t, err, q)
		assert.Equal(t, q, st.(*Select).String(), q)
	}
	// A derived table after a FROM list's comma still gets its alias.
	st, err := Parse("SELECT a FROM t, (SELECT b FROM t2) WHERE a = b")
	require.NoError(t, err)
	assert.Equal(t, "SELECT a FROM t, (SELECT b FROM t2) WHERE a = b", st.(*Select).String())
}

// Field access after a subscript: arr[1].f, MAP_ENTRIES(m)[1].key.
func TestSubscriptField(t *testing.T) {
	for q, want := range map[string]string{
		"SELECT MAP_ENTRIES(m)[1].key FROM t":       "SELECT MAP_ENTRIES(m)[1].`key` FROM t",
		"SELECT arr[1].f, arr[1].`g`.h FROM t":      "SELECT arr[1].f, arr[1].g.h FROM t",
		"SELECT grid[1][2].f FROM t":                "SELECT grid[1][2].f FROM t",
		"SELECT arr[1].f[2] FROM t":                 "SELECT arr[1].f[2] FROM t",
		"SELECT m['a'].f FROM t WHERE arr[2].f = 1": "SELECT m['a'].f FROM t WHERE arr[2].f = 1",
	} {
		st, err := Parse(q)
		require.NoError(t, err, q)
		assert.Equal(t, want, st.(*Select).String(), q)
	}
	st, err := Parse("SELECT arr[1].f FROM t")
	require.NoError(t, err)
	fa, ok := st.(*Select).Items[0].Expr.(*FieldAccess)
	require.True(t, ok, "%T", st.(*Select).Items[0].Expr)
	assert.Equal(t, "f", fa.Field)
	_, ok = fa.Base.(*Subscript)
	assert.True(t, ok, "%T", fa.Base)
}

// UNNEST and LATERAL in FROM are refused with ErrNotSupported, naming themselves.
func TestRefusedFromItems(t *testing.T) {
	for q, want := range map[string]string{
		"SELECT id, x FROM t CROSS JOIN UNNEST(arr) AS u(x)":             "UNNEST in FROM",
		"SELECT id FROM t, UNNEST(arr)":                                  "UNNEST in FROM",
		"SELECT id FROM t, LATERAL TABLE(f(s))":                          "LATERAL",
		"SELECT id FROM t LEFT JOIN LATERAL TABLE(f(s)) AS x(a) ON TRUE": "LATERAL",
		"SELECT id FROM t, LATERAL (SELECT c FROM u WHERE u.id = t.id)":  "LATERAL",
	} {
		_, err := Parse(q)
		require.Error(t, err, q)
		assert.ErrorIs(t, err, ErrNotSupported, q)
		assert.Contains(t, err.Error(), want, q)
	}
	// The words stay names elsewhere.
	_, err := Parse("SELECT unnest FROM (SELECT 1 AS unnest) AS lateral")
	require.NoError(t, err)
}

// Flink statement forms flussql does not run are refused, naming themselves.
func TestRefusedForms(t *testing.T) {
	for q, want := range map[string]string{
		"CREATE TABLE c AS SELECT * FROM u":                            "CREATE TABLE … AS SELECT",
		"CREATE TABLE IF NOT EXISTS db.c WITH ('k' = 'v') AS SELECT 1": "CREATE TABLE … AS SELECT",
		"INSERT OVERWRITE u SELECT * FROM u":                           "INSERT OVERWRITE",
		"SELECT a, COUNT(*) FROM t GROUP BY ROLLUP(a)":                 "ROLLUP",
		"SELECT a, COUNT(*) FROM t GROUP BY GROUPING SETS ((a), ())":   "GROUPING SETS",
		"EXPLAIN SELECT a FROM t GROUP BY CUBE (a, b)":                 "CUBE",
	} {
		_, err := Parse(q)
		require.Error(t, err, q)
		assert.ErrorIs(t, err, ErrNotSupported, q)
		assert.Contains(t, err.Error(), want, q)
	}
	for _, q := range []string{"SELECT rollup, cube FROM t GROUP BY rollup, cube", "CREATE TABLE c (a INT) WITH ('k' = 'v')"} {
		_, err := Parse(q)
		require.NoError(t, err, q)
	}
}
