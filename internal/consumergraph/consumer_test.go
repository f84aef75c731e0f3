package consumergraph

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// consumerMain is an application that uses the driver through database/sql only.
const consumerMain = `package main

import (
	"database/sql"

	_ "github.com/flussql/flussql"
)

func main() { _, _ = sql.Open("fluss", "fluss://127.0.0.1:9123/fluss") }
`

// goCmd runs the go command in dir with the module proxy and cache of the environment, the
// consumer's go.mod updated as needed and no workspace, and returns its output.
func goCmd(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "go %s in %s: %s", strings.Join(args, " "), dir, stderr.String())
	return string(out)
}

// newConsumer writes a consumer module that requires the driver's module at root (a replace
// to this working tree) and tidies it.
func newConsumer(t *testing.T, root string) string {
	t.Helper()
	dir := t.TempDir()
	goMod := "module example.com/consumer\n\ngo 1.26.0\n\nrequire github.com/flussql/flussql v0.0.0\n\nreplace github.com/flussql/flussql => " + root + "\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte(goMod), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "main.go"), []byte(consumerMain), 0o644))
	// The consumer's graph is part of the driver's, so the driver's go.sum vouches for every
	// module it needs: tidy asks no checksum database and, with the modules in the cache, no
	// proxy either. Tidy drops the lines the consumer does not need.
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644))
	goCmd(t, dir, "mod", "tidy")
	return dir
}

// TestConsumerGainsNothingItDoesNotUse checks, in a fresh module that imports the driver:
//   - the packages it compiles: none of the driver's test-only, shell or adapter dependencies;
//   - its module graph (go list -m all): no GORM, no OpenTelemetry, no iceberg-go, AWS or Azure
//     SDK — they are the requirements of flussgorm, flussotel and flusslake, modules of their
//     own, not of the driver's;
//   - its go.sum: no module whose code it would download for GORM, OpenTelemetry, the shell's
//     line editor or the pseudo-terminal tests.
//
// What it cannot avoid is said here rather than hidden: modernc.org/sqlite is in every graph
// that has arrow-go (arrow-go's go.mod requires it), and go mod tidy records the checksums of
// the modules the driver package's own tests import (SQLite, sqlx), since a consumer may run
// `go test all`; none of them is compiled into the consumer.
func TestConsumerGainsNothingItDoesNotUse(t *testing.T) {
	root := strings.TrimSpace(goCmd(t, ".", "list", "-m", "-f", "{{.Dir}}", "github.com/flussql/flussql"))
	dir := newConsumer(t, root)
	sum, err := os.ReadFile(filepath.Join(dir, "go.sum")) // as go mod tidy left it
	require.NoError(t, err)

	deps := goCmd(t, dir, "list", "-deps", ".")
	require.Contains(t, deps, "github.com/flussql/flussql\n", "the consumer does not compile the driver")
	for _, p := range []string{"gorm.io/", "go.opentelemetry.io/", "modernc.org/", "github.com/jmoiron/sqlx", "github.com/anishathalye/porcupine",
		"github.com/creack/pty", "github.com/peterh/liner", "github.com/mattn/go-runewidth", "golang.org/x/term",
		"github.com/flussql/flussql/cmd/", "github.com/flussql/flussql/flussgorm", "github.com/flussql/flussql/flussotel",
		"github.com/flussql/flussql/flusslake", "github.com/apache/iceberg-go"} {
		assert.NotContains(t, deps, p, "the consumer compiles a package of %s", p)
	}

	mods := goCmd(t, dir, "list", "-m", "all")
	for _, line := range strings.Split(mods, "\n") {
		for _, m := range []string{"gorm.io/", "github.com/jinzhu/", "go.opentelemetry.io/", "github.com/anishathalye/porcupine",
			"github.com/apache/iceberg-go", "github.com/aws/", "github.com/Azure/"} {
			assert.False(t, strings.HasPrefix(line, m), "go list -m all of the consumer lists %s", line)
		}
	}

	for _, line := range strings.Split(string(sum), "\n") {
		mod, rest, _ := strings.Cut(line, " ")
		if strings.Contains(rest, "/go.mod ") {
			continue // only a go.mod, read to build the graph
		}
		for _, m := range []string{"gorm.io/", "github.com/jinzhu/", "go.opentelemetry.io/", "github.com/creack/pty",
			"github.com/peterh/liner", "github.com/mattn/go-runewidth", "golang.org/x/term", "github.com/anishathalye/porcupine"} {
			assert.False(t, strings.HasPrefix(mod, m), "the consumer's go.sum holds the code of %s", mod)
		}
	}
	t.Logf("consumer: %d go.sum lines after go mod tidy, %d modules in go list -m all", strings.Count(string(sum), "\n"), strings.Count(mods, "\n"))
}
