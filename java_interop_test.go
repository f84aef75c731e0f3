package flussql_test

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/flusstest/realcluster"
	"github.com/flussql/flussql/fluss/localcluster"
)

// javaInteropDir holds our program that drives the official Java client
// (org.apache.fluss:fluss-client of the server's release line, see javaClientVersion); see its
// README.md.
const javaInteropDir = "testdata/interop/java"

// javaClientReleases are the released Java clients per server release line: Maven Central
// serves fluss-client 1.0.0 but not the 1.0 server, which the tests run as 1.0-SNAPSHOT.
var javaClientReleases = map[fluss.ServerVersion]string{
	{Major: 0, Minor: 9}: "0.9.1-incubating",
	{Major: 1, Minor: 0}: "1.0.0",
}

// javaClientVersion returns the fluss-client version the interop tests run against the test
// cluster: FLUSS_JAVA_CLIENT_VERSION when set; else the version the launcher ran
// (FLUSS_SERVER_VERSION) when it is a release; else the released client of the release line
// detected from the server's ApiVersions answers.
func javaClientVersion(t *testing.T) string {
	t.Helper()
	if v := strings.TrimSpace(os.Getenv("FLUSS_JAVA_CLIENT_VERSION")); v != "" {
		return v
	}
	line := testServerVersion(t)
	if launched := os.Getenv("FLUSS_SERVER_VERSION"); launched != "" && !strings.HasSuffix(launched, "-SNAPSHOT") {
		return launched
	}
	v, ok := javaClientReleases[line]
	require.True(t, ok, "no released Java client is known for Fluss %s servers; set FLUSS_JAVA_CLIENT_VERSION", line)
	return v
}

// javaInteropKeys is how many ids (0..n-1) each check writes. INT keys are varint-encoded, so
// every id from 128 on has a key whose Murmur tail holds a byte >= 0x80, the bytes whose sign
// extension decides the bucket.
const javaInteropKeys = 10000

// javaClient runs commands of testdata/interop/java against FLUSS_BOOTSTRAP_SERVERS.
type javaClient struct {
	java      string
	classpath string
	bootstrap string
	props     []string // extra -D flags, e.g. client options
}

// with returns a copy of j that passes the given client options (key=value, e.g.
// client.writer.batch-size=16kb) to the Java client.
func (j *javaClient) with(options ...string) *javaClient {
	c := *j
	c.props = nil
	for _, o := range options {
		c.props = append(c.props, "-D"+o)
	}
	return &c
}

// newJavaClient compiles the interop program once per machine (per content of its sources and
// client version, javaClientVersion) into the flussql cache and returns a runner. It skips when
// FLUSS_BOOTSTRAP_SERVERS is unset or when java, javac or mvn is missing.
func newJavaClient(t *testing.T) *javaClient {
	t.Helper()
	bootstrap := realcluster.Addr(t)
	tools := map[string]string{}
	for _, name := range []string{"java", "javac", "mvn"} {
		p, err := exec.LookPath(name)
		if err != nil {
			t.Skipf("%s is missing: the Java interop test needs a JDK 11+ and Maven 3.8+ (e.g. apt-get install openjdk-17-jdk-headless maven)", name)
		}
		tools[name] = p
	}
	version := javaClientVersion(t)
	classpath, err := buildJavaInterop(tools["javac"], tools["mvn"], version)
	require.NoError(t, err)
	require.Contains(t, classpath, string(os.PathSeparator)+"fluss-client-"+version+".jar", "the classpath holds the chosen client")
	t.Logf("Java client org.apache.fluss:fluss-client:%s", version)
	return &javaClient{java: tools["java"], classpath: classpath, bootstrap: bootstrap}
}

