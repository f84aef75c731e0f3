package flussql_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/engine"
)

// flinkBuiltinSuite is the TestFlinkOracle suite of the functions issue 31 added to the
// registry: per function, its forms over the columns of {t} and {x} (NULLs in every column)
// and literals at the edges (empty strings, negative lengths, invalid patterns and JSON).
const flinkBuiltinSuite = "builtins"

// flinkBuiltinCases generates the suite's statements, "SELECT k, <expr> FROM {t}" each.
func flinkBuiltinCases() []flinkDiffCase {
	var out []flinkDiffCase
	add := func(table, expr string) {
		out = append(out, flinkDiffCase{expr + " on " + table, fmt.Sprintf("SELECT k, %s FROM {%s}", expr, table), false})
	}
	global := func(expr string) {
		out = append(out, flinkDiffCase{expr, "SELECT " + expr + " FROM {t}", false})
	}
	for _, e := range []string{
		// string
		"REPLACE(s, 'b', 'XY')", "REPLACE(s, '', 'x')", "REPLACE(s, 'b', '')",
		"LPAD(s, 5, '*')", "LPAD(s, 2, 'xy')", "LPAD(s, a, '-')", "LPAD(s, 4, '')",
		"RPAD(s, 5, 'xy')", "RPAD(s, 1, '*')", "RPAD(s, b, '.')",
		"CONCAT_WS('-', s, CAST(a AS STRING), s)", "CONCAT_WS(s, 'x', 'y')", "CONCAT_WS(',', s)",
		"INITCAP(s)", "INITCAP('hello wORLD 1st-class o''neil')",
		"LEFT(s, 2)", "LEFT(s, a)", "RIGHT(s, 2)", "RIGHT(s, b)", "LEFT(s, 0)",
		"LOCATE('b', s)", "LOCATE('b', s, 2)", "LOCATE('', s)", "LOCATE('b', s, a)",
		"SPLIT_INDEX(s, 'b', 0)", "SPLIT_INDEX(s, 'b', 1)", "SPLIT_INDEX(s, ' ', 2)", "SPLIT_INDEX(s, '', 0)", "SPLIT_INDEX(s, 'b', -1)",
		"REPEAT(s, 2)", "REPEAT(s, a)", "REVERSE(s)", "SUBSTR(s, 2)",
		// regex
		"REGEXP(s, 'b')", "REGEXP(s, '^[a-z]+$')", "REGEXP(s, '\\s')", "REGEXP(s, '(')",
		"REGEXP_EXTRACT(s, '([a-z])([a-z])', 2)", "REGEXP_EXTRACT(s, '[a-z]+')", "REGEXP_EXTRACT(s, '(b)', 3)", "REGEXP_EXTRACT(s, '\\p{Upper}\\w*', 0)",
		"REGEXP_REPLACE(s, 'b', '#')", "REGEXP_REPLACE(s, '([a-z])', '<$1>')", "REGEXP_REPLACE(s, '(?<c>[A-Z])', '${c}${c}')", "REGEXP_REPLACE(s, '\\s+', '')", "REGEXP_REPLACE(s, 'b', '\\$')",
		// conditional
		"IFNULL(s, 'none')", "IFNULL(a, 0)", "IFNULL(d, m)",
		"GREATEST(a, b)", "GREATEST(a, b, 5)", "LEAST(a, b)", "LEAST(d, m)", "GREATEST(s, 'b')",
		// math
		"POWER(a, 2)", "POWER(d, b)", "POWER(2, -1)", "SQRT(d)", "SQRT(b)", "LN(d)", "LN(b)", "LOG10(b)", "LOG2(b)", "LOG(b)", "LOG(2, b)",
		"EXP(a)", "SIGN(a)", "SIGN(d)", "SIGN(m)", "TRUNCATE(d, 1)", "TRUNCATE(m, 1)", "TRUNCATE(m)", "TRUNCATE(a, -1)", "TRUNCATE(d)",
		"PI() * a", "RAND(1) < 1",
		// hash
		"MD5(s)", "SHA1(s)", "SHA2(s, 256)", "SHA2(s, 224)", "SHA2(s, 512)", "SHA256(s)", "SHA224(s)", "SHA384(s)", "SHA512(s)", "SHA2(s, 1)", "HASH_CODE(s)",
		"CHAR_LENGTH(UUID())",
		// JSON
		`JSON_VALUE('{"a": 1, "b": {"c": "x"}, "d": [1, 2.50, true]}', '$.a')`,
		`JSON_VALUE('{"a": 1, "b": {"c": "x"}, "d": [1, 2.50, true]}', '$.b.c')`,
		`JSON_VALUE('{"a": 1, "b": {"c": "x"}, "d": [1, 2.50, true]}', '$.d[1]')`,
		`JSON_VALUE('{"a": 1, "b": {"c": "x"}, "d": [1, 2.50, true]}', '$.d[2]')`,
		`JSON_VALUE('{"a": 1, "b": {"c": "x"}, "d": [1, 2.50, true]}', '$.b')`,
		`JSON_VALUE('{"a": 1}', '$.z')`, `JSON_VALUE('not json', '$.a')`, `JSON_VALUE(s, '$')`,
		`JSON_VALUE(CONCAT('{"k": "', s, '"}'), '$.k')`,
		`JSON_QUERY('{"a": {"z": 1, "b": [1, 2]}}', '$.a')`, `JSON_QUERY('{"a": {"z": 1, "b": [1, 2]}}', '$.a.b')`,
		`JSON_QUERY('{"a": 1}', '$.a')`, `JSON_QUERY('{"a": 1}', '$.z')`,
		`JSON_EXISTS('{"a": [1, 2]}', '$.a[1]')`, `JSON_EXISTS('{"a": [1, 2]}', '$.a[5]')`, `JSON_EXISTS('{"a": 1}', 'strict $.b')`,
		`JSON_EXISTS('nope', '$.a')`, `JSON_EXISTS(CONCAT('{"', s, '": 1}'), '$.abc')`,
		"JSON_ARRAY(a, s, d)", "JSON_ARRAY()", "JSON_ARRAY(1, 'x', TRUE)",
		"JSON_OBJECT(KEY 'a' VALUE a, KEY 's' VALUE s)", "JSON_OBJECT(KEY 'n' VALUE m)", "JSON_OBJECT(KEY 'in' VALUE JSON_ARRAY(a, b))",
		// temporal
		"TO_TIMESTAMP('2024-02-29 10:15:30')", "TO_TIMESTAMP('2024-02-29 10:15:30.123')", "TO_TIMESTAMP('29/02/2024 10.15', 'dd/MM/yyyy HH.mm')", "TO_TIMESTAMP('garbage')",
		"TO_DATE('2024-02-29')", "TO_DATE('20240229', 'yyyyMMdd')", "TO_DATE('2024-13-45')",
		"UNIX_TIMESTAMP('1970-01-01 00:01:00')", "UNIX_TIMESTAMP('2024-02-29', 'yyyy-MM-dd')", "UNIX_TIMESTAMP('garbage')",
		"FROM_UNIXTIME(a)", "FROM_UNIXTIME(big, 'yyyy-MM-dd')", "FROM_UNIXTIME(1709201730, 'yyyy/MM/dd HH:mm:ss')",
		"CONVERT_TZ('1970-01-01 00:00:00', 'UTC', 'America/Los_Angeles')", "CONVERT_TZ('2024-03-10 01:30:00', 'America/Los_Angeles', 'UTC')", "CONVERT_TZ('2024-02-29 10:15:30', 'GMT+08:00', 'UTC')",
		"DATE_FORMAT('2024-02-29 10:15:30', 'yyyy/MM/dd')",
		"TO_TIMESTAMP_LTZ(big, 3)", "TO_TIMESTAMP_LTZ(a, 0)", "TO_TIMESTAMP_LTZ(d, 3)",
		// more string and math
		"ASCII(s)", "CHR(a + 96)", "CHR(353)", "INSTR(s, 'b')", "BIN(a)", "BIN(big)", "HEX(a)", "HEX(s)", "TO_BASE64(s)", "FROM_BASE64(TO_BASE64(s))", "FROM_BASE64('!!')",
		"PARSE_URL('http://u:p@fluss.apache.org:8080/docs/x.html?k=v&q=1#top', 'HOST')",
		"PARSE_URL('http://u:p@fluss.apache.org:8080/docs/x.html?k=v&q=1#top', 'QUERY', 'q')",
		"PARSE_URL('http://u:p@fluss.apache.org:8080/docs/x.html?k=v&q=1#top', 'AUTHORITY')",
		"PARSE_URL('http://u:p@fluss.apache.org:8080/docs/x.html?k=v&q=1#top', 'FILE')",
		"PARSE_URL(s, 'HOST')",
		"SIN(d)", "COS(a)", "TAN(d)", "COT(d)", "ASIN(d)", "ACOS(d)", "ATAN(d)", "ATAN2(d, a)", "SINH(d)", "COSH(d)", "TANH(d)", "DEGREES(d)", "RADIANS(a)", "E() * a",
		"RAND_INTEGER(1, 10) < 10",
		"JSON_STRING(s)", "JSON_STRING(a)", "JSON_STRING(m)", "JSON_STRING(d)", "JSON_STRING(d > 0)",
		"TYPEOF(a)", "TYPEOF(k)", "TYPEOF(m)", "TYPEOF(s)", "TYPEOF(d + 1)",
	} {
		add("t", e)
	}
	for _, e := range []string{
		"DATE_FORMAT(ts, 'yyyyMMdd')", "UNIX_TIMESTAMP(DATE_FORMAT(ts, 'yyyy-MM-dd HH:mm:ss'))", "TO_DATE(DATE_FORMAT(dt, 'yyyy-MM-dd'))",
		"POWER(ti, si)", "SIGN(f)", "SQRT(w)", "TRUNCATE(w, 3)", "TRUNCATE(p, 1)", "GREATEST(ti, si)", "GREATEST(w, p)", "LEAST(ts, ts2)",
	} {
		add("x", e)
	}
	for _, e := range []string{
		"EXTRACT(YEAR FROM CURRENT_DATE) >= 2026", "TYPEOF(CURRENT_DATE)", "EXTRACT(YEAR FROM CURRENT_TIMESTAMP) >= 2026", "TYPEOF(CURRENT_TIMESTAMP)",
		"VAR_POP(a)", "VAR_SAMP(a)", "STDDEV_POP(a)", "STDDEV_SAMP(a)", "VAR_POP(d)", "VAR_SAMP(d)", "STDDEV_POP(d)", "STDDEV_SAMP(d)",
		"VAR_POP(m)", "STDDEV_SAMP(m)", "VARIANCE(b)", "STDDEV(d)",
		"CHAR_LENGTH(LISTAGG(s))", "CHAR_LENGTH(LISTAGG(s, '|'))", "CHAR_LENGTH(JSON_ARRAYAGG(s))", "JSON_ARRAYAGG(m)", "FIRST_VALUE(s)", "LAST_VALUE(s)", "FIRST_VALUE(a)", "LAST_VALUE(d)",
	} {
		global(e)
	}
	return out
}

