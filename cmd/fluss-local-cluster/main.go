// Command fluss-local-cluster starts and stops a real Apache Fluss cluster on loopback for
// development and tests (see package fluss/localcluster).
//
//	fluss-local-cluster up   [-state FILE] [-sasl user:password[,…]] [-authorizer] [-tablet-servers N] [-zk-session-timeout D] [-log-tiering] [-server-option key=value]…
//	                                                               start detached, print the bootstrap address
//	fluss-local-cluster down [-state FILE]                         stop what `up` started
//	fluss-local-cluster run  [-sasl user:password[,…]] [-authorizer] [-tablet-servers N] [-server-option key=value]… -- CMD ARGS…  start, run CMD with the addresses in its environment, stop
//	fluss-local-cluster fetch [VERSION…]                           fetch the jars of FLUSS_VERSION and each VERSION, print their classpaths
//
// `run` exports FLUSS_BOOTSTRAP_SERVERS and FLUSS_SERVER_VERSION (the version that runs) for
// CMD, and with -sasl also starts a second cluster with SASL/PLAIN and exports
// FLUSS_SASL_BOOTSTRAP_SERVERS, FLUSS_SASL_USERNAME and FLUSS_SASL_PASSWORD (the first -sasl
// user). -sasl takes several users (admin:admin-secret,alice:alice-pw); with -authorizer the
// SASL cluster checks ACLs (FLUSS_SASL_AUTHORIZER=1 for `run`), the first user is its super
// user and the others may do nothing until an ACL allows it. FLUSS_VERSION
// chooses the server release: one Maven Central serves, or one in the folder of server builds
// (FLUSS_SERVER_DIR, default ../shared/fluss-server beside the repository; every -SNAPSHOT
// version comes from there). -tablet-servers starts N tablet servers (default 1); -zk-session-timeout sets the servers' ZooKeeper session timeout (e.g. 6s,
// so that a killed tablet server loses its buckets within seconds; default 60 s).
// -server-option key=value (repeatable) adds an entry to every server's server.yaml, e.g.
// -server-option max.bucket.num=16384 for a table of 1,000 partitions × 8 buckets (Fluss
// 0.9.1 limits a partitioned table's buckets in all to max.bucket.num, default 4096).
//
// Flink (see localcluster.StartFlink): `up -flink [-flink-state FILE] [-fluss host:port]`
// also starts a local Flink with a SQL Gateway and a Fluss catalog "fluss" for the cluster
// (-fluss: for that cluster, starting no Fluss), prints the gateway address on a second line
// and records it in -flink-state (default .cluster/flink.json); `down` stops it too, `down
// -flink-only` only it; `run -flink` starts one for the plain cluster and exports
// FLUSSQL_FLINK_GATEWAY, FLUSSQL_FLINK_REST and FLUSSQL_FLINK_LOG (its log folder); `fetch -flink` fetches its jars.
//
// Lakehouse (see localcluster.Options.Lake): `up -flink -lake iceberg` (or paimon) makes the
// cluster a local lakehouse — the lake plugin in the servers' plugin folder, 'datalake.*' in
// server.yaml, the warehouse under the run folder (lake_warehouse in the state file) — and
// Flink runs Fluss's tiering service (tiering_job_id in the Flink state file); `run -flink
// -lake FORMAT` also exports FLUSSQL_LAKE_FORMAT, FLUSSQL_LAKE_WAREHOUSE and
// FLUSSQL_LAKE_TIERING_JOB; `fetch -lake iceberg,paimon` fetches the lake jars.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/flussql/flussql/fluss/localcluster"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	var err error
	switch os.Args[1] {
	case "up":
		err = up(os.Args[2:])
	case "down":
		err = down(os.Args[2:])
	case "fetch":
		err = fetch(os.Args[2:])
	case "run":
		var code int
		code, err = run(os.Args[2:])
		if err == nil {
			os.Exit(code)
		}
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "fluss-local-cluster:", err)
		os.Exit(1)
	}
}

