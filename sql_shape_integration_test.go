package flussql_test

import (
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	_ "modernc.org/sqlite"

	"github.com/flussql/flussql/fluss/flusstest/realcluster"
)

// shapeTables are small log tables in a TPC-H-like shape (part, supp,
// line, nation, region) and two tables x, y for set operations, with
// duplicate rows and NULLs. The same rows go into Fluss and SQLite.
var shapeTables = []struct {
	name, cols string
	rows       []string
	pk         string // the primary key of a primary-key table
}{
	{"region", "rk INT, rname STRING", []string{"(1, 'EUROPE')", "(2, 'ASIA')"}, ""},
	{"nation", "nk INT, name STRING, rk INT", []string{"(10, 'FRANCE', 1)", "(11, 'JAPAN', 2)", "(12, 'SPAIN', 1)"}, ""},
	{"nation_pk", "nk INT NOT NULL, name STRING, rk INT", []string{"(10, 'FRANCE', 1)", "(11, 'JAPAN', 2)", "(12, 'SPAIN', 1)"}, "nk"},
	{"supp", "sk INT, nk INT, sname STRING", []string{"(100, 10, 's100')", "(101, 11, 's101')", "(102, 12, 's102')", "(103, 10, 's103')"}, ""},
	{"part", "pk INT, brand STRING, size INT", []string{"(1, 'b1', 1)", "(2, 'b1', 5)", "(3, 'b2', 7)", "(4, 'b3', 2)"}, ""},
	{"line", "lk INT, pk INT, sk INT, qty INT", []string{
		"(1, 1, 100, 3)", "(2, 2, 100, 6)", "(3, 3, 101, 9)", "(4, 3, 102, 1)", "(5, 4, 103, 4)",
		"(6, 1, 101, 7)", "(7, 2, 102, 2)", "(8, 9, 100, 5)",
	}, ""},
	{"x", "v INT, s STRING", []string{"(1, 'a')", "(1, 'a')", "(1, 'a')", "(2, 'b')", "(NULL, 'n')", "(NULL, 'n')", "(3, NULL)", "(4, 'd')"}, ""},
	{"y", "v INT, s STRING", []string{"(1, 'a')", "(1, 'a')", "(NULL, 'n')", "(3, NULL)", "(3, NULL)", "(5, 'e')"}, ""},
	{"z", "v INT", []string{"(1)", "(3)", "(NULL)", "(7)"}, ""},
}

