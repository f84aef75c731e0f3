package flussql_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLakeTieringRestartStrategy checks that the local lakehouse's tiering job restarts after
// a failure (localcluster.TieringRestartStrategy): the JobManager logs the restart strategy
// it uses for each job when the job starts, and without one it is
// NoRestartBackoffTimeStrategy — the first TaskManager heartbeat timeout then ends tiering.
func TestLakeTieringRestartStrategy(t *testing.T) {
	lakehouse(t)
	job, dir := os.Getenv("FLUSSQL_LAKE_TIERING_JOB"), os.Getenv("FLUSSQL_FLINK_LOG")
	if job == "" || dir == "" {
		t.Skip("FLUSSQL_LAKE_TIERING_JOB and FLUSSQL_FLINK_LOG are not set (make lake-test sets them)")
	}
	data, err := os.ReadFile(filepath.Join(dir, "jobmanager.log"))
	require.NoError(t, err)
	var line string
	for l := range strings.Lines(string(data)) {
		if strings.Contains(l, "Using restart back off time strategy") && strings.Contains(l, "("+job+")") {
			line = l
		}
	}
	require.NotEmpty(t, line, "the JobManager log names no restart strategy for the tiering job %s", job)
	assert.Contains(t, line, "FixedDelayRestartBackoffTimeStrategy(maxNumberRestartAttempts=2147483647, backoffTimeMS=2000)")
}
