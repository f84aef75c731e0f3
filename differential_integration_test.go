package flussql_test

import (
	"database/sql"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	_ "modernc.org/sqlite" // the reference database: pure Go, test-only
)

// TestDifferentialSQLite loads one random small table into a real Fluss cluster and into
// SQLite (modernc.org/sqlite), runs random queries of the query language on both and
// compares the results: as multisets, or in order when the query has ORDER BY (which
// then orders by every output column, so ties are equal rows); floats within 1e-9
// relative.
//
// Queries are generated only where the two agree on semantics:
//   - integer / and % only by non-zero constants (SQLite gives NULL for x/0, flussql fails);
//     both truncate toward zero and % takes the dividend's sign;
//   - SUM and AVG of DOUBLE only of values that add up exactly (see exactFloat);
//   - AVG only of DOUBLE (Flink's AVG of an integer is an integer, SQLite's a float);
//   - LIKE runs with SQLite's case_sensitive_like on (Flink's LIKE is case-sensitive);
//     LIKE … ESCAPE '!' only with patterns whose escapes both read alike (!%, !_, !!);
//   - IF(c, a, b) is spelled CASE WHEN c THEN a ELSE b END for SQLite;
//   - no CONCAT (SQLite's treats NULL as ”), || instead; ASCII strings only (SQLite's
//     UPPER and LOWER know ASCII only); SUBSTRING from position 1 or later;
//   - NULL ordering needs nothing: both put NULLs first for ASC and last for DESC;
//   - ROUND(x, 1) only of the column itself (see floatExpr);
//   - booleans in results are compared as 0/1 (SQLite has no BOOLEAN), CAST(… AS INT) and
//     CAST(… AS STRING) are spelled INTEGER and TEXT for SQLite;
//   - values stay small, so no INT arithmetic overflows (flussql fails where SQLite would
//     go on in 64 bits);
//   - the DECIMAL(8, 2) column m is REAL in SQLite: its values are multiples of 0.25 and it is
//     only added, subtracted, multiplied by integers and compared, so SQLite's binary
//     floats compute it exactly too; flussql's DECIMAL results (strings) are read as
//     floats.
//
// A third of the queries (not the lookups) read, instead of t, a subquery, a UNION ALL, a
// UNION / INTERSECT / EXCEPT, a WITH, or a join (lookup or hash, INNER or LEFT; comma and
// cross joins) with t's columns (see fromVariant).
//
// FLUSSQL_DIFF_QUERIES sets the number of queries (default 300), FLUSSQL_DIFF_SEED the
// seed (default 1; "random" picks one and logs it).
func TestDifferentialSQLite(t *testing.T) {
	db, dbName := openTestDB(t)
	n := 300
	if v := os.Getenv("FLUSSQL_DIFF_QUERIES"); v != "" {
		var err error
		n, err = strconv.Atoi(v)
		require.NoError(t, err)
	}
	seed := uint64(1)
	if v := os.Getenv("FLUSSQL_DIFF_SEED"); v == "random" {
		seed = uint64(time.Now().UnixNano())
	} else if v != "" {
		s, err := strconv.ParseUint(v, 10, 64)
		require.NoError(t, err)
		seed = s
	}
	t.Logf("seed %d, %d queries", seed, n)
	rng := rand.New(rand.NewPCG(seed, 7))

	ref, err := sql.Open("sqlite", ":memory:")
	require.NoError(t, err)
	defer ref.Close()
	ref.SetMaxOpenConns(1)
	_, err = ref.Exec(`PRAGMA case_sensitive_like = ON`)
	require.NoError(t, err)
	for _, tbl := range []string{"t", "tp"} {
		_, err = ref.Exec(`CREATE TABLE ` + tbl + ` (k INTEGER, a INTEGER, b INTEGER, s TEXT, d REAL, m REAL)`)
		require.NoError(t, err)
	}
	table, pkTable := dbName+".t", dbName+".tp"
	_, err = db.Exec(`CREATE TABLE ` + table + ` (k INT, a INT, b INT, s STRING, d DOUBLE, m DECIMAL(8, 2)) WITH ('bucket.num' = '2')`)
	require.NoError(t, err)
	_, err = db.Exec(`CREATE TABLE ` + pkTable + ` (k INT, a INT, b INT, s STRING, d DOUBLE, m DECIMAL(8, 2), PRIMARY KEY (k) NOT ENFORCED)
		WITH ('bucket.num' = '2')`)
	require.NoError(t, err)

	rows := 30 + rng.IntN(30)
	vals := diffTableRows(rng, rows)
	for _, tbl := range []string{table, pkTable} {
		_, err = db.Exec(`INSERT INTO ` + tbl + ` VALUES ` + strings.Join(vals, ", "))
		require.NoError(t, err)
	}
	for _, tbl := range []string{"t", "tp"} {
		_, err = ref.Exec(`INSERT INTO ` + tbl + ` VALUES ` + strings.Join(vals, ", "))
		require.NoError(t, err)
	}

	g := &queryGen{rng: rng, keys: rows}
	kinds := map[string]int{}
	nonEmpty := 0
	for i := range n {
		q := g.query()
		from := table
		if q.lookup {
			from = pkTable
			kinds["lookup"]++
		}
		kinds[q.kind]++
		q.fl = strings.ReplaceAll(q.fl, "FROM t", "FROM "+from)
		if !q.lookup && g.chance(0.3) {
			// The same query over a subquery, a UNION ALL or a join with t's columns.
			v, kind := g.fromVariant()
			kinds[kind]++
			fl := strings.NewReplacer("{t}", table, "{tp}", pkTable).Replace(v)
			sq := strings.NewReplacer("{t}", "t", "{tp}", "tp").Replace(v)
			flWith, fl, _ := strings.Cut(fl, "|") // a WITH variant: WITH w AS (…)|w AS t
			sqWith, sq, _ := strings.Cut(sq, "|")
			if fl == "" {
				fl, sq, flWith, sqWith = flWith, sqWith, "", ""
			}
			q.fl = strings.TrimSpace(flWith + " " + strings.Replace(q.fl, "FROM "+table, "FROM "+fl, 1))
			q.sq = strings.TrimSpace(sqWith + " " + strings.Replace(q.sq, "FROM t", "FROM "+sq, 1))
		}
		got, gerr := diffRows(db, q.fl)
		want, werr := diffRows(ref, q.sq)
		if werr != nil {
			t.Fatalf("query %d: SQLite refused %s: %v (generator bug)", i, q.sq, werr)
		}
		if gerr != nil {
			t.Errorf("query %d failed: %s\n  %v\n  sqlite: %s", i, q.fl, gerr, q.sq)
			continue
		}
		if msg := compareResults(got, want, q.ordered); msg != "" {
			t.Errorf("query %d differs: %s\n  sqlite: %s\n  %s\n  flussql: %v\n  sqlite:  %v", i, q.fl, q.sq, msg, got, want)
		}
		if len(want) > 0 {
			nonEmpty++
		}
	}
	t.Logf("ran %d queries (%d with rows): %v", n, nonEmpty, kinds)
	require.Greater(t, nonEmpty, n/2, "most queries return rows")
}

