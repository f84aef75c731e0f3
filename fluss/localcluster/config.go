package localcluster

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// writeConfigs writes zookeeper.properties, server.yaml (shared by the coordinator and the
// tablet servers, which override their listeners, id and data folder on the command line)
// and log4j2.properties into dir/conf.
func writeConfigs(dir string, zkPort, csPort, csInternalPort int, sasl map[string]string) error {
	conf := filepath.Join(dir, "conf")
	zk := fmt.Sprintf(`dataDir=%s
clientPort=%d
clientPortAddress=127.0.0.1
maxClientCnxns=0
admin.enableServer=false
4lw.commands.whitelist=srvr,ruok
`, filepath.Join(dir, "zk"), zkPort)

	var y strings.Builder
	fmt.Fprintf(&y, "zookeeper.address: 127.0.0.1:%d\n", zkPort)
	fmt.Fprintf(&y, "remote.data.dir: %s\n", filepath.Join(dir, "remote"))
	// The coordinator reads these two although it stores no data; tablet servers override them.
	fmt.Fprintf(&y, "data.dir: %s\n", filepath.Join(dir, "data", "coordinator"))
	y.WriteString("tablet-server.id: 0\n")
	y.WriteString("default.bucket.number: 1\n")
	y.WriteString("default.replication.factor: 1\n")
	y.WriteString("netty.server.num-network-threads: 1\n")
	y.WriteString("netty.server.num-worker-threads: 3\n")
	if len(sasl) == 0 {
		fmt.Fprintf(&y, "bind.listeners: FLUSS://127.0.0.1:%d\n", csPort)
	} else {
		jaas, err := jaasConfig(sasl)
		if err != nil {
			return err
		}
		// Servers talk to each other on a plain INTERNAL listener; clients must authenticate
		// on CLIENT.
		fmt.Fprintf(&y, "bind.listeners: INTERNAL://127.0.0.1:%d, CLIENT://127.0.0.1:%d\n", csInternalPort, csPort)
		y.WriteString("internal.listener.name: INTERNAL\n")
		y.WriteString("security.protocol.map: CLIENT:sasl\n")
		y.WriteString("security.sasl.enabled.mechanisms: PLAIN\n")
		fmt.Fprintf(&y, "security.sasl.plain.jaas.config: %s\n", jaas)
	}
	log4j := `rootLogger.level = INFO
rootLogger.appenderRef.out.ref = OUT
appender.out.type = Console
appender.out.name = OUT
appender.out.layout.type = PatternLayout
appender.out.layout.pattern = %d{HH:mm:ss,SSS} %-5p %c{1} - %m%n
`
	for name, body := range map[string]string{
		"zookeeper.properties": zk,
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
func tabletListeners(clientPort, internalPort int, sasl bool) string {
	if !sasl {
		return fmt.Sprintf("FLUSS://127.0.0.1:%d", clientPort)
	}
	return fmt.Sprintf("INTERNAL://127.0.0.1:%d, CLIENT://127.0.0.1:%d", internalPort, clientPort)
}
