package planner

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/engine"
	"github.com/flussql/flussql/parser"
)

// evalOne runs a SELECT without FROM through the parser, planner and
// engine and returns its one row, each value as Arrow prints it ("NULL"
// for NULL).
func evalOne(t *testing.T, sql string) ([]string, error) {
	t.Helper()
	st, err := parser.Parse(sql)
	if err != nil {
		return nil, err
	}
	p, err := Build(context.Background(), st, testCatalog(), Session{Database: "fluss", Location: time.UTC})
	if err != nil {
		return nil, err
	}
	bp, err := Bind(p, nil)
	if err != nil {
		return nil, err
	}
	op, err := engine.Build(context.Background(), bp.(*Query).Root, nil, engine.Options{})
	if err != nil {
		return nil, err
	}
	var out []string
	err = engine.Drain(op, func(b arrow.RecordBatch) error {
		for _, c := range b.Columns() {
			if c.IsNull(0) {
				out = append(out, "NULL")
			} else if c.DataType().ID() == arrow.TIMESTAMP {
				out = append(out, strings.Replace(c.ValueStr(0), "T", " ", 1))
			} else {
				out = append(out, c.ValueStr(0))
			}
		}
		return nil
	})
	return out, err
}

// TestExprGaps runs the expressions of issue 13 (SQL a person types) on
// constants, end to end.
func TestExprGaps(t *testing.T) {
	for _, tc := range []struct {
		sql  string
		want []string
	}{
		{"SELECT IF(1 < 2, 'yes', 'no'), IF(1 > 2, 'yes', 'no'), IF(NULL, 1, 2), IF(1 < 2, NULL, 3)", []string{"yes", "no", "2", "NULL"}},
		{"SELECT IF(1 < 2, 1, 2.5), IF(CAST(NULL AS BOOLEAN), 'a', 'b')", []string{"1", "b"}},
		{`SELECT 'a_c' LIKE 'a\_c' ESCAPE '\', 'abc' LIKE 'a\_c' ESCAPE '\', 'abc' NOT LIKE 'a\_c' ESCAPE '\'`, []string{"true", "false", "true"}},
		{`SELECT '50%' LIKE '%!%' ESCAPE '!', '50' LIKE '%!%' ESCAPE '!', 'a\b' LIKE 'a\\b' ESCAPE '\', 'a\b' LIKE 'a\b'`, []string{"true", "false", "true", "true"}},
		{`SELECT CAST(NULL AS STRING) LIKE 'a' ESCAPE '!', 'a' LIKE 'a' ESCAPE CAST(NULL AS STRING)`, []string{"NULL", "NULL"}},
		// Interval arithmetic, Flink's form.
		{`SELECT TIMESTAMP '2024-01-31 10:00:00' + INTERVAL '1' DAY, TIMESTAMP '2024-01-31 10:00:00' - INTERVAL '2' HOUR, INTERVAL '30' MINUTE + TIMESTAMP '2024-01-31 23:45:00'`,
			[]string{"2024-02-01 10:00:00", "2024-01-31 08:00:00", "2024-02-01 00:15:00"}},
		{`SELECT TIMESTAMP '2024-01-31 10:00:00' + INTERVAL '1' MONTH, TIMESTAMP '2023-01-31 10:00:00' + INTERVAL '1' MONTH, TIMESTAMP '2024-02-29 00:00:00' + INTERVAL '1' YEAR, TIMESTAMP '2024-03-31 00:00:00' - INTERVAL '1' MONTH`,
			[]string{"2024-02-29 10:00:00", "2023-02-28 10:00:00", "2025-02-28 00:00:00", "2024-02-29 00:00:00"}},
		{`SELECT DATE '2024-01-31' + INTERVAL '1' MONTH, DATE '2024-03-01' - INTERVAL '1' DAY, DATE '2024-03-01' + INTERVAL '25' HOUR, DATE '2024-03-01' - INTERVAL '2' HOUR, DATE '2024-01-01' + INTERVAL '-1' YEAR`,
			[]string{"2024-02-29", "2024-02-29", "2024-03-02", "2024-03-01", "2023-01-01"}},
		{`SELECT TIMESTAMP '2024-01-01 00:00:00' + INTERVAL '1.5' SECOND, TIMESTAMP '2024-01-01 00:00:00.000001' + INTERVAL '30' SECOND, TIMESTAMP '2024-01-01 00:00:00' + INTERVAL '1' DAY + INTERVAL '2' HOUR`,
			[]string{"2024-01-01 00:00:01.5", "2024-01-01 00:00:30.000001", "2024-01-02 02:00:00"}},
		{`SELECT CAST(TIMESTAMP '2024-01-31 10:00:00' AS TIMESTAMP_LTZ(3)) + INTERVAL '1' MONTH, CAST(NULL AS TIMESTAMP(3)) + INTERVAL '1' DAY`,
			[]string{"2024-02-29 10:00:00", "NULL"}},
		// TIMESTAMPDIFF and TIMESTAMPADD.
		{`SELECT TIMESTAMPDIFF(DAY, TIMESTAMP '2024-01-01 12:00:00', TIMESTAMP '2024-01-03 11:59:59'), TIMESTAMPDIFF(HOUR, TIMESTAMP '2024-01-03 00:00:00', TIMESTAMP '2024-01-01 01:00:00'), TIMESTAMPDIFF(SECOND, TIMESTAMP '2024-01-01 00:00:00', TIMESTAMP '2024-01-01 00:01:00.999'), TIMESTAMPDIFF(MINUTE, DATE '2024-01-01', DATE '2024-01-02'), TIMESTAMPDIFF(WEEK, DATE '2024-01-01', DATE '2024-01-15')`,
			[]string{"1", "-47", "60", "1440", "2"}},
		{`SELECT TIMESTAMPDIFF(MONTH, DATE '2024-01-31', DATE '2024-02-29'), TIMESTAMPDIFF(MONTH, TIMESTAMP '2024-01-31 12:00:00', TIMESTAMP '2024-02-29 10:00:00'), TIMESTAMPDIFF(MONTH, DATE '2024-03-15', DATE '2024-01-16'), TIMESTAMPDIFF(QUARTER, DATE '2024-01-01', DATE '2024-12-31'), TIMESTAMPDIFF(YEAR, DATE '2020-02-29', DATE '2024-02-28'), TIMESTAMPDIFF(YEAR, DATE '2020-02-29', DATE '2024-02-29')`,
			[]string{"1", "0", "-1", "3", "3", "4"}},
		{`SELECT TIMESTAMPADD(MONTH, 1, DATE '2024-01-31'), TIMESTAMPADD(WEEK, 1, DATE '2003-01-02'), TIMESTAMPADD(HOUR, 3, DATE '2024-01-01'), TIMESTAMPADD(QUARTER, -1, TIMESTAMP '2024-05-31 08:00:00'), TIMESTAMPADD(SECOND, 90, TIMESTAMP '2024-01-01 00:00:00'), TIMESTAMPADD(DAY, CAST(NULL AS INT), DATE '2024-01-01')`,
			[]string{"2024-02-29", "2003-01-09", "2024-01-01 03:00:00", "2024-02-29 08:00:00", "2024-01-01 00:01:30", "NULL"}},
	} {
		t.Run(tc.sql, func(t *testing.T) {
			got, err := evalOne(t, tc.sql)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
	for sql, want := range map[string]string{
		`SELECT 'a' LIKE 'a\b' ESCAPE '\'`:                                   "invalid escape sequence",
		`SELECT 'a' LIKE 'a' ESCAPE ''`:                                      "must be one character",
		`SELECT 'a' LIKE 'a' ESCAPE 1`:                                       "one-character string",
		`SELECT 'a' LIKE 'a' || '!' ESCAPE '!'`:                              "invalid escape sequence",
		`SELECT INTERVAL '1' DAY`:                                            "only added to or subtracted from",
		`SELECT 1 + INTERVAL '1' DAY`:                                        "not INT",
		`SELECT INTERVAL '1' DAY - DATE '2024-01-01'`:                        "only added to or subtracted from",
		`SELECT DATE '2024-01-01' + INTERVAL '1' FORTNIGHT`:                  "INTERVAL takes a single unit",
		`SELECT DATE '2024-01-01' + INTERVAL '1.5' DAY`:                      "must be an integer",
		`SELECT DATE '2024-01-01' + INTERVAL 'x' DAY`:                        "must be an integer",
		`SELECT DATE '2024-01-01' + INTERVAL '1 24:00' DAY TO MINUTE`:        "out of range",
		`SELECT TIMESTAMPADD(FORTNIGHT, 1, DATE '2024-01-01')`:               "takes a unit first",
		`SELECT TIMESTAMPADD(DAY, 1.5, DATE '2024-01-01')`:                   "must be an integer",
		`SELECT TIMESTAMPDIFF(DAY, 1, DATE '2024-01-01')`:                    "needs DATE, TIMESTAMP or TIMESTAMP_LTZ",
		`SELECT TIMESTAMPDIFF(DAY, DATE '2024-01-01')`:                       "write TIMESTAMPDIFF(unit, a, b)",
		`SELECT TIMESTAMPDIFF(SECOND, DATE '1900-01-01', DATE '2024-01-01')`: "out of the range of INT",
	} {
		_, err := evalOne(t, sql)
		assert.ErrorContains(t, err, want, sql)
	}
}
