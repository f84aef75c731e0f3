package flussql_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// flinkLongEnv set to 1 makes TestFlinkOracle also run the generated grid of functions ×
// argument columns (flinkGridCases), several hundred statements: `make flink-oracle-long`.
const flinkLongEnv = "FLUSS_FLINK_LONG"

// flinkOracleShort are the statements of the suites `make test` runs (one or two per area,
// chosen for what they catch: NULL skipping, frames, month ends, time zones, DECIMAL types);
// FLUSS_FLINK_LONG=1 runs them all. Each costs a Flink job (≈ 1 s on an idle machine).
var flinkOracleShort = map[string]bool{
	"FIRST_VALUE skips a NULL first row":           true,
	"LAST_VALUE skips a NULL last row":             true,
	"RANK and DENSE_RANK with ties and a NULL key": true,
	"ROWS frame into the future":                   true,
	"TIMESTAMPADD MONTH clamps":                    true,
	"DATE_FORMAT":                                  true,
	"LTZ values are instants":                      true,
	"narrow DECIMAL times and divided":             true,
	"CEIL FLOOR ROUND of DECIMAL(38, 10)":          true,
	"LPAD(s, 5, '*') on t":                         true,
	"REGEXP_EXTRACT(s, '([a-z])([a-z])', 2) on t":  true,
	"ROUND of every type":                          true,

	// the maps suite
	"MAP_UNION(MAP['x', a], MAP['x', b, 'y', k]) on t": true,
	"STR_TO_MAP(s, 'b', 'a') on t":                     true,
}

// flinkOracleTable is a table both engines read: flussql creates and fills it, Flink reads it
// back once (streaming, stopped after the known row count) and queries a VALUES view of it.
type flinkOracleTable struct {
	name, columns string
	rows          []string
}

// flinkOracleTables: "t" has the rows of TestFlinkDifferential; "x" the temporal types, the
// small integer and FLOAT types, wide and narrow DECIMALs — with NULLs in every column but k,
// a leap day, month ends, times before 1970 and values at the edges of their types.
var flinkOracleTables = []flinkOracleTable{
	{"t", "k INT, a INT, b INT, big BIGINT, m DECIMAL(10, 2), n DECIMAL(6, 3), d DOUBLE, s STRING", flinkDiffRows},
	{"x", "k INT, ts TIMESTAMP(3), ts2 TIMESTAMP(6), ltz TIMESTAMP_LTZ(3), dt DATE, tm TIME, ti TINYINT, si SMALLINT, f FLOAT, w DECIMAL(38, 10), p DECIMAL(3, 2), bo BOOLEAN, n INT", []string{
		"(1, TIMESTAMP '2024-02-29 10:15:30.123', TIMESTAMP '2024-03-01 00:00:00.000001', TIMESTAMP '2024-02-29 23:30:00.000', DATE '2024-02-29', TIME '10:15:30', 1, 300, 1.5, 12345.6789012345, 1.25, TRUE, 1)",
		"(2, TIMESTAMP '2023-01-31 23:59:59.999', TIMESTAMP '2023-01-01 00:00:00', TIMESTAMP '2023-01-31 16:00:00.500', DATE '2023-01-31', TIME '23:59:59', -128, -300, -0.25, -0.0000000001, -9.99, FALSE, -1)",
		"(3, TIMESTAMP '1969-12-31 23:00:00.000', TIMESTAMP '1970-01-01 00:00:00.5', TIMESTAMP '1969-12-31 23:00:00.000', DATE '1969-12-31', TIME '00:00:00', 127, 32767, 1e10, 99999999.9999999999, 0.05, NULL, 12)",
		"(4, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, TRUE, NULL)",
		"(5, TIMESTAMP '2024-12-31 12:00:00.000', TIMESTAMP '2025-01-01 12:00:00', TIMESTAMP '2024-12-31 20:00:00.000', DATE '2024-01-01', TIME '12:30:00', 0, 0, 0, 0, 0, FALSE, 0)",
		"(6, TIMESTAMP '2021-03-28 01:30:00.000', TIMESTAMP '2021-03-29 01:29:59.999', TIMESTAMP '2021-10-31 00:59:59.000', DATE '2021-03-28', TIME '01:30:00', 5, 5, 3.0, 2.5, 2.50, TRUE, 40)",
	}},
}