// flinkBuiltinKnown: where flussql's built-ins differ from Flink's, and why.
var flinkBuiltinKnown = map[string]string{
	"INITCAP('hello wORLD 1st-class o''neil') on t": "types only: Flink folds a call of literals to a CHAR(n) literal, flussql keeps STRING (as for every string literal)",
	"LEAST(d, m) on t":                            "Flink fails (NullPointerException) on LEAST of a DOUBLE and a DECIMAL with NULLs; flussql answers",
	"SHA2(s, 256) on t":                           "types only: Flink's SHA2 is VARCHAR(128); flussql has no VARCHAR(n) (STRING)",
	"SHA2(s, 224) on t":                           "types only: Flink's SHA2 is VARCHAR(128); flussql has no VARCHAR(n) (STRING)",
	"SHA2(s, 512) on t":                           "types only: Flink's SHA2 is VARCHAR(128); flussql has no VARCHAR(n) (STRING)",
	"TO_DATE(DATE_FORMAT(dt, 'yyyy-MM-dd')) on x": "Flink's DATE_FORMAT refuses a DATE; flussql's formats it (as a TIMESTAMP at midnight)",
	"TYPEOF(a) on t":                              flinkTypeofView,
	"TYPEOF(k) on t":                              flinkTypeofView,
	"TYPEOF(m) on t":                              flinkTypeofView,
	"TYPEOF(s) on t":                              flinkTypeofView,
	"JSON_ARRAYAGG(m)":                            "types only: Flink's JSON_ARRAYAGG is VARCHAR(2000); flussql has no VARCHAR(n) (STRING)",
	"MD5(s) on t":                                 "types only: flussql's CHAR(32) reaches database/sql as CHAR, without its length",
	"SHA1(s) on t":                                "types only: flussql's CHAR(40) reaches database/sql as CHAR, without its length",
	"SHA256(s) on t":                              "types only: flussql's CHAR(64) reaches database/sql as CHAR, without its length",
	"SHA224(s) on t":                              "types only: flussql's CHAR(56) reaches database/sql as CHAR, without its length",
	"SHA384(s) on t":                              "types only: flussql's CHAR(96) reaches database/sql as CHAR, without its length",
	"SHA512(s) on t":                              "types only: flussql's CHAR(128) reaches database/sql as CHAR, without its length",
}

