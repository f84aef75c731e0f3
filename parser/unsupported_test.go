package parser

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every refusal of an unsupported construct matches ErrNotSupported and keeps its
// position; other errors (syntax, bad values) do not match it.
func TestErrNotSupported(t *testing.T) {
	for _, tc := range []struct {
		sql         string
		unsupported bool
		line, col   int
	}{
		{"REPLACE INTO t VALUES (1)", true, 1, 1},
		{"INSERT IGNORE INTO t VALUES (1)", true, 1, 8},
		{"SELECT a ^ b FROM t", true, 1, 10},
		{"SELECT * FROM a FULL JOIN b ON a.x = b.x", true, 1, 17},
		{"SELECT CONVERT(a, CHAR) FROM t", true, 1, 8},
		{"SELECT * FROM t WHERE a = 0x10", true, 1, 27},
		{"SELECT * FROM t WHERE a IN ::ids", true, 1, 28},
		{"SELECT ts + INTERVAL '1 2' MONTH TO DAY FROM t", true, 1, 28},
		{"CREATE TABLE t (a TIMESTAMP WITH TIME ZONE)", true, 1, 34},
		{"SELECT * FROM t FOR UPDATE", true, 1, 17},
		{"SELECT FROM t", false, 1, 8},
		{"SELECT * FROM t WHERE", false, 1, 22},
		{"SELECT ts + INTERVAL '1 25' DAY TO HOUR FROM t", false, 1, 22},
	} {
		t.Run(tc.sql, func(t *testing.T) {
			_, err := Parse(tc.sql)
			require.Error(t, err)
			assert.Equal(t, tc.unsupported, errors.Is(err, ErrNotSupported), "%v", err)
			var pe *Error
			require.True(t, errors.As(err, &pe))
			assert.Equal(t, [2]int{tc.line, tc.col}, [2]int{pe.Line, pe.Column}, "%v", err)
		})
	}
}
