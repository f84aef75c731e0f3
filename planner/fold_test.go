package planner

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/parser"
)

// foldedWhere plans sql and returns its WHERE after folding.
func foldedWhere(t *testing.T, sql string, loc *time.Location) string {
	t.Helper()
	st, err := parser.Parse(sql)
	require.NoError(t, err)
	before := st.(*parser.Select).String()
	b := &builder{ctx: context.Background(), cat: testCatalog(), sess: Session{Database: "fluss", Location: loc}}
	s := b.foldSelect(st.(*parser.Select))
	assert.Equal(t, before, st.(*parser.Select).String(), "the parsed statement (shared by the statement cache) is not changed")
	return s.Where.String()
}

func TestFoldWhere(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	require.NoError(t, err)
	for _, tc := range []struct {
		name, sql, want string
		loc             *time.Location
	}{
		{"negative decimal", "SELECT * FROM alltypes WHERE dec > 0.01 - 1.5", "`dec` > -1.49", nil},
		{"double keeps its kind", "SELECT * FROM alltypes WHERE d < 1e0 / 4", "d < 2.5E-01", nil},
		{"timestamp keeps its precision", "SELECT * FROM alltypes WHERE ts >= TIMESTAMP '2024-01-31 10:00:00.250' + INTERVAL '1' MONTH",
			"ts >= TIMESTAMP '2024-02-29 10:00:00.250'", nil},
		{"timestamp before 1970", "SELECT * FROM alltypes WHERE ts >= TIMESTAMP '1969-12-31 23:59:59.5' - INTERVAL '1' SECOND",
			"ts >= TIMESTAMP '1969-12-31 23:59:58.5'", nil},
		{"date in any session zone", "SELECT * FROM alltypes WHERE dt = DATE '2024-02-28' + INTERVAL '1' DAY", "dt = DATE '2024-02-29'", ny},
		{"a TIMESTAMP compared with TIMESTAMP_LTZ is not folded (the literal would be read in the session's zone)",
			"SELECT * FROM alltypes WHERE ltz > TIMESTAMP '2024-01-01 00:00:00' + INTERVAL '1' DAY",
			"ltz > TIMESTAMP '2024-01-01 00:00:00' + INTERVAL '1' DAY", ny},
		{"a string compared with a DATE column is not folded", "SELECT * FROM alltypes WHERE dt = '2024-01-0' || '1'", "dt = '2024-01-0' || '1'", nil},
		{"a constant beside a column expression is folded when numeric", "SELECT * FROM alltypes WHERE i + 1 > 2 * 3", "i + 1 > 6", nil},
		{"a number compared with a TIMESTAMP column is not folded (an error either way)", "SELECT * FROM alltypes WHERE ts > 1 + 1", "ts > 1 + 1", nil},
		{"NULL is not folded", "SELECT * FROM alltypes WHERE i > CAST(NULL AS INT) + 1", "i > CAST(NULL AS INT) + 1", nil},
		{"inside OR and NOT", "SELECT * FROM alltypes WHERE NOT (i = 1 + 1) OR s IN ('a' || 'b')", "NOT i = 2 OR s IN ('ab')", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			loc := tc.loc
			if loc == nil {
				loc = time.UTC
			}
			assert.Equal(t, tc.want, foldedWhere(t, tc.sql, loc))
		})
	}
}