// fetch makes sure the jars of FLUSS_VERSION (or the pinned release) and of each named version
// are at hand and prints "version<TAB>classpath" for each.
func fetch(args []string) error {
	fs := flag.NewFlagSet("fetch", flag.ExitOnError)
	withFlink := fs.Bool("flink", false, "also fetch Flink "+localcluster.FlinkVersion+" with the Fluss connector (printed as \"flink\")")
	lakes := fs.String("lake", "", "also fetch the lake plugin, Hadoop bundle and tiering service of these lake formats (iceberg,paimon)")
	_ = fs.Parse(args)
	versions := fs.Args()
	for _, name := range strings.Split(*lakes, ",") {
		format, err := localcluster.ParseLakeFormat(name)
		if err != nil {
			return err
		}
		if format == "" {
			continue
		}
		jars, err := localcluster.EnsureLakeJars(context.Background(), format)
		if err != nil {
			return err
		}
		fmt.Printf("lake-%s\t%s\n", format, strings.Join(append(jars.Flink, jars.Tiering), string(os.PathListSeparator)))
	}
	if *withFlink {
		cp, err := localcluster.EnsureFlinkJars(context.Background())
		if err != nil {
			return err
		}
		fmt.Printf("flink-%s\t%s\n", localcluster.FlinkVersion, cp)
	}
	seen := map[string]bool{}
	for _, v := range append([]string{localcluster.Version()}, versions...) {
		if v == "" || seen[v] {
			continue
		}
		seen[v] = true
		cp, err := localcluster.EnsureJars(context.Background(), v)
		if err != nil {
			return err
		}
		fmt.Printf("%s\t%s\n", v, cp)
	}
	return nil
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: fluss-local-cluster up|down|run|fetch [flags] [-- command args…]")
	os.Exit(2)
}

func logf(format string, args ...any) { fmt.Fprintf(os.Stderr, format+"\n", args...) }

// parseSASL parses -sasl: "user:password[,user:password…]". The first user is the one
// `run` exports and, with -authorizer, the super user.
func parseSASL(s string) (map[string]string, string, string, error) {
	if s == "" {
		return nil, "", "", nil
	}
	users := map[string]string{}
	var first, firstPass string
	for _, pair := range strings.Split(s, ",") {
		user, pass, ok := strings.Cut(pair, ":")
		if !ok || user == "" || pass == "" {
			// Never echo the flag: it holds passwords.
			return nil, "", "", fmt.Errorf("-sasl wants user:password[,user:password…]; entry %d is not user:password", len(users)+1)
		}
		if _, dup := users[user]; dup {
			return nil, "", "", fmt.Errorf("-sasl names user %q twice", user)
		}
		users[user] = pass
		if first == "" {
			first, firstPass = user, pass
		}
	}
	return users, first, firstPass, nil
}

// serverOptions is the -server-option flag: server.yaml entries key=value, the last one of a
// key winning.
type serverOptions map[string]string

func (o serverOptions) String() string {
	parts := make([]string, 0, len(o))
	for k, v := range o {
		parts = append(parts, k+"="+v)
	}
	return strings.Join(parts, ",")
}

func (o serverOptions) Set(s string) error {
	k, v, ok := strings.Cut(s, "=")
	k, v = strings.TrimSpace(k), strings.TrimSpace(v)
	if !ok || k == "" || v == "" {
		return fmt.Errorf("want key=value, got %q", s)
	}
	o[k] = v
	return nil
}

// config is the entries for localcluster.Options.ServerConfig, nil without any.
func (o serverOptions) config() map[string]string {
	if len(o) == 0 {
		return nil
	}
	return o
}

// superUsers returns the super users for -authorizer: the first -sasl user.
func superUsers(authorizer bool, first string) ([]string, error) {
	if !authorizer {
		return nil, nil
	}
	if first == "" {
		return nil, errors.New("-authorizer needs -sasl (the first user becomes the super user; the others have no rights until an ACL grants them)")
	}
	return []string{first}, nil
}

