package flussql_test

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// flinkArraySuite is the TestFlinkOracle suite of the ARRAY functions (issue 31): ARRAY[…]
// over columns, every ARRAY_* function, ELEMENT and ARRAY_AGG, over arrays built from the
// columns of {t} and {x} (NULL elements from their NULLs) and literals at the edges (empty
// results, negative slice positions, NULL needles).
const flinkArraySuite = "arrays"

// flinkArrayCases generates the suite's statements, "SELECT k, <expr> FROM {t}" each.
func flinkArrayCases() []flinkDiffCase {
	var out []flinkDiffCase
	add := func(table, expr string) {
		out = append(out, flinkDiffCase{expr + " on " + table, fmt.Sprintf("SELECT k, %s FROM {%s}", expr, table), false})
	}
	global := func(expr string) {
		out = append(out, flinkDiffCase{expr, "SELECT " + expr + " FROM {t}", false})
	}
	for _, e := range []string{
		// the constructor over columns, its types and access
		"ARRAY[a, b + 1, 3]", "ARRAY[a, m]", "ARRAY[d, a]", "ARRAY[s, 'x']", "ARRAY[big, a]", "ARRAY[a, b][2]", "ARRAY[a, b][3]",
		"CARDINALITY(ARRAY[a, b, NULL])", "ARRAY[ARRAY[a], ARRAY[b, k]]",
		// append, prepend, concat
		"ARRAY_APPEND(ARRAY[a, b], k)", "ARRAY_APPEND(ARRAY[a], CAST(NULL AS INT))", "ARRAY_APPEND(ARRAY[k], a)", "ARRAY_APPEND(ARRAY[big], a)",
		"ARRAY_PREPEND(ARRAY[s], s)", "ARRAY_PREPEND(ARRAY[m, n], a)",
		"ARRAY_CONCAT(ARRAY[a], ARRAY[b, a])", "ARRAY_CONCAT(ARRAY[a], ARRAY[m])", "ARRAY_CONCAT(ARRAY[s])", "ARRAY_CONCAT(ARRAY[k], ARRAY[k], ARRAY[a])",
		// search
		"ARRAY_CONTAINS(ARRAY[a, b], 2)", "ARRAY_CONTAINS(ARRAY[a, b], CAST(NULL AS INT))", "ARRAY_CONTAINS(ARRAY[a, b], b)", "ARRAY_CONTAINS(ARRAY[s, 'x'], 'abc')",
		"ARRAY_CONTAINS(ARRAY[m], 1.5)", "ARRAY_CONTAINS(ARRAY[d], a)",
		"ARRAY_POSITION(ARRAY[a, b, 2], 2)", "ARRAY_POSITION(ARRAY[a, b], CAST(NULL AS INT))", "ARRAY_POSITION(ARRAY[a, b], b)", "ARRAY_POSITION(ARRAY[s, s], 'Bob')",
		"ELEMENT(ARRAY[a])", "ELEMENT(ARRAY[s])", "ELEMENT(ARRAY[a, b])",
		// sets
		"ARRAY_DISTINCT(ARRAY[a, b, a, NULL, b, NULL])", "ARRAY_DISTINCT(ARRAY[s, s, 'x'])", "ARRAY_DISTINCT(ARRAY[d, -d, 0e0])",
		"ARRAY_REMOVE(ARRAY[a, b, a, 2], 2)", "ARRAY_REMOVE(ARRAY[a, b, NULL], CAST(NULL AS INT))", "ARRAY_REMOVE(ARRAY[a, b], a)",
		"ARRAY_EXCEPT(ARRAY[a, b, 3, NULL], ARRAY[2])", "ARRAY_EXCEPT(ARRAY[a, b, a], ARRAY[b, NULL])", "ARRAY_EXCEPT(ARRAY[a, 1, 1], ARRAY[m])",
		"ARRAY_INTERSECT(ARRAY[a, b, 3, NULL], ARRAY[3, b, NULL])", "ARRAY_INTERSECT(ARRAY[a, a], ARRAY[a])", "ARRAY_INTERSECT(ARRAY[s], ARRAY['x'])",
		"ARRAY_UNION(ARRAY[a, b, a], ARRAY[b, 3, NULL])", "ARRAY_UNION(ARRAY[a], ARRAY[d])", "ARRAY_UNION(ARRAY[NULL, a], ARRAY[a, NULL])",
		// order
		"ARRAY_REVERSE(ARRAY[a, b, 3])", "ARRAY_REVERSE(ARRAY[s])",
		"ARRAY_SLICE(ARRAY[a, b, 3, 4], 2)", "ARRAY_SLICE(ARRAY[a, b, 3, 4], -2)", "ARRAY_SLICE(ARRAY[a, b, 3, 4], 0, 2)", "ARRAY_SLICE(ARRAY[a, b, 3, 4], 3, 2)",
		"ARRAY_SLICE(ARRAY[a, b, 3, 4], -3, -2)", "ARRAY_SLICE(ARRAY[a, b, 3, 4], 5, 9)", "ARRAY_SLICE(ARRAY[a, b, 3, 4], -9, 0)", "ARRAY_SLICE(ARRAY[a, b], a, b)",
		"ARRAY_SORT(ARRAY[a, b, 3, NULL])", "ARRAY_SORT(ARRAY[a, b, 3, NULL], FALSE)", "ARRAY_SORT(ARRAY[a, b, 3, NULL], TRUE, FALSE)",
		"ARRAY_SORT(ARRAY[a, b, 3, NULL], FALSE, TRUE)", "ARRAY_SORT(ARRAY[s, 'B', 'a'])", "ARRAY_SORT(ARRAY[m, n])", "ARRAY_SORT(ARRAY[a], a > 0)",
		"ARRAY_MAX(ARRAY[a, b, NULL])", "ARRAY_MIN(ARRAY[a, b, NULL])", "ARRAY_MAX(ARRAY[s, 'b'])", "ARRAY_MIN(ARRAY[m, n])", "ARRAY_MAX(ARRAY[d, a])",
		// join
		"ARRAY_JOIN(ARRAY[s, 'x', s], '-')", "ARRAY_JOIN(ARRAY[s, 'x', s], '-', '?')", "ARRAY_JOIN(ARRAY[s], s)", "ARRAY_JOIN(ARRAY[s, s], ', ', s)",
		// types of constant arrays
		"TYPEOF(ARRAY[1, 2])", "TYPEOF(ARRAY[1, NULL])", "TYPEOF(ARRAY_APPEND(ARRAY[1], CAST(NULL AS INT)))", "TYPEOF(ARRAY_MAX(ARRAY[1]))",
		"TYPEOF(ARRAY_CONCAT(ARRAY[1], ARRAY[2.5]))", "TYPEOF(ARRAY_POSITION(ARRAY[1], 1))", "TYPEOF(ARRAY_CONTAINS(ARRAY[1], 1))",
	} {
		add("t", e)
	}
	for _, e := range []string{
		"ARRAY[ti, si]", "ARRAY[f, f]", "ARRAY[bo, NOT bo]", "ARRAY[dt, dt]", "ARRAY[w, p]",
		"ARRAY_SORT(ARRAY[bo, TRUE, FALSE])", "ARRAY_MAX(ARRAY[dt, DATE '2024-01-01'])", "ARRAY_MIN(ARRAY[ts, ts2])", "ARRAY_CONTAINS(ARRAY[dt], DATE '2024-02-29')",
		"ARRAY_DISTINCT(ARRAY[w, p, w])", "ARRAY_POSITION(ARRAY[ti, si], si)", "ELEMENT(ARRAY[ts])",
	} {
		add("x", e)
	}
	for _, e := range []string{
		// ARRAY_AGG's order is the order rows arrive, which neither engine promises: sorted
		"ARRAY_SORT(ARRAY_AGG(a))", "ARRAY_SORT(ARRAY_AGG(DISTINCT b))", "ARRAY_SORT(ARRAY_AGG(s), TRUE, FALSE)", "CARDINALITY(ARRAY_AGG(d))", "ARRAY_SORT(ARRAY_AGG(m))",
		"ARRAY_SORT(ARRAY_AGG(a IGNORE NULLS))", "ARRAY_SORT(ARRAY_AGG(DISTINCT b RESPECT NULLS))", "ARRAY_AGG(s IGNORE NULLS) IS NULL",
	} {
		global(e)
	}
	out = append(out, flinkDiffCase{"ARRAY_AGG by group", "SELECT b, ARRAY_SORT(ARRAY_AGG(k)) FROM {t} GROUP BY b", false})
	return out
}

