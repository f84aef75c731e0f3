package main

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/flussql/flussql"
	"github.com/flussql/flussql/fluss/localcluster"
)

// startLocalCluster starts a local Fluss cluster with the project's launcher, says so on w,
// and returns its DSN and the function that stops it.
func startLocalCluster(ctx context.Context, w io.Writer) (string, func(), error) {
	fmt.Fprintln(w, "flussql: no --dsn, FLUSS_DSN or FLUSS_BOOTSTRAP_SERVERS given: starting a local Fluss cluster")
	fmt.Fprintln(w, "flussql: (needs Java 17+ and Maven; the first start downloads the server jars; Ctrl-C gives up)")
	c, err := localcluster.Start(ctx, localcluster.Options{Logf: func(format string, args ...any) {
		fmt.Fprintf(w, "flussql: "+format+"\n", args...)
	}})
	if err != nil {
		return "", nil, fmt.Errorf("starting a local cluster: %w", err)
	}
	fmt.Fprintf(w, "flussql: local Fluss %s at %s (run folder %s); it stops when the shell exits\n",
		c.Version, c.BootstrapServers, c.Dir)
	var once sync.Once
	stop := func() {
		once.Do(func() {
			onFatalSignal(nil)
			if err := c.Stop(); err != nil {
				fmt.Fprintf(w, "flussql: stopping the local cluster: %v\n", err)
			}
		})
	}
	// A shell killed by a signal (SIGTERM, SIGHUP, or SIGPIPE when its output is piped into
	// `head`) must not leave the servers running.
	onFatalSignal(func() { _ = c.Stop() })
	return "fluss://" + c.BootstrapServers + "/" + flussql.DefaultDatabase, stop, nil
}

// fatalCleanup is what must run before the process dies of a signal: stopping the local
// cluster the shell started, if any.
var fatalCleanup struct {
	sync.Mutex
	fn func()
}

// onFatalSignal sets (or, with nil, clears) the cleanup of a fatal signal.
func onFatalSignal(fn func()) {
	fatalCleanup.Lock()
	fatalCleanup.fn = fn
	fatalCleanup.Unlock()
}

// runFatalCleanup runs and clears the cleanup of a fatal signal.
func runFatalCleanup() {
	fatalCleanup.Lock()
	fn := fatalCleanup.fn
	fatalCleanup.fn = nil
	fatalCleanup.Unlock()
	if fn != nil {
		fn()
	}
}

// connect opens the pool and pins the session's one connection, retrying for up to wait
// (a cluster that has just started may need a moment before it answers).
func connect(ctx context.Context, driverName, dsn string, wait time.Duration) (*sql.DB, *sql.Conn, error) {
	db, err := sql.Open(driverName, dsn)
	if err != nil {
		return nil, nil, err
	}
	deadline := time.Now().Add(wait)
	for {
		conn, err := db.Conn(ctx)
		if err == nil {
			err = conn.PingContext(ctx)
			if err == nil {
				return db, conn, nil
			}
			_ = conn.Close()
		}
		if ctx.Err() != nil || time.Now().After(deadline) {
			_ = db.Close()
			return nil, nil, err
		}
		select {
		case <-ctx.Done():
		case <-time.After(500 * time.Millisecond):
		}
	}
}
