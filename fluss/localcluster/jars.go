package localcluster

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"
)

// DefaultVersion is the Fluss server release the project is pinned to: the newest
// org.apache.fluss:fluss-server that Maven Central serves (checked 2026-11-29: only
// 0.9.1-incubating is published; 1.0.0 is not). FLUSS_VERSION overrides it.
const DefaultVersion = "0.9.1-incubating"

// log4jVersion is the logging backend the Fluss binary distribution ships for 0.9.1.
// The fat server jar carries slf4j-api 1.7, hence log4j-slf4j-impl (not slf4j2).
const log4jVersion = "2.25.4"

// dependencyPluginVersion pins the Maven plugin that copies the jars.
const dependencyPluginVersion = "3.6.1"

// Version returns the Fluss version to run: FLUSS_VERSION when set, else DefaultVersion.
func Version() string {
	if v := strings.TrimSpace(os.Getenv("FLUSS_VERSION")); v != "" {
		return v
	}
	return DefaultVersion
}

// CacheDir returns the folder under which server jars are cached, outside the repository:
// FLUSSQL_CACHE when set, else the user cache folder (~/.cache/flussql).
func CacheDir() (string, error) {
	if d := os.Getenv("FLUSSQL_CACHE"); d != "" {
		return d, nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("localcluster: no cache folder (set FLUSSQL_CACHE): %w", err)
	}
	return filepath.Join(d, "flussql"), nil
}

// pomTemplate lists what the server needs at run time (the %s): the fat fluss-server jar
// and the log4j2 backend the binary distribution puts beside it in lib/, or the backend alone
// for a server jar from a folder.
const pomTemplate = `<?xml version="1.0" encoding="UTF-8"?>
<!-- Written by flussql's localcluster to fetch a Fluss server; not part of any build. -->
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>io.github.flussql.localcluster</groupId>
  <artifactId>fluss-server-runtime</artifactId>
  <version>1</version>
  <packaging>pom</packaging>
  <dependencies>
%s  </dependencies>
</project>
`

// ServerDirEnv names the environment variable that overrides where folder versions live:
// a folder with one subfolder per version (e.g. $FLUSS_SERVER_DIR/1.0-SNAPSHOT/), each holding
// fluss-server-<version>.jar.
const ServerDirEnv = "FLUSS_SERVER_DIR"

// ServerDir returns the folder that holds server builds that Maven Central does not serve, one
// subfolder per version: $FLUSS_SERVER_DIR when set, else shared/fluss-server beside the
// repository (../shared/fluss-server relative to the module root, as CI provides it).
func ServerDir() (string, error) {
	if d := strings.TrimSpace(os.Getenv(ServerDirEnv)); d != "" {
		return filepath.Abs(d)
	}
	root, err := moduleRoot()
	if err != nil {
		return "", fmt.Errorf("localcluster: cannot find the folder of server builds (set %s): %w", ServerDirEnv, err)
	}
	return filepath.Join(filepath.Dir(root), "shared", "fluss-server"), nil
}

// modulePath is the module whose root ServerDir starts from.
const modulePath = "github.com/flussql/flussql"

// moduleRoot finds the root of this module: the first folder up from the working directory,
// then up from this source file (a binary built from the tree), whose go.mod declares
// modulePath.
func moduleRoot() (string, error) {
	var starts []string
	if wd, err := os.Getwd(); err == nil {
		starts = append(starts, wd)
	}
	if _, file, _, ok := runtime.Caller(0); ok {
		starts = append(starts, filepath.Dir(file))
	}
	for _, dir := range starts {
		for {
			if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && declaresModule(string(b), modulePath) {
				return dir, nil
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				break
			}
			dir = parent
		}
	}
	return "", fmt.Errorf("no go.mod of module %s above %s", modulePath, strings.Join(starts, " or "))
}

// declaresModule reports whether the go.mod text declares module path.
func declaresModule(gomod, path string) bool {
	for _, line := range strings.Split(gomod, "\n") {
		f := strings.Fields(line)
		if len(f) == 2 && f[0] == "module" && strings.Trim(f[1], `"`) == path {
			return true
		}
	}
	return false
}

// isSnapshot reports whether version is a development build, which Maven Central never serves.
func isSnapshot(version string) bool { return strings.HasSuffix(version, "-SNAPSHOT") }

// serverJarName is the name of the fat server jar of version.
func serverJarName(version string) string { return "fluss-server-" + version + ".jar" }

// folderJar returns the server jar of version in the folder of server builds, "" when that
// folder has none. A -SNAPSHOT version must be there: its absence is an error that names the
// folder and the override.
func folderJar(version string) (string, error) {
	dir, err := ServerDir()
	if err != nil {
		if isSnapshot(version) {
			return "", err
		}
		return "", nil
	}
	jar := filepath.Join(dir, version, serverJarName(version))
	if _, err := os.Stat(jar); err == nil {
		return jar, nil
	} else if isSnapshot(version) {
		return "", fmt.Errorf("localcluster: Fluss %s is a development build that Maven Central does not serve, and %s is missing (%v); put the server jar there or point %s at the folder that holds %s/%s",
			version, jar, err, ServerDirEnv, version, serverJarName(version))
	}
	return "", nil
}

