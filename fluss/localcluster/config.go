package localcluster

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// configSpec is what writeConfigs needs to know about the cluster.
type configSpec struct {
	zkPort, csPort, csInternalPort int
	sasl                           map[string]string
	// superUsers, when not empty, turns the authorizer on with these SASL users as super users.
	superUsers []string
	// split puts the servers on two listeners, INTERNAL for each other and CLIENT for clients
	// (SASL mode, and relay mode, where tablet servers advertise a relay as CLIENT address).
	split bool
	// zkSessionTimeout, when > 0, is the servers' ZooKeeper session timeout; ZooKeeper is then
	// told to accept it and to check sessions often enough to expire them on time.
	zkSessionTimeout time.Duration
	// extra holds additional server.yaml entries; they replace ours with the same key.
	extra map[string]string
	// tiering makes log segments small and the remote log task frequent (Options.LogTiering).
	tiering bool
}

// Keys of the Fluss server configuration this package sets (ConfigOptions in Fluss 0.9.1).
const (
	// KeyZooKeeperSessionTimeout is ConfigOptions.ZOOKEEPER_SESSION_TIMEOUT (default 60 s).
	KeyZooKeeperSessionTimeout = "zookeeper.client.session-timeout"
	// KeyReplicaMaxLagTime is ConfigOptions.LOG_REPLICA_MAX_LAG_TIME (default 30 s): a follower
	// that has not fetched, or not caught up with the leader's log end, for this long is removed
	// from the ISR by the leader.
	KeyReplicaMaxLagTime = "log.replica.max-lag-time"
	// KeyMinInSyncReplicas is ConfigOptions.LOG_REPLICA_MIN_IN_SYNC_REPLICAS_NUMBER (default
	// 1): an acks=all write is acknowledged only while at least this many replicas are in
	// sync, else refused with NOT_ENOUGH_REPLICAS. At 1, a write acknowledged while the ISR
	// had shrunk to the leader alone is lost if that leader dies before a follower caught up.
	KeyMinInSyncReplicas = "log.replica.min-in-sync-replicas-number"
	// KeyRemoteDataDir is ConfigOptions.REMOTE_DATA_DIR: where tablet servers keep tiered log
	// segments (and KV snapshots). Every cluster of this package has one, under its run folder.
	KeyRemoteDataDir = "remote.data.dir"
	// KeyLogSegmentFileSize is ConfigOptions.LOG_SEGMENT_FILE_SIZE (default 1024m): the size at
	// which a bucket's active log segment rolls; only rolled segments are tiered.
	KeyLogSegmentFileSize = "log.segment.file-size"
	// KeyRemoteLogTaskInterval is ConfigOptions.REMOTE_LOG_TASK_INTERVAL_DURATION (default 1
	// min): how often a tablet server copies rolled segments to remote storage and deletes
	// local ones; 0 turns tiering off.
	KeyRemoteLogTaskInterval = "remote.log.task-interval-duration"
)

// What Options.LogTiering sets.
const (
	// TieringSegmentSize is the log segment size of a LogTiering cluster.
	TieringSegmentSize = "64kb"
	// TieringInterval is the remote log task interval of a LogTiering cluster.
	TieringInterval = time.Second
)