func up(args []string) error {
	fs := flag.NewFlagSet("up", flag.ExitOnError)
	statePath := fs.String("state", ".cluster/state.json", "where to record what was started")
	saslFlag := fs.String("sasl", "", "turn SASL/PLAIN on with these users: user:password[,user:password…]")
	authz := fs.Bool("authorizer", false, "turn the authorizer on: the first -sasl user is the super user, the others have no rights until granted (CREATE ACL)")
	tablets := fs.Int("tablet-servers", 1, "number of tablet servers")
	zkSession := fs.Duration("zk-session-timeout", 0, "ZooKeeper session timeout of the servers (0: Fluss's default, 60s)")
	tiering := fs.Bool("log-tiering", false, "tier log segments to the remote data dir within seconds (64 KiB segments, remote log task every second)")
	serverOpts := serverOptions{}
	fs.Var(serverOpts, "server-option", "extra server.yaml entry key=value for every server (repeatable)")
	fl := flinkFlags(fs)
	lakeFlag := fs.String("lake", "", "make the cluster a local lakehouse of this format (iceberg or paimon): warehouse under the run folder; with -flink, Flink runs Fluss's tiering service")
	_ = fs.Parse(args)
	if *tablets < 1 {
		return fmt.Errorf("-tablet-servers wants at least 1, got %d", *tablets)
	}
	lake, err := localcluster.ParseLakeFormat(*lakeFlag)
	if err != nil {
		return err
	}
	if *fl.fluss != "" && !*fl.on {
		return errors.New("-fluss names the cluster for -flink; without -flink there is nothing to start")
	}
	if *fl.on && *fl.fluss != "" {
		if lake != "" {
			return errors.New("-lake with -fluss: the launcher knows the lake only of a cluster it starts (the tiering service needs its warehouse); leave -fluss out")
		}
		return flinkUp(fl, *fl.fluss, nil)
	}
	if old, err := localcluster.LoadState(*statePath); err == nil && old.Running() {
		fmt.Println(old.BootstrapServers)
		logf("a cluster started here is already running (state %s); `make cluster-down` stops it", *statePath)
		if lake != "" && old.LakeFormat != lake {
			return fmt.Errorf("the running cluster (state %s) has lake %q, not %q; stop it first", *statePath, old.LakeFormat, lake)
		}
		if *fl.on {
			return flinkUp(fl, old.BootstrapServers, lakeOf(old))
		}
		return nil
	}
	if lake != "" && !*fl.on {
		logf("-lake without -flink: the cluster creates lake tables, but nothing tiers data into them until a tiering service runs (add -flink)")
	}
	users, first, _, err := parseSASL(*saslFlag)
	if err != nil {
		return err
	}
	supers, err := superUsers(*authz, first)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dirOf(*statePath), 0o755); err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "fluss-local-")
	if err != nil {
		return err
	}
	started := time.Now()
	c, err := localcluster.Start(context.Background(), localcluster.Options{Dir: dir, SASLUsers: users, SuperUsers: supers, Detach: true, Logf: logf,
		TabletServers: *tablets, ZooKeeperSessionTimeout: *zkSession, LogTiering: *tiering, ServerConfig: serverOpts.config(), Lake: lake})
	if err != nil {
		os.RemoveAll(dir)
		return err
	}
	if err := c.SaveState(*statePath); err != nil {
		_ = c.Stop()
		return err
	}
	logf("Fluss %s is up in %s (run folder %s, logs in %s/log); stop it with `make cluster-down`",
		c.Version, time.Since(started).Round(time.Millisecond), c.Dir, c.Dir)
	if c.LakeFormat != "" {
		logf("lakehouse: %s warehouse %s", c.LakeFormat, c.LakeWarehouse)
	}
	fmt.Println(c.BootstrapServers)
	if *fl.on {
		return flinkUp(fl, c.BootstrapServers, lakeOf(c))
	}
	return nil
}

func dirOf(p string) string {
	if i := strings.LastIndexByte(p, '/'); i > 0 {
		return p[:i]
	}
	return "."
}