// TestSQLShapes runs comma joins (reordered, OR-factored, cross), derived
// column lists, WITH and set operations on a real cluster and compares the
// results with SQLite's over the same rows (with the SQLite spelling where
// it differs: no derived column lists; compound operators of equal
// precedence) or, for INTERSECT ALL and EXCEPT ALL, which SQLite lacks,
// with the multiset counts computed here.
func TestSQLShapes(t *testing.T) {
	db, dbName := openTestDB(t)
	ref, err := sql.Open("sqlite", ":memory:")
	require.NoError(t, err)
	defer ref.Close()
	ref.SetMaxOpenConns(1)
	for _, tb := range shapeTables {
		cols := tb.cols
		if tb.pk != "" {
			cols += ", PRIMARY KEY (" + tb.pk + ") NOT ENFORCED"
		}
		_, err := db.Exec(fmt.Sprintf("CREATE TABLE %s.%s (%s) WITH ('bucket.num' = '2')", dbName, tb.name, cols))
		require.NoError(t, err)
		_, err = db.Exec(fmt.Sprintf("INSERT INTO %s.%s VALUES %s", dbName, tb.name, strings.Join(tb.rows, ", ")))
		require.NoError(t, err)
		_, err = ref.Exec(fmt.Sprintf("CREATE TABLE %s (%s)", tb.name, strings.NewReplacer("STRING", "TEXT", "INT", "INTEGER").Replace(tb.cols)))
		require.NoError(t, err)
		_, err = ref.Exec(fmt.Sprintf("INSERT INTO %s VALUES %s", tb.name, strings.Join(tb.rows, ", ")))
		require.NoError(t, err)
	}
	cases := []struct {
		name    string
		q       string // $. stands for the database
		sqlite  string // "" when q itself runs on SQLite
		ordered bool
	}{
		{name: "4-way comma join, part and supp share no equality", q: `SELECT p.pk, s.sname, l.qty, n.name FROM $.part p, $.supp s, $.line l, $.nation n
			WHERE p.pk = l.pk AND s.sk = l.sk AND s.nk = n.nk AND p.size > 1`},
		{name: "3-way comma join starting from nation", q: `SELECT n.name, s.sname, l.lk FROM $.nation n, $.line l, $.supp s
			WHERE l.sk = s.sk AND s.nk = n.nk`},
		{name: "5-way comma join with region", q: `SELECT r.rname, SUM(l.qty) FROM $.line l, $.region r, $.supp s, $.nation n
			WHERE n.rk = r.rk AND s.sk = l.sk AND n.nk = s.nk GROUP BY r.rname`},
		{name: "SELECT * of a reordered join keeps the written order", q: `SELECT * FROM $.part p, $.supp s, $.line l WHERE p.pk = l.pk AND s.sk = l.sk AND l.qty > 5`},
		{name: "primary-key table written first is looked up", q: `SELECT n.name, s.sname, l.lk FROM $.nation_pk n, $.supp s, $.line l WHERE n.nk = s.nk AND s.sk = l.sk`},
		{name: "unqualified columns", q: `SELECT lk, sname FROM $.line, $.supp WHERE line.sk = supp.sk AND qty > 4`},
		{name: "OR-factored join (TPC-H Q19)", q: `SELECT l.lk, p.brand FROM $.line l, $.part p
			WHERE (p.pk = l.pk AND p.brand = 'b1' AND l.qty BETWEEN 1 AND 5) OR (p.pk = l.pk AND p.brand = 'b2' AND l.qty > 5)`},
		{name: "cross join", q: `SELECT n.name, r.rname FROM $.nation n, $.region r`},
		{name: "non-equi join", q: `SELECT n.nk, s.sk FROM $.nation n, $.supp s WHERE n.nk + 90 < s.sk`},
		{name: "CROSS JOIN", q: `SELECT r.rname, z.v FROM $.region r CROSS JOIN $.z`},
		{name: "comma and JOIN", q: `SELECT n.name, l.lk FROM $.nation n, $.supp s JOIN $.line l ON s.sk = l.sk WHERE n.nk = s.nk AND l.qty < 5`},
		{name: "comma list in parentheses joined", q: `SELECT n.name, l.lk FROM ($.line l, $.nation n) JOIN $.supp s ON s.sk = l.sk WHERE n.nk = s.nk AND l.lk > 2`},
		{name: "comma join in a subquery", q: `SELECT t.name, COUNT(*) FROM (SELECT n.name FROM $.supp s, $.nation n WHERE s.nk = n.nk) AS t GROUP BY t.name`},
		{name: "derived column list",
			q:      `SELECT c.k, c.cnt FROM (SELECT sk, COUNT(*) FROM $.line GROUP BY sk) AS c (k, cnt) WHERE c.cnt > 1`,
			sqlite: `SELECT c.k, c.cnt FROM (SELECT sk AS k, COUNT(*) AS cnt FROM line GROUP BY sk) AS c WHERE c.cnt > 1`},
		{name: "TPC-H Q13 shape",
			q: `SELECT c_count, COUNT(*) AS custdist FROM (SELECT s.sk, COUNT(l.lk) FROM $.supp s LEFT JOIN $.line l ON s.sk = l.sk AND l.qty > 2 GROUP BY s.sk)
				AS c_orders (c_sk, c_count) GROUP BY c_count ORDER BY custdist DESC, c_count DESC`,
			sqlite: `SELECT c_count, COUNT(*) AS custdist FROM (SELECT s.sk AS c_sk, COUNT(l.lk) AS c_count FROM supp s LEFT JOIN line l ON s.sk = l.sk AND l.qty > 2 GROUP BY s.sk)
				AS c_orders GROUP BY c_count ORDER BY custdist DESC, c_count DESC`, ordered: true},
		{name: "WITH used twice and chained", q: `WITH q (k, total) AS (SELECT sk, SUM(qty) FROM $.line GROUP BY sk), big AS (SELECT k FROM q WHERE total > 9)
			SELECT q.k, q.total, q2.total FROM q, q AS q2, big WHERE q.k = q2.k AND big.k = q.k`},
		{name: "WITH in a TPC-H Q15 shape", q: `WITH revenue0 (supplier_no, total_revenue) AS (SELECT sk, SUM(qty) FROM $.line WHERE lk > 1 GROUP BY sk)
			SELECT s.sk, s.sname, total_revenue FROM $.supp s, revenue0 WHERE s.sk = supplier_no ORDER BY s.sk`, ordered: true},
		{name: "WITH referred to in a nested SELECT", q: `WITH q (k, total) AS (SELECT sk, SUM(qty) FROM $.line GROUP BY sk)
			SELECT t.k, q.total FROM (SELECT k FROM q WHERE total < 12) AS t, q WHERE t.k = q.k`},
		{name: "WITH inside a subquery", q: `SELECT s.sname, t.n FROM $.supp s, (WITH c AS (SELECT sk, COUNT(*) AS n FROM $.line GROUP BY sk) SELECT sk, n FROM c) AS t
			WHERE s.sk = t.sk`},
		{name: "WITH and UNION", q: `WITH a AS (SELECT v FROM $.x WHERE v > 1) SELECT v FROM a UNION ALL SELECT v FROM a`},
		{name: "UNION", q: `SELECT v, s FROM $.x UNION SELECT v, s FROM $.y`},
		{name: "UNION ALL", q: `SELECT v, s FROM $.x UNION ALL SELECT v, s FROM $.y`},
		{name: "INTERSECT", q: `SELECT v, s FROM $.x INTERSECT SELECT v, s FROM $.y`},
		{name: "EXCEPT", q: `SELECT v, s FROM $.x EXCEPT SELECT v, s FROM $.y`},
		{name: "EXCEPT the other way", q: `SELECT v, s FROM $.y EXCEPT SELECT v, s FROM $.x`},
		{name: "INTERSECT binds tighter than UNION ALL",
			q:      `SELECT v FROM $.x UNION ALL SELECT v FROM $.y INTERSECT SELECT v FROM $.z`,
			sqlite: `SELECT v FROM x UNION ALL SELECT * FROM (SELECT v FROM y INTERSECT SELECT v FROM z)`},
		{name: "parentheses", q: `SELECT v FROM $.z EXCEPT (SELECT v FROM $.x UNION SELECT v FROM $.y)`,
			sqlite: `SELECT v FROM z EXCEPT SELECT * FROM (SELECT v FROM x UNION SELECT v FROM y)`},
		{name: "ORDER BY and LIMIT over a UNION", q: `SELECT v FROM $.x UNION SELECT v FROM $.z ORDER BY v LIMIT 4`, ordered: true},
		{name: "set operation in FROM", q: `SELECT COUNT(*), COUNT(v) FROM (SELECT v FROM $.x INTERSECT SELECT v FROM $.z) AS t`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := queryStrings(t, db, strings.ReplaceAll(c.q, "$.", dbName+"."))
			sq := c.sqlite
			if sq == "" {
				sq = strings.ReplaceAll(c.q, "$.", "")
			}
			want := queryValues(t, ref, sq)
			require.NotEmpty(t, want, "the case should have rows")
			if !c.ordered {
				got, want = sortStrings(got), sortStrings(want)
			}
			require.Equal(t, want, got, c.q)
		})
	}
	// A WITH referred to three times (twice in FROM, once in another WITH) is read and
	// aggregated once: its answers above, its plan here.
	for _, c := range cases {
		if c.name == "WITH used twice and chained" {
			plan := explainText(t, db, "EXPLAIN "+strings.ReplaceAll(c.q, "$.", dbName+"."))
			require.Equal(t, 1, strings.Count(plan, "Scan "+dbName+".line"), plan)
			require.Equal(t, 1, strings.Count(plan, "HashAggregate"), plan)
			require.Equal(t, 2, strings.Count(plan, "Shared result 1 (computed once where it is described"), plan)
		}
	}

	// INTERSECT ALL and EXCEPT ALL: min(m, n) and max(m - n, 0) copies of a row with m
	// copies in x and n in y.
	count := func(name string) map[string]int {
		out := map[string]int{}
		for _, tb := range shapeTables {
			if tb.name == name {
				for _, r := range tb.rows {
					out[strings.Trim(strings.ReplaceAll(r, "'", ""), "()")]++
				}
			}
		}
		return out
	}
	x, y := count("x"), count("y")
	var intersectAll, exceptAll, exceptAllYX [][]string
	for row, m := range x {
		for range min(m, y[row]) {
			intersectAll = append(intersectAll, strings.Split(row, ", "))
		}
		for range max(m-y[row], 0) {
			exceptAll = append(exceptAll, strings.Split(row, ", "))
		}
	}
	for row, n := range y {
		for range max(n-x[row], 0) {
			exceptAllYX = append(exceptAllYX, strings.Split(row, ", "))
		}
	}
	for _, c := range []struct {
		q    string
		want [][]string
	}{
		{`SELECT v, s FROM $.x INTERSECT ALL SELECT v, s FROM $.y`, intersectAll},
		{`SELECT v, s FROM $.x EXCEPT ALL SELECT v, s FROM $.y`, exceptAll},
		{`SELECT v, s FROM $.y EXCEPT ALL SELECT v, s FROM $.x`, exceptAllYX},
	} {
		got := queryStrings(t, db, strings.ReplaceAll(c.q, "$.", dbName+"."))
		require.Equal(t, sortStrings(c.want), sortStrings(got), c.q)
	}
	// The hand-computed answers are what the data says: x has 1 'a' three times, y twice.
	require.Len(t, intersectAll, 4) // (1,a) ×2, (NULL,n) ×1, (3,NULL) ×1
	require.Len(t, exceptAll, 4)    // (1,a), (2,b), (NULL,n), (4,d)
}

