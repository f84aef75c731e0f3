package localcluster

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// flinkJavaOpts are the module openings flink-dist's config.yaml puts in env.java.opts.all:
// Flink (Kryo, Pekko, the planner's code generation) and the Fluss client (Netty, Arrow)
// reach into these JDK packages, which Java 17 closes by default.
var flinkJavaOpts = []string{
	"-XX:+IgnoreUnrecognizedVMOptions",
	"--add-exports=java.base/sun.net.util=ALL-UNNAMED",
	"--add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED",
	"--add-exports=jdk.compiler/com.sun.tools.javac.api=ALL-UNNAMED",
	"--add-exports=jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED",
	"--add-exports=jdk.compiler/com.sun.tools.javac.parser=ALL-UNNAMED",
	"--add-exports=jdk.compiler/com.sun.tools.javac.tree=ALL-UNNAMED",
	"--add-exports=jdk.compiler/com.sun.tools.javac.util=ALL-UNNAMED",
	"--add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED",
	"--add-opens=java.base/java.lang=ALL-UNNAMED",
	"--add-opens=java.base/java.net=ALL-UNNAMED",
	"--add-opens=java.base/java.io=ALL-UNNAMED",
	"--add-opens=java.base/java.nio=ALL-UNNAMED",
	"--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
	"--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
	"--add-opens=java.base/java.text=ALL-UNNAMED",
	"--add-opens=java.base/java.time=ALL-UNNAMED",
	"--add-opens=java.base/java.util=ALL-UNNAMED",
	"--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
	"--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
	"--add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED",
	"--add-opens=java.base/java.security=ALL-UNNAMED",
	"--add-opens=java.base/jdk.internal.misc=ALL-UNNAMED",
	"--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED",
}

// flinkPorts are the fixed ports of a local Flink; every other port (blob server, TaskManager
// RPC and data, metrics) is chosen by the kernel (0).
type flinkPorts struct {
	rest, rpc, gateway int
}

// flinkConfig returns the entries of the local Flink's config.yaml: everything on 127.0.0.1,
// small memory that fits a 2-core machine (measured in /work notes: JM heap 256m; TM task heap
// 256m, task off-heap 128m for the Fluss client's Netty and Arrow, managed 128m, network 128m),
// no high availability, and a file catalog store under dir so that a catalog created in one
// gateway session is seen by every later one. extra entries win.
func flinkConfig(dir string, p flinkPorts, slots int, extra map[string]string) map[string]string {
	conf := map[string]string{
		"jobmanager.rpc.address":                "127.0.0.1",
		"jobmanager.rpc.port":                   fmt.Sprint(p.rpc),
		"jobmanager.bind-host":                  "127.0.0.1",
		"jobmanager.memory.heap.size":           "256m",
		"jobmanager.memory.jvm-metaspace.size":  "192m",
		"jobmanager.memory.off-heap.size":       "64m",
		"rest.address":                          "127.0.0.1",
		"rest.bind-address":                     "127.0.0.1",
		"rest.port":                             fmt.Sprint(p.rest),
		"taskmanager.host":                      "127.0.0.1",
		"taskmanager.bind-host":                 "127.0.0.1",
		"taskmanager.numberOfTaskSlots":         fmt.Sprint(slots),
		"taskmanager.memory.task.heap.size":     "256m",
		"taskmanager.memory.task.off-heap.size": "128m",
		"taskmanager.memory.managed.size":       "128m",
		"taskmanager.memory.network.min":        "128m",
		"taskmanager.memory.network.max":        "128m",
		// A batch job's blocking (sort-merge) result partition wants 512 buffers of 32 KiB by
		// default, all a slot's share of 64m: short batch queries in a row then failed with
		// "Insufficient number of network buffers". (Pipelined batch exchanges are no way
		// out: the adaptive batch scheduler refuses them.)
		"taskmanager.network.sort-shuffle.min-buffers": "64",
		"taskmanager.memory.framework.heap.size":       "128m",
		"taskmanager.memory.jvm-metaspace.size":        "192m",
		// A local test cluster on a loaded 2-core machine has no reason to give up soon: a
		// TaskManager missing heartbeats for 50 s (the default) was dropped with the tiering
		// job on it. (Twice at load 15 a JobManager exited during start with "Could not
		// create actor system … Futures timed out after [10000 milliseconds]"; the second
		// time with these settings already, so that 10 s is another timeout, not found yet.)
		"pekko.startup-timeout":                  "60 s",
		"pekko.ask.timeout":                      "60 s",
		"heartbeat.timeout":                      "180 s",
		"parallelism.default":                    "1",
		"high-availability.type":                 "NONE",
		"classloader.check-leaked-classloader":   "false",
		"blob.server.port":                       "0",
		"io.tmp.dirs":                            filepath.Join(dir, "tmp"),
		"web.tmpdir":                             filepath.Join(dir, "tmp"),
		"execution.target":                       "remote",
		"sql-gateway.endpoint.rest.address":      "127.0.0.1",
		"sql-gateway.endpoint.rest.bind-address": "127.0.0.1",
		"sql-gateway.endpoint.rest.port":         fmt.Sprint(p.gateway),
		"table.catalog-store.kind":               "file",
		"table.catalog-store.file.path":          filepath.Join(dir, "catalogs"),
	}
	for k, v := range extra {
		conf[k] = v
	}
	return conf
}

// flinkLog4j sends every Flink process's log to its standard output (the run folder's
// log/<process>.log), INFO and above, the Fluss client's and Pekko's chatter at WARN.
const flinkLog4j = `rootLogger.level = INFO
rootLogger.appenderRef.console.ref = ConsoleAppender
appender.console.name = ConsoleAppender
appender.console.type = CONSOLE
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = %d{yyyy-MM-dd HH:mm:ss,SSS} %-5p %-60c %x - %m%n
logger.pekko.name = org.apache.pekko
logger.pekko.level = WARN
logger.fluss.name = org.apache.fluss
logger.fluss.level = WARN
logger.netty.name = org.apache.flink.shaded.netty4
logger.netty.level = WARN
`

// writeFlinkConfig writes conf/config.yaml (flat keys, one a line, sorted) and
// conf/log4j.properties under dir.
func writeFlinkConfig(dir string, conf map[string]string) error {
	confDir := filepath.Join(dir, "conf")
	keys := make([]string, 0, len(conf))
	for k := range conf {
		if strings.ContainsAny(k+conf[k], "\n#") {
			return fmt.Errorf("localcluster: Flink option %q: keys and values cannot hold newlines or '#'", k)
		}
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString("# Written by flussql's localcluster for a local Flink; not a template.\n")
	for _, k := range keys {
		fmt.Fprintf(&b, "%s: %s\n", k, yamlScalar(conf[k]))
	}
	if err := os.WriteFile(filepath.Join(confDir, "config.yaml"), []byte(b.String()), 0o644); err != nil {
		return fmt.Errorf("localcluster: %w", err)
	}
	if err := os.WriteFile(filepath.Join(confDir, "log4j.properties"), []byte(flinkLog4j), 0o644); err != nil {
		return fmt.Errorf("localcluster: %w", err)
	}
	return nil
}

// yamlScalar quotes a value that YAML would otherwise read as something other than the string
// Flink's parser expects (a colon followed by a space, a leading special character).
func yamlScalar(v string) string {
	if v == "" || strings.Contains(v, ": ") || strings.ContainsAny(v[:1], "{}[]&*!|>'\"%@`,") {
		return "'" + strings.ReplaceAll(v, "'", "''") + "'"
	}
	return v
}
