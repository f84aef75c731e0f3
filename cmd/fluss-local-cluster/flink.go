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

// lakeSpec is the lake of a cluster that Flink runs the tiering service for.
type lakeSpec struct {
	format    localcluster.LakeFormat
	warehouse string
}

// lakeOf returns the lake of the cluster c, nil when it has none.
func lakeOf(c *localcluster.Cluster) *lakeSpec {
	if c.LakeFormat == "" {
		return nil
	}
	return &lakeSpec{format: c.LakeFormat, warehouse: c.LakeWarehouse}
}

// flinkUp starts a detached Flink for the cluster at bootstrap unless the one recorded in
// the state file still runs, and prints its gateway address. With a lake, the Flink gets
// the lake's jars and runs the tiering service.
func flinkUp(fl flinkOpts, bootstrap string, lake *lakeSpec) error {
	if old, err := localcluster.LoadFlinkState(*fl.state); err == nil && old.Running() {
		if lake != nil && old.TieringJobID == "" {
			return fmt.Errorf("the Flink already running (state %s) was started without the %s lake's jars and runs no tiering service; stop it with `down -flink-only -flink-state %s` and run up again", *fl.state, lake.format, *fl.state)
		}
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
	f, err := startFlink(context.Background(), bootstrap, dir, true, lake)
	if err != nil {
		os.RemoveAll(dir)
		return err
	}
	if err := f.SaveState(*fl.state); err != nil {
		_ = f.Stop()
		return err
	}
	if lake != nil {
		logf("tiering service: Flink job %s writes %s tables to %s", f.TieringJobID, lake.format, lake.warehouse)
	}
	logf("Flink SQL Gateway on %s (JobManager web UI http://%s, run folder %s); stop it with `make flink-down`",
		f.GatewayAddress, f.RESTAddress, f.Dir)
	fmt.Println(f.GatewayAddress)
	return nil
}

// startFlink starts a local Flink (in dir, or a temporary folder) with a Fluss catalog
// "fluss" for bootstrap, and with a lake, the lake's jars on its classpath and Fluss's
// tiering service as a job.
func startFlink(ctx context.Context, bootstrap, dir string, detach bool, lake *lakeSpec) (*localcluster.Flink, error) {
	started := time.Now()
	opts := localcluster.FlinkOptions{Dir: dir, Detach: detach, Logf: logf}
	if lake != nil {
		jars, err := localcluster.EnsureLakeJars(ctx, lake.format)
		if err != nil {
			return nil, err
		}
		opts.ExtraJars = jars.Flink
	}
	f, err := localcluster.StartFlink(ctx, opts)
	if err != nil {
		return nil, err
	}
	if err := f.CreateFlussCatalog(ctx, "fluss", bootstrap); err != nil {
		_ = f.Stop()
		return nil, err
	}
	logf("Flink ready with catalog fluss → %s after %s (%.0f MiB resident)", bootstrap,
		time.Since(started).Round(time.Millisecond), float64(f.RSS())/(1<<20))
	if lake != nil {
		t := time.Now()
		if _, err := f.StartTiering(ctx, bootstrap, localcluster.LakeOptions(lake.format, lake.warehouse)); err != nil {
			_ = f.Stop()
			return nil, err
		}
		logf("tiering service to %s running as Flink job %s after %s", lake.format, f.TieringJobID, time.Since(t).Round(time.Millisecond))
	}
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
