package localcluster

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// When the coordinator's log shows the stuck event thread, the watchdog restarts the
// coordinator (a new process, a fresh log) and the cluster serves new tables again.
func TestWatchCoordinatorRestartsAStuckCoordinator(t *testing.T) {
	c := startFaultCluster(t, Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	before := c.PID("coordinator")
	restarted := make(chan int, 1)
	wctx, stop := context.WithCancel(ctx)
	go func() { restarted <- c.WatchCoordinator(wctx, 200*time.Millisecond) }()

	// The line the stuck coordinator logs (the real trigger is a server race that cannot be
	// provoked at will).
	proc, ok := c.proc("coordinator")
	require.True(t, ok)
	f, err := os.OpenFile(proc.Log, os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString("00:00:00,000 ERROR TableBucketStateMachine - java.lang.IllegalStateException: The NotifyLeaderAndIsr batch request from coordinator to tablet server " + stuckCoordinatorLine + ".\n")
	require.NoError(t, err)
	require.NoError(t, f.Close())

	require.Eventually(t, func() bool { return c.PID("coordinator") != before && c.PID("coordinator") != 0 }, 2*time.Minute, 200*time.Millisecond,
		"the coordinator was not restarted")
	require.Eventually(t, func() bool {
		ids, err := tabletServers(ctx, c.BootstrapServers, "", "")
		return err == nil && len(ids) == 1
	}, 2*time.Minute, 250*time.Millisecond, "the restarted coordinator never listed the tablet server")
	leader := createReplicatedTable(ctx, t, c, "watchdog", "t", 1)
	assert.GreaterOrEqual(t, leader, 0)
	// The lost-creation check finds no leaderless table on this healthy cluster, and notes
	// the new one as healthy (it is not asked about again).
	var w tableWatch
	table, err := w.leaderlessTable(ctx, c)
	require.NoError(t, err)
	assert.Empty(t, table)
	assert.Len(t, w.healthy, 1, "the table just created, with its leader")
	stop()
	assert.Equal(t, 1, <-restarted, "restarted once: the new log does not have the line")
}