// TestSQLShapesMemoryBudget checks that a cross join and INTERSECT hold
// their second input under the query memory budget.
func TestSQLShapesMemoryBudget(t *testing.T) {
	db, dbName := openTestDB(t)
	_, err := db.Exec(fmt.Sprintf("CREATE TABLE %s.w (v INT, s STRING) WITH ('bucket.num' = '1')", dbName))
	require.NoError(t, err)
	var vals []string
	for i := range 3000 {
		vals = append(vals, fmt.Sprintf("(%d, '%s')", i, strings.Repeat("w", 200)))
	}
	_, err = db.Exec(fmt.Sprintf("INSERT INTO %s.w VALUES %s", dbName, strings.Join(vals, ", ")))
	require.NoError(t, err)
	small, err := sql.Open("fluss", "fluss://"+realcluster.Addr(t)+"/fluss?query_memory=64KiB")
	require.NoError(t, err)
	defer small.Close()
	for _, q := range []string{
		"SELECT COUNT(*) FROM $.w a, $.w b",
		"SELECT COUNT(*) FROM (SELECT v, s FROM $.w INTERSECT SELECT v, s FROM $.w) t",
	} {
		_, err := small.Query(strings.ReplaceAll(q, "$.", dbName+"."))
		if err == nil {
			rows, qerr := small.Query(strings.ReplaceAll(q, "$.", dbName+"."))
			require.NoError(t, qerr)
			for rows.Next() {
			}
			err = rows.Err()
			rows.Close()
		}
		require.Error(t, err, q)
		require.Contains(t, err.Error(), "query_memory", q)
	}
}

func sortStrings(rows [][]string) [][]string {
	out := slices.Clone(rows)
	slices.SortFunc(out, func(a, b []string) int { return strings.Compare(strings.Join(a, "\x00"), strings.Join(b, "\x00")) })
	return out
}
