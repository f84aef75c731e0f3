package flussql_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/datum"
)

// flinkMapSuite is the TestFlinkOracle suite of the MAP functions, the MAP[…] constructor over
// columns, the string-to-collection functions (SPLIT, STR_TO_MAP) and COLLECT: per function,
// its forms over the columns of {t} (NULLs, ” and repeated characters in s) and literals at
// the edges (repeated keys, zero-width and invalid regex delimiters, arrays of different
// lengths). Values of ARRAY, MAP, ROW and MULTISET columns are compared as Flink's gateway
// prints them, a map's entries in sorted order (Flink's order is its hash map's).
const flinkMapSuite = "maps"

// flinkMapCases generates the suite's statements.
func flinkMapCases() []flinkDiffCase {
	var out []flinkDiffCase
	add := func(expr string) {
		out = append(out, flinkDiffCase{expr + " on t", fmt.Sprintf("SELECT k, %s FROM {t}", expr), false})
	}
	for _, e := range []string{
		// MAP[…] over columns, the subscript, repeated keys (the last wins)
		"MAP['x', a, 'y', b]", "MAP[k, 'first', COALESCE(b, 0), 'second']", "MAP['a', 1, 'b', 2, 'a', a]",
		"MAP[s, a]", "MAP[COALESCE(s, '-'), a]", "MAP[COALESCE(s, '-'), a]['abc']", "MAP['x', s]['x']", "MAP['x', s]['nope']",
		"MAP[k, a, 1, b][1]", "CARDINALITY(MAP[k, a, 1, b])", "MAP['n', m, 'd', d]", "MAP['x', a, 'y', 'z']",
		// MAP_KEYS, MAP_VALUES, MAP_ENTRIES
		"MAP_KEYS(MAP['x', a, 'y', b])", "MAP_VALUES(MAP['x', a, 'y', b])", "MAP_ENTRIES(MAP['x', a, 'y', b])",
		"MAP_KEYS(MAP['a', 1, 'b', 2, 'a', a])", "MAP_VALUES(MAP[k, s])", "MAP_ENTRIES(MAP[k, s])",
		"MAP_KEYS(STR_TO_MAP(s, 'b', 'a'))[1]", "MAP_VALUES(MAP_FROM_ARRAYS(SPLIT(s, 'b'), SPLIT(s, 'b')))",
		"MAP_VALUES(STR_TO_MAP(s, 'b', 'a'))[1]", "MAP['a', a, 'big', big]",
		// MAP_FROM_ARRAYS
		"MAP_FROM_ARRAYS(SPLIT(s, 'b'), SPLIT(s, 'b'))", "MAP_FROM_ARRAYS(SPLIT('x,y', ','), SPLIT(CONCAT(s, ',', s), ','))",
		"MAP_FROM_ARRAYS(SPLIT(s, 'b'), SPLIT('1,2', ','))", "CARDINALITY(MAP_FROM_ARRAYS(SPLIT(s, ''), SPLIT(s, '')))",
		// MAP_UNION
		"MAP_UNION(MAP['x', a], MAP['x', b, 'y', k])", "MAP_UNION(MAP['x', a])", "MAP_UNION(STR_TO_MAP(s, ' ', '='), MAP['a', 'z'], MAP['b', s])",
		"MAP_UNION(MAP['x', a], MAP['x', 'y'])",
		// STR_TO_MAP
		"STR_TO_MAP(s)", "STR_TO_MAP(s, 'b', 'a')", "STR_TO_MAP(CONCAT('k=', s, ',j=', s, ',k=', s, s))", "STR_TO_MAP('a=1;b=2;a=3', ';', '=')",
		"STR_TO_MAP(s, '', 'b')", "STR_TO_MAP(s, '[ab]', '=')", "STR_TO_MAP(s, ' ', 'x')", "STR_TO_MAP('a=1', s, '=')", "STR_TO_MAP(s, '(', '=')",
		"STR_TO_MAP(CONCAT(s, '=1,', s, '2=x=y,,=,'))", "STR_TO_MAP(CONCAT(s, ':1 ; b:2'), '\\s*;\\s*', ':')", "STR_TO_MAP(s)['abc']",
		// SPLIT
		"SPLIT(s, 'b')", "SPLIT(s, '')", "SPLIT(s, ' ')", "SPLIT(s, s)", "SPLIT('a.b.c', '.')", "SPLIT(s, CAST(NULL AS STRING))",
		"SPLIT(s, 'b')[1]", "CARDINALITY(SPLIT(s, 'b'))", "SPLIT(CONCAT(s, ',,'), ',')",
	} {
		add(e)
	}
	for _, e := range []string{"COLLECT(s)", "COLLECT(a)", "COLLECT(b)", "COLLECT(m)"} {
		out = append(out, flinkDiffCase{e, "SELECT " + e + " FROM {t}", false})
	}
	out = append(out,
		flinkDiffCase{"COLLECT over no rows", "SELECT COLLECT(s) FROM {t} WHERE k > 100", false},
		flinkDiffCase{"COLLECT by group", "SELECT b, COLLECT(s), COLLECT(a) FROM {t} GROUP BY b", false})
	return out
}

