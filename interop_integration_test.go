package flussql_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// pyfluss runs one of the interop scripts under testdata/interop with the official Python
// client and decodes its JSON answer.
func pyfluss(t *testing.T, script string, args ...string) map[string]any {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is missing: the interop tests need pyfluss (pip install -r testdata/interop/requirements.txt)")
	}
	if err := exec.Command("python3", "-c", "import fluss").Run(); err != nil {
		t.Skip("pyfluss is not installed: pip install -r testdata/interop/requirements.txt")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "python3", append([]string{"testdata/interop/" + script}, args...)...)
	cmd.Env = append(os.Environ(), "FLUSS_BOOTSTRAP_SERVERS="+os.Getenv("FLUSS_BOOTSTRAP_SERVERS"))
	out, err := cmd.Output()
	var stderr string
	if ee, ok := err.(*exec.ExitError); ok {
		stderr = string(ee.Stderr)
	}
	require.NoError(t, err, "%s %s: %s", script, strings.Join(args, " "), stderr)
	var res map[string]any
	require.NoError(t, json.Unmarshal(out, &res), string(out))
	return res
}

// TestInteropWithPyfluss checks byte compatibility through SQL in both directions: rows
// inserted with SQL are read by pyfluss's scanner and found by its lookups, and rows
// written by pyfluss are read by SELECT (scan and lookup).
func TestInteropWithPyfluss(t *testing.T) {
	db, dbName := openTestDB(t)
	const n = 2000

	// Log table: SQL writes, pyfluss scans.
	_, err := db.Exec(`CREATE TABLE ` + dbName + `.sql_log (id INT, name STRING, value BIGINT) WITH ('bucket.num' = '3')`)
	require.NoError(t, err)
	tx, err := db.Begin()
	require.NoError(t, err)
	for i := 0; i < n; i++ {
		_, err := tx.Exec(`INSERT INTO `+dbName+`.sql_log VALUES (?, ?, ?)`, i, fmt.Sprintf("go-%d", i), int64(i)*3)
		require.NoError(t, err)
	}
	require.NoError(t, tx.Commit())
	res := pyfluss(t, "sql_interop.py", "scan", "--db", dbName, "--table", "sql_log", "--buckets", "3")
	require.EqualValues(t, n, res["count"])
	for i, r := range res["rows"].([]any) {
		row := r.([]any)
		require.Equal(t, []any{float64(i), fmt.Sprintf("go-%d", i), float64(i * 3)}, row)
	}

	// Log table: pyfluss writes, SQL scans.
	_, err = db.Exec(`CREATE TABLE ` + dbName + `.py_log (id INT, name STRING, value BIGINT) WITH ('bucket.num' = '2')`)
	require.NoError(t, err)
	pyfluss(t, "sql_interop.py", "append", "--db", dbName, "--table", "py_log", "--count", fmt.Sprint(n), "--prefix", "py")
	rows, err := db.Query(`SELECT id, name, value FROM ` + dbName + `.py_log`)
	require.NoError(t, err)
	seen := map[int32]bool{}
	for rows.Next() {
		var id int32
		var name string
		var value int64
		require.NoError(t, rows.Scan(&id, &name, &value))
		assert.Equal(t, fmt.Sprintf("py-%d", id), name)
		assert.Equal(t, int64(id)*3, value)
		assert.False(t, seen[id], "duplicate id %d", id)
		seen[id] = true
	}
	require.NoError(t, rows.Err())
	assert.Len(t, seen, n)

	// Primary-key table: SQL upserts, pyfluss looks up. One bucket: pyfluss 1.0.0 hashes
	// keys with fluss-rust's Murmur variant, which zero-extends the tail bytes where Java
	// sign-extends them (fluss-rust/crates/fluss/src/util/murmur_hash.rs: `*byte as u32`),
	// so for keys whose encoding ends in a byte >= 0x80 (INT 128, for one) pyfluss and the
	// Java client pick different buckets. flussql follows Java (fluss/internal/bucketing is
	// tested against vectors from the Java client), so with several buckets such keys
	// written by one side are not found by the other; with one bucket the key bytes alone
	// are compared.
	_, err = db.Exec(`CREATE TABLE ` + dbName + `.users (id INT, name STRING, score BIGINT, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket.num' = '1')`)
	require.NoError(t, err)
	tx, err = db.Begin()
	require.NoError(t, err)
	for i := 0; i < n; i++ {
		_, err := tx.Exec(`UPSERT INTO `+dbName+`.users VALUES (?, ?, ?)`, i, fmt.Sprintf("go-%d", i), int64(i)*7)
		require.NoError(t, err)
	}
	require.NoError(t, tx.Commit())
	res = pyfluss(t, "pyfluss_kv.py", "lookup", "--db", dbName, "--table", "users", "--start", "0", "--count", fmt.Sprint(n), "--prefix", "go")
	assert.EqualValues(t, n, res["found"], "pyfluss found every key upserted through SQL: %v", res)
	assert.EqualValues(t, 0, res["wrong_count"], "%v", res)

	// Primary-key table: pyfluss upserts, SQL looks up.
	pyfluss(t, "pyfluss_kv.py", "upsert", "--db", dbName, "--table", "users", "--start", fmt.Sprint(n), "--count", "500", "--prefix", "py")
	var ids []string
	for i := n; i < n+500; i++ {
		ids = append(ids, fmt.Sprint(i))
	}
	got := queryStrings(t, db, `SELECT id, name, score FROM `+dbName+`.users WHERE id IN (`+strings.Join(ids, ",")+`)`)
	require.Len(t, got, 500)
	for _, r := range got {
		var id int
		fmt.Sscan(r[0], &id)
		assert.Equal(t, []string{r[0], fmt.Sprintf("py-%d", id), fmt.Sprint(id * 7)}, r)
	}
}
