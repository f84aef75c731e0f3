package flussql_test

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// tpchOrder is a query's ORDER BY as output column positions; desc marks descending ones.
// limit is the query's LIMIT (0: none): rows tied on the sort key at its cut may differ.
type tpchOrder struct {
	cols  []int
	desc  []bool
	limit int
}

// tpchOrders are the ORDER BY clauses of the 22 queries in output columns ("2d" = the third
// column, descending); queries without one (a single aggregate row) compare as multisets.
var tpchOrders = map[int]tpchOrder{
	1: order("0 1"), 2: limit(order("0d 2 1 3"), 100), 3: limit(order("1d 2"), 10), 4: order("0"),
	5: order("1d"), 7: order("0 1 2"), 8: order("0"), 9: order("0 1d"), 10: limit(order("2d"), 20),
	11: order("1d"), 12: order("0"), 13: order("1d 0d"), 15: order("0"), 16: order("3d 0 1 2"),
	18: limit(order("4d 3"), 100), 20: order("0"), 21: limit(order("1d 0"), 100), 22: order("0"),
}

func order(spec string) tpchOrder {
	var o tpchOrder
	for _, f := range strings.Fields(spec) {
		n, _ := strconv.Atoi(strings.TrimSuffix(f, "d"))
		o.cols = append(o.cols, n)
		o.desc = append(o.desc, strings.HasSuffix(f, "d"))
	}
	return o
}

func limit(o tpchOrder, n int) tpchOrder { o.limit = n; return o }

// tpchRows runs q and normalises its values for comparison: numbers (DECIMAL text
// included) float64, dates YYYY-MM-DD, text string, NULL nil.
func tpchRows(ctx context.Context, db *sql.DB, q string) ([][]any, error) {
	rows, err := db.QueryContext(ctx, q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	types, err := rows.ColumnTypes()
	if err != nil {
		return nil, err
	}
	var out [][]any
	for rows.Next() {
		vals := make([]any, len(types))
		ptrs := make([]any, len(types))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		for i, v := range vals {
			switch x := v.(type) {
			case []byte:
				vals[i] = string(x)
			case time.Time:
				vals[i] = x.Format(time.DateOnly)
			case int64:
				vals[i] = float64(x)
			case int32:
				vals[i] = float64(x)
			case int:
				vals[i] = float64(x)
			}
			if s, ok := vals[i].(string); ok && types[i].DatabaseTypeName() == "DECIMAL" {
				f, err := strconv.ParseFloat(s, 64)
				if err != nil {
					return nil, err
				}
				vals[i] = f
			}
		}
		out = append(out, vals)
	}
	return out, rows.Err()
}

// tpchSame compares two cells: numbers within 1e-9 relative or 1e-6 absolute (SQLite
// computes DECIMAL columns in binary floating point; an AVG or a division of decimals has
// six places in Flink SQL), anything else exactly.
func tpchSame(a, b any) bool {
	fa, aok := a.(float64)
	fb, bok := b.(float64)
	if aok && bok {
		d := math.Abs(fa - fb)
		return d <= 1e-6 || d <= 1e-9*math.Max(math.Abs(fa), math.Abs(fb))
	}
	return a == b
}

func tpchSameRow(a, b []any) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !tpchSame(a[i], b[i]) {
			return false
		}
	}
	return true
}

// sameKey reports whether two rows have equal sort keys.
func (o tpchOrder) sameKey(a, b []any) bool {
	for _, c := range o.cols {
		if !tpchSame(a[c], b[c]) {
			return false
		}
	}
	return true
}

// after reports whether row a, following row b, violates the order.
func (o tpchOrder) after(a, b []any) bool {
	for i, c := range o.cols {
		if tpchSame(a[c], b[c]) {
			continue
		}
		less := lessValue(a[c], b[c])
		if o.desc[i] {
			return !less
		}
		return less
	}
	return false
}

// head is at most the first 12 rows, for messages.
func head(rows [][]any) [][]any { return rows[:min(len(rows), 12)] }

func lessValue(a, b any) bool {
	switch x := a.(type) {
	case float64:
		y, ok := b.(float64)
		return ok && x < y
	case string:
		y, ok := b.(string)
		return ok && x < y
	case nil:
		return b != nil
	}
	return false
}

