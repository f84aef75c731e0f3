package localcluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// FlinkOptions configure a local Flink. The zero value starts one with 4 task slots in a
// fresh temporary run folder.
type FlinkOptions struct {
	// Dir is the run folder for configuration, catalogs, temporary files and logs; empty
	// means a fresh temporary folder that Stop removes. A given Dir is kept.
	Dir string
	// Slots is the TaskManager's number of task slots; 0 means 4. Every running streaming
	// SELECT holds one.
	Slots int
	// Config holds extra config.yaml entries (Flink option keys); an entry replaces the one
	// this package would write for the same key.
	Config map[string]string
	// StartTimeout bounds the whole start, jar fetch excluded; 0 means 120 s.
	StartTimeout time.Duration
	// Detach starts the processes in their own session so they outlive this process
	// (`make flink-up`); Stop or LoadFlinkState(…).Stop ends them later.
	Detach bool
	// Logf, when set, receives progress lines.
	Logf func(format string, args ...any)
	// ExtraJars are put on the JobManager's and TaskManager's classpath after Flink's own
	// (what flink-dist's lib/ would hold besides): the lake plugin and Hadoop bundle for the
	// tiering service (LakeJars.Flink).
	ExtraJars []string
}

// Flink is a running local Flink: a standalone session cluster (one JobManager, one
// TaskManager) and a SQL Gateway that submits its jobs to it.
type Flink struct {
	// RESTAddress is the JobManager's REST endpoint (web UI and job API), host:port.
	RESTAddress string `json:"rest_address"`
	// GatewayAddress is the SQL Gateway's REST endpoint, host:port.
	GatewayAddress string `json:"gateway_address"`
	// Dir is the run folder; its conf/ holds config.yaml, its log/ the process logs.
	Dir string `json:"dir"`
	// Procs are the started processes: jobmanager, taskmanager, sql-gateway.
	Procs []Proc `json:"procs"`
	// OwnDir reports whether Stop removes Dir.
	OwnDir bool `json:"own_dir"`
	// Catalogs maps the names of the Fluss catalogs CreateFlussCatalog made to their
	// bootstrap address.
	Catalogs map[string]string `json:"catalogs,omitempty"`
	// TieringJobID is the Flink job id of Fluss's tiering service (StartTiering), "" when
	// none was started.
	TieringJobID string `json:"tiering_job_id,omitempty"`
	// TieringFormat is the lake format the tiering service writes.
	TieringFormat LakeFormat `json:"tiering_format,omitempty"`
}