func down(args []string) error {
	fs := flag.NewFlagSet("down", flag.ExitOnError)
	statePath := fs.String("state", ".cluster/state.json", "the state file `up` wrote")
	flinkState := fs.String("flink-state", ".cluster/flink.json", "the state file `up -flink` wrote; the Flink it names is stopped too")
	flinkOnly := fs.Bool("flink-only", false, "stop only the Flink of -flink-state")
	_ = fs.Parse(args)
	if err := flinkDown(*flinkState, *flinkOnly); err != nil || *flinkOnly {
		return err
	}
	c, err := localcluster.LoadState(*statePath)
	if err != nil {
		return err
	}
	if err := c.Stop(); err != nil {
		return err
	}
	if c.Dir != "" {
		_ = os.RemoveAll(c.Dir)
	}
	logf("stopped the cluster at %s", c.BootstrapServers)
	return os.Remove(*statePath)
}

func run(args []string) (int, error) {
	fs := flag.NewFlagSet("run", flag.ExitOnError)
	saslFlag := fs.String("sasl", "", "also start a SASL/PLAIN cluster with these users: user:password[,user:password…]")
	authz := fs.Bool("authorizer", false, "the SASL cluster authorizes: the first -sasl user is the super user, the others have no rights until granted")
	serverOpts := serverOptions{}
	fs.Var(serverOpts, "server-option", "extra server.yaml entry key=value for every server of every cluster (repeatable)")
	tablets := fs.Int("tablet-servers", 1, "number of tablet servers of the plain cluster")
	withFlink := fs.Bool("flink", false, "also start a local Flink with a SQL Gateway and a Fluss catalog \"fluss\" for the plain cluster; exports FLUSSQL_FLINK_GATEWAY and FLUSSQL_FLINK_REST")
	lakeFlag := fs.String("lake", "", "make the plain cluster a local lakehouse of this format (iceberg or paimon); needs -flink, which runs the tiering service; exports FLUSSQL_LAKE_FORMAT, FLUSSQL_LAKE_WAREHOUSE and FLUSSQL_LAKE_TIERING_JOB")
	_ = fs.Parse(args)
	if *tablets < 1 {
		return 0, fmt.Errorf("-tablet-servers wants at least 1, got %d", *tablets)
	}
	lake, err := localcluster.ParseLakeFormat(*lakeFlag)
	if err != nil {
		return 0, err
	}
	if lake != "" && !*withFlink {
		return 0, errors.New("-lake needs -flink: the tiering service that fills the lake runs on the local Flink")
	}
	cmdArgs := fs.Args()
	if len(cmdArgs) == 0 {
		return 0, errors.New("run needs a command after --")
	}
	users, user, pass, err := parseSASL(*saslFlag)
	if err != nil {
		return 0, err
	}
	supers, err := superUsers(*authz, user)
	if err != nil {
		return 0, err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	var clusters []*localcluster.Cluster
	defer func() {
		for _, c := range clusters {
			if err := c.Stop(); err != nil {
				logf("stopping %s: %v", c.BootstrapServers, err)
			}
		}
	}()
	started := time.Now()
	plain, err := localcluster.Start(ctx, localcluster.Options{Logf: logf, ServerConfig: serverOpts.config(), TabletServers: *tablets, Lake: lake})
	if err != nil {
		return 0, err
	}
	clusters = append(clusters, plain)
	env := append(os.Environ(), "FLUSS_BOOTSTRAP_SERVERS="+plain.BootstrapServers, "FLUSS_SERVER_VERSION="+plain.Version)
	if users != nil {
		sc, err := localcluster.Start(ctx, localcluster.Options{SASLUsers: users, SuperUsers: supers, Logf: logf, ServerConfig: serverOpts.config()})
		if err != nil {
			return 0, err
		}
		clusters = append(clusters, sc)
		env = append(env, "FLUSS_SASL_BOOTSTRAP_SERVERS="+sc.BootstrapServers,
			"FLUSS_SASL_USERNAME="+user, "FLUSS_SASL_PASSWORD="+pass)
		if sc.Authorizer {
			env = append(env, "FLUSS_SASL_AUTHORIZER=1")
		}
	}
	if *withFlink {
		f, err := startFlink(ctx, plain.BootstrapServers, "", false, lakeOf(plain))
		if err != nil {
			return 0, err
		}
		defer func() {
			if err := f.Stop(); err != nil {
				logf("stopping Flink: %v", err)
			}
		}()
		env = append(env, "FLUSSQL_FLINK_GATEWAY="+f.GatewayAddress, "FLUSSQL_FLINK_REST="+f.RESTAddress,
			"FLUSSQL_FLINK_LOG="+filepath.Join(f.Dir, "log"))
		if plain.LakeFormat != "" {
			env = append(env, "FLUSSQL_LAKE_FORMAT="+string(plain.LakeFormat), "FLUSSQL_LAKE_WAREHOUSE="+plain.LakeWarehouse,
				"FLUSSQL_LAKE_TIERING_JOB="+f.TieringJobID)
		}
	}
	logf("clusters ready after %s; running %s", time.Since(started).Round(time.Millisecond), strings.Join(cmdArgs, " "))
	// A 0.9.1 coordinator can get stuck for good (see localcluster.WatchCoordinator): heal
	// it instead of failing every test after that moment.
	watch, stopWatch := context.WithCancel(ctx)
	defer stopWatch()
	for _, c := range clusters {
		go c.WatchCoordinator(watch, time.Second)
	}
	cmd := exec.CommandContext(ctx, cmdArgs[0], cmdArgs[1:]...)
	cmd.Env = env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 10 * time.Second
	err = cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		// What the servers complained about is often the explanation of a failed test
		// run, and the run folders go with the clusters.
		for _, c := range clusters {
			printServerWarnings(c, 30)
		}
		return exit.ExitCode(), nil
	}
	if err != nil {
		return 0, err
	}
	return 0, nil
}

