package planner

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/parser"
)

func buildFlink(t *testing.T, sql string, flink bool) (Plan, error) {
	t.Helper()
	st, err := parser.Parse(sql)
	require.NoError(t, err)
	return Build(context.Background(), st, testCatalog(), Session{Database: "fluss", Flink: flink})
}

func TestFlinkRouting(t *testing.T) {
	const unbounded = "/*+ OPTIONS('scan.bounded' = 'false') */"
	tests := []struct {
		name, sql string
		kind      FlinkKind
	}{
		{"streaming GROUP BY", "SELECT level, COUNT(*) FROM logs " + unbounded + " GROUP BY level", FlinkQuery},
		{"streaming join", "SELECT a.id, b.msg FROM logs " + unbounded + " AS a JOIN logs " + unbounded + " AS b ON a.level = b.level", FlinkQuery},
		{"streaming DISTINCT", "SELECT DISTINCT level FROM logs " + unbounded, FlinkQuery},
		{"continuous INSERT … SELECT", "INSERT INTO logs SELECT id, msg, level, ts FROM logs " + unbounded + " WHERE level > 3", FlinkJob},
		{"TUMBLE window", "SELECT window_start, COUNT(*) FROM TABLE(TUMBLE(TABLE logs, DESCRIPTOR(ts), INTERVAL '1' MINUTE)) GROUP BY window_start, window_end", FlinkQuery},
		{"HOP window job", "INSERT INTO logs SELECT 1, 'x', 1, window_start FROM TABLE(HOP(TABLE logs, DESCRIPTOR(ts), INTERVAL '1' MINUTE, INTERVAL '5' MINUTE)) GROUP BY window_start, window_end", FlinkJob},
		{"CUMULATE window", "SELECT window_end, SUM(level) FROM TABLE(CUMULATE(TABLE logs, DESCRIPTOR(ts), INTERVAL '1' MINUTE, INTERVAL '1' HOUR)) GROUP BY window_start, window_end", FlinkQuery},
		{"interval join", "SELECT a.id FROM logs " + unbounded + " AS a JOIN logs " + unbounded + " AS b ON a.level = b.level AND a.ts BETWEEN b.ts - INTERVAL '5' SECOND AND b.ts", FlinkQuery},
		{"SHOW JOBS", "SHOW JOBS", FlinkCommand},
		{"STOP JOB", "STOP JOB 'abc' WITH SAVEPOINT", FlinkCommand},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := buildFlink(t, tt.sql, true)
			require.NoError(t, err)
			fp, ok := p.(*Flink)
			require.True(t, ok, "planned as %T", p)
			assert.Equal(t, tt.kind, fp.Kind)
			assert.Equal(t, "fluss", fp.Database)
			assert.Contains(t, fp.String(), "engine: Flink")

			_, err = buildFlink(t, tt.sql, false)
			require.Error(t, err, "without a gateway flussql refuses it")
			assert.ErrorIs(t, err, ErrNotSupported)
			assert.ErrorIs(t, err, ErrNeedsStreaming)
			assert.Contains(t, err.Error(), FlinkGatewayKey+"=")

			p, err = buildFlink(t, "EXPLAIN "+tt.sql, true)
			require.NoError(t, err)
			assert.Equal(t, fp.String(), p.String(), "EXPLAIN says Flink runs it")
			rows := p.(*Explain).Rows()
			assert.Equal(t, []any{"  engine: Flink, through the SQL gateway (flink_gateway)"}, rows[1])
		})
	}
}

func TestFlinkRoutingKeepsWhatFlussqlRuns(t *testing.T) {
	for _, sql := range []string{
		"SELECT level, COUNT(*) FROM logs GROUP BY level",                              // bounded: the in-process engine
		"SELECT id FROM logs /*+ OPTIONS('scan.bounded' = 'false') */ WHERE level = 1", // a streaming filter flussql runs
		"INSERT INTO logs SELECT id, msg, level, ts FROM logs",                         // bounded INSERT … SELECT
	} {
		p, err := buildFlink(t, sql, true)
		require.NoError(t, err, sql)
		_, isFlink := p.(*Flink)
		assert.False(t, isFlink, "%s: flussql runs it itself", sql)
		p, err = buildFlink(t, "EXPLAIN "+sql, true)
		require.NoError(t, err, sql)
		rows := p.(*Explain).Rows()
		assert.Equal(t, []any{"  engine: flussql, in this process"}, rows[len(rows)-1], "EXPLAIN names the engine")
	}
}

func TestFlinkRoutingRefusesPlaceholders(t *testing.T) {
	_, err := buildFlink(t, "SELECT level, COUNT(*) FROM logs /*+ OPTIONS('scan.bounded' = 'false') */ WHERE id > ? GROUP BY level", true)
	require.ErrorIs(t, err, ErrNotSupported)
	assert.Contains(t, err.Error(), "placeholders")
}