// flinkArrayKnown: where flussql's ARRAY functions differ from Flink's, and why.
var flinkArrayKnown = map[string]string{
	"ARRAY_CONCAT(ARRAY[a], ARRAY[m]) on t":       flinkArrayCastNulls,
	"ARRAY_EXCEPT(ARRAY[a, 1, 1], ARRAY[m]) on t": flinkArrayCastNulls,
	"ARRAY_UNION(ARRAY[a], ARRAY[d]) on t":        flinkArrayCastNulls,
	"ARRAY_SORT(ARRAY[bo, TRUE, FALSE]) on x":     "Flink 1.20's ARRAY_SORT refuses BOOLEAN elements (Invalid input arguments); flussql sorts them, FALSE before TRUE",
}

// flinkArrayCastNulls: Flink brings an ARRAY<INT> to ARRAY<DECIMAL> or ARRAY<DOUBLE> element by
// element and makes its NULL elements 0 (a Flink bug); flussql keeps them NULL.
const flinkArrayCastNulls = "Flink's implicit cast of ARRAY<INT> to a wider element type turns its NULL elements into 0 (a Flink bug); flussql keeps NULL"

// javaDouble formats f as Java's Double.toString (Float.toString for bits 32) does for the
// values the suite meets: 1.0, -2.25, 1.0E10.
func javaDouble(f float64, bits int) string {
	if a := math.Abs(f); a != 0 && (a < 1e-3 || a >= 1e7) {
		s := strconv.FormatFloat(f, 'E', -1, bits)
		m, e, _ := strings.Cut(s, "E")
		if !strings.Contains(m, ".") {
			m += ".0"
		}
		return m + "E" + strings.TrimPrefix(strings.TrimPrefix(e, "+"), "0")
	}
	s := strconv.FormatFloat(f, 'f', -1, bits)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

// flinkArrayRow is a row of TestFlinkArrayColumns' table, each ARRAY as flussql inserts it
// and as Flink's VALUES view spells it (Flink has no ARRAY[] nor an untyped NULL array).
type flinkArrayRow struct {
	id                   int
	nums, tags           string // flussql
	flinkNums, flinkTags string // Flink, "" when the same
}

var flinkArrayRows = []flinkArrayRow{
	{1, "ARRAY[3, NULL, 1, 3]", "ARRAY['b', NULL, 'a', 'b']", "", ""},
	{2, "NULL", "NULL", "CAST(NULL AS ARRAY<INT>)", "CAST(NULL AS ARRAY<STRING>)"},
	{3, "ARRAY[]", "ARRAY[]", "ARRAY_REMOVE(ARRAY[CAST(0 AS INT)], 0)", "ARRAY_REMOVE(ARRAY[CAST('' AS STRING)], '')"},
	{4, "ARRAY[7]", "ARRAY['z']", "", ""},
	{5, "ARRAY[NULL]", "ARRAY[NULL, 'a']", "ARRAY[CAST(NULL AS INT)]", "ARRAY[CAST(NULL AS STRING), 'a']"},
}

// flinkArrayColumnExprs are run over the real ARRAY columns (flussql) and the same values in
// a VALUES view (Flink).
var flinkArrayColumnExprs = []string{
	"ARRAY_SORT(nums)", "ARRAY_SORT(tags, FALSE)", "ARRAY_CONTAINS(nums, 3)", "ARRAY_CONTAINS(tags, CAST(NULL AS STRING))",
	"ARRAY_POSITION(tags, 'a')", "ARRAY_JOIN(tags, ',', '?')", "ARRAY_DISTINCT(nums)", "ARRAY_SLICE(nums, 2)", "ARRAY_MIN(nums)",
	"ARRAY_MAX(tags)", "ARRAY_EXCEPT(nums, ARRAY[1])", "ARRAY_UNION(nums, ARRAY[id])", "ARRAY_INTERSECT(tags, ARRAY['b', 'z'])",
	"ARRAY_REVERSE(tags)", "ARRAY_REMOVE(nums, 3)", "ARRAY_APPEND(tags, 'x')", "ARRAY_CONCAT(nums, nums)", "CARDINALITY(nums)", "nums[2]",
	"ELEMENT(ARRAY_SLICE(tags, 1, 1))",
}

// TestFlinkArrayColumns writes a table with ARRAY<INT> and ARRAY<STRING> columns with flussql,
// checks that Flink reads the same arrays, and runs the ARRAY functions over the real columns
// against Flink over the same values (every expression with FLUSS_FLINK_LONG=1 or
// FLUSS_FLINK_SUITES=arrays, three otherwise).
func TestFlinkArrayColumns(t *testing.T) {
	gwAddr := os.Getenv(flinkGatewayEnv)
	if gwAddr == "" {
		t.Skipf("%s is not set: no Flink SQL Gateway to compare with (make flink-up prints one)", flinkGatewayEnv)
	}
	db, dbName := openTestDB(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	fl := openFlinkSession(ctx, t, gwAddr, dbName)
	table := dbName + ".arrs"
	_, err := db.ExecContext(ctx, "CREATE TABLE "+table+" (id INT, nums ARRAY<INT>, tags ARRAY<STRING>) WITH ('bucket.num' = '1')")
	require.NoError(t, err)
	var ours, theirs []string
	for _, r := range flinkArrayRows {
		ours = append(ours, fmt.Sprintf("(%d, %s, %s)", r.id, r.nums, r.tags))
		fn, ft := cmp.Or(r.flinkNums, r.nums), cmp.Or(r.flinkTags, r.tags)
		theirs = append(theirs, fmt.Sprintf("(%d, %s, %s)", r.id, fn, ft))
	}
	_, err = db.ExecContext(ctx, "INSERT INTO "+table+" VALUES "+strings.Join(ours, ", "))
	require.NoError(t, err)
	read := fl.streamRows(ctx, t, fmt.Sprintf("SELECT * FROM flussql_%s.%s.arrs", dbName, dbName), len(flinkArrayRows))
	want, err := flussqlAnswer(ctx, db, "SELECT * FROM "+table)
	require.NoError(t, err)
	require.ElementsMatch(t, want.rows, read.rows, "the arrays Flink reads from the table flussql wrote")
	fl.exec(ctx, t, "CREATE TEMPORARY VIEW arrs AS SELECT * FROM (VALUES "+strings.Join(theirs, ", ")+") AS v(id, nums, tags)", nil)
	exprs := flinkArrayColumnExprs
	if os.Getenv(flinkLongEnv) != "1" && !slices.Contains(strings.Split(os.Getenv(flinkSuitesEnv), ","), flinkArraySuite) {
		exprs = exprs[:3]
	}
	for _, e := range exprs {
		c := flinkDiffCase{e, "SELECT id, " + e + " FROM %s", false}
		got, gotErr := flussqlAnswer(ctx, db, fmt.Sprintf(c.sql, table))
		ref, refErr := fl.answer(ctx, fmt.Sprintf(c.sql, "arrs"))
		if diff := compareAnswers(c, got, gotErr, ref, refErr); diff != "" {
			t.Errorf("%s:\n%s", e, diff)
		}
	}
}
