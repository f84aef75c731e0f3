package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/flusstest/realcluster"
)

// TestClusterDescribePlus: \d+ of a primary-key table adds its bucket offsets and KV
// snapshots to \d, and no partitions section (it has none); a log table gets no KV
// snapshots section. (The partitioned case is in the psql-habits golden.)
func TestClusterDescribePlus(t *testing.T) {
	if !realcluster.Configured() {
		t.Skip("FLUSS_BOOTSTRAP_SERVERS is not set")
	}
	dsn, _ := clusterDB(t)
	code, out := runCluster(t, dsn, "CREATE TABLE pk (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket.num' = '2');\n"+
		"CREATE TABLE lg (id INT);\n\\d+ pk\n\\echo @@ log table @@\n\\d+ lg\n")
	require.Equal(t, exitOK, code, out)
	pk, lg, ok := strings.Cut(out, "@@ log table @@\n")
	require.True(t, ok, out)
	assert.Contains(t, pk, "PRIMARY KEY")
	assert.Contains(t, pk, "'bucket.num' = '2'")
	assert.NotContains(t, pk, "Partitions:")
	assert.Regexp(t, `Offsets:\n bucket \| earliest \| latest\n-+\+-+\+-+\n +0 \|[^\n]*\n +1 \|[^\n]*\n\(2 rows\)`, pk)
	assert.Contains(t, pk, "KV snapshots:\n")
	assert.Contains(t, lg, "Offsets:\n")
	assert.NotContains(t, lg, "KV snapshots:")

	code, out = runCluster(t, dsn, "\\d+ no_such_table\n")
	assert.Equal(t, exitError, code)
	assert.Contains(t, out, "no_such_table")
}
