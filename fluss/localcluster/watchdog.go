package localcluster

import (
	"context"
	"fmt"
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

// tableCheckEvery is how often WatchCoordinator looks for tables whose creation the
// coordinator lost (see watchdog_tables.go).
const tableCheckEvery = 3 * time.Second

// WatchCoordinator restarts the coordinator whenever its log shows that its event thread is
// stuck (see above), or a table older than leaderlessGrace still has a bucket without a
// leader (a lost creation, see watchdog_tables.go), until ctx ends. It logs each restart
// through Options.Logf and returns how many it made.
func (c *Cluster) WatchCoordinator(ctx context.Context, every time.Duration) int {
	restarts := 0
	seen := 0 // occurrences of the line in the current log, already handled
	var tables tableWatch
	lastTableCheck := time.Now()
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
		var why string
		n := strings.Count(string(b), stuckCoordinatorLine)
		if n > seen {
			why = "the coordinator's event thread is stuck (a lost CreateTable event, apache/fluss#1018)"
		} else if time.Since(lastTableCheck) >= tableCheckEvery {
			lastTableCheck = time.Now()
			cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			table, err := tables.leaderlessTable(cctx, c)
			cancel()
			if err == nil && table != "" {
				why = fmt.Sprintf("table %s has a bucket without a leader %s after its creation (the coordinator lost its CreateTable event, apache/fluss#1018)", table, leaderlessGrace)
			}
		}
		if why == "" {
			continue
		}
		ok, done := c.restartStuckCoordinator(ctx, proc, why)
		if done {
			if ok {
				restarts++
			}
			return restarts
		}
		if !ok {
			seen = n
			continue
		}
		restarts++
		seen = 0
	}
}

// restartStuckCoordinator stops the coordinator process proc and starts a new one, logging
// why. ok tells whether the new coordinator came up; done that ctx ended meanwhile.
func (c *Cluster) restartStuckCoordinator(ctx context.Context, proc Proc, why string) (ok, done bool) {
	c.logf("localcluster: %s; restarting the coordinator", why)
	// Stopped gracefully, the coordinator gives up its ZooKeeper session at once; killed,
	// its leadership node would stay until the session times out (60 s by default) and
	// the new coordinator would wait for it.
	began := time.Now()
	_ = stopPID(proc.PID, c.Dir, 15*time.Second)
	stopped := time.Since(began)
	rctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	err := c.Restart(rctx, "coordinator") // the restart starts a new log
	cancel()
	if err != nil && ctx.Err() != nil {
		// The watch ended while the new coordinator was getting ready: it was restarted
		// (a new process runs), only the wait for it was cut.
		return true, true
	}
	if err != nil {
		// Kept for the next reader: how long the stop took tells whether the old
		// coordinator's ZooKeeper session (and leadership) could outlive it.
		c.logf("localcluster: restarting the stuck coordinator (stopped in %s, then %s waiting): %v",
			stopped.Round(time.Millisecond), (time.Since(began) - stopped).Round(time.Millisecond), err)
		return false, false
	}
	c.logf("localcluster: the coordinator restarted in %s (stop %s)", time.Since(began).Round(time.Millisecond), stopped.Round(time.Millisecond))
	return true, false
}