// flinkTypeofView: the oracle's Flink side reads a VALUES view, whose rows Flink types one by
// one (a literal is NOT NULL) before TYPEOF sees them; flussql answers the column's type.
const flinkTypeofView = "an artifact of the oracle's VALUES view: Flink's TYPEOF sees each row's literal (INT NOT NULL, INT for the NULL row); flussql the table column's type (INT)"

// flinkMatchEnv, a regular expression, runs only the statements of TestFlinkOracle whose
// names match it (with FLUSS_FLINK_SUITES, to rerun a few after a fix).
const flinkMatchEnv = "FLUSS_FLINK_MATCH"

// flinkSuitesEnv, a comma-separated list of TestFlinkOracle's suite names, runs only those,
// every statement of each (as FLUSS_FLINK_LONG=1 does): FLUSS_FLINK_SUITES=builtins.
const flinkSuitesEnv = "FLUSS_FLINK_SUITES"

// TestFlinkShowFunctions compares flussql's SHOW FUNCTIONS with Flink's: it prints the
// functions Flink has that flussql lacks (issue 31's list to go), and fails when flussql lists
// a function Flink does not have (a misspelled name) unless it is one of flussql's own.
func TestFlinkShowFunctions(t *testing.T) {
	gwAddr := os.Getenv(flinkGatewayEnv)
	if gwAddr == "" {
		t.Skipf("%s is not set: no Flink SQL Gateway to compare with (make flink-up prints one)", flinkGatewayEnv)
	}
	db, dbName := openTestDB(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	fl := openFlinkSession(ctx, t, gwAddr, dbName)
	ref, err := fl.answerWith(ctx, "SHOW FUNCTIONS", nil)
	require.NoError(t, err)
	// Flink lists many built-ins under their definition's name without underscores
	// (CHARLENGTH, REGEXPEXTRACT): names are compared without them.
	key := func(n string) string { return strings.ReplaceAll(strings.ToUpper(n), "_", "") }
	theirs := map[string]string{}
	for _, r := range ref.rows {
		theirs[key(r[0])] = strings.ToUpper(r[0])
	}
	ours := map[string]bool{}
	for _, r := range queryStrings(t, db, "SHOW FUNCTIONS") {
		ours[key(r[0])] = true
	}
	var missing, operators, extra []string
	for k, n := range theirs {
		switch {
		case ours[k]:
		case slices.Contains(flinkNotFunctions, n):
			operators = append(operators, n)
		default:
			missing = append(missing, n)
		}
	}
	for _, d := range engine.Functions() {
		for _, n := range append([]string{d.Name}, d.Aliases...) {
			if _, ok := theirs[key(n)]; !ok {
				extra = append(extra, n)
			}
		}
	}
	slices.Sort(missing)
	slices.Sort(operators)
	slices.Sort(extra)
	t.Logf("Flink lists %d names, flussql %d; %d of Flink's functions are missing from flussql:\n%s",
		len(theirs), len(ours), len(missing), strings.Join(missing, " "))
	t.Logf("Flink's names that are operators, syntax, streaming-only or internal (not compared): %s", strings.Join(operators, " "))
	t.Logf("flussql names Flink does not list: %s", strings.Join(extra, " "))
	var unknown []string
	for _, n := range extra {
		if !slices.Contains(flussqlOwnFunctions, n) {
			unknown = append(unknown, n)
		}
	}
	require.Empty(t, unknown, "functions flussql lists that Flink does not have: misspelled, or to add to flussqlOwnFunctions")
}

// flinkNotFunctions are the names Flink's SHOW FUNCTIONS lists that are no function a bounded
// query calls: operators and syntax (AND, PLUS, CAST's REINTERPRETCAST, …), the Table API's
// (WITHCOLUMNS, FLATTEN, AS, …), streaming-only time attributes and watermarks (PROCTIME,
// ROWTIME, CURRENT_WATERMARK, …: they mean something only in a streaming job) and internal
// aggregates of the planner (AGG_DECIMAL_PLUS, SUM0, …).
var flinkNotFunctions = []string{
	"AND", "OR", "NOT", "PLUS", "MINUS", "MINUSPREFIX", "TIMES", "DIVIDE", "EQUALS", "NOTEQUALS",
	"GREATERTHAN", "GREATERTHANOREQUAL", "LESSTHAN", "LESSTHANOREQUAL", "BETWEEN", "NOTBETWEEN", "IN",
	"ISNULL", "ISNOTNULL", "ISTRUE", "ISFALSE", "ISNOTTRUE", "ISNOTFALSE", "LIKE", "SIMILAR", "IFTHENELSE",
	"REINTERPRETCAST", "AS", "ASC", "DESC", "DISTINCT", "END", "START", "OVER", "RANGETO", "GET", "AT", "FLATTEN",
	"WITHCOLUMNS", "WITHOUTCOLUMNS", "ROW", "ARRAY", "MAP", "TEMPORALOVERLAPS",
	"PROCTIME", "ROWTIME", "CURRENT_WATERMARK", "SOURCE_WATERMARK", "CURRENTROWTIMESTAMP", "STREAMRECORDTIMESTAMP",
	"AGG_DECIMAL_PLUS", "AGG_DECIMAL_MINUS", "HIVE_AGG_DECIMAL_PLUS", "SUM0",
	"JSON_ARRAYAGG_ABSENT_ON_NULL", "JSON_ARRAYAGG_NULL_ON_NULL", // JSON_ARRAYAGG's internal names
}

// flussqlOwnFunctions are the names flussql has that Flink's SHOW FUNCTIONS does not list:
// Calcite's standard functions and syntax Flink takes without listing them, and flussql's own.
var flussqlOwnFunctions = []string{
	"CEILING", "CHARACTER_LENGTH", "NULLIF", "IF", "CURRENT_DATE", "CURRENT_TIMESTAMP", "NOW", "LOCALTIMESTAMP",
	"TIMESTAMPADD", "TIMESTAMPDIFF", "EXTRACT", "CAST", "ROW_NUMBER", "RANK", "DENSE_RANK", "LAG", "LEAD",
	"STDDEV", "VARIANCE", "SUBSTR", "POW", "CARDINALITY", "COALESCE",
	"JSON_ARRAYAGG", // Flink lists it as JSON_ARRAYAGG_ABSENT_ON_NULL and _NULL_ON_NULL
	"VERSION", "CURRENT_DATABASE", "DATABASE", "HASH_CODE", "SHA224", "SHA256", "SHA384", "SHA512",
}
