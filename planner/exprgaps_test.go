package planner

import (
	"context"
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
	} {
		t.Run(tc.sql, func(t *testing.T) {
			got, err := evalOne(t, tc.sql)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
	for sql, want := range map[string]string{
		`SELECT 'a' LIKE 'a\b' ESCAPE '\'`:      "invalid escape sequence",
		`SELECT 'a' LIKE 'a' ESCAPE ''`:         "must be one character",
		`SELECT 'a' LIKE 'a' ESCAPE 1`:          "one-character string",
		`SELECT 'a' LIKE 'a' || '!' ESCAPE '!'`: "invalid escape sequence",
	} {
		_, err := evalOne(t, sql)
		assert.ErrorContains(t, err, want, sql)
	}
}
