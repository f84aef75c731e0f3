package localcluster

import (
	"context"
	"os"
	"strings"
	"time"
)

// Fluss 0.9.1's coordinator can lose the event of a table it has just created (apache/fluss
// #1018: its ZooKeeper watcher sees the table before the table's schema). A partition of
// that table created right after then fails inside the coordinator's event thread with a
// NullPointerException that leaves its batch of NotifyLeaderAndIsr requests half built;
// from then on every bucket state change fails ("… batch request … is not empty while
// creating a new one") and no new table or partition ever gets a leader until the
// coordinator restarts (seen on a loaded machine: every later test of the run failed with
// LEADER_NOT_AVAILABLE). The coordinator rebuilds its state from ZooKeeper at start, so a
// restart heals it.

// stuckCoordinatorLine is what the coordinator logs on every state change once stuck.
const stuckCoordinatorLine = "is not empty while creating a new one"

// WatchCoordinator restarts the coordinator whenever its log shows that its event thread is
// stuck (see above), until ctx ends. It logs each restart through Options.Logf and returns
// how many it made.
func (c *Cluster) WatchCoordinator(ctx context.Context, every time.Duration) int {
	restarts := 0
	seen := 0 // occurrences of the line in the current log, already handled
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return restarts
		case <-tick.C:
		}
		proc, ok := c.proc("coordinator")
		if !ok {
			continue
		}
		b, err := os.ReadFile(proc.Log)
		if err != nil {
			continue
		}
		n := strings.Count(string(b), stuckCoordinatorLine)
		if n <= seen {
			continue
		}
		c.logf("localcluster: the coordinator's event thread is stuck (a lost CreateTable event, apache/fluss#1018); restarting it")
		// Stopped gracefully, the coordinator gives up its ZooKeeper session at once; killed,
		// its leadership node would stay until the session times out (60 s by default) and
		// the new coordinator would wait for it.
		began := time.Now()
		_ = stopPID(proc.PID, c.Dir, 15*time.Second)
		stopped := time.Since(began)
		rctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
		err = c.Restart(rctx, "coordinator") // the restart starts a new log
		cancel()
		if err != nil && ctx.Err() != nil {
			// The watch ended while the new coordinator was getting ready: it was restarted
			// (a new process runs), only the wait for it was cut.
			return restarts + 1
		}
		if err != nil {
			// Kept for the next reader: how long the stop took tells whether the old
			// coordinator's ZooKeeper session (and leadership) could outlive it.
			c.logf("localcluster: restarting the stuck coordinator (stopped in %s, then %s waiting): %v",
				stopped.Round(time.Millisecond), (time.Since(began) - stopped).Round(time.Millisecond), err)
			seen = n
			continue
		}
		c.logf("localcluster: the coordinator restarted in %s (stop %s)", time.Since(began).Round(time.Millisecond), stopped.Round(time.Millisecond))
		restarts++
		seen = 0
	}
}
