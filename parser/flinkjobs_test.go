package parser

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseFlinkJobStatements(t *testing.T) {
	tests := []struct {
		sql  string
		want Statement
		text string
	}{
		{"SHOW JOBS", &ShowJobs{}, "SHOW JOBS"},
		{"show jobs;", &ShowJobs{}, "SHOW JOBS"},
		{"STOP JOB 'abc123'", &StopJob{JobID: "abc123"}, "STOP JOB 'abc123'"},
		{"stop job 'abc' with savepoint", &StopJob{JobID: "abc", Savepoint: true}, "STOP JOB 'abc' WITH SAVEPOINT"},
		{"STOP JOB 'abc' WITH SAVEPOINT WITH DRAIN", &StopJob{JobID: "abc", Savepoint: true, Drain: true}, "STOP JOB 'abc' WITH SAVEPOINT WITH DRAIN"},
		{"STOP JOB 'abc' WITH DRAIN", &StopJob{JobID: "abc", Drain: true}, "STOP JOB 'abc' WITH DRAIN"},
	}
	for _, tt := range tests {
		t.Run(tt.sql, func(t *testing.T) {
			st, err := Parse(tt.sql)
			require.NoError(t, err)
			assert.Equal(t, tt.want, st)
			assert.Equal(t, tt.text, st.String())
			assert.True(t, ReturnsRows(st), "SHOW JOBS and STOP JOB answer with rows, as Flink's")
			again, err := Parse(st.String())
			require.NoError(t, err)
			assert.Equal(t, st, again)
		})
	}
}

func TestParseFlinkJobStatementErrors(t *testing.T) {
	for _, sql := range []string{
		"STOP JOB abc",                           // the id is a string
		"STOP JOB",                               // no id
		"STOP 'abc'",                             // JOB missing
		"STOP JOB 'a' WITH",                      // half a clause
		"STOP JOB 'a' WITH DRAIN WITH SAVEPOINT", // Flink's order
		"SHOW JOBS LIKE 'x'",
	} {
		t.Run(sql, func(t *testing.T) {
			_, err := Parse(sql)
			var pe *Error
			require.ErrorAs(t, err, &pe)
		})
	}
}

func TestFlinkText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"SELECT a, COUNT(*) FROM t /*+ OPTIONS('scan.bounded' = 'false') */ GROUP BY a;",
			"SELECT a, COUNT(*) FROM t GROUP BY a"},
		{"SELECT * FROM t /*+ OPTIONS('scan.bounded'='false', 'scan.startup.mode'='earliest') */",
			"SELECT * FROM t /*+ OPTIONS('scan.startup.mode' = 'earliest') */"},
		{"INSERT INTO s SELECT * FROM a /*+ OPTIONS('scan.bounded' = 'false') */ JOIN b /*+ OPTIONS('scan.bounded' = 'false') */ ON a.k = b.k",
			"INSERT INTO s SELECT * FROM a JOIN b ON a.k = b.k"},
		{"SELECT * FROM t /*+ OPTIONS('scan.startup.mode' = 'latest') */", "SELECT * FROM t /*+ OPTIONS('scan.startup.mode' = 'latest') */"},
		{"SELECT 1 -- a comment\n", "SELECT 1 -- a comment"},
	}
	for _, tt := range tests {
		got, err := FlinkText(tt.in, "scan.bounded")
		require.NoError(t, err, tt.in)
		assert.Equal(t, tt.want, got, tt.in)
	}
}

func TestParseFlinkWindowQuery(t *testing.T) {
	tests := []struct {
		sql    string
		insert bool
		fn     string
	}{
		{"SELECT window_start, COUNT(*) FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '10' SECOND)) GROUP BY window_start, window_end;", false, "TUMBLE"},
		{"select * from table(hop(table t, descriptor(ts), interval '1' minute, interval '5' minute))", false, "HOP"},
		{"INSERT INTO s SELECT window_end, SUM(v) FROM TABLE(CUMULATE(TABLE t, DESCRIPTOR(ts), INTERVAL '1' MINUTE, INTERVAL '1' HOUR)) GROUP BY window_start, window_end", true, "CUMULATE"},
		{"WITH w AS (SELECT * FROM TABLE(SESSION(TABLE t PARTITION BY k, DESCRIPTOR(ts), INTERVAL '5' MINUTE))) SELECT * FROM w", false, "SESSION"},
	}
	for _, tt := range tests {
		st, err := Parse(tt.sql)
		require.NoError(t, err, tt.sql)
		w, ok := st.(*FlinkWindowQuery)
		require.True(t, ok, "%s parsed as %T", tt.sql, st)
		assert.Equal(t, tt.insert, w.Insert)
		assert.Equal(t, tt.fn, w.Function)
		assert.NotContains(t, w.Text, ";")
		assert.Equal(t, !tt.insert, ReturnsRows(st))
	}
	_, err := Parse("SELECT * FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '1' SECOND)) WHERE k = ?")
	assert.ErrorIs(t, err, ErrNotSupported, "Flink's gateway takes no placeholders")
	st, err := Parse("EXPLAIN SELECT * FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '1' SECOND))")
	require.NoError(t, err)
	assert.IsType(t, &FlinkWindowQuery{}, st.(*Explain).Statement)
	st, err = Parse("SELECT * FROM `table`")
	require.NoError(t, err)
	assert.IsType(t, &Select{}, st, "a table named table is no window")
}