// buildJavaInterop resolves the classpath of fluss-client clientVersion with Maven and compiles
// the program with javac into <cache>/java-interop/<hash of the sources, client and javac
// versions>/, under a file lock because several test processes may build at once. It returns
// the classpath to run with.
func buildJavaInterop(javac, mvn, clientVersion string) (string, error) {
	pom, err := filepath.Abs(filepath.Join(javaInteropDir, "pom.xml"))
	if err != nil {
		return "", err
	}
	srcs, err := filepath.Glob(filepath.Join(javaInteropDir, "src/main/java/flussql/interop/*.java"))
	if err != nil || len(srcs) == 0 {
		return "", fmt.Errorf("java interop: no sources under %s (%v)", javaInteropDir, err)
	}
	sort.Strings(srcs)
	h := sha256.New()
	version, _ := exec.Command(javac, "-version").CombinedOutput()
	h.Write(version)
	fmt.Fprintf(h, "fluss-client %s\n", clientVersion)
	for _, f := range append([]string{pom}, srcs...) {
		b, err := os.ReadFile(f)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s %d\n", filepath.Base(f), len(b))
		h.Write(b)
	}
	cache, err := localcluster.CacheDir()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(cache, "java-interop", hex.EncodeToString(h.Sum(nil))[:16])
	classes := filepath.Join(dir, "classes")
	cpFile := filepath.Join(dir, "classpath.txt")
	done := filepath.Join(dir, "complete")
	classpath := func() (string, error) {
		cp, err := os.ReadFile(cpFile)
		if err != nil {
			return "", err
		}
		return classes + string(os.PathListSeparator) + strings.TrimSpace(string(cp)), nil
	}
	if _, err := os.Stat(done); err == nil {
		return classpath()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	lock, err := os.OpenFile(filepath.Join(dir, ".lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return "", err
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return "", fmt.Errorf("java interop: lock %s: %w", dir, err)
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN) //nolint:errcheck
	// Another process may have built it while we waited for the lock.
	if _, err := os.Stat(done); err == nil {
		return classpath()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, mvn, "-B", "-q", "-f", pom,
		"org.apache.maven.plugins:maven-dependency-plugin:3.6.1:build-classpath",
		"-Dfluss.version="+clientVersion, "-Dmdep.outputFile="+cpFile).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("java interop: mvn dependency:build-classpath: %w\n%s", err, out)
	}
	cp, err := os.ReadFile(cpFile)
	if err != nil {
		return "", err
	}
	_ = os.RemoveAll(classes)
	args := append([]string{"-encoding", "UTF-8", "-d", classes, "-cp", strings.TrimSpace(string(cp))}, srcs...)
	if out, err := exec.CommandContext(ctx, javac, args...).CombinedOutput(); err != nil {
		return "", fmt.Errorf("java interop: javac: %w\n%s", err, out)
	}
	if err := os.WriteFile(done, []byte(time.Now().UTC().Format(time.RFC3339)+"\n"), 0o644); err != nil {
		return "", err
	}
	return classpath()
}

// run executes one command of the interop program and decodes its JSON answer.
func (j *javaClient) run(t *testing.T, args ...string) map[string]any {
	t.Helper()
	res, err := j.runNoFail(args...)
	require.NoError(t, err)
	return res
}

// javaFlags are the JVM arguments: the shaded Arrow in the client needs java.nio opened
// (JDK 16+), a small heap with the serial collector suits a short run on a small machine, and
// the client's warnings go to stderr (shown when a command fails).
func javaFlags(classpath string) []string {
	return []string{"--add-opens=java.base/java.nio=ALL-UNNAMED", "-XX:+UseSerialGC", "-Xmx512m",
		"-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-Dorg.slf4j.simpleLogger.showDateTime=true",
		"-cp", classpath, "flussql.interop.Interop"}
}

// javaRow is one row of the Java scan: the three columns plus where the client read it.
type javaRow struct {
	ID     int64
	Name   string
	Value  int64
	Bucket int
	Offset int64
}

// scanRows decodes the rows of a Java scan answer.
func scanRows(t *testing.T, res map[string]any) []javaRow {
	t.Helper()
	raw, ok := res["rows"].([]any)
	require.True(t, ok, "no rows in %v", res["count"])
	out := make([]javaRow, 0, len(raw))
	for _, r := range raw {
		f := r.([]any)
		require.Len(t, f, 5)
		out = append(out, javaRow{ID: int64(f[0].(float64)), Name: f[1].(string), Value: int64(f[2].(float64)),
			Bucket: int(f[3].(float64)), Offset: int64(f[4].(float64))})
	}
	return out
}

// TestJavaInteropKV checks primary-key tables of 4 buckets in both directions against the
// official Java client: keys written with SQL are found by the Java Lookuper with the right
// values, and keys written by the Java UpsertWriter are found by SELECT … WHERE id IN (…).
// A key in the wrong bucket is simply not found, so this checks the key encoding and the
// bucketing as the Java client does them.
func TestJavaInteropKV(t *testing.T) {
	j := newJavaClient(t)
	db, dbName := openTestDB(t)
	const pkColumns = `id INT, name STRING, score BIGINT, PRIMARY KEY (id) NOT ENFORCED`
	sqlPK := createTable(t, db, dbName, "sql_pk", pkColumns, `'bucket.num' = '4'`)
	javaPK := createTable(t, db, dbName, "java_pk", pkColumns, `'bucket.num' = '4'`)

	// The Java upsert runs while SQL writes the other table.
	var wg sync.WaitGroup
	var javaUpsert map[string]any
	var javaUpsertErr error
	wg.Add(1)
	go func() {
		defer wg.Done()
		javaUpsert, javaUpsertErr = j.runNoFail("upsert", dbName, javaPK, "0", fmt.Sprint(javaInteropKeys), "java")
	}()

	// SQL writes (half UPSERT, half INSERT, which upserts on a primary-key table), Java looks up.
	tx, err := db.Begin()
	require.NoError(t, err)
	upsert, err := tx.Prepare(`UPSERT INTO ` + dbName + `.` + sqlPK + ` VALUES (?, ?, ?)`)
	require.NoError(t, err)
	insert, err := tx.Prepare(`INSERT INTO ` + dbName + `.` + sqlPK + ` (id, name, score) VALUES (?, ?, ?)`)
	require.NoError(t, err)
	for i := 0; i < javaInteropKeys; i++ {
		stmt := upsert
		if i >= javaInteropKeys/2 {
			stmt = insert
		}
		_, err := stmt.Exec(i, fmt.Sprintf("go-%d", i), int64(i)*7)
		require.NoError(t, err)
	}
	require.NoError(t, tx.Commit())
	res := j.run(t, "lookup", dbName, sqlPK, "0", fmt.Sprint(javaInteropKeys), "go")
	t.Logf("Java lookup of SQL upserts: found %v, missing %v, wrong %v; keys per bucket %v; %v keys with a tail byte >= 0x80, %v of them in another bucket under zero extension",
		res["found"], res["missing"], res["wrong"], res["keys_per_bucket"], res["keys_with_tail_byte_ge_0x80"], res["keys_zero_extension_would_move"])
	assert.EqualValues(t, javaInteropKeys, res["found"], "the Java client finds every key upserted through SQL: %v", res)
	assert.EqualValues(t, 0, res["wrong"], "first wrong rows: %v", res["first_wrong"])
	assert.Greater(t, res["keys_zero_extension_would_move"].(float64), float64(javaInteropKeys/2),
		"the ids must include many keys that a zero-extending Murmur puts in another bucket")
	if res["missing"].(float64) > 0 {
		reportBuckets(t, j, dbName, sqlPK, res["first_missing"].([]any))
	}

	// Java writes, SQL looks up in chunks of at most 1000 ids.
	wg.Wait()
	require.NoError(t, javaUpsertErr)
	require.EqualValues(t, javaInteropKeys, javaUpsert["written"])
	seen := make(map[int64]bool, javaInteropKeys)
	var missing []string
	for lo := 0; lo < javaInteropKeys; lo += 1000 {
		ids := make([]string, 0, 1000)
		for i := lo; i < lo+1000 && i < javaInteropKeys; i++ {
			ids = append(ids, fmt.Sprint(i))
		}
		got := queryStrings(t, db, `SELECT id, name, score FROM `+dbName+`.`+javaPK+` WHERE id IN (`+strings.Join(ids, ",")+`)`)
		chunk := map[string]bool{}
		for _, r := range got {
			var id int64
			_, err := fmt.Sscan(r[0], &id)
			require.NoError(t, err)
			assert.Equal(t, []string{r[0], fmt.Sprintf("java-%d", id), fmt.Sprint(id * 7)}, r)
			assert.False(t, seen[id], "id %d returned twice", id)
			seen[id] = true
			chunk[r[0]] = true
		}
		for _, id := range ids {
			if !chunk[id] {
				missing = append(missing, id)
			}
		}
	}
	assert.Len(t, seen, javaInteropKeys, "SELECT finds every key the Java client upserted; %d missing, first: %v", len(missing), first(missing, 20))
	if len(missing) > 0 {
		// Which bucket did the Java client choose for the keys SQL did not find?
		res := j.run(t, "scan", dbName, javaPK)
		where := map[int64]int{}
		for _, r := range scanRows(t, res) {
			where[r.ID] = r.Bucket
		}
		for _, id := range first(missing, 20) {
			var n int64
			fmt.Sscan(id, &n)
			t.Logf("id %s: the Java client wrote it to bucket %d; SQL did not find it", id, where[n])
		}
	}
}

// reportBuckets logs, for keys the Java client did not find, the bucket the Java client looked
// in and the bucket flussql wrote them to (read back by the Java scanner from the changelog).
func reportBuckets(t *testing.T, j *javaClient, dbName, table string, missing []any) {
	t.Helper()
	where := map[int64]int{}
	for _, r := range scanRows(t, j.run(t, "scan", dbName, table)) {
		where[r.ID] = r.Bucket
	}
	for _, m := range missing {
		e := m.(map[string]any)
		id := int64(e["id"].(float64))
		b, ok := where[id]
		t.Logf("id %d (key %s): Java looked in bucket %v (a zero-extending hash would pick %v); flussql wrote it to bucket %v (present in the changelog: %v)",
			id, e["key_hex"], e["java_bucket"], e["zero_extended_bucket"], b, ok)
	}
}

// runNoFail is run for goroutines: it returns an error instead of failing the test. A command
// that overruns its two minutes gets SIGQUIT first, so that the JVM's thread dump (on stdout)
// is in the error, and is killed three seconds later.
func (j *javaClient) runNoFail(args ...string) (map[string]any, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, j.java, append(append(j.props, javaFlags(j.classpath)...), args...)...)
	cmd.Env = append(os.Environ(), "FLUSS_BOOTSTRAP_SERVERS="+j.bootstrap)
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGQUIT) }
	cmd.WaitDelay = 3 * time.Second
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("java Interop %s: %w\nstderr: %s\nstdout: %.20000s", strings.Join(args, " "), err, stderr.String(), out)
	}
	var res map[string]any
	if err := json.Unmarshal(out, &res); err != nil {
		return nil, fmt.Errorf("java Interop %s: %w: %.2000s", strings.Join(args, " "), err, out)
	}
	return res, nil
}

