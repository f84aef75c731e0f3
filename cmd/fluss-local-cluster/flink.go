package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/flussql/flussql/fluss/localcluster"
)

// flinkOpts are the Flink flags of `up`.
type flinkOpts struct {
	on    *bool
	state *string
	fluss *string
}

func flinkFlags(fs *flag.FlagSet) flinkOpts {
	return flinkOpts{
		on:    fs.Bool("flink", false, "also start a local Flink (JobManager, TaskManager, SQL Gateway) with a Fluss catalog \"fluss\" for the cluster; prints the gateway address on a second line"),
		state: fs.String("flink-state", ".cluster/flink.json", "with -flink: where to record the Flink that was started"),
		fluss: fs.String("fluss", "", "with -flink: start no Fluss cluster; the catalog points at this bootstrap address (host:port)"),
	}
}

// flinkUp starts a detached Flink for the cluster at bootstrap unless the one recorded in
// the state file still runs, and prints its gateway address.
func flinkUp(fl flinkOpts, bootstrap string) error {
	if old, err := localcluster.LoadFlinkState(*fl.state); err == nil && old.Running() {
		if old.Catalogs["fluss"] != bootstrap {
			if err := old.CreateFlussCatalog(context.Background(), "fluss", bootstrap); err != nil {
				return err
			}
			if err := old.SaveState(*fl.state); err != nil {
				return err
			}
		}
		fmt.Println(old.GatewayAddress)
		logf("a Flink started here is already running (state %s); `make flink-down` stops it", *fl.state)
		return nil
	}
	if err := os.MkdirAll(dirOf(*fl.state), 0o755); err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "flink-local-")
	if err != nil {
		return err
	}
	f, err := startFlink(context.Background(), bootstrap, dir, true)
	if err != nil {
		os.RemoveAll(dir)
		return err
	}
	if err := f.SaveState(*fl.state); err != nil {
		_ = f.Stop()
		return err
	}
	logf("Flink SQL Gateway on %s (JobManager web UI http://%s, run folder %s); stop it with `make flink-down`",
		f.GatewayAddress, f.RESTAddress, f.Dir)
	fmt.Println(f.GatewayAddress)
	return nil
}

// startFlink starts a local Flink (in dir, or a temporary folder) with a Fluss catalog
// "fluss" for bootstrap.
func startFlink(ctx context.Context, bootstrap, dir string, detach bool) (*localcluster.Flink, error) {
	started := time.Now()
	f, err := localcluster.StartFlink(ctx, localcluster.FlinkOptions{Dir: dir, Detach: detach, Logf: logf})
	if err != nil {
		return nil, err
	}
	if err := f.CreateFlussCatalog(ctx, "fluss", bootstrap); err != nil {
		_ = f.Stop()
		return nil, err
	}
	logf("Flink ready with catalog fluss → %s after %s (%.0f MiB resident)", bootstrap,
		time.Since(started).Round(time.Millisecond), float64(f.RSS())/(1<<20))
	return f, nil
}

// flinkDown stops the Flink recorded in the state file, if any; a missing state file is an
// error only when Flink alone was to be stopped.
func flinkDown(statePath string, only bool) error {
	if !only && !fileExists(statePath) {
		return nil // no Flink was started beside this cluster
	}
	f, err := localcluster.LoadFlinkState(statePath)
	if err != nil {
		return err
	}
	if err := f.Stop(); err != nil {
		return err
	}
	if f.Dir != "" {
		_ = os.RemoveAll(f.Dir)
	}
	logf("stopped Flink (gateway %s)", f.GatewayAddress)
	return os.Remove(statePath)
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
