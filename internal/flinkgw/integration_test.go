package flinkgw

import (
	"context"
	"errors"
	"io"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// realGateway returns a session on the gateway named by FLUSSQL_FLINK_GATEWAY (make flink-up
// prints one), skipping the test without it.
func realGateway(t *testing.T) (*Client, *Session) {
	t.Helper()
	addr := os.Getenv("FLUSSQL_FLINK_GATEWAY")
	if addr == "" {
		t.Skip("FLUSSQL_FLINK_GATEWAY is not set: no Flink SQL Gateway (make flink-up prints one)")
	}
	c := New(addr, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	s, err := c.OpenSession(ctx, "flinkgw-test", map[string]string{"execution.runtime-mode": "batch"})
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close(context.Background()) })
	return c, s
}

func TestRealGatewayBoundedQuery(t *testing.T) {
	c, s := realGateway(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	info, err := c.Info(ctx)
	require.NoError(t, err)
	assert.Equal(t, "Apache Flink", info.ProductName)

	op, err := s.Execute(ctx, "SELECT CAST(20 AS DECIMAL(10, 2)) AS d, CAST(NULL AS INT) AS n, 'x' AS s", nil)
	require.NoError(t, err)
	rows, err := op.All(ctx)
	require.NoError(t, err)
	require.Len(t, rows, 1)
	assert.Equal(t, []string{"20.00", "NULL", "x"}, rows[0].Strings("NULL"), "PLAIN_TEXT keeps the DECIMAL scale")
	require.Len(t, op.Columns, 3)
	assert.Equal(t, "DECIMAL(10, 2) NOT NULL", op.Columns[0].LogicalType.String())
	assert.Equal(t, "INT", op.Columns[1].LogicalType.String())
	assert.Equal(t, "CHAR(1) NOT NULL", op.Columns[2].LogicalType.String())
	assert.NotEmpty(t, op.JobID)
	require.NoError(t, op.Close(ctx))
}

func TestRealGatewayError(t *testing.T) {
	_, s := realGateway(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	op, err := s.Execute(ctx, "SELECT nosuch FROM (VALUES (1)) AS v(x)", nil)
	if err == nil {
		_, err = op.All(ctx)
	}
	var gwErr *Error
	require.ErrorAs(t, err, &gwErr)
	assert.Contains(t, gwErr.Cause(), "Column 'nosuch' not found")
}

// TestRealGatewayCloseStreaming reads a few rows of an endless streaming query (the datagen
// connector), then closes it: the gateway then cancels its Flink job.
func TestRealGatewayCloseStreaming(t *testing.T) {
	_, s := realGateway(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	op, err := s.Execute(ctx, "CREATE TEMPORARY TABLE gen (x INT) WITH ('connector' = 'datagen', 'rows-per-second' = '20')", nil)
	require.NoError(t, err)
	_, err = op.All(ctx)
	require.NoError(t, err)
	op, err = s.Execute(ctx, "SELECT x FROM gen", map[string]string{"execution.runtime-mode": "streaming"})
	require.NoError(t, err)
	rows, err := op.Next(ctx)
	require.NoError(t, err)
	assert.NotEmpty(t, rows)
	require.NotEmpty(t, op.JobID)

	short, stop := context.WithTimeout(ctx, 300*time.Millisecond)
	_, err = op.All(short) // never ends on its own: the context ends it
	stop()
	assert.True(t, errors.Is(err, context.DeadlineExceeded), "got %v", err)

	status, err := op.Status(ctx)
	require.NoError(t, err)
	assert.Equal(t, "FINISHED", status, "the operation is done once the job runs")
	var gwErr *Error
	assert.ErrorAs(t, op.Cancel(ctx), &gwErr, "a finished operation cannot be cancelled")
	require.NoError(t, op.Close(ctx))
	_, err = op.Next(ctx)
	assert.Equal(t, io.EOF, err)

	// SHOW JOBS lists the job as CANCELED soon after.
	require.Eventually(t, func() bool {
		show, err := s.Execute(ctx, "SHOW JOBS", nil)
		if err != nil {
			return false
		}
		defer show.Close(ctx)
		rows, err := show.All(ctx)
		if err != nil {
			return false
		}
		for _, r := range rows {
			if f := r.Strings(""); len(f) >= 3 && f[0] == op.JobID {
				return f[2] == "CANCELED"
			}
		}
		return false
	}, time.Minute, 500*time.Millisecond, "job %s cancelled", op.JobID)
}
