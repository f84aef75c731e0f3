package localcluster

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// FlinkVersion is the Apache Flink release StartFlink runs: the one the pinned Fluss connector
// (FlussFlinkConnector) is built against.
const FlinkVersion = "1.20.3"

// FlussFlinkConnector is the Fluss connector for Flink put on Flink's classpath: a fat jar
// (org.apache.fluss:fluss-flink-1.20) that carries the Fluss client.
const FlussFlinkConnector = "fluss-flink-1.20-" + DefaultVersion

// flinkModules are the Flink modules a session cluster and the SQL Gateway need. Maven Central
// does not serve flink-dist, so the launcher puts these module jars (and their runtime
// dependencies) on the classpath itself.
var flinkModules = []string{
	"flink-clients", "flink-runtime", "flink-rpc-akka-loader", "flink-streaming-java",
	"flink-table-api-java-bridge", "flink-table-planner-loader", "flink-table-runtime",
	"flink-sql-gateway", "flink-connector-base", "flink-json", "flink-csv",
}

// flinkDependencies is the <dependencies> body of the pom that fetches Flink: its modules, the
// Fluss connector and the log4j 2 backend flink-dist ships in lib/.
func flinkDependencies() string {
	var b strings.Builder
	for _, m := range flinkModules {
		fmt.Fprintf(&b, "    <dependency><groupId>org.apache.flink</groupId><artifactId>%s</artifactId><version>%s</version></dependency>\n", m, FlinkVersion)
	}
	fmt.Fprintf(&b, "    <dependency><groupId>org.apache.fluss</groupId><artifactId>fluss-flink-1.20</artifactId><version>%s</version></dependency>\n", DefaultVersion)
	b.WriteString(log4jDependencies(log4jVersion))
	fmt.Fprintf(&b, "    <dependency><groupId>org.apache.logging.log4j</groupId><artifactId>log4j-1.2-api</artifactId><version>%s</version></dependency>\n", log4jVersion)
	return b.String()
}

// EnsureFlinkJars returns Flink's classpath: every jar of the fetched Flink modules, the Fluss
// connector and the logging backend, as a sorted list joined by the OS list separator. A
// wildcard (lib/*) would expand in directory order, and the Fluss fat jar carries its own
// copies of commons-lang3 and commons-math3, so the order is made explicit. The jars are
// fetched with Maven into the cache (CacheDir) beside the Fluss server's, never into the
// repository; `make fetch` fetches them for CI.
func EnsureFlinkJars(ctx context.Context) (string, error) {
	lib, err := fetchJars(ctx, "flink-"+FlinkVersion+"-"+FlussFlinkConnector,
		fmt.Sprintf(pomTemplate, flinkDependencies()),
		"Flink "+FlinkVersion+" with the Fluss connector "+DefaultVersion, FlussFlinkConnector+".jar")
	if err != nil {
		return "", err
	}
	entries, err := os.ReadDir(lib)
	if err != nil {
		return "", fmt.Errorf("localcluster: %w", err)
	}
	var jars []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".jar") {
			jars = append(jars, filepath.Join(lib, e.Name()))
		}
	}
	sort.Strings(jars)
	return strings.Join(jars, string(os.PathListSeparator)), nil
}