// diffTableRows makes n random rows (k, a, b, s, d, m) of the differential tests' table, as
// VALUES tuples both engines read alike: k is the row number, the others are NULL at times.
func diffTableRows(rng *rand.Rand, n int) []string {
	vals := make([]string, 0, n)
	for k := range n {
		a := nullOr(rng, 0.15, strconv.Itoa(rng.IntN(41)-20))
		b := nullOr(rng, 0.25, strconv.Itoa(rng.IntN(11)-5))
		s := nullOr(rng, 0.2, "'"+diffStrings[rng.IntN(len(diffStrings))]+"'")
		d := nullOr(rng, 0.2, strconv.FormatFloat(float64(rng.IntN(81)-40)/4, 'f', -1, 64))
		m := nullOr(rng, 0.2, strconv.FormatFloat(float64(rng.IntN(161)-80)/4, 'f', 2, 64))
		vals = append(vals, fmt.Sprintf("(%d, %s, %s, %s, %s, %s)", k, a, b, s, d, m))
	}
	return vals
}

var diffStrings = []string{"ab", "Ab", "abc", "b_c", "x%y", "", " pad ", "zz", "B"}

func nullOr(rng *rand.Rand, p float64, v string) string {
	if rng.Float64() < p {
		return "NULL"
	}
	return v
}

