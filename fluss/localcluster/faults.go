package localcluster

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/flussql/flussql/fluss/internal/protocol"
	"github.com/flussql/flussql/fluss/internal/rpc"
	"github.com/flussql/flussql/fluss/localcluster/relay"
	"google.golang.org/protobuf/proto"
)

// proc returns the process record of name.
func (c *Cluster) proc(name string) (Proc, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.procLocked(name)
}

func (c *Cluster) procLocked(name string) (Proc, bool) {
	for _, p := range c.Procs {
		if p.Name == name {
			return p, true
		}
	}
	return Proc{}, false
}

// PID returns the process id of the named server ("zookeeper", "coordinator",
// "tablet-server-0", …), or 0 if it is not running (never started, stopped or killed).
// A paused process is running.
func (c *Cluster) PID(name string) int {
	p, ok := c.proc(name)
	if !ok || !ours(p.PID, c.Dir) {
		return 0
	}
	return p.PID
}

// livePID returns the PID of name if it is one of ours and alive; c.mu is held.
func (c *Cluster) livePID(name string) (int, error) {
	p, ok := c.procLocked(name)
	if !ok {
		return 0, fmt.Errorf("localcluster: no process %q in this cluster", name)
	}
	if !ours(p.PID, c.Dir) {
		return 0, fmt.Errorf("localcluster: %s (pid %d) is not running", name, p.PID)
	}
	return p.PID, nil
}

// Kill sends SIGKILL to the named server (no controlled shutdown: ZooKeeper and the
// coordinator learn of it only when its ZooKeeper session expires, see
// Options.ZooKeeperSessionTimeout) and waits until the process is gone. Killing a server
// that is not running is not an error.
func (c *Cluster) Kill(name string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.killLocked(name)
}

func (c *Cluster) killLocked(name string) error {
	p, ok := c.procLocked(name)
	if !ok {
		return fmt.Errorf("localcluster: no process %q in this cluster", name)
	}
	if !ours(p.PID, c.Dir) {
		return nil
	}
	if err := syscall.Kill(p.PID, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
		return fmt.Errorf("localcluster: kill %s (pid %d): %w", name, p.PID, err)
	}
	for deadline := time.Now().Add(10 * time.Second); alive(p.PID); {
		if time.Now().After(deadline) {
			return fmt.Errorf("localcluster: %s (pid %d) still alive 10 s after SIGKILL", name, p.PID)
		}
		time.Sleep(20 * time.Millisecond)
	}
	return nil
}

// Pause stops the named server with SIGSTOP and returns once it is stopped: it keeps its
// sockets open but answers nothing, and sends no ZooKeeper heartbeats (its session expires
// after the session timeout; on Resume it registers again). Resume continues it; Stop and
// Kill also end a paused server.
func (c *Cluster) Pause(name string) error { return c.signal(name, syscall.SIGSTOP) }

// Resume continues a server paused by Pause with SIGCONT and returns once it runs.
func (c *Cluster) Resume(name string) error { return c.signal(name, syscall.SIGCONT) }

// stopped reports whether pid is stopped by a signal (state T in /proc/pid/stat).
func stopped(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && i+2 < len(s) && s[i+2] == 'T'
}

func (c *Cluster) signal(name string, sig syscall.Signal) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	pid, err := c.livePID(name)
	if err != nil {
		return err
	}
	if err := syscall.Kill(pid, sig); err != nil {
		return fmt.Errorf("localcluster: %s %s (pid %d): %w", sig, name, pid, err)
	}
	// Signals are delivered asynchronously; wait for the state change.
	want := sig == syscall.SIGSTOP
	for deadline := time.Now().Add(5 * time.Second); stopped(pid) != want; {
		if time.Now().After(deadline) {
			return fmt.Errorf("localcluster: %s (pid %d) did not change state 5 s after %s", name, pid, sig)
		}
		time.Sleep(5 * time.Millisecond)
	}
	return nil
}

// Restart kills the named server if it is running (SIGKILL, as Kill) and starts it again
// with the same id, ports, configuration and data folder, then waits until it serves again:
// ZooKeeper until it answers "srvr"; the coordinator until it has registered as leader and
// answers metadata; a tablet server until it has registered in ZooKeeper and a metadata answer
// lists it. Its log starts afresh in the same file; the previous one is kept as
// <name>.log.<n>. A tablet server killed without a short ZooKeeperSessionTimeout can take
// up to the session timeout (60 s by default) to register again, because its old ZooKeeper
// node lives until then. Procs gets the new PID. Relays stay in place.
func (c *Cluster) Restart(ctx context.Context, name string) error {
	c.mu.Lock()
	if c.specs == nil || c.specs[name].java == "" {
		c.mu.Unlock()
		if _, ok := c.proc(name); ok {
			return fmt.Errorf("localcluster: %s was not started by this Cluster value (one from LoadState cannot restart)", name)
		}
		return fmt.Errorf("localcluster: no process %q in this cluster", name)
	}
	if err := c.killLocked(name); err != nil {
		c.mu.Unlock()
		return err
	}
	logPath := filepath.Join(c.Dir, "log", name+".log")
	c.restarts[name]++
	_ = os.Rename(logPath, fmt.Sprintf("%s.%d", logPath, c.restarts[name]))
	pid, _, err := c.startProc(name)
	if err != nil {
		c.mu.Unlock()
		return err
	}
	for i := range c.Procs {
		if c.Procs[i].Name == name {
			c.Procs[i].PID = pid
		}
	}
	c.mu.Unlock()
	start := time.Now()
	for attempt := 1; ; attempt++ {
		err = c.awaitServing(ctx, name, pid)
		if err == nil || alive(pid) || attempt == maxRestartAttempts || ctx.Err() != nil {
			break
		}
		// Fluss's servers can fail at startup on a race of their own and exit (0.9.1 and
		// 1.0: the coordinator lists the tablet servers' ZooKeeper registrations, then reads
		// them, and one that expires in between — a server killed a moment ago — is a
		// NullPointerException in CoordinatorEventProcessor.initCoordinatorContext). Start
		// it again, as a supervisor would.
		c.logf("localcluster: %s (pid %d) exited while starting (attempt %d of %d); starting it again:\n%s",
			name, pid, attempt, maxRestartAttempts, lastLines(logPath, 8))
		c.mu.Lock()
		c.restarts[name]++
		_ = os.Rename(logPath, fmt.Sprintf("%s.%d", logPath, c.restarts[name]))
		pid, _, err = c.startProc(name)
		if err == nil {
			for i := range c.Procs {
				if c.Procs[i].Name == name {
					c.Procs[i].PID = pid
				}
			}
		}
		c.mu.Unlock()
		if err != nil {
			return err
		}
	}
	if err != nil {
		return fmt.Errorf("localcluster: restart %s: %w\n%s", name, err, lastLines(logPath, 40))
	}
	c.logf("localcluster: %s restarted (pid %d) in %s", name, pid, time.Since(start).Round(time.Millisecond))
	return nil
}