// StartFlink fetches Flink's jars if needed (EnsureFlinkJars) and starts a JobManager, a
// TaskManager and a SQL Gateway on free loopback ports, with the configuration in the run
// folder (conf/config.yaml), then waits until the JobManager answers, the TaskManager has
// registered with it and the gateway answers. On failure it stops what it started and returns
// an error that carries the tail of the logs.
func StartFlink(ctx context.Context, opts FlinkOptions) (*Flink, error) {
	logf := opts.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	java, err := findJava()
	if err != nil {
		return nil, err
	}
	cp, err := EnsureFlinkJars(ctx)
	if err != nil {
		return nil, err
	}
	for _, jar := range opts.ExtraJars {
		cp += string(os.PathListSeparator) + jar
	}
	f := &Flink{Dir: opts.Dir}
	if f.Dir == "" {
		if f.Dir, err = os.MkdirTemp("", "flink-local-"); err != nil {
			return nil, fmt.Errorf("localcluster: %w", err)
		}
		f.OwnDir = true
	}
	timeout := opts.StartTimeout
	if timeout == 0 {
		timeout = 120 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if err := f.start(ctx, java, cp, opts, logf); err != nil {
		logs := f.logTails(40)
		_ = f.Stop()
		return nil, fmt.Errorf("%w\n%s", err, logs)
	}
	return f, nil
}

func (f *Flink) start(ctx context.Context, java, cp string, opts FlinkOptions, logf func(string, ...any)) error {
	for _, sub := range []string{"conf", "tmp", "log", "catalogs"} {
		if err := os.MkdirAll(filepath.Join(f.Dir, sub), 0o755); err != nil {
			return fmt.Errorf("localcluster: %w", err)
		}
	}
	ports, err := pickPorts(3)
	if err != nil {
		return err
	}
	p := flinkPorts{rest: ports[0], rpc: ports[1], gateway: ports[2]}
	slots := opts.Slots
	if slots <= 0 {
		slots = 4
	}
	if err := writeFlinkConfig(f.Dir, flinkConfig(f.Dir, p, slots, opts.Config)); err != nil {
		return err
	}
	f.RESTAddress = fmt.Sprintf("127.0.0.1:%d", p.rest)
	f.GatewayAddress = fmt.Sprintf("127.0.0.1:%d", p.gateway)
	confDir := filepath.Join(f.Dir, "conf")
	common := append(append([]string(nil), flinkJavaOpts...),
		"-Djava.io.tmpdir="+filepath.Join(f.Dir, "tmp"),
		"-Dlog4j.configurationFile=file:"+filepath.Join(confDir, "log4j.properties"),
		"-Dlog4j2.formatMsgNoLookups=true")
	start := time.Now()

	// The JobManager's and TaskManager's memory options are resolved the way flink-dist's
	// scripts do it (BashJavaUtils), both at once; the TaskManager refuses to start without.
	var jmRes, tmRes [2][]string
	var jmErr, tmErr error
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		jmRes, jmErr = flinkResourceParams(ctx, java, cp, confDir, "GET_JM_RESOURCE_PARAMS")
	}()
	go func() {
		defer wg.Done()
		tmRes, tmErr = flinkResourceParams(ctx, java, cp, confDir, "GET_TM_RESOURCE_PARAMS")
	}()
	wg.Wait()
	if err := errors.Join(jmErr, tmErr); err != nil {
		return err
	}
	jm := append(append(append([]string(nil), jmRes[0]...), common...), "-cp", cp,
		"org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint",
		"--configDir", confDir, "--executionMode", "cluster")
	if err := f.spawn(java, "jobmanager", append(jm, jmRes[1]...), opts.Detach); err != nil {
		return err
	}
	tm := append(append(append([]string(nil), tmRes[0]...), common...), "-cp", cp,
		"org.apache.flink.runtime.taskexecutor.TaskManagerRunner", "--configDir", confDir)
	if err := f.spawn(java, "taskmanager", append(tm, tmRes[1]...), opts.Detach); err != nil {
		return err
	}
	gw := append(append([]string{"-Xmx384m", "-Xms64m"}, common...), "-cp", cp, "org.apache.flink.table.gateway.SqlGateway")
	if err := f.spawn(java, "sql-gateway", gw, opts.Detach); err != nil {
		return err
	}
	if err := f.waitHTTP(ctx, "http://"+f.RESTAddress+"/overview", "the JobManager with a TaskManager", func(body []byte) bool {
		var o struct {
			TaskManagers int `json:"taskmanagers"`
		}
		return json.Unmarshal(body, &o) == nil && o.TaskManagers >= 1
	}); err != nil {
		return err
	}
	if err := f.waitHTTP(ctx, "http://"+f.GatewayAddress+"/v1/info", "the SQL Gateway", func(body []byte) bool {
		return strings.Contains(string(body), "productName")
	}); err != nil {
		return err
	}
	logf("localcluster: Flink %s up after %s: JobManager REST on %s, SQL Gateway on %s (%.0f MiB resident)",
		FlinkVersion, time.Since(start).Round(time.Millisecond), f.RESTAddress, f.GatewayAddress, float64(f.RSS())/(1<<20))
	return nil
}

// resultMarker starts the lines BashJavaUtils prints for the scripts: the JVM flags, then
// the dynamic (-D) options.
const resultMarker = "BASH_JAVA_UTILS_EXEC_RESULT:"

// flinkResourceParams runs BashJavaUtils cmd (GET_JM_RESOURCE_PARAMS or
// GET_TM_RESOURCE_PARAMS) on the configuration and returns its two result lines split into
// arguments: the JVM memory flags and the -D options that pin every memory size.
func flinkResourceParams(ctx context.Context, java, cp, confDir, cmd string) ([2][]string, error) {
	var res [2][]string
	out, err := exec.CommandContext(ctx, java, "-Xmx128m", "-cp", cp,
		"org.apache.flink.runtime.util.bash.BashJavaUtils", cmd, "--configDir", confDir).CombinedOutput()
	if err != nil {
		return res, fmt.Errorf("localcluster: Flink's BashJavaUtils %s failed: %w\n%s", cmd, err, tail(string(out), 3000))
	}
	res, ok := parseResourceParams(string(out))
	if !ok {
		return res, fmt.Errorf("localcluster: Flink's BashJavaUtils %s printed fewer than 2 result lines:\n%s", cmd, tail(string(out), 3000))
	}
	return res, nil
}