// diffRows runs a query and normalises its values: integers int64, floats float64,
// booleans 0/1, byte strings strings.
func diffRows(db *sql.DB, q string) ([][]any, error) {
	rows, err := db.Query(q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	colTypes, err := rows.ColumnTypes()
	if err != nil {
		return nil, err
	}
	var out [][]any
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		for i, v := range vals {
			if str, ok := v.(string); ok && colTypes[i].DatabaseTypeName() == "DECIMAL" {
				f, err := strconv.ParseFloat(str, 64)
				if err != nil {
					return nil, err
				}
				vals[i] = f
				continue
			}
			switch x := v.(type) {
			case bool:
				vals[i] = int64(0)
				if x {
					vals[i] = int64(1)
				}
			case []byte:
				vals[i] = string(x)
			case int:
				vals[i] = int64(x)
			}
		}
		out = append(out, vals)
	}
	return out, rows.Err()
}

func compareResults(got, want [][]any, ordered bool) string {
	if len(got) != len(want) {
		return fmt.Sprintf("%d rows, SQLite %d", len(got), len(want))
	}
	if !ordered {
		got, want = sortedRows(got), sortedRows(want)
	}
	for i := range got {
		if len(got[i]) != len(want[i]) {
			return fmt.Sprintf("row %d has %d columns, SQLite's %d", i, len(got[i]), len(want[i]))
		}
		for j := range got[i] {
			if !sameValue(got[i][j], want[i][j]) {
				return fmt.Sprintf("row %d column %d: %#v, SQLite %#v", i, j, got[i][j], want[i][j])
			}
		}
	}
	return ""
}

func sortedRows(rows [][]any) [][]any {
	out := slices.Clone(rows)
	key := func(r []any) string {
		var b strings.Builder
		for _, v := range r {
			switch x := v.(type) {
			case float64:
				fmt.Fprintf(&b, "%.6g|", x+0) // -0 sorts as 0: they are equal
			case int64:
				fmt.Fprintf(&b, "%.6g|", float64(x))
			default:
				fmt.Fprintf(&b, "%v|", x)
			}
		}
		return b.String()
	}
	slices.SortStableFunc(out, func(a, b []any) int { return strings.Compare(key(a), key(b)) })
	return out
}

func sameValue(a, b any) bool {
	fa, aNum := asFloat(a)
	fb, bNum := asFloat(b)
	if aNum && bNum {
		if fa == fb {
			return true
		}
		return math.Abs(fa-fb) <= 1e-9*math.Max(math.Abs(fa), math.Abs(fb))
	}
	return a == b
}

func asFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case float64:
		return x, true
	}
	return 0, false
}

// queryGen generates pairs of equivalent queries: flussql's and SQLite's spelling.
type queryGen struct {
	rng  *rand.Rand
	keys int // the table's keys are 0..keys-1
	// lookup is set while generating a query over the primary-key table: its WHERE
	// starts with k IN (…), which flussql runs as batched key lookups.
	lookup bool
}

type genQuery struct {
	fl, sq  string
	ordered bool
	kind    string
	lookup  bool
}

// gexpr is one expression in both spellings.
type gexpr struct{ fl, sq string }

func same(s string) gexpr { return gexpr{s, s} }

func (g *queryGen) pick(n int) int { return g.rng.IntN(n) }

func (g *queryGen) chance(p float64) bool { return g.rng.Float64() < p }

func wrap(format string, es ...gexpr) gexpr {
	fl, sq := make([]any, len(es)), make([]any, len(es))
	for i, e := range es {
		fl[i], sq[i] = e.fl, e.sq
	}
	return gexpr{fmt.Sprintf(format, fl...), fmt.Sprintf(format, sq...)}
}

func (g *queryGen) intLit() gexpr { return same(strconv.Itoa(g.pick(21) - 10)) }

func (g *queryGen) nonZero() gexpr {
	v := g.pick(5) + 1
	if g.chance(0.3) {
		v = -v
	}
	return same(strconv.Itoa(v))
}