// printServerWarnings prints the last n WARN and ERROR lines of each server log of c.
func printServerWarnings(c *localcluster.Cluster, n int) {
	logs, _ := filepath.Glob(filepath.Join(c.Dir, "log", "*.log"))
	for _, path := range logs {
		data, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		all := strings.Split(string(data), "\n")
		var lines []string
		for _, line := range all {
			if strings.Contains(line, " WARN ") || strings.Contains(line, " ERROR ") {
				lines = append(lines, line)
			}
		}
		if len(lines) == 0 {
			continue
		}
		logf("last %d of %d WARN/ERROR lines of %s (cluster %s):", min(n, len(lines)), len(lines), filepath.Base(path), c.BootstrapServers)
		for _, line := range lines[max(0, len(lines)-n):] {
			fmt.Fprintln(os.Stderr, "  "+line)
		}
		if causes := exceptionSummary(all, 10); len(causes) > 0 {
			logf("exceptions in %s (the stack traces' first and Caused by lines, most frequent first):", filepath.Base(path))
			for _, line := range causes {
				fmt.Fprintln(os.Stderr, "  "+line)
			}
		}
	}
}

// exceptionSummary returns, for the Java stack traces in a server log, their exception
// lines (the line after a WARN/ERROR line that starts a trace, and every "Caused by:"
// line), each once with how often it came, most frequent first, at most n: the WARN and
// ERROR lines alone ("Fail to init kv tablet …") rarely say why.
func exceptionSummary(lines []string, n int) []string {
	count := map[string]int{}
	var order []string
	add := func(s string) {
		s = strings.TrimSpace(s)
		if count[s] == 0 {
			order = append(order, s)
		}
		count[s]++
	}
	for i, line := range lines {
		switch {
		case strings.HasPrefix(line, "Caused by: "):
			add(line)
		case i > 0 && (strings.Contains(lines[i-1], " WARN ") || strings.Contains(lines[i-1], " ERROR ")) &&
			i+1 < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[i+1]), "at ") &&
			line != "" && !strings.HasPrefix(line, "\t") && !strings.HasPrefix(line, " "):
			add(line)
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return count[order[a]] > count[order[b]] })
	out := make([]string, 0, min(n, len(order)))
	for _, s := range order[:min(n, len(order))] {
		out = append(out, fmt.Sprintf("%d× %s", count[s], s))
	}
	return out
}