// parseResourceParams picks BashJavaUtils' last two result lines out of its output (which
// also holds its log lines) and splits them into arguments.
func parseResourceParams(out string) ([2][]string, bool) {
	var res [2][]string
	var lines []string
	for _, line := range strings.Split(out, "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), resultMarker); ok {
			lines = append(lines, rest)
		}
	}
	if len(lines) < 2 {
		return res, false
	}
	res[0] = strings.Fields(lines[len(lines)-2])
	res[1] = strings.Fields(lines[len(lines)-1])
	return res, true
}

// spawn starts one JVM with its output in log/<name>.log and records its PID.
func (f *Flink) spawn(java, name string, args []string, detach bool) error {
	logPath := filepath.Join(f.Dir, "log", name+".log")
	out, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_TRUNC|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("localcluster: %w", err)
	}
	defer out.Close()
	cmd := exec.Command(java, args...)
	cmd.Dir = f.Dir
	cmd.Stdout, cmd.Stderr = out, out
	cmd.Env = append(os.Environ(), "FLINK_CONF_DIR="+filepath.Join(f.Dir, "conf"))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: !detach, Setsid: detach}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("localcluster: start Flink %s: %w", name, err)
	}
	go func() { _ = cmd.Wait() }()
	f.Procs = append(f.Procs, Proc{Name: name, PID: cmd.Process.Pid, Log: logPath})
	return nil
}

// waitHTTP polls url every 200 ms until ready accepts a 200 answer's body, failing early when
// one of the processes exits.
func (f *Flink) waitHTTP(ctx context.Context, url, what string, ready func([]byte) bool) error {
	client := &http.Client{Timeout: 2 * time.Second}
	var last string
	for {
		if resp, err := client.Get(url); err == nil {
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK && ready(body) {
				return nil
			}
			last = fmt.Sprintf("HTTP %d: %s", resp.StatusCode, tail(string(body), 200))
		} else {
			last = err.Error()
		}
		for _, p := range f.Procs {
			if !alive(p.PID) {
				return fmt.Errorf("localcluster: Flink %s (pid %d) exited during start", p.Name, p.PID)
			}
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("localcluster: %s never became ready at %s (last: %s): %w", what, url, last, ctx.Err())
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// Stop ends the gateway, the TaskManager and the JobManager by PID (each gets 20 s after
// SIGTERM before SIGKILL) and removes the run folder if StartFlink created it.
func (f *Flink) Stop() error {
	var errs []error
	for i := len(f.Procs) - 1; i >= 0; i-- {
		if err := stopPID(f.Procs[i].PID, f.Dir, 20*time.Second); err != nil {
			errs = append(errs, fmt.Errorf("Flink %s: %w", f.Procs[i].Name, err))
		}
	}
	f.Procs = nil
	if f.OwnDir && f.Dir != "" {
		if err := os.RemoveAll(f.Dir); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Running reports whether every Flink process is still alive.
func (f *Flink) Running() bool {
	if len(f.Procs) == 0 {
		return false
	}
	for _, p := range f.Procs {
		if !ours(p.PID, f.Dir) {
			return false
		}
	}
	return true
}

// RSS returns the resident memory of the Flink processes together, in bytes (0 for a
// process that is gone).
func (f *Flink) RSS() int64 {
	var sum int64
	for _, p := range f.Procs {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p.PID))
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(b), "\n") {
			if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
				fs := strings.Fields(rest)
				if len(fs) > 0 {
					kb, _ := strconv.ParseInt(fs[0], 10, 64)
					sum += kb << 10
				}
			}
		}
	}
	return sum
}

// SaveState writes the Flink's addresses, run folder and PIDs to path.
func (f *Flink) SaveState(path string) error {
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// LoadFlinkState reads a state file written by SaveState. The returned Flink can be stopped.
func LoadFlinkState(path string) (*Flink, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("localcluster: no state file %s: no Flink was started with flink-up here", path)
		}
		return nil, err
	}
	var f Flink
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("localcluster: state file %s is damaged: %w", path, err)
	}
	return &f, nil
}

// logTails returns the last lines of every Flink log, for error messages.
func (f *Flink) logTails(lines int) string {
	var b strings.Builder
	for _, p := range f.Procs {
		fmt.Fprintf(&b, "---- Flink %s (%s), last %d lines ----\n", p.Name, p.Log, lines)
		b.WriteString(lastLines(p.Log, lines))
	}
	return b.String()
}