// createTable creates dbName.name with the given column list and WITH clause and checks that
// every bucket got a leader, by a LIMIT query that visits all buckets of the empty table. The
// 0.9.1 coordinator sometimes misses a table creation (apache/fluss#1018, fixed after 0.9.1 by
// apache/fluss#2710: its ZooKeeper cache reports the table node as created with its data, and
// only a change was handled), leaving a table whose buckets never get a leader; then the
// table is dropped and created again under another name, which is returned.
func createTable(t *testing.T, db *sql.DB, dbName, name, columns, with string) string {
	t.Helper()
	for attempt := 0; attempt < 3; attempt++ {
		tbl := name
		if attempt > 0 {
			tbl = fmt.Sprintf("%s_%d", name, attempt)
		}
		_, err := db.Exec(`CREATE TABLE ` + dbName + `.` + tbl + ` (` + columns + `) WITH (` + with + `)`)
		require.NoError(t, err)
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		rows, err := db.QueryContext(ctx, `SELECT * FROM `+dbName+`.`+tbl+` LIMIT 1`)
		if err == nil {
			for rows.Next() {
			}
			err = rows.Err()
			rows.Close()
		}
		cancel()
		if err == nil {
			return tbl
		}
		t.Logf("table %s.%s was created but is not usable (the coordinator may have missed its creation, apache/fluss#1018): %v; creating another", dbName, tbl, err)
		_, _ = db.Exec(`DROP TABLE IF EXISTS ` + dbName + `.` + tbl)
	}
	t.Fatalf("could not create a usable table %s.%s", dbName, name)
	return ""
}

