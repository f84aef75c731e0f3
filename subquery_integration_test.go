package flussql_test

import (
	"database/sql"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	_ "modernc.org/sqlite" // the reference database

	"github.com/flussql/flussql/fluss/flusstest/realcluster"
)

// TestSubqueriesAgainstSQLite loads the same rows (with NULLs and duplicate rows) into
// log tables of a real Fluss cluster and into SQLite and runs every subquery form on
// both: [NOT] IN with and without NULLs in the subquery and over an empty one, [NOT]
// EXISTS correlated with a residual and uncorrelated, scalar subqueries uncorrelated and
// correlated in WHERE, HAVING and the select list (COUNT over a missing group is 0),
// and nesting. The results are compared as multisets.
func TestSubqueriesAgainstSQLite(t *testing.T) {
	admin, dbName := openTestDB(t)
	db, err := sql.Open("fluss", "fluss://"+realcluster.Addr(t)+"/"+dbName)
	require.NoError(t, err)
	defer db.Close()
	ref, err := sql.Open("sqlite", ":memory:")
	require.NoError(t, err)
	defer ref.Close()
	ref.SetMaxOpenConns(1)

	data := map[string][]string{
		// outer: duplicates (row 1 twice), a NULL key, a NULL a, a NULL b.
		"ot": {"(1, 5, 1, 'x')", "(1, 5, 1, 'x')", "(2, NULL, 2, 'y')", "(3, 7, NULL, NULL)", "(4, 9, 3, 'z')",
			"(5, -1, 0, 'x')", "(NULL, 3, 1, 'w')", "(6, 12, 4, 'y')"},
		// inner: a NULL a, a NULL key, duplicates (row 7 twice), keys the outer lacks and the reverse.
		"it": {"(1, 5, 2, 'a')", "(1, 5, 1, 'b')", "(2, 3, 2, 'c')", "(3, NULL, 1, 'd')", "(4, 9, 3, 'e')",
			"(4, 8, 5, 'f')", "(NULL, 7, 0, 'g')", "(7, 12, 1, 'h')", "(7, 12, 1, 'h')"},
		"et": nil, // empty
		// a primary-key table: subqueries over its key are lookups (on Fluss 0.9 too).
		"pt": {"(1, 0, 3, 'p')", "(2, 5, 1, 'q')", "(4, 9, 9, 'r')", "(7, 12, 0, 's')", "(9, NULL, 2, 't')"},
	}
	for _, tbl := range []string{"ot", "it", "et", "pt"} {
		pk := ""
		if tbl == "pt" {
			pk = ", PRIMARY KEY (k) NOT ENFORCED"
		}
		_, err := admin.Exec(`CREATE TABLE ` + dbName + `.` + tbl + ` (k INT, a INT, b INT, s STRING` + pk + `) WITH ('bucket.num' = '2')`)
		require.NoError(t, err)
		_, err = ref.Exec(`CREATE TABLE ` + tbl + ` (k INTEGER, a INTEGER, b INTEGER, s TEXT)`)
		require.NoError(t, err)
		if rows := data[tbl]; len(rows) > 0 {
			_, err = db.Exec(`INSERT INTO ` + tbl + ` VALUES ` + strings.Join(rows, ", "))
			require.NoError(t, err)
			_, err = ref.Exec(`INSERT INTO ` + tbl + ` VALUES ` + strings.Join(rows, ", "))
			require.NoError(t, err)
		}
	}

	// empty marks the cases whose right answer is no row; every other case must give
	// rows, so that the data exercises it.
	cases := []struct {
		name, q string
		empty   bool
	}{
		{"IN", `SELECT k, a FROM ot WHERE a IN (SELECT a FROM it)`, false},
		{"IN with a WHERE in the subquery", `SELECT k, a FROM ot WHERE k IN (SELECT k FROM it WHERE b > 1)`, false},
		{"NOT IN, a NULL in the subquery: no row", `SELECT k, a FROM ot WHERE a NOT IN (SELECT a FROM it)`, true},
		{"NOT IN without NULLs: the NULL a drops", `SELECT k, a FROM ot WHERE a NOT IN (SELECT a FROM it WHERE a IS NOT NULL)`, false},
		{"NOT IN of an empty subquery: every row, NULL a included", `SELECT k, a FROM ot WHERE a NOT IN (SELECT a FROM et)`, false},
		{"IN of an empty subquery", `SELECT k, a FROM ot WHERE a IN (SELECT a FROM et)`, true},
		{"NOT (x IN …)", `SELECT k FROM ot WHERE NOT (k IN (SELECT k FROM it WHERE k IS NOT NULL))`, false},
		{"correlated IN", `SELECT k, a FROM ot WHERE a IN (SELECT a FROM it WHERE it.k = ot.k)`, false},
		{"row IN", `SELECT k, a, b FROM ot WHERE (k, a) IN (SELECT k, a FROM it)`, false},
		{"row IN, correlated", `SELECT k, a, b FROM ot WHERE (a, b) IN (SELECT a, b FROM it WHERE it.k = ot.k)`, false},
		{"IN and NOT IN as values (three-valued)", `SELECT k, a, a IN (SELECT a FROM it) AS i1, a NOT IN (SELECT a FROM it) AS i2, a NOT IN (SELECT a FROM it WHERE a IS NOT NULL) AS i3, a IN (SELECT a FROM et) AS i4 FROM ot`, false},
		{"EXISTS under OR", `SELECT k, b FROM ot WHERE k = 6 OR EXISTS (SELECT 1 FROM it WHERE it.k = ot.k AND it.b > ot.b)`, false},
		{"NOT over OR of INs", `SELECT k, a, b FROM ot WHERE NOT (a IN (SELECT a FROM it WHERE a IS NOT NULL) OR b IN (SELECT b FROM it WHERE b > 2))`, false},
		{"IN inside an aggregate", `SELECT k, SUM(CASE WHEN a IN (SELECT a FROM it) THEN 1 ELSE 0 END) AS n FROM ot GROUP BY k`, false},
		{"EXISTS correlated with a residual", `SELECT k, a, b FROM ot WHERE EXISTS (SELECT * FROM it WHERE it.k = ot.k AND it.b <> ot.b)`, false},
		{"NOT EXISTS correlated with a residual", `SELECT k, a, b FROM ot WHERE NOT EXISTS (SELECT * FROM it WHERE it.k = ot.k AND it.b <> ot.b AND it.a > it.b)`, false},
		{"NOT EXISTS correlated", `SELECT k, s FROM ot WHERE NOT EXISTS (SELECT 1 FROM it WHERE it.k = ot.k)`, false},
		{"EXISTS uncorrelated, true", `SELECT k FROM ot WHERE EXISTS (SELECT * FROM it WHERE a > 10)`, false},
		{"EXISTS uncorrelated, false", `SELECT k FROM ot WHERE EXISTS (SELECT * FROM it WHERE a > 100)`, true},
		{"NOT EXISTS of an empty table", `SELECT k FROM ot WHERE NOT EXISTS (SELECT 1 FROM et)`, false},
		{"EXISTS with only a non-equality correlation", `SELECT k, a FROM ot WHERE EXISTS (SELECT 1 FROM it WHERE it.a > ot.a + 5)`, false},
		{"scalar in WHERE", `SELECT k, a FROM ot WHERE a > (SELECT MIN(a) FROM it WHERE b > 1)`, false},
		{"scalar in WHERE, no row: NULL", `SELECT k, a FROM ot WHERE a > (SELECT a FROM it WHERE k = 99) OR a = 3`, false},
		{"scalar in the select list", `SELECT k, (SELECT MAX(b) FROM it) AS m, a - (SELECT SUM(a) FROM it) AS d FROM ot`, false},
		{"scalar in HAVING", `SELECT k, SUM(a) AS s FROM ot GROUP BY k HAVING SUM(a) > (SELECT MIN(a) FROM it) * 2`, false},
		{"scalar in HAVING and the select list of an aggregate", `SELECT COUNT(*), (SELECT COUNT(*) FROM it) FROM ot HAVING COUNT(*) > (SELECT COUNT(*) FROM et)`, false},
		{"IN and NOT IN in HAVING", `SELECT k, COUNT(*) FROM ot GROUP BY k HAVING COUNT(*) IN (SELECT b FROM it) AND k NOT IN (SELECT k FROM it WHERE k > 5)`, false},
		{"NOT IN in HAVING, a NULL in the subquery: no group", `SELECT k, SUM(a) FROM ot GROUP BY k HAVING SUM(a) NOT IN (SELECT a FROM it)`, true},
		{"EXISTS in HAVING", `SELECT k, MAX(a) FROM ot GROUP BY k HAVING EXISTS (SELECT 1 FROM it WHERE b > 4) AND NOT EXISTS (SELECT 1 FROM et)`, false},
		{"scalar beside an aggregate over no rows", `SELECT COUNT(*), (SELECT MAX(b) FROM it) AS m FROM et`, false},
		{"scalar in HAVING over no rows", `SELECT COUNT(*) FROM et HAVING COUNT(*) >= (SELECT COUNT(*) FROM et)`, false},
		{"scalar in the select list and ORDER BY of a grouped query", `SELECT k, COUNT(*) * (SELECT MIN(b) FROM it) AS x FROM ot GROUP BY k ORDER BY (SELECT MAX(b) FROM it) + k`, false},
		{"correlated scalar without an aggregate, one row per outer row", `SELECT k, b, (SELECT s FROM it WHERE it.k = ot.k AND it.b = ot.b) AS s2 FROM ot`, false},
		{"SELECT * shows no subquery column", `SELECT * FROM ot WHERE a > (SELECT MIN(a) FROM it WHERE b > 1) AND b <= (SELECT MAX(b) FROM it WHERE it.k = ot.k)`, false},
		{"correlated scalar in HAVING, on the GROUP BY column", `SELECT k, COUNT(*) FROM ot GROUP BY k HAVING COUNT(*) >= (SELECT COUNT(*) FROM it WHERE it.k = ot.k)`, false},
		{"correlated scalar in WHERE", `SELECT k, a FROM ot WHERE a >= (SELECT MAX(a) FROM it WHERE it.k = ot.k)`, false},
		{"correlated scalar on two keys", `SELECT k, a FROM ot WHERE a <= (SELECT SUM(it.a) FROM it WHERE it.k = ot.k AND it.b = ot.b)`, false},
		{"correlated scalar with a local condition", `SELECT k, a FROM ot WHERE a < (SELECT 2 * SUM(a) FROM it WHERE it.k = ot.k AND it.b > 1)`, false},
		{"correlated COUNT over a missing group is 0", `SELECT k, (SELECT COUNT(*) FROM it WHERE it.k = ot.k) AS n, (SELECT COUNT(a) FROM it WHERE it.k = ot.k) AS na FROM ot`, false},
		{"correlated SUM over a missing group is NULL", `SELECT k, (SELECT SUM(a) FROM it WHERE it.k = ot.k) AS s FROM ot`, false},
		{"correlated COUNT in WHERE", `SELECT k FROM ot WHERE (SELECT COUNT(*) FROM it WHERE it.k = ot.k) = 0`, false},
		{"join with a correlated scalar (TPC-H Q17's shape)", `SELECT ot.k, it.a FROM ot JOIN it ON it.k = ot.k WHERE it.a < (SELECT MAX(i2.a) FROM it i2 WHERE i2.k = ot.k)`, false},
		{"self-correlated EXISTS and NOT EXISTS (TPC-H Q21's shape)", `SELECT l1.k, l1.b FROM it l1 WHERE EXISTS (SELECT * FROM it l2 WHERE l2.k = l1.k AND l2.b <> l1.b) AND NOT EXISTS (SELECT * FROM it l3 WHERE l3.k = l1.k AND l3.b <> l1.b AND l3.a > l3.b * 4)`, false},
		{"nested (TPC-H Q20's shape)", `SELECT k, s FROM ot WHERE k IN (SELECT k FROM it WHERE a IN (SELECT a FROM ot WHERE b > 0) AND b >= (SELECT MIN(o2.b) FROM ot o2 WHERE o2.k = it.k))`, false},
		{"in a FROM subquery", `SELECT x.k, x.n FROM (SELECT k, (SELECT COUNT(*) FROM it WHERE it.k = ot.k) AS n FROM ot WHERE a NOT IN (SELECT a FROM et)) x WHERE x.n > 0`, false},
		{"over a FROM subquery without alias", `SELECT k FROM (SELECT k, a FROM ot) WHERE k IN (SELECT k FROM it) AND a > (SELECT MIN(a) FROM it)`, false},
		{"correlated to a FROM subquery's alias", `SELECT x.k FROM (SELECT k, b FROM ot) x WHERE EXISTS (SELECT 1 FROM it WHERE it.k = x.k AND it.b <> x.b)`, false},
		{"EXISTS over a primary-key table's key, with a residual", `SELECT k, a FROM ot WHERE EXISTS (SELECT 1 FROM pt WHERE pt.k = ot.k AND pt.b > ot.b)`, false},
		{"NOT EXISTS over a primary-key table's key", `SELECT k, a FROM ot WHERE NOT EXISTS (SELECT * FROM pt WHERE pt.k = ot.k)`, false},
		{"IN of a primary-key table's key", `SELECT k, a FROM ot WHERE a IN (SELECT k FROM pt WHERE b < 5)`, false},
		{"correlated IN of a primary-key table's key", `SELECT k, a FROM ot WHERE k IN (SELECT k FROM pt WHERE pt.a >= ot.a)`, false},
		{"no FROM", `SELECT (SELECT COUNT(*) FROM it) AS n`, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := diffRows(db, c.q)
			require.NoError(t, err, c.q)
			want, err := diffRows(ref, c.q)
			require.NoError(t, err, "SQLite: %s", c.q)
			assert.Empty(t, compareResults(got, want, false), "%s\n  flussql: %v\n  sqlite:  %v", c.q, got, want)
			assert.Equal(t, c.empty, len(want) == 0, "SQLite's rows: %v", want)
		})
	}

	t.Run("a scalar subquery of two rows is an error", func(t *testing.T) {
		_, err := diffRows(db, `SELECT k FROM ot WHERE a = (SELECT a FROM it WHERE k = 1)`)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "a scalar subquery returned more than one row")
	})
	t.Run("a correlated scalar subquery of two rows for an outer row is an error", func(t *testing.T) {
		_, err := diffRows(db, `SELECT k, (SELECT s FROM it WHERE it.k = ot.k) FROM ot`)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "a scalar subquery returned more than one row")
	})
	t.Run("EXPLAIN shows the decorrelated joins", func(t *testing.T) {
		plan := strings.Join(planLines(queryStrings(t, db, `EXPLAIN SELECT k FROM ot WHERE a NOT IN (SELECT a FROM it) AND EXISTS (SELECT * FROM it WHERE it.k = ot.k AND it.b <> ot.b)`)), "\n")
		assert.Contains(t, plan, "HashJoin ANTI (null-aware) ON")
		assert.Contains(t, plan, "HashJoin SEMI ON")
		assert.Contains(t, plan, "residual")
	})
}

func planLines(rows [][]string) []string {
	var out []string
	for _, r := range rows {
		out = append(out, strings.Join(r, " "))
	}
	return out
}