// flinkOracleSuite is a list of statements over the tables of flinkOracleTables ({t}, {x}),
// run through both engines with Flink's session options config (a time zone, say); known
// lists the statements known to differ from Flink and why (a difference that goes away fails).
type flinkOracleSuite struct {
	name   string
	cases  []flinkDiffCase
	known  map[string]string
	config map[string]string
	// grid: the differences are checked against flinkGridDifferences (checkFlinkGrid), not known.
	grid bool
}

// TestFlinkOracle checks the dialect against Flink SQL (the reference) beyond
// TestFlinkDifferential: window functions, date/time functions and time zones, the functions
// the README lists, CASTs, overflow, DECIMAL precision and comparisons of mixed types —
// values and result types, as TestFlinkDifferential does, on Flink in batch mode over VALUES
// views of tables flussql wrote. With FLUSS_FLINK_LONG=1 it also runs the generated grid.
// Then, in the same database and Flink session (each costs seconds to set up and drop):
// the $changelog/$binlog columns (flinkChangelogColumns) and DDL round trips
// (flinkDDLRoundTrip).
func TestFlinkOracle(t *testing.T) {
	gwAddr := os.Getenv(flinkGatewayEnv)
	if gwAddr == "" {
		t.Skipf("%s is not set: no Flink SQL Gateway to compare with (make flink-up prints one)", flinkGatewayEnv)
	}
	db, dbName := openTestDB(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	fl := openFlinkSession(ctx, t, gwAddr, dbName)
	fl.exec(ctx, t, "SET 'table.local-time-zone' = 'UTC'", nil)
	names := map[string]string{}
	for _, tb := range flinkOracleTables {
		names["{"+tb.name+"}"] = loadFlinkOracleTable(ctx, t, db, fl, dbName, tb)
	}
	suites := []flinkOracleSuite{
		{"windows", flinkWindowCases, flinkWindowKnown, nil, false},
		{"time", flinkTimeCases, flinkTimeKnown, nil, false},
		{"time zone", flinkZoneCases, flinkZoneKnown, map[string]string{"table.local-time-zone": flinkOracleZone}, false},
		{"functions", flinkFunctionCases, flinkFunctionKnown, nil, false},
		{"numbers", flinkNumberCases, flinkNumberKnown, nil, false},
		{flinkBuiltinSuite, flinkBuiltinCases(), flinkBuiltinKnown, nil, false},
		{flinkFaggSuite, flinkFaggCases(), flinkFaggKnown, nil, false},
		{flinkMapSuite, flinkMapCases(), flinkMapKnown, nil, false},
		{flinkArraySuite, flinkArrayCases(), flinkArrayKnown, nil, false},
		{flinkScalarSuite, flinkScalarCases(), flinkScalarKnown, nil, false},
	}
	if os.Getenv(flinkLongEnv) == "1" {
		suites = append(suites, flinkOracleSuite{"grid", flinkGridCases(), flinkGridKnown, nil, true})
	}
	if only := os.Getenv(flinkSuitesEnv); only != "" {
		suites = slices.DeleteFunc(suites, func(s flinkOracleSuite) bool { return !slices.Contains(strings.Split(only, ","), s.name) })
	}
	short := 0
	for _, s := range suites {
		t.Run(s.name, func(t *testing.T) { runFlinkOracleSuite(ctx, t, db, fl, names, s) })
		for _, c := range s.cases {
			if flinkOracleShort[c.name] {
				short++
			}
		}
	}
	if os.Getenv(flinkSuitesEnv) == "" {
		require.Len(t, flinkOracleShort, short, "every name in flinkOracleShort is a statement")
	}
	if os.Getenv(flinkSuitesEnv) != "" {
		return
	}
	t.Run("changelog columns", func(t *testing.T) { flinkChangelogColumns(ctx, t, db, fl, dbName) })
	t.Run("DDL round trip", func(t *testing.T) { flinkDDLRoundTrip(ctx, t, db, fl, dbName) })
}

// loadFlinkOracleTable creates and fills tb with flussql, checks that Flink reads the same
// rows, and makes a VALUES view of them named tb.name in the Flink session; it returns the
// table's name for flussql.
func loadFlinkOracleTable(ctx context.Context, t *testing.T, db *sql.DB, fl *flinkSession, dbName string, tb flinkOracleTable) string {
	t.Helper()
	table := dbName + "." + tb.name
	_, err := db.ExecContext(ctx, "CREATE TABLE "+table+" ("+tb.columns+") WITH ('bucket.num' = '1')")
	require.NoError(t, err)
	_, err = db.ExecContext(ctx, "INSERT INTO "+table+" VALUES "+strings.Join(tb.rows, ", "))
	require.NoError(t, err)
	read := fl.streamRows(ctx, t, fmt.Sprintf("SELECT * FROM flussql_%s.%s.%s", dbName, dbName, tb.name), len(tb.rows))
	want := queryStrings(t, db, "SELECT * FROM "+table)
	require.ElementsMatch(t, normalizeRows(want, read.types), normalizeRows(read.rows, read.types),
		"the rows Flink reads from the table %s flussql wrote", tb.name)
	fl.exec(ctx, t, zoneFreeValuesView(tb.name, read), nil)
	return table
}

// zoneFreeValuesView is valuesView, except that a TIMESTAMP_LTZ value (read in UTC) becomes
// TO_TIMESTAMP_LTZ(epoch millis, 3): the same instant whatever the time zone of the query
// (a CAST of a string to TIMESTAMP_LTZ would read it in the query's zone).
func zoneFreeValuesView(name string, s streamed) string {
	ltz := map[int]bool{}
	for i, typ := range s.types {
		ltz[i] = strings.HasPrefix(typ, "TIMESTAMP_LTZ")
	}
	var rows []string
	for _, r := range s.rows {
		cells := make([]string, len(r))
		for i, v := range r {
			switch {
			case v == "NULL":
				cells[i] = fmt.Sprintf("CAST(NULL AS %s)", s.types[i])
			case ltz[i]:
				ts, err := parseTemporal(v)
				if err != nil {
					panic(fmt.Sprintf("TIMESTAMP_LTZ value %q: %v", v, err))
				}
				cells[i] = fmt.Sprintf("CAST(TO_TIMESTAMP_LTZ(%d, 3) AS %s)", ts.UnixMilli(), s.types[i])
			default:
				cells[i] = fmt.Sprintf("CAST('%s' AS %s)", strings.ReplaceAll(v, "'", "''"), s.types[i])
			}
		}
		rows = append(rows, "("+strings.Join(cells, ", ")+")")
	}
	return fmt.Sprintf("CREATE TEMPORARY VIEW %s AS SELECT * FROM (VALUES %s) AS v(%s)",
		name, strings.Join(rows, ", "), strings.Join(s.names, ", "))
}

// runFlinkOracleSuite runs every statement of s through both engines and compares their
// answers; names maps {t}-style placeholders to flussql's table names (Flink's are the views).
func runFlinkOracleSuite(ctx context.Context, t *testing.T, db *sql.DB, fl *flinkSession, names map[string]string, s flinkOracleSuite) {
	zone := time.UTC
	if z := s.config["table.local-time-zone"]; z != "" {
		var err error
		zone, err = time.LoadLocation(z)
		require.NoError(t, err)
	}
	var unexpected, ran int
	seen := map[string]bool{}
	gridDiffs := map[string]string{}
	long := os.Getenv(flinkLongEnv) == "1" || os.Getenv(flinkSuitesEnv) != ""
	for _, c := range s.cases {
		require.False(t, seen[c.name], "two statements named %q", c.name)
		seen[c.name] = true
		if !long && !flinkOracleShort[c.name] {
			continue
		}
		if m := os.Getenv(flinkMatchEnv); m != "" && !regexp.MustCompile(m).MatchString(c.name) {
			continue
		}
		ran++
		ours, theirs := c.sql, c.sql
		for ph, table := range names {
			ours = strings.ReplaceAll(ours, ph, table)
			theirs = strings.ReplaceAll(theirs, ph, strings.Trim(ph, "{}"))
		}
		got, gotErr := flussqlAnswer(ctx, db, ours)
		ref, refErr := fl.answerWith(ctx, theirs, s.config)
		ref = ltzToUTC(ref, zone)
		diff := compareAnswers(c, got, gotErr, ref, refErr)
		known, isKnown := s.known[c.name]
		switch {
		case s.grid:
			if diff != "" {
				gridDiffs[c.name] = strings.TrimSpace(strings.SplitN(diff, "\n", 2)[0])
				t.Logf("%s:\n%s", c.name, diff)
			}
		case diff == "" && isKnown:
			t.Errorf("%s: now agrees with Flink; remove it from the known differences (was: %s)", c.name, known)
		case diff == "":
		case isKnown:
			t.Logf("%s (known difference: %s):\n%s", c.name, known, diff)
		default:
			unexpected++
			t.Errorf("%s: %s\n%s", c.name, c.sql, diff)
		}
	}
	if s.grid {
		checkFlinkGrid(t, gridDiffs)
		t.Logf("grid: %d statements, %d differ from Flink", len(s.cases), len(gridDiffs))
		return
	}
	for name := range s.known {
		require.True(t, seen[name], "known difference %q names no statement", name)
	}
	if os.Getenv(flinkMatchEnv) != "" {
		return
	}
	t.Logf("%s: %d of %d statements run (all with %s=1), %d unexpected differences", s.name, ran, len(s.cases), flinkLongEnv, unexpected)
}

// ltzToUTC rewrites Flink's TIMESTAMP_LTZ values, which it prints in the session's zone, as
// the UTC wall-clock time of the same instant (how flussql returns them).
func ltzToUTC(a answer, zone *time.Location) answer {
	if zone == time.UTC {
		return a
	}
	for j, typ := range a.types {
		if !strings.HasPrefix(typ, "TIMESTAMP_LTZ") {
			continue
		}
		for _, r := range a.rows {
			if ts, err := time.ParseInLocation("2006-01-02 15:04:05.999999999", strings.Replace(r[j], "T", " ", 1), zone); err == nil {
				r[j] = ts.UTC().Format("2006-01-02 15:04:05.999999999")
			}
		}
	}
	return a
}

// temporalLayouts are the forms a DATE, TIME or TIMESTAMP value reaches the test in: Flink's
// (with a space or a T), Go's time.Time as database/sql formats it.
var temporalLayouts = []string{
	"2006-01-02 15:04:05.999999999",
	"2006-01-02T15:04:05.999999999",
	time.RFC3339Nano,
	"2006-01-02 15:04:05.999999999 -0700 MST",
	"2006-01-02",
	"15:04:05.999999999",
}

func parseTemporal(v string) (time.Time, error) {
	for _, l := range temporalLayouts {
		if ts, err := time.Parse(l, v); err == nil {
			return ts, nil
		}
	}
	return time.Time{}, fmt.Errorf("not a date, time or timestamp")
}

// normalizeTemporal puts a DATE, TIME or TIMESTAMP[_LTZ] value of Flink type typ in one form.
func normalizeTemporal(v, typ string) string {
	ts, err := parseTemporal(v)
	if err != nil {
		return v
	}
	switch {
	case typ == "DATE":
		return ts.Format("2006-01-02")
	case strings.HasPrefix(typ, "TIME("), typ == "TIME":
		return ts.Format("15:04:05.999999999")
	}
	return ts.Format("2006-01-02 15:04:05.999999999")
}
