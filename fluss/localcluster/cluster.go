// Package localcluster runs a real Apache Fluss cluster on loopback without Docker: one
// ZooKeeper, one coordinator and one or more tablet servers, each a JVM started from the
// fluss-server jar that Maven fetches into a cache outside the repository, or, for builds Maven
// Central does not serve (1.0-SNAPSHOT), from a folder beside the repository (ServerDir). Integration tests
// use it from TestMain, `make cluster-up` and `make cluster-down` use it through
// cmd/fluss-local-cluster, and the shell uses it when no DSN is given.
//
// It needs Java 17+ and Maven on the PATH. Only processes it started are ever stopped, by PID.
package localcluster

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/flussql/flussql/fluss/localcluster/relay"
)

// Options configure a local cluster. The zero value runs the pinned version with one tablet
// server and no authentication.
type Options struct {
	// Version is the Fluss release to run; empty means Version() (FLUSS_VERSION or DefaultVersion).
	Version string
	// Dir is the run folder for configuration, data and logs; empty means a fresh temporary
	// folder that Stop removes. A given Dir is kept.
	Dir string
	// TabletServers is the number of tablet servers; 0 means 1.
	TabletServers int
	// SASLUsers, when not empty, turns SASL/PLAIN authentication on for clients: the
	// bootstrap listener then requires one of these user → password pairs.
	SASLUsers map[string]string
	// SuperUsers, when not empty, turns the Fluss authorizer on ("authorizer.enabled") with
	// these SASL users (names in SASLUsers) as "super.users": they may do anything, every
	// other user nothing until an ACL allows it. Needs SASLUsers.
	SuperUsers []string
	// StartTimeout bounds the whole start, jar fetch excluded; 0 means 120 s.
	StartTimeout time.Duration
	// Detach starts the servers in their own session so they outlive this process
	// (for `make cluster-up`); Stop or StopState ends them later.
	Detach bool
	// Logf, when set, receives progress lines.
	Logf func(format string, args ...any)
	// ZooKeeperSessionTimeout, when > 0, is the ZooKeeper session timeout of every server
	// (Fluss "zookeeper.client.session-timeout", default 60 s), and ZooKeeper is configured to
	// grant it. A tablet server that dies without a controlled shutdown (Kill) is noticed by
	// the coordinator only when its session expires, so this bounds how long bucket
	// leadership stays with a dead server. A few seconds suit fault tests (see the README).
	ZooKeeperSessionTimeout time.Duration
	// ServerConfig holds extra server.yaml entries for the coordinator and the tablet servers
	// (Fluss ConfigOptions keys, e.g. KeyReplicaMaxLagTime: "5s"); an entry replaces the one
	// this package would write for the same key. Keys and values cannot contain '#' or
	// newlines.
	ServerConfig map[string]string
	// Relays, when true, puts a fault-injecting loopback relay (package relay) in front of each
	// tablet server: the tablet server advertises the relay's address on its CLIENT listener,
	// so all client traffic to it passes the relay, while the servers replicate among
	// themselves directly on INTERNAL. See Cluster.Relay. Not possible with Detach (the relays
	// live in this process).
	Relays bool
	// LogTiering, when true, makes the tablet servers move log segments to remote storage
	// (Cluster.RemoteDataDir, which every cluster has) within seconds of being written:
	// segments roll at TieringSegmentSize instead of 1 GiB and the remote log task runs every
	// TieringInterval instead of every minute. The active segment is never tiered, and a
	// bucket keeps 'table.log.tiered.local-segments' (default 2) local segments after tiering,
	// so a test writes several segments' worth of rows, and may set that table property to 1.
	// ServerConfig entries for the same keys win.
	LogTiering bool
	// Lake, when set, makes the cluster a lakehouse of that format (see lake.go): the lake
	// plugin and its Hadoop bundle in the plugin folder, 'datalake.*' entries in server.yaml
	// with the warehouse in Cluster.LakeWarehouse. Tables created with
	// 'table.datalake.enabled' = 'true' then get a lake table; a tiering service
	// (Flink.StartTiering) fills it. Only for DefaultVersion, whose lake plugin Maven serves.
	Lake LakeFormat
}

