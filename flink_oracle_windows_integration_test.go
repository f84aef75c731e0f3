package flussql_test

// flinkWindowCases are window functions over {t} (flinkDiffRows: a is NULL at k = 3, b at
// k = 4, d at k = 3, m at k = 4, s at k = 4): ranking with ties and NULL keys, LAG/LEAD with
// offsets and defaults, FIRST_VALUE/LAST_VALUE over frames whose edge rows are NULL (Flink
// skips NULLs), aggregates over ROWS and RANGE frames. Every statement orders by k (unique)
// or compares as a multiset.
var flinkWindowCases = []flinkDiffCase{
	{"ROW_NUMBER per partition", "SELECT k, ROW_NUMBER() OVER (PARTITION BY b ORDER BY k) FROM {t}", false},
	{"ROW_NUMBER descending NULLs last", "SELECT k, ROW_NUMBER() OVER (ORDER BY a DESC NULLS LAST, k) FROM {t}", false},
	{"RANK and DENSE_RANK with ties and a NULL key", "SELECT k, RANK() OVER (ORDER BY b), DENSE_RANK() OVER (ORDER BY b) FROM {t}", false},
	{"RANK per partition descending", "SELECT k, RANK() OVER (PARTITION BY b ORDER BY m DESC) FROM {t}", false},
	{"RANK NULLS FIRST and LAST", "SELECT k, RANK() OVER (ORDER BY a NULLS LAST), DENSE_RANK() OVER (ORDER BY d DESC NULLS FIRST) FROM {t}", false},
	{"LAG and LEAD", "SELECT k, LAG(a) OVER (ORDER BY k), LEAD(a) OVER (ORDER BY k) FROM {t}", false},
	{"LAG with offset and default", "SELECT k, LAG(a, 2, -1) OVER (ORDER BY k), LEAD(s, 3, 'none') OVER (ORDER BY k) FROM {t}", false},
	{"LAG of decimal and double per partition", "SELECT k, LAG(m) OVER (PARTITION BY b ORDER BY k), LEAD(d) OVER (PARTITION BY b ORDER BY k) FROM {t}", false},
	{"LAG of a NULL row is NULL", "SELECT k, LAG(d, 1) OVER (ORDER BY k), LEAD(d, 1) OVER (ORDER BY k) FROM {t} WHERE k BETWEEN 2 AND 5", false},
	{"FIRST_VALUE LAST_VALUE running", "SELECT k, FIRST_VALUE(a) OVER (ORDER BY k), LAST_VALUE(a) OVER (ORDER BY k) FROM {t}", false},
	{"FIRST_VALUE skips a NULL first row", "SELECT k, FIRST_VALUE(d) OVER (ORDER BY k ROWS BETWEEN CURRENT ROW AND 1 FOLLOWING) FROM {t}", false},
	{"LAST_VALUE skips a NULL last row", "SELECT k, LAST_VALUE(a) OVER (ORDER BY k ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM {t}", false},
	{"FIRST_VALUE LAST_VALUE of strings per partition", "SELECT k, FIRST_VALUE(s) OVER (PARTITION BY b ORDER BY k), LAST_VALUE(s) OVER (PARTITION BY b ORDER BY k ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) FROM {t}", false},
	{"FIRST_VALUE over NULLs first", "SELECT k, FIRST_VALUE(m) OVER (ORDER BY m NULLS FIRST ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM {t}", false},
	{"SUM COUNT running per partition", "SELECT k, SUM(a) OVER (PARTITION BY b ORDER BY k), COUNT(a) OVER (PARTITION BY b ORDER BY k), COUNT(*) OVER (PARTITION BY b ORDER BY k) FROM {t}", false},
	{"SUM AVG over the whole partition", "SELECT k, SUM(m) OVER (PARTITION BY b), AVG(m) OVER (PARTITION BY b), AVG(d) OVER (PARTITION BY b) FROM {t}", false},
	{"AVG of INT over a window", "SELECT k, AVG(a) OVER (ORDER BY k ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) FROM {t}", false},
	{"ROWS sliding frame", "SELECT k, SUM(a) OVER (ORDER BY k ROWS BETWEEN 2 PRECEDING AND CURRENT ROW), COUNT(d) OVER (ORDER BY k ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) FROM {t}", false},
	{"ROWS frame into the future", "SELECT k, MIN(a) OVER (ORDER BY k ROWS BETWEEN CURRENT ROW AND 2 FOLLOWING), MAX(s) OVER (ORDER BY k ROWS BETWEEN 1 FOLLOWING AND 3 FOLLOWING) FROM {t}", false},
	{"ROWS to unbounded following", "SELECT k, SUM(d) OVER (ORDER BY k ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) FROM {t}", false},
	{"RANGE running total with peers", "SELECT k, SUM(a) OVER (ORDER BY b RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW), COUNT(*) OVER (ORDER BY b RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM {t}", false},
	{"RANGE whole partition", "SELECT k, MAX(m) OVER (PARTITION BY b ORDER BY k RANGE BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) FROM {t}", false},
	{"default frame peers", "SELECT k, SUM(big) OVER (ORDER BY b) FROM {t}", false},
	{"window over a GROUP BY", "SELECT b, SUM(a), RANK() OVER (ORDER BY SUM(a) DESC) FROM {t} GROUP BY b", false},
	{"top-1 per partition", "SELECT k, b FROM (SELECT k, b, ROW_NUMBER() OVER (PARTITION BY b ORDER BY a DESC NULLS LAST, k) AS rn FROM {t}) WHERE rn = 1", false},
	{"top-2 by rank", "SELECT k, r FROM (SELECT k, RANK() OVER (ORDER BY m DESC) AS r FROM {t}) WHERE r <= 2", false},
	{"window ordered output", "SELECT k, a, ROW_NUMBER() OVER (ORDER BY a, k) AS rn FROM {t} ORDER BY rn", true},
}

// flinkWindowKnown: where flussql's window functions differ from Flink's.
var flinkWindowKnown = map[string]string{
	// Flink 1.20 returns LAG's/LEAD's default also when the value at the offset is NULL (and
	// LEAD(s, 3, 'none') over a NULL gives ''); flussql gives the default only past the
	// partition's edge, as the SQL standard and PostgreSQL do.
	"LAG with offset and default": "LAG(a, 2, -1) where a is NULL two rows back: flussql NULL, Flink -1; LEAD(s, 3, 'none') onto a NULL: flussql NULL, Flink ''",
	// Deliberate, as SUM: a sum of INTs is BIGINT in flussql.
	"SUM COUNT running per partition": "SUM(INT) OVER: flussql BIGINT, Flink INT (same values)",
	"ROWS sliding frame":              "SUM(INT) OVER: flussql BIGINT, Flink INT (same values)",
	"RANGE running total with peers":  "SUM(INT) OVER: flussql BIGINT, Flink INT (same values)",
	"window over a GROUP BY":          "SUM(INT): flussql BIGINT, Flink INT (same values)",
}