// sum adds up a JSON array of numbers.
func sum(v any) float64 {
	var s float64
	for _, x := range v.([]any) {
		s += x.(float64)
	}
	return s
}

// nonZero counts the non-zero numbers in a JSON array.
func nonZero(v any) int {
	n := 0
	for _, x := range v.([]any) {
		if x.(float64) != 0 {
			n++
		}
	}
	return n
}

func first(s []string, n int) []string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// TestJavaInteropLog checks log tables of 4 buckets in both directions against the official
// Java client: rows inserted with SQL are read by the Java LogScanner exactly once each with
// the right values, and rows appended by the Java AppendWriter are read by SELECT exactly once.
func TestJavaInteropLog(t *testing.T) {
	j := newJavaClient(t)
	db, dbName := openTestDB(t)
	const logColumns = `id INT, name STRING, value BIGINT`
	sqlLog := createTable(t, db, dbName, "sql_log", logColumns, `'bucket.num' = '4'`)
	javaLog := createTable(t, db, dbName, "java_log", logColumns, `'bucket.num' = '4'`)

	// Small batches on both sides, so that the sticky bucket assignment moves on and the rows of
	// each table land in several buckets (10,000 rows fit one default batch, hence one bucket).
	const batchBytes = 16 << 10
	small, err := sql.Open("fluss", fmt.Sprintf("fluss://%s/fluss?write_batch_size=%d", j.bootstrap, batchBytes))
	require.NoError(t, err)
	defer small.Close()
	var wg sync.WaitGroup
	var javaAppend map[string]any
	var javaAppendErr error
	wg.Add(1)
	go func() {
		defer wg.Done()
		javaAppend, javaAppendErr = j.with(fmt.Sprintf("client.writer.batch-size=%db", batchBytes)).runNoFail("append", dbName, javaLog, "0", fmt.Sprint(javaInteropKeys), "java")
	}()

	// SQL inserts, Java scans.
	tx, err := small.Begin()
	require.NoError(t, err)
	insert, err := tx.Prepare(`INSERT INTO ` + dbName + `.` + sqlLog + ` VALUES (?, ?, ?)`)
	require.NoError(t, err)
	for i := 0; i < javaInteropKeys; i++ {
		_, err := insert.Exec(i, fmt.Sprintf("go-%d", i), int64(i)*3)
		require.NoError(t, err)
	}
	require.NoError(t, tx.Commit())
	res := j.run(t, "scan", dbName, sqlLog)
	t.Logf("Java scan of SQL inserts: %v rows, end offsets %v, change types %v", res["count"], res["end_offsets"], res["change_types"])
	require.EqualValues(t, javaInteropKeys, res["count"])
	rows := scanRows(t, res)
	checkLogRows(t, rows, "go")
	perBucket := map[int]int{}
	for _, r := range rows {
		perBucket[r.Bucket]++
	}
	assert.Greater(t, len(perBucket), 1, "the SQL rows were spread over several buckets: %v", perBucket)
	assert.EqualValues(t, javaInteropKeys, sum(res["end_offsets"]), "end offsets %v", res["end_offsets"])

	// Java appends, SQL scans.
	wg.Wait()
	require.NoError(t, javaAppendErr)
	require.EqualValues(t, javaInteropKeys, javaAppend["written"])
	t.Logf("Java append: end offsets %v", javaAppend["end_offsets"])
	assert.EqualValues(t, javaInteropKeys, sum(javaAppend["end_offsets"]), "end offsets %v", javaAppend["end_offsets"])
	assert.Greater(t, nonZero(javaAppend["end_offsets"]), 1, "the Java rows were spread over several buckets")
	got := queryStrings(t, db, `SELECT id, name, value FROM `+dbName+`.`+javaLog)
	rows = rows[:0]
	for _, r := range got {
		var row javaRow
		_, err := fmt.Sscan(r[0], &row.ID)
		require.NoError(t, err)
		row.Name = r[1]
		_, err = fmt.Sscan(r[2], &row.Value)
		require.NoError(t, err)
		rows = append(rows, row)
	}
	checkLogRows(t, rows, "java")
}

// checkLogRows asserts that rows hold ids 0..javaInteropKeys-1 exactly once each, named
// prefix-id with value id*3.
func checkLogRows(t *testing.T, rows []javaRow, prefix string) {
	t.Helper()
	seen := make([]int, javaInteropKeys)
	bad := 0
	for _, r := range rows {
		if r.ID < 0 || r.ID >= javaInteropKeys || r.Name != fmt.Sprintf("%s-%d", prefix, r.ID) || r.Value != r.ID*3 {
			if bad++; bad <= 20 {
				t.Errorf("unexpected row %+v", r)
			}
			continue
		}
		seen[r.ID]++
	}
	var dup, gap []string
	for id, n := range seen {
		if n > 1 {
			dup = append(dup, fmt.Sprint(id))
		} else if n == 0 {
			gap = append(gap, fmt.Sprint(id))
		}
	}
	assert.Len(t, rows, javaInteropKeys)
	assert.Empty(t, dup, "ids read more than once (%d)", len(dup))
	assert.Empty(t, gap, "ids never read (%d)", len(gap))
	assert.Zero(t, bad, "rows with wrong values")
}
