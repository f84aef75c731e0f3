package flussql_test

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// updateFlinkGrid rewrites testdata/flink/grid-differences.txt from what the long mode saw.
var updateFlinkGrid = flag.Bool("update-flink-grid", false, "rewrite testdata/flink/grid-differences.txt (FLUSS_FLINK_LONG=1)")

// flinkGridDifferences lists the grid statements whose flussql answer differs from Flink's,
// one per line: name, a tab, the first line of the difference.
const flinkGridDifferences = "testdata/flink/grid-differences.txt"

// flinkGridColumn is a column of a table of flinkOracleTables with its kind.
type flinkGridColumn struct{ table, name, kind string }

var flinkGridColumns = []flinkGridColumn{
	{"t", "a", "int"}, {"t", "b", "int"}, {"t", "big", "int"}, {"t", "m", "decimal"}, {"t", "n", "decimal"},
	{"t", "d", "float"}, {"t", "s", "string"},
	{"x", "ti", "int"}, {"x", "si", "int"}, {"x", "f", "float"}, {"x", "w", "decimal"}, {"x", "p", "decimal"},
	{"x", "bo", "bool"}, {"x", "ts", "timestamp"}, {"x", "ts2", "timestamp"}, {"x", "ltz", "ltz"}, {"x", "dt", "date"}, {"x", "tm", "time"},
}

// flinkGridCases generates the long mode's statements: every numeric operator over every pair
// of numeric columns of a table (NULLs and zeros included), comparisons of every pair, CASTs
// of every column to every target type, the numeric functions, the aggregates, the string
// and temporal functions of each column — each "SELECT k, <expr> FROM <table>".
func flinkGridCases() []flinkDiffCase {
	var out []flinkDiffCase
	add := func(table, expr string) {
		out = append(out, flinkDiffCase{expr + " on " + table, fmt.Sprintf("SELECT k, %s FROM {%s}", expr, table), false})
	}
	numeric := func(c flinkGridColumn) bool { return c.kind == "int" || c.kind == "decimal" || c.kind == "float" }
	for _, l := range flinkGridColumns {
		for _, r := range flinkGridColumns {
			if l.table != r.table || !numeric(l) || !numeric(r) {
				continue
			}
			for _, op := range []string{"+", "-", "*", "/", "%"} {
				if op == "%" && (l.kind == "float" || r.kind == "float") {
					continue
				}
				add(l.table, fmt.Sprintf("%s %s %s", l.name, op, r.name))
			}
			for _, op := range []string{"=", "<"} {
				add(l.table, fmt.Sprintf("%s %s %s", l.name, op, r.name))
			}
		}
	}
	targets := []string{"TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE", "DECIMAL(10, 2)", "DECIMAL(38, 0)",
		"STRING", "BOOLEAN", "DATE", "TIMESTAMP(3)", "TIMESTAMP_LTZ(3)"}
	for _, c := range flinkGridColumns {
		for _, typ := range targets {
			add(c.table, fmt.Sprintf("CAST(%s AS %s)", c.name, typ))
		}
		switch {
		case numeric(c):
			for _, f := range []string{"ABS(%s)", "-%s", "CEIL(%s)", "FLOOR(%s)", "ROUND(%s)", "ROUND(%s, 1)", "ROUND(%s, -1)",
				"MOD(%s, 3)", "%s * 1.5", "%s / 7", "%s + 0.001", "COALESCE(%s, 0)", "NULLIF(%s, 0)", "%s IN (0, 1.25, 5)"} {
				if strings.HasPrefix(f, "MOD") && c.kind != "int" {
					continue
				}
				add(c.table, fmt.Sprintf(f, c.name))
			}
		case c.kind == "string":
			for _, f := range []string{"UPPER(%s)", "LOWER(%s)", "TRIM(%s)", "LTRIM(%s)", "RTRIM(%s)", "CHAR_LENGTH(%s)",
				"SUBSTRING(%s, 2)", "SUBSTRING(%s, -2, 1)", "CONCAT(%s, %[1]s)", "POSITION('a' IN %s)", "%s LIKE '%%a%%'", "%s || NULL"} {
				add(c.table, fmt.Sprintf(f, c.name))
			}
		case c.kind == "timestamp" || c.kind == "ltz" || c.kind == "date":
			for _, unit := range []string{"YEAR", "QUARTER", "MONTH", "WEEK", "DAY", "DOY", "DOW", "HOUR", "MINUTE", "SECOND"} {
				if c.kind == "date" && (unit == "HOUR" || unit == "MINUTE" || unit == "SECOND") {
					continue
				}
				add(c.table, fmt.Sprintf("EXTRACT(%s FROM %s)", unit, c.name))
			}
			for _, unit := range []string{"MONTH", "DAY", "HOUR", "SECOND"} {
				add(c.table, fmt.Sprintf("TIMESTAMPADD(%s, 3, %s)", unit, c.name))
				add(c.table, fmt.Sprintf("TIMESTAMPDIFF(%s, %s, TIMESTAMP '2024-03-01 00:00:00')", unit, c.name))
			}
			add(c.table, fmt.Sprintf("DATE_FORMAT(%s, 'yyyy-MM-dd HH:mm:ss.SSS')", c.name))
		}
	}
	for _, c := range flinkGridColumns {
		if c.kind == "bool" {
			continue
		}
		aggs := []string{"COUNT(%s)", "MIN(%s)", "MAX(%s)", "COUNT(DISTINCT %s)"}
		if numeric(c) {
			aggs = append(aggs, "SUM(%s)", "AVG(%s)", "SUM(DISTINCT %s)")
		}
		for _, f := range aggs {
			e := fmt.Sprintf(f, c.name)
			out = append(out, flinkDiffCase{e + " on " + c.table, fmt.Sprintf("SELECT %s FROM {%s}", e, c.table), false})
		}
	}
	return out
}

// flinkGridKnown is empty: the long mode compares its differences with flinkGridDifferences
// instead (checkFlinkGrid), there are too many to list by hand.
var flinkGridKnown = map[string]string{}

// checkFlinkGrid compares the grid's differing statements (name → first line of the
// difference) with flinkGridDifferences; -update-flink-grid rewrites the file.
func checkFlinkGrid(t *testing.T, diffs map[string]string) {
	var lines []string
	for name, d := range diffs {
		lines = append(lines, name+"\t"+d)
	}
	slices.Sort(lines)
	got := strings.Join(lines, "\n") + "\n"
	if *updateFlinkGrid {
		require.NoError(t, os.MkdirAll("testdata/flink", 0o755))
		require.NoError(t, os.WriteFile(flinkGridDifferences, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(flinkGridDifferences)
	require.NoError(t, err, "run the long mode with -update-flink-grid once")
	names := func(s string) []string {
		var out []string
		for l := range strings.Lines(s) {
			if name, _, ok := strings.Cut(strings.TrimSuffix(l, "\n"), "\t"); ok {
				out = append(out, name)
			}
		}
		return out
	}
	require.Equal(t, names(string(want)), names(got),
		"the grid statements that differ from Flink changed (a fix or a regression); check, then rerun with -update-flink-grid")
}