// compareTPCH compares flussql's rows with SQLite's (ref: for a query with a LIMIT,
// SQLite's rows without the LIMIT): the same number of rows; flussql's in the query's
// order; within each run of rows tied on the sort key (all rows when there is no ORDER BY)
// the same rows as a multiset; and where the LIMIT cuts a run of tied rows, flussql's rows
// of that run any of the run's rows. It returns "" or the difference.
func compareTPCH(got, ref [][]any, o tpchOrder) string {
	want := ref
	if o.limit > 0 && len(ref) > o.limit {
		want = ref[:o.limit]
	}
	if len(got) != len(want) {
		return fmt.Sprintf("%d rows, SQLite %d", len(got), len(want))
	}
	for i := 1; i < len(got); i++ {
		if o.after(got[i], got[i-1]) {
			return fmt.Sprintf("row %d %v comes after row %d %v against the ORDER BY", i, got[i], i-1, got[i-1])
		}
	}
	for i := 0; i < len(want); {
		j := i + 1
		for j < len(ref) && (len(o.cols) == 0 || o.sameKey(ref[j], ref[i])) {
			j++
		}
		if j > len(want) { // the LIMIT cuts this run: got's rows are some of its rows
			pool := slices.Clone(ref[i:j])
			for k := i; k < len(want); k++ {
				at := slices.IndexFunc(pool, func(r []any) bool { return tpchSameRow(r, got[k]) })
				if at < 0 {
					return fmt.Sprintf("row %d: %v is none of SQLite's rows tied at the LIMIT %v", k, got[k], head(ref[i:j]))
				}
				pool = slices.Delete(pool, at, at+1)
			}
			break
		}
		g, w := sortRows(got[i:j]), sortRows(want[i:j])
		for k := range g {
			if !tpchSameRow(g[k], w[k]) {
				return fmt.Sprintf("row %d: %v, SQLite %v", i+k, g[k], w[k])
			}
		}
		i = j
	}
	return ""
}

func sortRows(rows [][]any) [][]any {
	out := slices.Clone(rows)
	key := func(r []any) string {
		var b strings.Builder
		for _, v := range r {
			if f, ok := v.(float64); ok {
				fmt.Fprintf(&b, "%.6e|", f+0)
			} else {
				fmt.Fprintf(&b, "%v|", v)
			}
		}
		return b.String()
	}
	slices.SortStableFunc(out, func(a, b []any) int { return strings.Compare(key(a), key(b)) })
	return out
}

func TestCompareTPCH(t *testing.T) {
	byRevenue := limit(order("1d"), 3)
	for _, tc := range []struct {
		name      string
		got, want [][]any
		o         tpchOrder
		ok        bool
	}{
		{"same", [][]any{{"a", 2.0}, {"b", 1.0}}, [][]any{{"a", 2.0}, {"b", 1.0}}, order("1d"), true},
		{"float within tolerance", [][]any{{"a", 0.1 + 0.2}}, [][]any{{"a", 0.3}}, tpchOrder{}, true},
		{"wrong value", [][]any{{"a", 2.5}}, [][]any{{"a", 2.0}}, tpchOrder{}, false},
		{"missing row", [][]any{{"a", 2.0}}, [][]any{{"a", 2.0}, {"b", 1.0}}, order("1d"), false},
		{"out of order", [][]any{{"b", 1.0}, {"a", 2.0}}, [][]any{{"a", 2.0}, {"b", 1.0}}, order("1d"), false},
		{"ties in any order", [][]any{{"b", 1.0}, {"a", 1.0}}, [][]any{{"a", 1.0}, {"b", 1.0}}, order("1d"), true},
		{"no ORDER BY: a multiset", [][]any{{"b", 1.0}, {"a", 2.0}}, [][]any{{"a", 2.0}, {"b", 1.0}}, tpchOrder{}, true},
		{"tie cut by the LIMIT", [][]any{{"a", 3.0}, {"b", 2.0}, {"x", 1.0}}, [][]any{{"a", 3.0}, {"b", 2.0}, {"y", 1.0}, {"x", 1.0}}, byRevenue, true},
		{"not among the tied rows", [][]any{{"a", 3.0}, {"b", 2.0}, {"z", 1.0}}, [][]any{{"a", 3.0}, {"b", 2.0}, {"y", 1.0}, {"x", 1.0}}, byRevenue, false},
		{"no tie at the cut", [][]any{{"a", 3.0}, {"b", 2.0}, {"x", 1.0}}, [][]any{{"a", 3.0}, {"b", 2.0}, {"y", 1.0}, {"x", 0.5}}, byRevenue, false},
		{"fewer rows than the LIMIT", [][]any{{"a", 3.0}, {"x", 1.0}}, [][]any{{"a", 3.0}, {"y", 1.0}}, byRevenue, false},
		{"wrong row before the cut", [][]any{{"z", 3.0}, {"b", 2.0}, {"x", 1.0}}, [][]any{{"a", 3.0}, {"b", 2.0}, {"x", 1.0}}, byRevenue, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msg := compareTPCH(tc.got, tc.want, tc.o)
			if tc.ok {
				require.Empty(t, msg)
			} else {
				require.NotEmpty(t, msg)
			}
		})
	}
}
