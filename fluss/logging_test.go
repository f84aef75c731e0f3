package fluss

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// debugLog returns a logger that writes debug records as text into the returned buffer.
func debugLog() (*slog.Logger, *lockedLog) {
	var b lockedLog
	return slog.New(slog.NewTextHandler(&b, &slog.HandlerOptions{Level: slog.LevelDebug})), &b
}

// lockedLog is a strings.Builder safe for concurrent writes.
type lockedLog struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// The client logs its connections, metadata refreshes and bucket leader changes at debug
// level.
func TestLoggerRecordsConnectionsMetadataAndLeaderChanges(t *testing.T) {
	f := newFailoverFake(t, 3, 3, 10, 5)
	log, out := debugLog()
	c, err := Connect(context.Background(), Config{BootstrapServers: []string{f.Addr()}, RequestTimeout: time.Second, Logger: log})
	require.NoError(t, err)
	defer c.Close()
	_, err = c.tableMetadata(context.Background(), f.path)
	require.NoError(t, err)
	before := f.leaderOf(1)
	f.moveLeader(1, before%3+1)
	c.invalidateTable(f.path)
	_, err = c.tableMetadata(context.Background(), f.path)
	require.NoError(t, err)

	got := out.String()
	assert.Contains(t, got, `msg="fluss: connected" addr=`+f.Addr())
	assert.Contains(t, got, `msg="fluss: metadata refreshed"`)
	assert.Contains(t, got, `msg="fluss: bucket leader changed" table=`+f.path.String()+` bucket=1 from=`)
	assert.Equal(t, 1, strings.Count(got, "bucket leader changed"), "only bucket 1 moved:\n%s", got)
}

// A failed connection is logged with its address and user, never the password; without
// a Logger nothing is written anywhere.
func TestLoggerNeverShowsThePassword(t *testing.T) {
	log, out := debugLog()
	dead := deadAddr(t)
	_, err := Connect(context.Background(), Config{BootstrapServers: []string{dead}, Username: "alice", Password: "s3cret-pw",
		ConnectTimeout: 500 * time.Millisecond, Logger: log})
	require.Error(t, err)
	got := out.String()
	assert.Contains(t, got, `msg="fluss: connecting failed" addr=`+dead)
	assert.NotContains(t, got, "s3cret-pw")
	assert.NotContains(t, err.Error(), "s3cret-pw")
}