// maxRestartAttempts is how many times Restart starts a server that exits while starting.
const maxRestartAttempts = 3

// awaitServing waits until the restarted server name (pid) serves again, or returns early
// when the process exits.
func (c *Cluster) awaitServing(ctx context.Context, name string, pid int) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	go func() {
		for alive(pid) {
			select {
			case <-ctx.Done():
				return
			case <-time.After(200 * time.Millisecond):
			}
		}
		cancel(fmt.Errorf("localcluster: %s (pid %d) exited while starting", name, pid))
	}()
	var err error
	switch {
	case name == "zookeeper":
		err = waitZooKeeper(ctx, c.zkAddr)
	case name == "coordinator":
		if err = c.waitLog(ctx, name, coordinatorReadyLine, false); err == nil {
			err = c.pollMetadata(ctx, "an answer", func([]int) error { return nil })
		}
	case strings.HasPrefix(name, "tablet-server-"):
		id, _ := strconv.Atoi(strings.TrimPrefix(name, "tablet-server-"))
		if err = c.waitLog(ctx, name, tabletReadyLine(id), false); err == nil {
			err = c.waitTabletListed(ctx, id)
		}
	}
	if err != nil && context.Cause(ctx) != nil && context.Cause(ctx) != ctx.Err() {
		err = fmt.Errorf("%w (%v)", err, context.Cause(ctx))
	}
	return err
}

// TabletAddr returns the client-facing host:port of tablet server id, the address clients
// see in metadata: its relay with Options.Relays, else its own client listener. It returns
// "" for an unknown id.
func (c *Cluster) TabletAddr(id int) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if r := c.relays[tabletName(id)]; r != nil {
		return r.Addr()
	}
	port, ok := c.clientPorts[id]
	if !ok {
		return ""
	}
	return fmt.Sprintf("127.0.0.1:%d", port)
}

// Relay returns the relay in front of the named tablet server ("tablet-server-0", …), or nil
// without Options.Relays or for another name. The relay outlives Restart (same target port);
// Stop closes it.
func (c *Cluster) Relay(name string) *relay.Relay {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.relays[name]
}

// BucketLeader asks the coordinator which tablet server leads bucket of the non-partitioned
// table database.table; it returns the tablet server id, or -1 while the bucket has no
// leader.
func (c *Cluster) BucketLeader(ctx context.Context, database, table string, bucket int32) (int, error) {
	leader, _, err := c.BucketLeaderFrom(ctx, c.BootstrapServers, database, table, bucket)
	return leader, err
}

// BucketLeaderFrom asks the server at addr (the coordinator, or a tablet server, which answers
// from its own metadata cache) which tablet server leads bucket of the non-partitioned table
// database.table, and at which leader epoch; the leader is -1 while the bucket has none.
func (c *Cluster) BucketLeaderFrom(ctx context.Context, addr, database, table string, bucket int32) (leader int, epoch int32, err error) {
	opts := rpc.Options{DialTimeout: 5 * time.Second, RequestTimeout: 5 * time.Second}
	if c.user != "" {
		opts.Credentials = &rpc.Credentials{Username: c.user, Password: c.password}
	}
	conn, err := rpc.Dial(ctx, addr, opts)
	if err != nil {
		return 0, 0, err
	}
	defer conn.Close()
	var resp protocol.MetadataResponse
	req := &protocol.MetadataRequest{TablePath: []*protocol.PbTablePath{{DatabaseName: proto.String(database), TableName: proto.String(table)}}}
	if err := conn.Call(ctx, protocol.GetMetadata, req, &resp); err != nil {
		return 0, 0, err
	}
	for _, t := range resp.GetTableMetadata() {
		for _, b := range t.GetBucketMetadata() {
			if b.GetBucketId() == bucket {
				if b.LeaderId == nil {
					return -1, b.GetLeaderEpoch(), nil
				}
				return int(b.GetLeaderId()), b.GetLeaderEpoch(), nil
			}
		}
	}
	return 0, 0, fmt.Errorf("localcluster: metadata of %s.%s from %s has no bucket %d", database, table, addr, bucket)
}
