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
// is refused, saying what the connected server offers: a 0.9 server has no SCAN_KV
// (fluss.ErrUnsupportedByServer, naming its release line); a 1.0 server has it, but flussql
// does not use it yet (flussql.ErrNotSupported).
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
			if err == nil {
				rows.Close()
			}
			require.Error(t, err)
			assert.ErrorContains(t, err, "Fluss 1.0+ (ScanKv)")
			assert.ErrorContains(t, err, "the server speaks Fluss "+v.String())
			if v.AtLeast(1, 0) {
				assert.ErrorIs(t, err, flussql.ErrNotSupported)
				assert.False(t, errors.Is(err, fluss.ErrUnsupportedByServer))
				assert.ErrorContains(t, err, "offers SCAN_KV, which flussql does not use yet")
			} else {
				assert.ErrorIs(t, err, fluss.ErrUnsupportedByServer)
				assert.False(t, errors.Is(err, flussql.ErrNotSupported))
				assert.ErrorContains(t, err, "which has no SCAN_KV")
			}
		})
	}
}
