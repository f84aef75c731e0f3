package flussql_test

import (
	"database/sql"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// filterRow is row i of the table of TestSQLServerFilter: id, name (NULL
// every 5th), v (NULL every 7th), flag.
type filterRow struct {
	id   int
	name *string
	v    *int64
	flag bool
}

func makeFilterRow(i int) filterRow {
	r := filterRow{id: i, flag: i%3 == 0}
	if i%5 != 2 {
		s := fmt.Sprintf("h%04d", i)
		r.name = &s
	}
	if i%7 != 4 {
		n := int64(i) * 10
		r.v = &n
	}
	return r
}

// atom is one generated condition: its SQL and its three-valued meaning.
type atom struct {
	sql  string
	eval func(filterRow) *bool // nil is UNKNOWN
}

func tv(b bool) *bool { return &b }

func randomAtom(rng *rand.Rand, rows int) atom {
	n := rng.IntN(rows + 20)
	ops := []string{"=", "<>", "<", "<=", ">", ">="}
	op := ops[rng.IntN(len(ops))]
	cmp := func(c int) bool {
		switch op {
		case "=":
			return c == 0
		case "<>":
			return c != 0
		case "<":
			return c < 0
		case "<=":
			return c <= 0
		case ">":
			return c > 0
		}
		return c >= 0
	}
	switch rng.IntN(7) {
	case 0:
		return atom{fmt.Sprintf("id %s %d", op, n), func(r filterRow) *bool { return tv(cmp(compare(r.id, n))) }}
	case 1:
		s := fmt.Sprintf("h%04d", n)
		return atom{fmt.Sprintf("name %s '%s'", op, s), func(r filterRow) *bool {
			if r.name == nil {
				return nil
			}
			return tv(cmp(strings.Compare(*r.name, s)))
		}}
	case 2:
		x := int64(n) * 10
		return atom{fmt.Sprintf("v %s %d", op, x), func(r filterRow) *bool {
			if r.v == nil {
				return nil
			}
			return tv(cmp(compare(*r.v, x)))
		}}
	case 3:
		col, not := []string{"name", "v"}[rng.IntN(2)], rng.IntN(2) == 0
		return atom{col + map[bool]string{true: " IS NOT NULL", false: " IS NULL"}[not], func(r filterRow) *bool {
			null := (col == "name" && r.name == nil) || (col == "v" && r.v == nil)
			return tv(null != not)
		}}
	case 4:
		a, b := rng.IntN(rows), rng.IntN(rows)
		return atom{fmt.Sprintf("id IN (%d, %d, %d)", a, b, rows+5), func(r filterRow) *bool { return tv(r.id == a || r.id == b) }}
	case 5:
		lo := rng.IntN(rows)
		hi := lo + rng.IntN(200)
		return atom{fmt.Sprintf("v BETWEEN %d AND %d", lo*10, hi*10), func(r filterRow) *bool {
			if r.v == nil {
				return nil
			}
			return tv(*r.v >= int64(lo*10) && *r.v <= int64(hi*10))
		}}
	}
	return atom{"flag", func(r filterRow) *bool { return tv(r.flag) }}
}

func compare[T int | int64](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func and3(a, b *bool) *bool {
	if (a != nil && !*a) || (b != nil && !*b) {
		return tv(false)
	}
	if a == nil || b == nil {
		return nil
	}
	return tv(true)
}

func or3(a, b *bool) *bool {
	if (a != nil && *a) || (b != nil && *b) {
		return tv(true)
	}
	if a == nil || b == nil {
		return nil
	}
	return tv(false)
}

// randomWhere combines two or three atoms with AND / OR.
func randomWhere(rng *rand.Rand, rows int) atom {
	w := randomAtom(rng, rows)
	for k := 1 + rng.IntN(2); k > 0; k-- {
		a, prev := randomAtom(rng, rows), w
		if rng.IntN(3) == 0 {
			w = atom{"(" + prev.sql + ") OR (" + a.sql + ")", func(r filterRow) *bool { return or3(prev.eval(r), a.eval(r)) }}
		} else {
			w = atom{"(" + prev.sql + ") AND " + a.sql, func(r filterRow) *bool { return and3(prev.eval(r), a.eval(r)) }}
		}
	}
	return w
}

// TestSQLServerFilter: SELECTs with random WHERE clauses (comparisons, IN,
// BETWEEN, IS [NOT] NULL, AND/OR over INT, STRING, BIGINT and BOOLEAN
// columns with NULLs) over a table with 'table.statistics.columns' return
// exactly the rows the clause selects from what was inserted. On Fluss 1.0
// their EXPLAIN names the server filter and the server skips batches; on
// older servers the same queries run with nothing pushed.
func TestSQLServerFilter(t *testing.T) {
	db, dbName := openTestDB(t)
	v := testServerVersion(t)
	with := `'bucket.num' = '2'`
	if v.AtLeast(1, 0) {
		with += `, 'table.statistics.columns' = '*'`
	}
	tbl := createTable(t, db, dbName, "filtered", `id INT NOT NULL, name STRING, v BIGINT, flag BOOLEAN`, with)
	const rows = 4000
	small, err := sql.Open("fluss", fmt.Sprintf("fluss://%s/fluss?write_batch_size=%d", os.Getenv("FLUSS_BOOTSTRAP_SERVERS"), 8<<10))
	require.NoError(t, err)
	defer small.Close()
	tx, err := small.Begin()
	require.NoError(t, err)
	ins, err := tx.Prepare(`INSERT INTO ` + dbName + `.` + tbl + ` VALUES (?, ?, ?, ?)`)
	require.NoError(t, err)
	data := make([]filterRow, rows)
	for i := range data {
		data[i] = makeFilterRow(i)
		r := data[i]
		var name, val any
		if r.name != nil {
			name = *r.name
		}
		if r.v != nil {
			val = *r.v
		}
		_, err := ins.Exec(r.id, name, val, r.flag)
		require.NoError(t, err)
	}
	require.NoError(t, tx.Commit())

	// Read back row for row.
	got := queryStrings(t, db, `SELECT id, name, v, flag FROM `+dbName+`.`+tbl)
	require.Len(t, got, rows)
	slices.SortFunc(got, func(a, b []string) int { return compare(atoiT(t, a[0]), atoiT(t, b[0])) })
	for i, g := range got {
		r := data[i]
		want := []string{fmt.Sprint(r.id), "NULL", "NULL", fmt.Sprint(r.flag)}
		if r.name != nil {
			want[1] = *r.name
		}
		if r.v != nil {
			want[2] = fmt.Sprint(*r.v)
		}
		require.Equal(t, want, g, "row %d", i)
	}

	rng := rand.New(rand.NewPCG(14, 3))
	pushed := 0
	for k := 0; k < 40; k++ {
		w := randomWhere(rng, rows)
		var want []int
		for _, r := range data {
			if b := w.eval(r); b != nil && *b {
				want = append(want, r.id)
			}
		}
		q := `SELECT id FROM ` + dbName + `.` + tbl + ` WHERE ` + w.sql
		var ids []int
		for _, g := range queryStrings(t, db, q) {
			ids = append(ids, atoiT(t, g[0]))
		}
		slices.Sort(ids)
		require.Equal(t, want, ids, "%s", q)
		plan := strings.Join(flatten(queryStrings(t, db, `EXPLAIN `+q)), "\n")
		if strings.Contains(plan, "server filter:") {
			pushed++
		}
		if !v.AtLeast(1, 0) {
			assert.NotContains(t, plan, "server filter:", "nothing is pushed without statistics columns")
		}
	}
	t.Logf("Fluss %s: %d of 40 random WHERE clauses pushed a server filter", v, pushed)
	if v.AtLeast(1, 0) {
		assert.Greater(t, pushed, 20, "most generated clauses are pushable")
	}
}

func flatten(rows [][]string) []string {
	var out []string
	for _, r := range rows {
		out = append(out, r...)
	}
	return out
}

func atoiT(t *testing.T, s string) int {
	var n int
	_, err := fmt.Sscan(s, &n)
	require.NoError(t, err, s)
	return n
}
