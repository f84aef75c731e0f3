package flussql_test

// flinkFunctionCases are the functions and expressions the README lists that
// TestFlinkDifferential does not already run (it has UPPER, LOWER, CHAR_LENGTH, CONCAT, ||,
// SUBSTRING, TRIM, POSITION, LIKE, ABS, ROUND(x, 1), CEIL, FLOOR, MOD, COALESCE, NULLIF, CASE):
// the other spellings and forms, IF, ARRAY/MAP access, ROUND of every kind, LIKE … ESCAPE.
var flinkFunctionCases = []flinkDiffCase{
	{"TRIM LEADING TRAILING BOTH", "SELECT k, TRIM(LEADING ' ' FROM s), TRIM(TRAILING ' ' FROM s), TRIM(BOTH 'a' FROM s) FROM {t}", false},
	{"LTRIM RTRIM", "SELECT k, LTRIM(s), RTRIM(s) FROM {t}", false},
	{"CHARACTER_LENGTH CEILING", "SELECT k, CHARACTER_LENGTH(s), CEILING(m), CEILING(d) FROM {t}", false},
	{"SUBSTRING FROM FOR", "SELECT k, SUBSTRING(s FROM 2 FOR 1), SUBSTRING(s FROM 3) FROM {t}", false},
	{"SUBSTRING past the end and at 0", "SELECT k, SUBSTRING(s, 5, 2), SUBSTRING(s, 0, 2) FROM {t}", false},
	{"UPPER of a concatenation with NULL", "SELECT k, UPPER(s || CAST(NULL AS STRING)), CONCAT(s, CAST(a AS STRING)) FROM {t}", false},
	{"a bare NULL operand", "SELECT k, s || NULL FROM {t}", false},
	{"IF", "SELECT k, IF(a > 0, 'pos', 'other'), IF(d IS NULL, -1, a) FROM {t}", false},
	{"IF with NULL condition", "SELECT k, IF(a > b, m, n) FROM {t}", false},
	{"CASE with operand", "SELECT k, CASE b WHEN 2 THEN a WHEN 3 THEN -a ELSE 0 END FROM {t}", false},
	{"CASE mixing INT and DECIMAL", "SELECT k, CASE WHEN a > 0 THEN a ELSE m END FROM {t}", false},
	{"COALESCE of mixed numbers", "SELECT k, COALESCE(m, a), COALESCE(d, m, 0) FROM {t}", false},
	{"NULLIF of strings", "SELECT k, NULLIF(s, ''), NULLIF(s, 'abc') FROM {t}", false},
	{"ROUND of every type", "SELECT k, ROUND(a, -1), ROUND(m), ROUND(m, 1), ROUND(d, 1), ROUND(n, 2) FROM {t}", false},
	{"ROUND half away from zero", "SELECT k, ROUND(m, 0), ROUND(d) FROM {t}", false},
	{"ABS of the smallest INT", "SELECT k, ABS(a - 2147483647) FROM {t} WHERE k = 8", false},
	{"FLOOR CEIL of double and int", "SELECT k, FLOOR(d), CEIL(d), FLOOR(a), CEIL(big) FROM {t}", false},
	{"MOD with negatives", "SELECT k, MOD(a, -3), MOD(-7, b), MOD(m, 2) FROM {t}", false},
	{"LIKE ESCAPE", "SELECT k, s LIKE 'a!_%' ESCAPE '!', s LIKE '%!%' ESCAPE '!' FROM {t}", false},
	{"NOT LIKE and NOT IN with NULL", "SELECT k, s NOT LIKE '%b%', a NOT IN (7, NULL) FROM {t}", false},
	{"NOT BETWEEN", "SELECT k FROM {t} WHERE d NOT BETWEEN -1 AND 2", false},
	{"ARRAY access and CARDINALITY", "SELECT k, ARRAY[a, b, 3][2], CARDINALITY(ARRAY[a, b]) FROM {t}", false},
	{"ARRAY out of range", "SELECT k, ARRAY[a, b][3] FROM {t}", false},
	{"MAP access", "SELECT k, MAP['x', a, 'y', b]['y'], CARDINALITY(MAP['x', a]) FROM {t}", false},
	{"string functions on the empty string", "SELECT k, CHAR_LENGTH(s), UPPER(s), POSITION('' IN s) FROM {t} WHERE s = ''", false},
}