// flinkMultisetTypes: flussql has no MULTISET type (Fluss's types have none).
const flinkMultisetTypes = "types only: Flink's MULTISET<T> is MAP<T, INT NOT NULL> in flussql (Fluss has no MULTISET type); the entries are the same"

// flinkNullKey: Fluss's (and Arrow's) MAP keys are NOT NULL.
const flinkNullKey = "flussql's MAP keys are never NULL (Fluss's and Arrow's MAP type): where Flink makes a NULL key, flussql fails and names the key"

// flinkMapKnown: where flussql's map functions differ from Flink's, and why.
var flinkMapKnown = map[string]string{
	"MAP[k, 'first', COALESCE(b, 0), 'second'] on t": "Flink keeps a repeated key when the keys are not constants ({2=first, 2=second}; " +
		"yet MAP[s, 1, s, 2] keeps one): flussql's MAP keys are unique, the last value wins, as Flink's do for constant keys",
	"MAP[s, a] on t":       flinkNullKey,
	"COLLECT(s)":           flinkMultisetTypes,
	"COLLECT(a)":           flinkMultisetTypes,
	"COLLECT(b)":           flinkMultisetTypes,
	"COLLECT(m)":           flinkMultisetTypes,
	"COLLECT over no rows": flinkMultisetTypes,
	"COLLECT by group":     flinkMultisetTypes,
}

// flinkText scans a flussql value as Flink's SQL gateway prints it: scalars as
// sql.NullString does, an ARRAY [a, b], a ROW (a, b), a MAP {k=v, …}, NULL inside them
// NULL. (database/sql cannot scan the []any and []datum.MapEntry of nested values into a
// string.) A ROW reaches database/sql as []any too; normalizeNested makes (…) and […] one.
type flinkText struct{ sql.NullString }

// Scan implements sql.Scanner.
func (f *flinkText) Scan(src any) error {
	switch src.(type) {
	case []any, []datum.MapEntry:
		f.String, f.Valid = flinkNestedText(src), true
		return nil
	}
	return f.NullString.Scan(src)
}

func flinkNestedText(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = flinkNestedText(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case []datum.MapEntry:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = flinkNestedText(e.Key) + "=" + flinkNestedText(e.Value)
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case bool:
		return strings.ToUpper(strconv.FormatBool(x))
	case float64: // as Java prints a double: 20.0, not 20
		return javaDouble(x, 64)
	case float32:
		return javaDouble(float64(x), 32)
	case time.Time:
		if x.Hour() == 0 && x.Minute() == 0 && x.Second() == 0 && x.Nanosecond() == 0 {
			return x.Format("2006-01-02")
		}
		return x.Format("2006-01-02 15:04:05.999999999")
	}
	return fmt.Sprint(v)
}