// writeConfigs writes zookeeper.properties, server.yaml (shared by the coordinator and the
// tablet servers, which override their listeners, id and data folder on the command line)
// and log4j2.properties into dir/conf.
func writeConfigs(dir string, s configSpec) error {
	conf := filepath.Join(dir, "conf")
	var zk strings.Builder
	fmt.Fprintf(&zk, `dataDir=%s
clientPort=%d
clientPortAddress=127.0.0.1
maxClientCnxns=0
admin.enableServer=false
4lw.commands.whitelist=srvr,ruok
`, filepath.Join(dir, "zk"), s.zkPort)
	if s.zkSessionTimeout > 0 {
		// ZooKeeper clamps a client's session timeout to [minSessionTimeout, maxSessionTimeout]
		// (2 and 20 ticks by default, tickTime 3000 ms) and expires sessions on tick boundaries,
		// so a short timeout needs a short tick and explicit bounds.
		ms := s.zkSessionTimeout.Milliseconds()
		tick := min(max(ms/4, 100), 2000)
		fmt.Fprintf(&zk, "tickTime=%d\nminSessionTimeout=%d\nmaxSessionTimeout=%d\n", tick, min(ms, 2*tick), max(ms, 60000))
	}

	entries := map[string]string{
		"zookeeper.address": fmt.Sprintf("127.0.0.1:%d", s.zkPort),
		KeyRemoteDataDir:    filepath.Join(dir, "remote"),
		// The coordinator reads these two although it stores no data; tablet servers override them.
		"data.dir":                         filepath.Join(dir, "data", "coordinator"),
		"tablet-server.id":                 "0",
		"default.bucket.number":            "1",
		"default.replication.factor":       "1",
		"netty.server.num-network-threads": "1",
		"netty.server.num-worker-threads":  "3",
	}
	order := []string{"zookeeper.address", "remote.data.dir", "data.dir", "tablet-server.id",
		"default.bucket.number", "default.replication.factor", "netty.server.num-network-threads",
		"netty.server.num-worker-threads"}
	add := func(k, v string) {
		if _, ok := entries[k]; !ok {
			order = append(order, k)
		}
		entries[k] = v
	}
	if s.zkSessionTimeout > 0 {
		add(KeyZooKeeperSessionTimeout, fmt.Sprintf("%dms", s.zkSessionTimeout.Milliseconds()))
	}
	if s.tiering {
		add(KeyLogSegmentFileSize, TieringSegmentSize)
		add(KeyRemoteLogTaskInterval, fmt.Sprintf("%dms", TieringInterval.Milliseconds()))
	}
	if !s.split && len(s.sasl) == 0 {
		add("bind.listeners", fmt.Sprintf("FLUSS://127.0.0.1:%d", s.csPort))
	} else {
		// Servers talk to each other on a plain INTERNAL listener; clients use CLIENT.
		add("bind.listeners", fmt.Sprintf("INTERNAL://127.0.0.1:%d, CLIENT://127.0.0.1:%d", s.csInternalPort, s.csPort))
		add("internal.listener.name", "INTERNAL")
	}
	if len(s.sasl) > 0 {
		jaas, err := jaasConfig(s.sasl)
		if err != nil {
			return err
		}
		// Clients must authenticate on CLIENT.
		add("security.protocol.map", "CLIENT:sasl")
		add("security.sasl.enabled.mechanisms", "PLAIN")
		add("security.sasl.plain.jaas.config", jaas)
	}
	if len(s.superUsers) > 0 {
		// ConfigOptions AUTHORIZER_ENABLED and SUPER_USERS ("Type:Name" separated by ';').
		// Requests on the INTERNAL listener (server to server) are not authorized.
		add("authorizer.enabled", "true")
		supers := make([]string, len(s.superUsers))
		for i, u := range s.superUsers {
			supers[i] = "User:" + u
		}
		add("super.users", strings.Join(supers, ";"))
	}
	extraKeys := make([]string, 0, len(s.extra))
	for k := range s.extra {
		extraKeys = append(extraKeys, k)
	}
	sort.Strings(extraKeys)
	for _, k := range extraKeys {
		v := s.extra[k]
		if k == "" || strings.ContainsAny(k, "#:\n\r ") || strings.ContainsAny(v, "#\n\r") {
			return fmt.Errorf("localcluster: ServerConfig entry %q: %q cannot be written to server.yaml (keys must be non-empty and free of # : spaces and newlines, values free of # and newlines)", k, v)
		}
		add(k, v)
	}
	var y strings.Builder
	for _, k := range order {
		fmt.Fprintf(&y, "%s: %s\n", k, entries[k])
	}
	log4j := `rootLogger.level = INFO
rootLogger.appenderRef.out.ref = OUT
appender.out.type = Console
appender.out.name = OUT
appender.out.layout.type = PatternLayout
appender.out.layout.pattern = %d{HH:mm:ss,SSS} %-5p %c{1} - %m%n
`
	for name, body := range map[string]string{
		"zookeeper.properties": zk.String(),
		"server.yaml":          y.String(),
		"log4j2.properties":    log4j,
	} {
		if err := os.WriteFile(filepath.Join(conf, name), []byte(body), 0o644); err != nil {
			return fmt.Errorf("localcluster: %w", err)
		}
	}
	return nil
}

// jaasConfig renders the server's PLAIN login module line. server.yaml is read as flat
// "key: value" lines where '#' starts a comment, so such characters cannot appear.
func jaasConfig(users map[string]string) (string, error) {
	var b strings.Builder
	b.WriteString("org.apache.fluss.security.auth.sasl.plain.PlainLoginModule required")
	for _, u := range sortedUsers(users) {
		p := users[u]
		for _, s := range []string{u, p} {
			if s == "" || strings.ContainsAny(s, "#\"\n\r\\= ;") {
				return "", fmt.Errorf("localcluster: SASL user names and passwords must be non-empty and free of # \" \\ = ; spaces and newlines (server.yaml cannot carry them): %q", s)
			}
		}
		fmt.Fprintf(&b, " user_%s=\"%s\"", u, p)
	}
	b.WriteString(";")
	return b.String(), nil
}

// tabletListeners returns a tablet server's bind.listeners value.
func tabletListeners(clientPort, internalPort int, split bool) string {
	if !split {
		return fmt.Sprintf("FLUSS://127.0.0.1:%d", clientPort)
	}
	return fmt.Sprintf("INTERNAL://127.0.0.1:%d, CLIENT://127.0.0.1:%d", internalPort, clientPort)
}