// Cluster is a running local cluster.
type Cluster struct {
	// BootstrapServers is the client address of the coordinator, host:port on 127.0.0.1.
	BootstrapServers string
	// SASL reports whether clients must authenticate with SASL/PLAIN.
	SASL bool
	// Authorizer reports whether the servers check ACLs (Options.SuperUsers).
	Authorizer bool
	// Version is the Fluss release that runs.
	Version string
	// Dir is the run folder.
	Dir string
	// RemoteDataDir is the servers' 'remote.data.dir' (a folder under Dir): tiered log
	// segments live in its subfolder log/{database}/{table}-{table id}/{bucket}/.
	RemoteDataDir string
	// Procs are the started processes, in start order (ZooKeeper first). Restart updates
	// the PID of the process it starts again.
	Procs []Proc
	// LakeFormat is the datalake format of a lakehouse cluster (Options.Lake), "" without.
	LakeFormat LakeFormat
	// LakeWarehouse is the lake's warehouse folder (under Dir): Iceberg's Hadoop catalog
	// keeps table {database}.{table} in {warehouse}/{database}/{table}/ (metadata/, data/),
	// Paimon's filesystem catalog in {warehouse}/{database}.db/{table}/.
	LakeWarehouse string

	ownDir bool
	logf   func(string, ...any)

	// mu guards Procs, restarts and the fault controls.
	mu sync.Mutex
	// specs are the command lines start used, by process name, so Restart can run a
	// process again exactly as before (same id, ports, configuration and data folder).
	specs  map[string]procSpec
	detach bool
	// tablets is the number of tablet servers; clientPorts their client ports by id.
	tablets     int
	clientPorts map[int]int
	zkAddr      string
	// user and password are the SASL credentials the readiness probes use.
	user, password string
	// restarts counts Restart calls per process (names the rotated log files).
	restarts map[string]int
	// relays are the tablet servers' relays by process name (Options.Relays).
	relays map[string]*relay.Relay
}

// procSpec is how one server process is started.
type procSpec struct {
	java string
	args []string
}

// Proc is one server process of the cluster.
type Proc struct {
	Name string `json:"name"` // "zookeeper", "coordinator", "tablet-server-0", …
	PID  int    `json:"pid"`  // its process id
	Log  string `json:"log"`  // path of its log file
}

// Start fetches the jars if needed (see EnsureJars for where each version comes from) and starts ZooKeeper, the coordinator and the tablet
// servers on free loopback ports, then waits until the coordinator has seen every tablet
// server register. On failure it stops what it started and returns an error that carries
// the tail of the servers' logs.
func Start(ctx context.Context, opts Options) (*Cluster, error) { return startAttempt(ctx, opts, 1) }

// maxStartAttempts bounds the starts of one Start: the ports are chosen free, but another
// process (another cluster starting beside this one) may bind one of them before the server
// does, which then exits with "Address already in use"; the cluster is started again on new
// ports.
const maxStartAttempts = 3