func (g *queryGen) intExpr(depth int) gexpr {
	if depth <= 0 {
		switch g.pick(4) {
		case 0:
			return g.intLit()
		case 1:
			return same("k")
		case 2:
			return same("b")
		}
		return same("a")
	}
	switch g.pick(13) {
	case 11:
		c, a, b := g.boolExpr(depth-1), g.intExpr(depth-1), g.intExpr(depth-1)
		return gexpr{"IF(" + c.fl + ", " + a.fl + ", " + b.fl + ")", "CASE WHEN " + c.sq + " THEN " + a.sq + " ELSE " + b.sq + " END"}
	case 0:
		return wrap("(%s + %s)", g.intExpr(depth-1), g.intExpr(depth-1))
	case 1:
		return wrap("(%s - %s)", g.intExpr(depth-1), g.intExpr(depth-1))
	case 2:
		return wrap("(%s * %s)", g.intExpr(0), g.intExpr(0))
	case 3:
		return wrap("(%s / %s)", g.intExpr(depth-1), g.nonZero())
	case 4:
		return wrap("(%s %% %s)", g.intExpr(depth-1), g.nonZero())
	case 5:
		return wrap("ABS(%s)", g.intExpr(depth-1))
	case 6:
		return wrap("COALESCE(%s, %s)", g.intExpr(0), g.intLit())
	case 7:
		return wrap("NULLIF(%s, %s)", g.intExpr(0), g.intLit())
	case 8:
		return wrap("CASE WHEN %s THEN %s ELSE %s END", g.boolExpr(depth-1), g.intExpr(depth-1), g.intExpr(depth-1))
	case 9:
		e := g.strExpr(depth - 1)
		return gexpr{"CHAR_LENGTH(" + e.fl + ")", "length(" + e.sq + ")"}
	case 10:
		e := g.floatExpr(depth - 1)
		return gexpr{"CAST(" + e.fl + " AS INT)", "CAST(" + e.sq + " AS INTEGER)"}
	}
	return wrap("-(%s)", g.intExpr(depth-1))
}

// exactFloat is a DOUBLE expression whose values are multiples of 0.25, so that sums
// do not depend on the order rows are added in (floating-point addition is not
// associative; flussql and SQLite read rows in different orders).
func (g *queryGen) exactFloat() gexpr {
	switch g.pick(4) {
	case 0:
		return same("(d * 2)")
	case 1:
		return wrap("(d + %s)", g.intExpr(0))
	case 2:
		return same("ABS(d)")
	}
	return same("d")
}

// decExpr is an expression over the DECIMAL column m that SQLite computes exactly.
func (g *queryGen) decExpr(depth int) gexpr {
	if depth <= 0 {
		return same("m")
	}
	switch g.pick(7) {
	case 0:
		return wrap("(%s * %s)", g.decExpr(depth-1), g.intLit())
	case 1:
		return wrap("(%s + %s)", g.decExpr(depth-1), g.intExpr(0))
	case 2:
		return wrap("(%s - 1.25)", g.decExpr(depth-1))
	case 3:
		return wrap("ABS(%s)", g.decExpr(depth-1))
	case 4:
		return wrap("-(%s)", g.decExpr(depth-1))
	case 5:
		return wrap("COALESCE(%s, 0)", g.decExpr(depth-1))
	}
	return wrap("CASE WHEN %s THEN %s ELSE 0.5 END", g.boolExpr(0), g.decExpr(depth-1))
}

func (g *queryGen) floatExpr(depth int) gexpr {
	if depth <= 0 {
		return same("d")
	}
	switch g.pick(8) {
	case 0:
		return wrap("(%s * 2)", g.floatExpr(depth-1))
	case 1:
		return wrap("(%s + %s)", g.floatExpr(depth-1), g.intExpr(depth-1))
	case 2:
		return wrap("(%s / %s)", g.floatExpr(depth-1), g.nonZero())
	case 3:
		return wrap("ROUND(%s)", g.floatExpr(depth-1))
	case 4:
		// Only of d itself: ROUND(0.75 / 5, 1) is 0.2 in Flink and flussql (0.15 rounded
		// half up) but 0.1 in SQLite (the binary 0.1499…); multiples of 0.25 have no such
		// ties.
		return same("ROUND(d, 1)")
	case 5:
		return wrap("ABS(%s)", g.floatExpr(depth-1))
	case 6:
		e := g.intExpr(depth - 1)
		return gexpr{"CAST(" + e.fl + " AS DOUBLE)", "CAST(" + e.sq + " AS REAL)"}
	}
	return wrap("COALESCE(%s, 0.5e0)", g.floatExpr(depth-1))
}

func (g *queryGen) strLit() gexpr { return same("'" + diffStrings[g.pick(len(diffStrings))] + "'") }