// nestedTypes are the column types whose values normalizeNested puts in one form.
var nestedTypes = []string{"ARRAY", "MAP", "ROW", "MULTISET"}

// normalizeNested puts a printed ARRAY, ROW, MAP or MULTISET value in one form: a ROW's (…)
// as […], a map's entries sorted (Flink prints a map in its hash map's order), recursively.
// Elements are cut at ", " outside brackets; the suites' strings have no ", " of their own.
func normalizeNested(v string) string {
	if len(v) < 2 {
		return v
	}
	inner := v[1 : len(v)-1]
	switch v[0:1] + v[len(v)-1:] {
	case "[]", "()":
		parts := splitNested(inner)
		for i, p := range parts {
			parts[i] = normalizeNested(p)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case "{}":
		parts := splitNested(inner)
		for i, p := range parts {
			k, val := cutNested(p)
			parts[i] = normalizeNested(k) + "=" + normalizeNested(val)
		}
		slices.Sort(parts)
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return v
}

// splitNested cuts s at the ", " outside brackets.
func splitNested(s string) []string {
	if s == "" {
		return nil
	}
	var out []string
	depth, last := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[', '(', '{':
			depth++
		case ']', ')', '}':
			depth--
		case ',':
			if depth == 0 && i+1 < len(s) && s[i+1] == ' ' {
				out = append(out, s[last:i])
				last = i + 2
				i++
			}
		}
	}
	return append(out, s[last:])
}

// cutNested cuts a map entry at its first '=' outside brackets.
func cutNested(s string) (string, string) {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[', '(', '{':
			depth++
		case ']', ')', '}':
			depth--
		case '=':
			if depth == 0 {
				return s[:i], s[i+1:]
			}
		}
	}
	return s, ""
}

// TestFlinkMapColumn writes a table with a MAP<STRING, INT> column with flussql and reads it
// through the map functions in both engines: Flink reads the Fluss table itself (streaming,
// stopped after its rows), not a VALUES view, so the maps are the ones flussql wrote.
func TestFlinkMapColumn(t *testing.T) {
	gwAddr := os.Getenv(flinkGatewayEnv)
	if gwAddr == "" {
		t.Skipf("%s is not set: no Flink SQL Gateway to compare with (make flink-up prints one)", flinkGatewayEnv)
	}
	db, dbName := openTestDB(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	table := dbName + ".maps"
	_, err := db.ExecContext(ctx, "CREATE TABLE "+table+" (k INT, m MAP<STRING, INT>, s STRING) WITH ('bucket.num' = '1')")
	require.NoError(t, err)
	rows := []string{
		"(1, MAP['a', 1, 'b', 2], 'a=1,c=3')",
		"(2, MAP['x', NULL, 'a', 7], 'x=9')",
		"(3, MAP[], '')",
		"(4, NULL, NULL)",
	}
	_, err = db.ExecContext(ctx, "INSERT INTO "+table+" VALUES "+strings.Join(rows, ", "))
	require.NoError(t, err)
	fl := openFlinkSession(ctx, t, gwAddr, dbName)
	const q = "SELECT k, m, m['a'], CARDINALITY(m), MAP_KEYS(m), MAP_VALUES(m), MAP_ENTRIES(m), " +
		"STR_TO_MAP(s), MAP_UNION(m, MAP['a', k * 10]), MAP_FROM_ARRAYS(MAP_KEYS(m), MAP_VALUES(m)) FROM %s"
	ref := fl.streamRows(ctx, t, fmt.Sprintf(q, fmt.Sprintf("flussql_%s.%s.maps", dbName, dbName)), len(rows))
	got, err := flussqlAnswer(ctx, db, fmt.Sprintf(q, table))
	require.NoError(t, err)
	c := flinkDiffCase{"map column", q, false}
	diff := compareAnswers(c, got, nil, answer{types: ref.types, rows: ref.rows}, nil)
	require.Empty(t, diff, "the map functions over a MAP column flussql wrote")
	t.Logf("map column: %d rows agree: %v", len(got.rows), got.rows)
}