func startAttempt(ctx context.Context, opts Options, attempt int) (*Cluster, error) {
	version := opts.Version
	if version == "" {
		version = Version()
	}
	logf := opts.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	java, err := findJava()
	if err != nil {
		return nil, err
	}
	classpath, err := EnsureJars(withFetchLog(ctx, logf), version)
	if err != nil {
		return nil, err
	}
	if opts.Lake != "" {
		// Fetched here, outside StartTimeout; setUpLake finds them in the cache.
		if version != DefaultVersion {
			return nil, fmt.Errorf("localcluster: a lake needs the lake plugin of the server's release, and Maven Central serves it for %s only (this cluster would run %s); unset FLUSS_VERSION or leave the lake out", DefaultVersion, version)
		}
		if _, err := EnsureLakeJars(withFetchLog(ctx, logf), opts.Lake); err != nil {
			return nil, err
		}
	}
	if opts.Relays && opts.Detach {
		return nil, errors.New("localcluster: Relays cannot be used with Detach (the relays run in this process)")
	}
	c := &Cluster{Version: version, SASL: len(opts.SASLUsers) > 0, logf: logf,
		specs: map[string]procSpec{}, detach: opts.Detach, clientPorts: map[int]int{}, restarts: map[string]int{}}
	for _, u := range sortedUsers(opts.SASLUsers) {
		c.user, c.password = u, opts.SASLUsers[u]
		break
	}
	if len(opts.SuperUsers) > 0 {
		if len(opts.SASLUsers) == 0 {
			return nil, errors.New("localcluster: SuperUsers (the authorizer) needs SASLUsers: without authentication every client is User:ANONYMOUS")
		}
		for _, u := range opts.SuperUsers {
			if _, ok := opts.SASLUsers[u]; !ok {
				return nil, fmt.Errorf("localcluster: super user %q is not one of the SASL users", u)
			}
		}
		// The readiness probes must see every tablet server: they run as a super user.
		c.user, c.password = opts.SuperUsers[0], opts.SASLUsers[opts.SuperUsers[0]]
		c.Authorizer = true
	}
	if opts.Dir == "" {
		dir, err := os.MkdirTemp("", "fluss-local-")
		if err != nil {
			return nil, fmt.Errorf("localcluster: %w", err)
		}
		c.Dir, c.ownDir = dir, true
	} else {
		c.Dir = opts.Dir
	}
	timeout := opts.StartTimeout
	if timeout == 0 {
		timeout = 120 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if err := c.start(ctx, java, classpath, opts); err != nil {
		logs := c.logTails(60)
		_ = c.Stop()
		if attempt < maxStartAttempts && c.ownDir && ctx.Err() == nil && strings.Contains(logs, "Address already in use") {
			logf("localcluster: a port chosen for the cluster was taken by another process before its server bound it; starting again on new ports (attempt %d of %d)", attempt+1, maxStartAttempts)
			return startAttempt(ctx, opts, attempt+1)
		}
		return nil, fmt.Errorf("%w\n%s", err, logs)
	}
	return c, nil
}

func (c *Cluster) start(ctx context.Context, java, cp string, opts Options) error {
	n := opts.TabletServers
	if n <= 0 {
		n = 1
	}
	c.tablets = n
	for _, sub := range []string{"conf", "zk", "remote", "tmp", "plugins", "log"} {
		if err := os.MkdirAll(filepath.Join(c.Dir, sub), 0o755); err != nil {
			return fmt.Errorf("localcluster: %w", err)
		}
	}
	extra := opts.ServerConfig
	if opts.Lake != "" {
		lake, err := c.setUpLake(ctx, opts.Lake)
		if err != nil {
			return err
		}
		for k, v := range opts.ServerConfig { // ServerConfig wins
			lake[k] = v
		}
		extra = lake
	}
	ports, err := pickPorts(3 + 2*n)
	if err != nil {
		return err
	}
	zkPort, csPort, csInternalPort := ports[0], ports[1], ports[2]
	c.BootstrapServers = fmt.Sprintf("127.0.0.1:%d", csPort)
	c.zkAddr = fmt.Sprintf("127.0.0.1:%d", zkPort)
	c.RemoteDataDir = filepath.Join(c.Dir, "remote")
	split := c.SASL || opts.Relays
	if err := writeConfigs(c.Dir, configSpec{
		zkPort: zkPort, csPort: csPort, csInternalPort: csInternalPort, sasl: opts.SASLUsers, superUsers: opts.SuperUsers,
		split: split, zkSessionTimeout: opts.ZooKeeperSessionTimeout, extra: extra, tiering: opts.LogTiering,
	}); err != nil {
		return err
	}
	jvm := []string{
		"-XX:+IgnoreUnrecognizedVMOptions",
		"--add-opens=java.base/java.nio=org.apache.arrow.memory.core,ALL-UNNAMED",
		"--add-opens=java.base/java.nio=ALL-UNNAMED",
		"-Djava.io.tmpdir=" + filepath.Join(c.Dir, "tmp"),
		"-Dlog4j.configurationFile=file:" + filepath.Join(c.Dir, "conf", "log4j2.properties"),
	}
	start := time.Now()

	zkArgs := append([]string{"-Xmx256m"}, jvm...)
	zkArgs = append(zkArgs, "-cp", cp, zkMainClass, filepath.Join(c.Dir, "conf", "zookeeper.properties"))
	if err := c.spawn(java, "zookeeper", zkArgs); err != nil {
		return err
	}
	if err := waitZooKeeper(ctx, c.zkAddr); err != nil {
		return err
	}
	c.logf("localcluster: ZooKeeper up on 127.0.0.1:%d after %s", zkPort, time.Since(start).Round(time.Millisecond))

	csArgs := append([]string{"-Xms128m", "-Xmx768m"}, jvm...)
	csArgs = append(csArgs, "-cp", cp, coordinatorMainClass, "--configDir", filepath.Join(c.Dir, "conf"))
	if err := c.spawn(java, "coordinator", csArgs); err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		data := filepath.Join(c.Dir, "data", fmt.Sprintf("ts%d", i))
		if err := os.MkdirAll(data, 0o755); err != nil {
			return fmt.Errorf("localcluster: %w", err)
		}
		tsArgs := append([]string{"-Xms128m", "-Xmx1g", "-XX:+UseG1GC"}, jvm...)
		tsArgs = append(tsArgs, "-cp", cp, tabletMainClass, "--configDir", filepath.Join(c.Dir, "conf"),
			"-Dbind.listeners="+tabletListeners(ports[3+2*i], ports[4+2*i], split),
			fmt.Sprintf("-Dtablet-server.id=%d", i),
			"-Ddata.dir="+data)
		c.clientPorts[i] = ports[3+2*i]
		if opts.Relays {
			r, err := relay.Start(fmt.Sprintf("127.0.0.1:%d", ports[3+2*i]))
			if err != nil {
				return fmt.Errorf("localcluster: %w", err)
			}
			c.mu.Lock()
			if c.relays == nil {
				c.relays = map[string]*relay.Relay{}
			}
			c.relays[tabletName(i)] = r
			c.mu.Unlock()
			// advertised.listeners replaces the address of the listener with the same name
			// (Endpoint.loadAdvertisedEndpoints); INTERNAL stays direct for replication.
			tsArgs = append(tsArgs, "-Dadvertised.listeners=CLIENT://"+r.Addr())
		}
		if err := c.spawn(java, tabletName(i), tsArgs); err != nil {
			return err
		}
	}
	// Readiness from the logs: the coordinator is registered as leader and every tablet
	// server has registered itself. (The coordinator's port opens before it registers in
	// ZooKeeper, so a TCP check is not enough; and a tablet server that registers before the
	// coordinator's event loop starts is loaded at start-up without a "New tablet server
	// callback" line, so that line cannot be waited for.) Then the authoritative check: a
	// metadata answer that lists every tablet server.
	if err := c.waitLog(ctx, "coordinator", coordinatorReadyLine, true); err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		if err := c.waitLog(ctx, tabletName(i), tabletReadyLine(i), true); err != nil {
			return err
		}
	}
	if err := c.waitMetadata(ctx, n); err != nil {
		return err
	}
	c.logf("localcluster: Fluss %s coordinator on %s with %d tablet server(s) after %s",
		c.Version, c.BootstrapServers, n, time.Since(start).Round(time.Millisecond))
	return nil
}