func (g *queryGen) strExpr(depth int) gexpr {
	if depth <= 0 {
		if g.chance(0.2) {
			return g.strLit()
		}
		return same("s")
	}
	switch g.pick(8) {
	case 0:
		return wrap("UPPER(%s)", g.strExpr(depth-1))
	case 1:
		return wrap("LOWER(%s)", g.strExpr(depth-1))
	case 2:
		return wrap("(%s || %s)", g.strExpr(depth-1), g.strLit())
	case 3:
		e := g.strExpr(depth - 1)
		from, n := g.pick(3)+1, g.pick(3)+1
		return gexpr{fmt.Sprintf("SUBSTRING(%s, %d, %d)", e.fl, from, n), fmt.Sprintf("substr(%s, %d, %d)", e.sq, from, n)}
	case 4:
		return wrap("TRIM(%s)", g.strExpr(depth-1))
	case 5:
		return wrap("COALESCE(%s, 'none')", g.strExpr(depth-1))
	case 6:
		e := g.intExpr(depth - 1)
		return gexpr{"CAST(" + e.fl + " AS STRING)", "CAST(" + e.sq + " AS TEXT)"}
	}
	return wrap("CASE WHEN %s THEN %s ELSE 'q' END", g.boolExpr(depth-1), g.strExpr(depth-1))
}

var cmpOps = []string{"=", "<>", "<", "<=", ">", ">="}

func (g *queryGen) boolExpr(depth int) gexpr {
	op := cmpOps[g.pick(len(cmpOps))]
	if depth <= 0 {
		switch g.pick(4) {
		case 0:
			return wrap("%s "+op+" %s", g.intExpr(0), g.intLit())
		case 1:
			return wrap("%s IS NULL", g.intExpr(0))
		case 2:
			return wrap("%s "+op+" %s", g.strExpr(0), g.strLit())
		}
		return wrap("d "+op+" %s", g.intLit())
	}
	switch g.pick(12) {
	case 10:
		lit := same(strconv.FormatFloat(float64(g.pick(41)-20)/4, 'f', 2, 64))
		if g.chance(0.3) {
			lit = g.intLit()
		}
		return wrap("%s "+op+" %s", g.decExpr(depth-1), lit)
	case 0:
		return wrap("%s "+op+" %s", g.intExpr(depth-1), g.intExpr(depth-1))
	case 1:
		return wrap("%s "+op+" %s", g.floatExpr(depth-1), same(strconv.FormatFloat(float64(g.pick(21)-10)/4, 'f', -1, 64)))
	case 2:
		return wrap("%s "+op+" %s", g.strExpr(depth-1), g.strExpr(depth-1))
	case 3:
		return wrap("%s IS NOT NULL", g.strExpr(depth-1))
	case 4:
		list := []string{g.intLit().fl, g.intLit().fl}
		if g.chance(0.3) {
			list = append(list, "NULL")
		}
		not := ""
		if g.chance(0.4) {
			not = " NOT"
		}
		return wrap("%s"+not+" IN ("+strings.Join(list, ", ")+")", g.intExpr(depth-1))
	case 5:
		lo := g.pick(21) - 10
		return wrap(fmt.Sprintf("%%s BETWEEN %d AND %d", lo, lo+g.pick(10)), g.intExpr(depth-1))
	case 6:
		pats := []string{"a%", "%b%", "_b%", "A%", "%c", "x\\%%"}
		p := pats[g.pick(len(pats)-1)]
		not := ""
		if g.chance(0.3) {
			not = " NOT"
		}
		if g.chance(0.4) { // ESCAPE: the escaped % and _ match themselves
			escaped := []string{"b!_c", "x!%%", "%!_%", "%!%%", "_!_%", "a!!%"}
			return wrap("%s"+not+" LIKE %s ESCAPE '!'", g.strExpr(depth-1), same("'"+escaped[g.pick(len(escaped))]+"'"))
		}
		return wrap("%s"+not+" LIKE %s", g.strExpr(depth-1), same("'"+p+"'"))
	case 7:
		return wrap("NOT (%s)", g.boolExpr(depth-1))
	case 8:
		return wrap("(%s AND %s)", g.boolExpr(depth-1), g.boolExpr(depth-1))
	case 9:
		return wrap("(%s OR %s)", g.boolExpr(depth-1), g.boolExpr(depth-1))
	case 11: // IS [NOT] NULL of a DECIMAL or DOUBLE expression
		not := ""
		if g.chance(0.5) {
			not = " NOT"
		}
		if g.chance(0.5) {
			return wrap("%s IS"+not+" NULL", g.decExpr(depth-1))
		}
		return wrap("%s IS"+not+" NULL", g.floatExpr(depth-1))
	}
	return g.boolExpr(0)
}

