package localcluster

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFlinkConfigFile(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "conf"), 0o755))
	conf := flinkConfig(dir, flinkPorts{rest: 8081, rpc: 6123, gateway: 8083}, 2, map[string]string{"parallelism.default": "2", "pipeline.name": "a: b"})
	require.NoError(t, writeFlinkConfig(dir, conf))
	b, err := os.ReadFile(filepath.Join(dir, "conf", "config.yaml"))
	require.NoError(t, err)
	text := string(b)
	for _, want := range []string{
		"rest.port: 8081\n", "jobmanager.rpc.port: 6123\n", "sql-gateway.endpoint.rest.port: 8083\n",
		"rest.bind-address: 127.0.0.1\n", "taskmanager.numberOfTaskSlots: 2\n",
		"parallelism.default: 2\n", // an extra entry wins
		"pipeline.name: 'a: b'\n",  // quoted where YAML would read a map
		"table.catalog-store.file.path: " + filepath.Join(dir, "catalogs") + "\n",
		"io.tmp.dirs: " + filepath.Join(dir, "tmp") + "\n",
	} {
		assert.Contains(t, text, want)
	}
	_, err = os.Stat(filepath.Join(dir, "conf", "log4j.properties"))
	assert.NoError(t, err)

	assert.ErrorContains(t, writeFlinkConfig(dir, map[string]string{"a": "x\ny: z"}), "newlines")
}

func TestParseResourceParams(t *testing.T) {
	out := strings.Join([]string{
		"INFO  [] - Loading configuration property: taskmanager.memory.task.heap.size, 256m",
		"BASH_JAVA_UTILS_EXEC_RESULT:-Xmx536870902 -Xms536870902 -XX:MaxDirectMemorySize=268435458",
		"BASH_JAVA_UTILS_EXEC_RESULT:-D taskmanager.memory.network.min=134217730b -D taskmanager.cpu.cores=4.0",
	}, "\n")
	res, ok := parseResourceParams(out)
	require.True(t, ok)
	assert.Equal(t, []string{"-Xmx536870902", "-Xms536870902", "-XX:MaxDirectMemorySize=268435458"}, res[0])
	assert.Equal(t, []string{"-D", "taskmanager.memory.network.min=134217730b", "-D", "taskmanager.cpu.cores=4.0"}, res[1])

	_, ok = parseResourceParams("BASH_JAVA_UTILS_EXEC_RESULT:-Xmx1\nException in thread main")
	assert.False(t, ok, "one result line is not enough")
}

func TestFlinkStateRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "flink.json")
	f := &Flink{RESTAddress: "127.0.0.1:1", GatewayAddress: "127.0.0.1:2", Dir: "/nonexistent/flink-run",
		Procs: []Proc{{Name: "jobmanager", PID: 1 << 30, Log: "x.log"}}, OwnDir: true,
		Catalogs: map[string]string{"fluss": "127.0.0.1:9123"}}
	require.NoError(t, f.SaveState(path))
	got, err := LoadFlinkState(path)
	require.NoError(t, err)
	assert.Equal(t, f, got)
	assert.False(t, got.Running(), "a PID that is not ours is not running")

	_, err = LoadFlinkState(filepath.Join(t.TempDir(), "none.json"))
	assert.ErrorContains(t, err, "no Flink was started")
}

func TestFlinkDependencies(t *testing.T) {
	deps := flinkDependencies()
	for _, m := range append(flinkModules, "fluss-flink-1.20", "log4j-slf4j-impl", "log4j-1.2-api") {
		assert.Contains(t, deps, "<artifactId>"+m+"</artifactId>")
	}
	assert.Contains(t, deps, "<version>"+FlinkVersion+"</version>")
}

func TestCreateFlussCatalogRefusesBadInput(t *testing.T) {
	f := &Flink{GatewayAddress: "127.0.0.1:1"} // never reached
	assert.ErrorContains(t, f.CreateFlussCatalog(t.Context(), "a-b", "127.0.0.1:9123"), "not a plain identifier")
	assert.ErrorContains(t, f.CreateFlussCatalog(t.Context(), "fluss", "x' , 'y"), "cannot hold quotes")
}
