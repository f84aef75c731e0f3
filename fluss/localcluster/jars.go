package localcluster

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
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

// pomTemplate lists what the server needs at run time: the fat fluss-server jar and the
// log4j2 backend the binary distribution puts beside it in lib/.
const pomTemplate = `<?xml version="1.0" encoding="UTF-8"?>
<!-- Written by flussql's localcluster to fetch a Fluss server; not part of any build. -->
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>io.github.flussql.localcluster</groupId>
  <artifactId>fluss-server-runtime</artifactId>
  <version>1</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency><groupId>org.apache.fluss</groupId><artifactId>fluss-server</artifactId><version>%[1]s</version></dependency>
    <dependency><groupId>org.apache.logging.log4j</groupId><artifactId>log4j-slf4j-impl</artifactId><version>%[2]s</version></dependency>
    <dependency><groupId>org.apache.logging.log4j</groupId><artifactId>log4j-core</artifactId><version>%[2]s</version></dependency>
    <dependency><groupId>org.apache.logging.log4j</groupId><artifactId>log4j-api</artifactId><version>%[2]s</version></dependency>
  </dependencies>
</project>
`

// EnsureJars makes sure the jars of the given Fluss version are in the cache, fetching them
// with Maven when they are not, and returns the folder that holds them. It is safe to call
// from several processes at once: a file lock serialises the fetch.
func EnsureJars(ctx context.Context, version string) (string, error) {
	cache, err := CacheDir()
	if err != nil {
		return "", err
	}
	root := filepath.Join(cache, "fluss-"+version)
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
		return "", fmt.Errorf("localcluster: Maven (mvn) is needed to fetch org.apache.fluss:fluss-server:%s; install Maven 3.8+ (e.g. apt-get install maven): %w", version, err)
	}
	pom := filepath.Join(root, "pom.xml")
	if err := os.WriteFile(pom, fmt.Appendf(nil, pomTemplate, version, log4jVersion), 0o644); err != nil {
		return "", fmt.Errorf("localcluster: %w", err)
	}
	_ = os.RemoveAll(lib)
	cmd := exec.CommandContext(ctx, mvn, "-B", "-q", "-f", pom,
		"org.apache.maven.plugins:maven-dependency-plugin:"+dependencyPluginVersion+":copy-dependencies",
		"-DincludeScope=runtime", "-DoutputDirectory="+lib)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("localcluster: fetching org.apache.fluss:fluss-server:%s with Maven failed: %w\n%s", version, err, tail(string(out), 4000))
	}
	jar := filepath.Join(lib, "fluss-server-"+version+".jar")
	if _, err := os.Stat(jar); err != nil {
		return "", fmt.Errorf("localcluster: Maven finished but %s is missing", jar)
	}
	if err := os.WriteFile(done, []byte(version+"\n"), 0o644); err != nil {
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