// scalar is a select-list expression of any kind.
func (g *queryGen) scalar() gexpr {
	d := g.pick(3)
	switch g.pick(5) {
	case 4:
		return g.decExpr(d)
	case 0:
		return g.floatExpr(d)
	case 1:
		return g.strExpr(d)
	}
	return g.intExpr(d)
}

func (g *queryGen) where() gexpr {
	var keys string
	if g.lookup {
		var ks []string
		for range 3 + g.pick(12) {
			ks = append(ks, strconv.Itoa(g.pick(g.keys+3)))
		}
		keys = "k IN (" + strings.Join(ks, ", ") + ")"
	}
	switch {
	case keys != "" && g.chance(0.4):
		return same(" WHERE " + keys)
	case keys != "":
		return wrap(" WHERE "+keys+" AND (%s)", g.boolExpr(g.pick(3)))
	case g.chance(0.4):
		return gexpr{}
	}
	return wrap(" WHERE %s", g.boolExpr(g.pick(3)))
}

// orderBy orders by every output column (1..n) in a random order and direction, and
// maybe adds LIMIT/OFFSET.
func (g *queryGen) orderBy(n int) (gexpr, bool) {
	if g.chance(0.5) {
		return gexpr{}, false
	}
	pos := g.rng.Perm(n)
	var keys []string
	for _, p := range pos {
		k := strconv.Itoa(p + 1)
		if g.chance(0.5) {
			k += " DESC"
		}
		switch g.pick(3) {
		case 0:
			k += " NULLS FIRST"
		case 1:
			k += " NULLS LAST"
		}
		keys = append(keys, k)
	}
	s := " ORDER BY " + strings.Join(keys, ", ")
	if g.chance(0.6) {
		s += fmt.Sprintf(" LIMIT %d", g.pick(8))
		if g.chance(0.4) {
			s += fmt.Sprintf(" OFFSET %d", g.pick(5))
		}
	}
	return same(s), true
}

func (g *queryGen) aggregate(groupKey bool) gexpr {
	switch g.pick(12) {
	case 10:
		return wrap("SUM(%s)", g.decExpr(g.pick(2)))
	case 11:
		return wrap("MIN(%s)", g.decExpr(g.pick(2)))
	case 0:
		return same("COUNT(*)")
	case 1:
		return wrap("COUNT(%s)", g.scalar())
	case 2:
		return wrap("SUM(%s)", g.intExpr(g.pick(2)))
	case 3:
		return wrap("SUM(%s)", g.exactFloat())
	case 4:
		return wrap("MIN(%s)", g.scalar())
	case 5:
		return wrap("MAX(%s)", g.scalar())
	case 6:
		return wrap("AVG(%s)", g.exactFloat())
	case 7:
		return wrap("COUNT(DISTINCT %s)", g.intExpr(g.pick(2)))
	case 8:
		return wrap("SUM(DISTINCT %s)", g.intExpr(0))
	}
	return wrap("MAX(%s)", g.strExpr(1))
}

func (g *queryGen) query() genQuery {
	g.lookup = g.chance(0.25)
	q := g.queryShape()
	q.lookup = g.lookup
	return q
}

func (g *queryGen) queryShape() genQuery {
	switch g.pick(10) {
	case 0, 1, 2, 3:
		items := make([]gexpr, 1+g.pick(3))
		for i := range items {
			items[i] = g.scalar()
		}
		ob, ordered := g.orderBy(len(items))
		q := wrap("SELECT "+joinFmt(len(items))+" FROM t", items...)
		q = concat(q, g.where(), ob)
		return genQuery{fl: q.fl, sq: q.sq, ordered: ordered, kind: "project"}
	case 4, 5, 6, 7:
		var keys []gexpr
		if g.chance(0.8) {
			keys = append(keys, g.groupKey())
			if g.chance(0.3) {
				keys = append(keys, g.groupKey())
			}
		}
		items := slices.Clone(keys)
		for range 1 + g.pick(3) {
			items = append(items, g.aggregate(len(keys) > 0))
		}
		q := wrap("SELECT "+joinFmt(len(items))+" FROM t", items...)
		q = concat(q, g.where())
		if len(keys) > 0 {
			q = concat(q, wrap(" GROUP BY "+joinFmt(len(keys)), keys...))
			if g.chance(0.3) {
				q = concat(q, same(fmt.Sprintf(" HAVING COUNT(*) > %d", g.pick(3))))
			}
		}
		ob, ordered := g.orderBy(len(items))
		q = concat(q, ob)
		return genQuery{fl: q.fl, sq: q.sq, ordered: ordered, kind: "aggregate"}
	}
	items := make([]gexpr, 1+g.pick(2))
	for i := range items {
		items[i] = g.scalar()
		if g.chance(0.5) {
			items[i] = g.groupKey()
		}
	}
	ob, ordered := g.orderBy(len(items))
	q := wrap("SELECT DISTINCT "+joinFmt(len(items))+" FROM t", items...)
	q = concat(q, g.where(), ob)
	return genQuery{fl: q.fl, sq: q.sq, ordered: ordered, kind: "distinct"}
}