// Main classes in the fat fluss-server jar (ZooKeeper is the shaded one it carries).
const (
	zkMainClass          = "org.apache.fluss.shaded.zookeeper3.org.apache.zookeeper.server.quorum.QuorumPeerMain"
	coordinatorMainClass = "org.apache.fluss.server.coordinator.CoordinatorServer"
	tabletMainClass      = "org.apache.fluss.server.tablet.TabletServer"
)

// Readiness lines in the server logs (ZooKeeperClient). The coordinator's changed in 1.0:
// 0.9.1 logs "Registered leader <addr> at path /coordinators/active.", 1.0 "Registered
// Coordinator leader CoordinatorAddress{…} at path /coordinators/active."; the tail matches both.
const coordinatorReadyLine = "at path /coordinators/active"

func tabletReadyLine(id int) string { return fmt.Sprintf("Registered tablet server %d at path", id) }

// tabletName is the process name of tablet server id.
func tabletName(id int) string { return fmt.Sprintf("tablet-server-%d", id) }

// spawn starts one JVM with its output in log/<name>.log, records its PID and remembers its
// command line for Restart.
func (c *Cluster) spawn(java, name string, args []string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.specs[name] = procSpec{java: java, args: args}
	pid, logPath, err := c.startProc(name)
	if err != nil {
		return err
	}
	c.Procs = append(c.Procs, Proc{Name: name, PID: pid, Log: logPath})
	return nil
}