// flinkFunctionKnown: where flussql's functions differ from Flink's.
var flinkFunctionKnown = map[string]string{
	"SUBSTRING past the end and at 0": "SUBSTRING(s, 0, 2): Flink reads position 0 as 1 ('ab'), flussql as the SQL standard (positions 0 and 1: 'a')",
	"a bare NULL operand":             "flussql types a bare NULL from the other operand; Flink refuses it (Illegal use of 'NULL')",
	"IF":                              "a string literal is CHAR(n) in Flink (IF(…, 'pos', 'other') is VARCHAR(5)), STRING in flussql",
	"ABS of the smallest INT":         "deliberate: -7 - 2147483647 overflows INT; flussql fails, Flink wraps to 2147483642",
}

// flinkNumberCases: comparisons of mixed types, overflow, CAST edge cases and DECIMAL
// precision and scale, over {t} and {x} (ti TINYINT, si SMALLINT, f FLOAT, w DECIMAL(38, 10),
// p DECIMAL(3, 2)).
var flinkNumberCases = []flinkDiffCase{
	{"TINYINT and SMALLINT arithmetic types", "SELECT k, ti + ti, ti * si, si - n, ti / 2 FROM {x} WHERE k IN (1, 5, 6)", false},
	{"TINYINT overflow", "SELECT k, ti + ti FROM {x} WHERE k = 3", false},
	{"SMALLINT overflow", "SELECT k, si * si FROM {x} WHERE k = 3", false},
	{"BIGINT overflow", "SELECT k, big * big FROM {t} WHERE k = 1", false},
	{"negation of the smallest TINYINT", "SELECT k, -ti FROM {x} WHERE k = 2", false},
	{"FLOAT arithmetic", "SELECT k, f + f, f * 2, f + ti, f / 4 FROM {x}", false},
	{"FLOAT with DOUBLE and DECIMAL", "SELECT k, f + CAST(1 AS DOUBLE), f + p FROM {x}", false},
	{"wide DECIMAL times wide", "SELECT k, w * w FROM {x} WHERE k <> 3", false},
	{"wide DECIMAL plus narrow", "SELECT k, w + p, w - p FROM {x}", false},
	{"wide DECIMAL divided", "SELECT k, w / p FROM {x} WHERE p <> 0", false},
	{"narrow DECIMAL times and divided", "SELECT k, p * p, p / p, p * ti FROM {x} WHERE p <> 0", false},
	{"DECIMAL modulo", "SELECT k, w % p, p % 2 FROM {x} WHERE p <> 0", false},
	{"CEIL FLOOR ROUND of DECIMAL(38, 10)", "SELECT k, CEIL(w), FLOOR(w), ROUND(w, 2), ROUND(w, -2) FROM {x}", false},
	{"CEIL FLOOR of negative DECIMAL", "SELECT k, CEIL(p), FLOOR(p), CEIL(-p) FROM {x}", false},
	{"DECIMAL times DOUBLE", "SELECT k, p * f, w * 1e0 FROM {x}", false},
	{"SUM AVG of DECIMAL(38, 10)", "SELECT SUM(w), AVG(w), SUM(p), AVG(p) FROM {x}", false},
	{"SUM AVG of small integers and FLOAT", "SELECT SUM(ti), SUM(si), AVG(ti), AVG(si), SUM(f), AVG(f) FROM {x}", false},
	{"TINYINT with DECIMAL", "SELECT k FROM {x} WHERE ti < p", false},
	{"SMALLINT with FLOAT, BIGINT with DOUBLE", "SELECT k, si > f, ti = f FROM {x}", false},
	{"DECIMAL with DOUBLE", "SELECT k, m > d, m = 1.5e0, n < d FROM {t}", false},
	{"BOOLEAN compared", "SELECT k, bo = TRUE, bo < TRUE, bo IS TRUE, bo IS NOT FALSE FROM {x}", false},
	{"BOOLEAN ordered", "SELECT k, bo FROM {x} ORDER BY bo, k", true},
	{"DECIMAL IN with mixed literals", "SELECT k FROM {x} WHERE p IN (1.25, 0.05, 2)", false},
	{"CAST to TINYINT out of range", "SELECT k, CAST(si AS TINYINT) FROM {x} WHERE k = 1", false},
	{"CAST DOUBLE to INT out of range", "SELECT k, CAST(f AS INT) FROM {x} WHERE k = 3", false},
	{"CAST DECIMAL to narrower DECIMAL", "SELECT k, CAST(w AS DECIMAL(10, 2)) FROM {x} WHERE k <> 3", false},
	{"CAST DECIMAL overflow", "SELECT k, CAST(w AS DECIMAL(5, 2)) FROM {x} WHERE k = 3", false},
	{"CAST rounds or truncates", "SELECT k, CAST(m AS DECIMAL(10, 1)), CAST(n AS DECIMAL(6, 1)), CAST(d AS DECIMAL(5, 0)) FROM {t}", false},
	{"CAST negative double to int", "SELECT k, CAST(d AS INT), CAST(-2.7 AS INT), CAST(-2.5e0 AS BIGINT) FROM {t} WHERE k = 2", false},
	{"CAST strings with spaces", "SELECT k, CAST(' 12 ' AS INT), CAST('-0' AS INT), CAST('+5' AS BIGINT) FROM {t} WHERE k = 1", false},
	{"CAST bad string to INT", "SELECT k, CAST('abc' AS INT) FROM {t} WHERE k = 1", false},
	{"CAST BOOLEAN and strings", "SELECT k, CAST(bo AS STRING), CAST('true' AS BOOLEAN), CAST(ti AS BOOLEAN) FROM {x}", false},
	{"CAST numbers to BOOLEAN and back", "SELECT k, CAST(bo AS INT) FROM {x}", false},
	{"CAST FLOAT to STRING", "SELECT k, CAST(f AS STRING) FROM {x}", false},
	{"CAST to CHAR and VARCHAR", "SELECT k, CAST(s AS VARCHAR(2)), CAST(a AS CHAR(3)) FROM {t}", false},
	{"integer literal types", "SELECT k, 2147483647 + 0, 2147483648, -2147483648 FROM {t} WHERE k = 1", false},
	{"decimal literal types", "SELECT k, 1.50 + 0, 0.001 * 10, 1234567890.123 FROM {t} WHERE k = 1", false},
	{"double literal types", "SELECT k, 1e3, 1.5e-3 * 2, 1e0 / 3 FROM {t} WHERE k = 1", false},
}

