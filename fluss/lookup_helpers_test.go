package fluss_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/types"
)

// usersSchema is the "users" shape shared with testdata/interop/pyfluss_kv.py:
// (id INT, name STRING, score BIGINT), primary key id.
func usersSchema() types.Schema {
	return types.Schema{
		Columns: []types.Column{
			{Name: "id", Type: types.NewInt().AsNotNull()},
			{Name: "name", Type: types.NewString()},
			{Name: "score", Type: types.NewBigInt()},
		},
		PrimaryKey: []string{"id"},
	}
}

// userRow is the row pyfluss_kv.py generates for id.
func userRow(id int, prefix string) []any {
	return []any{int32(id), fmt.Sprintf("%s-%d", prefix, id), int64(id) * 7}
}

// createUsersTable creates a users table with the given bucket count in a
// fresh database and returns its path.
func createUsersTable(t *testing.T, c *fluss.Client, buckets int) fluss.TablePath {
	t.Helper()
	db := tempDatabase(t, c.Admin())
	path := fluss.TablePath{Database: db, Table: "users"}
	require.NoError(t, c.Admin().CreateTable(testCtx(t), path, fluss.TableDescriptor{Schema: usersSchema(), BucketCount: buckets}, false))
	return path
}

// runPyKV runs testdata/interop/pyfluss_kv.py and decodes its JSON answer.
// It skips the test when python3 or pyfluss is not available.
func runPyKV(t *testing.T, out any, args ...string) {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed")
	}
	if err := exec.Command(py, "-c", "import fluss").Run(); err != nil {
		t.Skip("pyfluss (import fluss) is not installed")
	}
	script, err := filepath.Abs("../testdata/interop/pyfluss_kv.py")
	require.NoError(t, err)
	cmd := exec.Command(py, append([]string{script}, args...)...)
	cmd.Env = append(os.Environ(), "FLUSS_BOOTSTRAP_SERVERS="+bootstrap(t)[0])
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err = cmd.Run()
	require.NoError(t, err, "pyfluss_kv.py %v: %s", args, stderr.String())
	t.Logf("pyfluss_kv.py %v took %v", args, time.Since(start).Round(time.Millisecond))
	require.NoError(t, json.Unmarshal(stdout.Bytes(), out), "pyfluss output: %s", stdout.String())
}

// pyLookupResult is the answer of pyfluss_kv.py lookup.
type pyLookupResult struct {
	Checked      int   `json:"checked"`
	Found        int   `json:"found"`
	Missing      []int `json:"missing"`
	MissingCount int   `json:"missing_count"`
	Wrong        []any `json:"wrong"`
	WrongCount   int   `json:"wrong_count"`
}

// openTable returns a handle on the table.
func openTable(t *testing.T, c *fluss.Client, path fluss.TablePath) *fluss.Table {
	t.Helper()
	tb, err := c.Table(testCtx(t), path)
	require.NoError(t, err)
	return tb
}

// newLookuper returns a Lookuper on the table.
func newLookuper(t *testing.T, c *fluss.Client, path fluss.TablePath) *fluss.Lookuper {
	t.Helper()
	l, err := openTable(t, c, path).NewLookuper()
	require.NoError(t, err)
	return l
}

// colTypes returns the types of cols.
func colTypes(cols []types.Column) []types.DataType {
	out := make([]types.DataType, len(cols))
	for i, c := range cols {
		out[i] = c.Type
	}
	return out
}