// startProc runs the remembered command line of name with a fresh log file; c.mu is held.
func (c *Cluster) startProc(name string) (int, string, error) {
	spec := c.specs[name]
	java, args, detach := spec.java, spec.args, c.detach
	logPath := filepath.Join(c.Dir, "log", name+".log")
	// O_APPEND: the JVM's writes go to the end even when someone else appends too (the
	// watchdog test does); without it the JVM's own offset overwrites those lines.
	f, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_TRUNC|os.O_APPEND, 0o644)
	if err != nil {
		return 0, "", fmt.Errorf("localcluster: %w", err)
	}
	defer f.Close()
	cmd := exec.Command(java, args...)
	cmd.Dir = c.Dir
	cmd.Stdout, cmd.Stderr = f, f
	cmd.Env = append(os.Environ(), "FLUSS_PLUGINS_DIR="+filepath.Join(c.Dir, "plugins"))
	// Each server gets its own process group so a Ctrl-C in the terminal reaches only us,
	// and we stop the servers in order; Detach also gives it its own session.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: !detach, Setsid: detach}
	if err := cmd.Start(); err != nil {
		return 0, "", fmt.Errorf("localcluster: start %s: %w", name, err)
	}
	// Reap the child when it exits so it does not linger as a zombie.
	go func() { _ = cmd.Wait() }()
	return cmd.Process.Pid, logPath, nil
}

// Stop ends the servers by PID in reverse start order (tablet servers first, so their
// controlled shutdown can reach the coordinator), waiting up to 30 s for each before
// killing it, and removes the run folder if Start created it.
func (c *Cluster) Stop() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	var errs []error
	for i := len(c.Procs) - 1; i >= 0; i-- {
		if err := stopPID(c.Procs[i].PID, c.Dir, 30*time.Second); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", c.Procs[i].Name, err))
		}
	}
	c.Procs = nil
	for _, name := range sortedKeys(c.relays) {
		if err := c.relays[name].Close(); err != nil {
			errs = append(errs, fmt.Errorf("relay of %s: %w", name, err))
		}
	}
	c.relays = nil
	if c.ownDir && c.Dir != "" {
		if err := os.RemoveAll(c.Dir); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// stopPID sends SIGTERM to pid if it is still one of ours (its command line names the run
// folder), waits for it to exit, and sends SIGKILL after the grace period.
func stopPID(pid int, dir string, grace time.Duration) error {
	if !ours(pid, dir) {
		return nil // already gone, or the PID now belongs to someone else
	}
	if err := syscall.Kill(pid, syscall.SIGTERM); err != nil {
		if errors.Is(err, syscall.ESRCH) {
			return nil
		}
		return err
	}
	// A paused process (Pause) handles SIGTERM only once it runs again.
	_ = syscall.Kill(pid, syscall.SIGCONT)
	deadline := time.Now().Add(grace)
	for time.Now().Before(deadline) {
		if !alive(pid) {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
		return err
	}
	for i := 0; i < 50 && alive(pid); i++ {
		time.Sleep(100 * time.Millisecond)
	}
	return nil
}

// alive reports whether pid names a live process (a zombie counts as gone).
func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// The state letter follows the ")" that closes the command name.
	s := string(b)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2] != 'Z'
	}
	return true
}