// flinkNumberKnown: where flussql's numbers differ from Flink's.
var flinkNumberKnown = map[string]string{
	"TINYINT overflow":                    "deliberate: flussql fails where Flink's integer arithmetic wraps around (127 + 127 is -2)",
	"SMALLINT overflow":                   "deliberate: flussql fails where Flink's integer arithmetic wraps around (32767 * 32767 is 1)",
	"BIGINT overflow":                     "deliberate: flussql fails where Flink's integer arithmetic wraps around",
	"negation of the smallest TINYINT":    "deliberate: flussql fails where Flink's integer arithmetic wraps around (-(-128) is -128)",
	"FLOAT with DOUBLE and DECIMAL":       "Flink types FLOAT + CAST(1 AS DOUBLE) as FLOAT (it folds the cast literal), flussql DOUBLE",
	"DECIMAL modulo":                      "Flink fails on DECIMAL(38, 10) % DECIMAL(3, 2) (AssertionError: Conversion to relational algebra failed to preserve datatypes); flussql answers",
	"SUM AVG of small integers and FLOAT": "SUM(TINYINT|SMALLINT) is BIGINT in flussql (deliberate, as SUM(INT)); SUM and AVG of FLOAT are DOUBLE in flussql, FLOAT in Flink",
	"BOOLEAN compared":                    "flussql has no IS [NOT] TRUE|FALSE",
	"CAST to TINYINT out of range":        "deliberate: flussql fails, Flink wraps (CAST(300 AS TINYINT) is 44)",
	"CAST DOUBLE to INT out of range":     "deliberate: flussql fails, Flink saturates (CAST(1e10 AS INT) is 2147483647)",
	"CAST DECIMAL to narrower DECIMAL":    "CAST to a DECIMAL of smaller scale: Flink rounds half up (12345.6789 → 12345.68), flussql truncates (12345.67) — to align",
	"CAST rounds or truncates":            "CAST to a DECIMAL of smaller scale: Flink rounds half up (0.250 → 0.3, -0.75 → -0.8, -0.5e0 → -1), flussql truncates — to align",
	"CAST DECIMAL overflow":               "deliberate: flussql fails, Flink gives NULL when the value does not fit",
	"CAST FLOAT to STRING":                "formatting: flussql 1e+10, 0, 3; Flink 1.0E10, 0.0, 3.0 (as CAST(DOUBLE AS STRING))",
	"CAST to CHAR and VARCHAR":            "flussql's CAST to VARCHAR(n)/CHAR(n) is STRING: no truncation, no padding",
}
