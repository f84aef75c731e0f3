package flussql_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql"
	"github.com/flussql/flussql/fluss"
)

// TestFullScanNamesTheServer: a query only a full scan of a primary-key table could answer
// runs as a KV scan on a 1.0 server (TestKvScanSQL tests it further); a 0.9 server has no
// SCAN_KV, and the query is refused with fluss.ErrUnsupportedByServer naming its release
// line.
func TestFullScanNamesTheServer(t *testing.T) {
	db, dbName := openTestDB(t)
	v := testServerVersion(t)
	_, err := db.Exec(`CREATE TABLE ` + dbName + `.kv (id INT NOT NULL, name STRING, PRIMARY KEY (id) NOT ENFORCED)`)
	require.NoError(t, err)
	for _, q := range []string{
		`SELECT * FROM ` + dbName + `.kv`,
		`SELECT COUNT(*) FROM ` + dbName + `.kv`,
		`SELECT id FROM ` + dbName + `.kv WHERE name = 'x'`,
	} {
		t.Run(q, func(t *testing.T) {
			rows, err := db.Query(q)
			if v.AtLeast(1, 0) {
				require.NoError(t, err, "1.0 offers SCAN_KV")
				defer rows.Close()
				for rows.Next() {
				}
				require.NoError(t, rows.Err())
				return
			}
			if err == nil {
				rows.Close()
			}
			require.Error(t, err)
			assert.ErrorContains(t, err, "Fluss 1.0+ (ScanKv)")
			assert.ErrorContains(t, err, "the server speaks Fluss "+v.String())
			assert.ErrorIs(t, err, fluss.ErrUnsupportedByServer)
			assert.False(t, errors.Is(err, flussql.ErrNotSupported))
			assert.ErrorContains(t, err, "which has no SCAN_KV")
		})
	}
}