// fromVariant is a FROM item with t's columns ({t} and {tp} name the log and the
// primary-key table): a subquery, a UNION ALL, a lookup join of t with tp on tp's key, or
// a hash join of t with itself; INNER or LEFT, sometimes with a residual condition.
func (g *queryGen) fromVariant() (string, string) {
	const cols = "k, a, b, s, d, m"
	join := " JOIN "
	if g.chance(0.5) {
		join = " LEFT JOIN "
	}
	residual := ""
	if g.chance(0.3) {
		residual = fmt.Sprintf(" AND y.b > %d", g.pick(5)-2)
	}
	switch g.pick(10) {
	case 4:
		return "(SELECT x.k AS k, y.a AS a, x.b AS b, y.s AS s, y.d AS d, x.m AS m FROM {t} x, {t} y WHERE y.b = x.a - 1" + residual + ") AS t", "comma join"
	case 5:
		return fmt.Sprintf("(SELECT x.k AS k, y.a AS a, x.b AS b, y.s AS s, y.d AS d, x.m AS m FROM {t} x, {t} y WHERE x.k < %d AND y.a < x.b) AS t",
			g.pick(6)+1), "cross join"
	case 6, 7:
		op := []string{"UNION", "INTERSECT", "EXCEPT"}[g.pick(3)]
		return fmt.Sprintf("(SELECT %s FROM {t} WHERE k < %d %s SELECT %s FROM {t} WHERE k >= %d) AS t",
			cols, g.pick(g.keys), op, cols, g.pick(g.keys)), strings.ToLower(op)
	case 8:
		return fmt.Sprintf("WITH w AS (SELECT %s FROM {t} WHERE b IS NULL OR b <> %d)|w AS t", cols, g.pick(11)-5), "with"
	case 0:
		return fmt.Sprintf("(SELECT %s FROM {t} WHERE b IS NULL OR b <> %d) AS t", cols, g.pick(11)-5), "subquery"
	case 1:
		return fmt.Sprintf("(SELECT %s FROM {t} WHERE k < %d UNION ALL SELECT %s FROM {t} WHERE k >= %d) AS t",
			cols, g.pick(g.keys), cols, g.pick(g.keys)), "union all"
	case 2:
		return "(SELECT x.k AS k, x.a AS a, y.b AS b, y.s AS s, x.d AS d, y.m AS m FROM {t} x" + join +
			"{tp} y ON y.k = x.a" + residual + ") AS t", "lookup join"
	}
	return "(SELECT x.k AS k, y.a AS a, x.b AS b, y.s AS s, y.d AS d, x.m AS m FROM {t} x" + join +
		"{t} y ON y.b = x.a - 1" + residual + ") AS t", "hash join"
}

func (g *queryGen) groupKey() gexpr {
	switch g.pick(7) {
	case 6:
		return same("m")
	case 0:
		return same("a")
	case 1:
		return same("b")
	case 2:
		return same("s")
	case 3:
		return same("(a % 3)")
	case 4:
		return same("UPPER(s)")
	}
	return same("CASE WHEN b > 0 THEN 'pos' ELSE 'other' END")
}

func joinFmt(n int) string { return strings.TrimSuffix(strings.Repeat("%s, ", n), ", ") }

func concat(es ...gexpr) gexpr {
	var out gexpr
	for _, e := range es {
		out.fl += e.fl
		out.sq += e.sq
	}
	return out
}