// ours reports whether pid is a live process whose command line mentions dir.
func ours(pid int, dir string) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil {
		return false
	}
	return alive(pid) && strings.Contains(string(b), dir)
}

// pickPorts chooses a cluster's ports (freePorts; tests replace it).
var pickPorts = freePorts

// freePorts asks the kernel for n distinct free loopback ports.
func freePorts(n int) ([]int, error) {
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	ports := make([]int, 0, n)
	for i := 0; i < n; i++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("localcluster: no free loopback port: %w", err)
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

// waitZooKeeper polls the four-letter word "srvr" until ZooKeeper says it serves.
func waitZooKeeper(ctx context.Context, addr string) error {
	for {
		if zkServing(addr) {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("localcluster: ZooKeeper on %s did not come up: %w", addr, ctx.Err())
		case <-time.After(200 * time.Millisecond):
		}
	}
}

func zkServing(addr string) bool {
	conn, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return false
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(2 * time.Second))
	if _, err := conn.Write([]byte("srvr")); err != nil {
		return false
	}
	b, _ := io.ReadAll(conn)
	return strings.Contains(string(b), "Mode: standalone")
}

// waitLog waits until the named process's log holds the wanted line, failing early if the
// process exits (with all, if any process of the cluster exits).
func (c *Cluster) waitLog(ctx context.Context, name, want string, all bool) error {
	for {
		proc, _ := c.proc(name)
		b, _ := os.ReadFile(proc.Log)
		if strings.Contains(string(b), want) {
			return nil
		}
		c.mu.Lock()
		procs := append([]Proc(nil), c.Procs...)
		c.mu.Unlock()
		for _, p := range procs {
			if (all || p.Name == name) && !alive(p.PID) {
				return fmt.Errorf("localcluster: %s (pid %d) exited during start", p.Name, p.PID)
			}
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("localcluster: %s log never showed %q: %w", name, want, ctx.Err())
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// logTails returns the last lines of every server log, for error messages.
func (c *Cluster) logTails(lines int) string {
	c.mu.Lock()
	procs := append([]Proc(nil), c.Procs...)
	c.mu.Unlock()
	var b strings.Builder
	for _, p := range procs {
		fmt.Fprintf(&b, "---- %s (%s), last %d lines ----\n", p.Name, p.Log, lines)
		b.WriteString(lastLines(p.Log, lines))
	}
	return b.String()
}

func lastLines(path string, n int) string {
	f, err := os.Open(path)
	if err != nil {
		return err.Error() + "\n"
	}
	defer f.Close()
	var ring []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		ring = append(ring, sc.Text())
		if len(ring) > n {
			ring = ring[1:]
		}
	}
	return strings.Join(ring, "\n") + "\n"
}

// findJava returns the java binary: $JAVA_HOME/bin/java, else java on the PATH.
func findJava() (string, error) {
	if home := os.Getenv("JAVA_HOME"); home != "" {
		p := filepath.Join(home, "bin", "java")
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	p, err := exec.LookPath("java")
	if err != nil {
		return "", fmt.Errorf("localcluster: Java 17+ is needed to run the Fluss server; install it (e.g. apt-get install openjdk-17-jre-headless) or set JAVA_HOME: %w", err)
	}
	return p, nil
}

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// sortedUsers returns the SASL user names in a stable order.
func sortedUsers(m map[string]string) []string {
	users := make([]string, 0, len(m))
	for u := range m {
		users = append(users, u)
	}
	sort.Strings(users)
	return users
}