// EnsureJars returns the classpath (entries joined by the OS list separator) that runs the
// Fluss server of the given version. A version whose jar is in the folder of server builds
// (ServerDir: <dir>/<version>/fluss-server-<version>.jar; always so for -SNAPSHOT versions)
// runs from there with the logging backend fetched from Maven; any other version is fetched
// whole from Maven Central. Fetched jars are cached (CacheDir), never put in the repository.
// It is safe to call from several processes at once: a file lock serialises each fetch.
func EnsureJars(ctx context.Context, version string) (string, error) {
	jar, err := folderJar(version)
	if err != nil {
		return "", err
	}
	if jar != "" {
		logging, err := fetchJars(ctx, "log4j-"+log4jVersion, fmt.Sprintf(pomTemplate, log4jDependencies(log4jVersion)),
			"the log4j "+log4jVersion+" backend for Fluss "+version, "log4j-core-"+log4jVersion+".jar")
		if err != nil {
			return "", err
		}
		// The server jar first: its shaded classes win over anything the backend brings.
		return jar + string(os.PathListSeparator) + filepath.Join(logging, "*"), nil
	}
	server := fmt.Sprintf(`    <dependency><groupId>org.apache.fluss</groupId><artifactId>fluss-server</artifactId><version>%s</version></dependency>
`, version)
	lib, err := fetchJars(ctx, "fluss-"+version, fmt.Sprintf(pomTemplate, server+log4jDependencies(log4jVersion)),
		"org.apache.fluss:fluss-server:"+version, serverJarName(version))
	if err != nil {
		return "", err
	}
	return filepath.Join(lib, "*"), nil
}

// log4jDependencies lists the logging backend the binary distribution puts beside the
// server jar in lib/.
func log4jDependencies(v string) string {
	var b strings.Builder
	for _, a := range []string{"log4j-slf4j-impl", "log4j-core", "log4j-api"} {
		fmt.Fprintf(&b, "    <dependency><groupId>org.apache.logging.log4j</groupId><artifactId>%s</artifactId><version>%s</version></dependency>\n", a, v)
	}
	return b.String()
}

// fetchJars makes sure <cache>/<name>/lib holds the runtime dependencies of pom, fetching
// them with Maven when it does not, and returns that folder. want is a jar that must be
// there afterwards; what names the fetch in errors.
func fetchJars(ctx context.Context, name, pomText, what, want string) (string, error) {
	return fetchWith(ctx, name, pomText, []string{
		"org.apache.maven.plugins:maven-dependency-plugin:" + dependencyPluginVersion + ":copy-dependencies",
		"-DincludeScope=runtime"}, what, want)
}

// fetchWith is fetchJars with the Maven goal and its options given: goal runs on the pom
// written to <cache>/<name>/pom.xml and must put the jars into the folder passed to it as
// -DoutputDirectory.
func fetchWith(ctx context.Context, name, pomText string, goal []string, what, want string) (string, error) {
	cache, err := CacheDir()
	if err != nil {
		return "", err
	}
	root := filepath.Join(cache, name)
	lib := filepath.Join(root, "lib")
	done := filepath.Join(root, "complete")
	if _, err := os.Stat(done); err == nil {
		return lib, nil
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return "", fmt.Errorf("localcluster: %w", err)
	}
	unlock, err := lockFile(filepath.Join(root, ".lock"))
	if err != nil {
		return "", err
	}
	defer unlock()
	if _, err := os.Stat(done); err == nil { // another process fetched while we waited
		return lib, nil
	}
	mvn, err := exec.LookPath("mvn")
	if err != nil {
		return "", fmt.Errorf("localcluster: Maven (mvn) is needed to fetch %s; install Maven 3.8+ (e.g. apt-get install maven): %w", what, err)
	}
	pom := filepath.Join(root, "pom.xml")
	if err := os.WriteFile(pom, []byte(pomText), 0o644); err != nil {
		return "", fmt.Errorf("localcluster: %w", err)
	}
	_ = os.RemoveAll(lib)
	args := append(append([]string{"-B", "-f", pom}, goal...), "-DoutputDirectory="+lib)
	logf := fetchLog(ctx)
	if logf == nil {
		args = append(args, "-q") // with a logger, Maven's "Downloaded from" lines count the progress
	}
	cmd := exec.CommandContext(ctx, mvn, args...)
	progress := &fetchProgress{}
	cmd.Stdout, cmd.Stderr = progress, progress
	var err2 error
	if logf != nil {
		logf("fetching %s with Maven (the first start only; it may take a few minutes)", what)
		stop := make(chan struct{})
		done := make(chan struct{})
		go func() { progress.report(logf, what, time.Now(), stop); close(done) }()
		err2 = cmd.Run()
		close(stop)
		<-done
	} else {
		err2 = cmd.Run()
	}
	if err2 != nil {
		return "", fmt.Errorf("localcluster: fetching %s with Maven failed: %w\n%s", what, err2, tail(progress.output(), 4000))
	}
	if _, err := os.Stat(filepath.Join(lib, want)); err != nil {
		return "", fmt.Errorf("localcluster: Maven fetched %s but %s is missing", what, filepath.Join(lib, want))
	}
	if err := os.WriteFile(done, []byte(what+"\n"), 0o644); err != nil {
		return "", fmt.Errorf("localcluster: %w", err)
	}
	return lib, nil
}

// lockFile takes an exclusive advisory lock on path and returns its release.
func lockFile(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("localcluster: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, fmt.Errorf("localcluster: lock %s: %w", path, err)
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}
