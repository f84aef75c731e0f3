package flussql_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss"
)

// TestAlterDatabaseAndClusterHealth: ALTER DATABASE and SHOW CLUSTER HEALTH on a 1.0 server,
// and on 0.9 an error that names the API and the server's release.
func TestAlterDatabaseAndClusterHealth(t *testing.T) {
	db, dbName := openTestDB(t)
	v := testServerVersion(t)

	create := queryStrings(t, db, `SHOW CREATE DATABASE `+dbName)
	require.Len(t, create, 1)
	assert.Equal(t, "CREATE DATABASE "+dbName, create[0][0])

	_, err := db.Exec(`ALTER DATABASE ` + dbName + ` SET ('owner' = 'data-team', 'tier' = 'gold')`)
	if !v.AtLeast(1, 0) {
		require.Error(t, err)
		assert.True(t, errors.Is(err, fluss.ErrUnsupportedByServer), "%v", err)
		assert.Contains(t, err.Error(), "ALTER_DATABASE(1060) API, which Fluss 1.0 added")
		assert.Contains(t, err.Error(), "it speaks Fluss 0.9")
		_, err = db.Query(`SHOW CLUSTER HEALTH`)
		require.Error(t, err)
		assert.True(t, errors.Is(err, fluss.ErrUnsupportedByServer), "%v", err)
		assert.Contains(t, err.Error(), "GET_CLUSTER_HEALTH(1062)")
		return
	}
	require.NoError(t, err)
	assert.Equal(t, [][]string{{"CREATE DATABASE " + dbName + " WITH ('owner' = 'data-team', 'tier' = 'gold')"}},
		queryStrings(t, db, `SHOW CREATE DATABASE `+dbName))
	_, err = db.Exec(`ALTER DATABASE ` + dbName + ` RESET ('tier')`)
	require.NoError(t, err)
	_, err = db.Exec(`ALTER DATABASE ` + dbName + ` COMMENT 'orders and users'`)
	require.NoError(t, err)
	assert.Equal(t, [][]string{{"CREATE DATABASE " + dbName + " COMMENT 'orders and users' WITH ('owner' = 'data-team')"}},
		queryStrings(t, db, `SHOW CREATE DATABASE `+dbName))

	_, err = db.Exec(`ALTER DATABASE ` + dbName + `_nope SET ('a' = 'b')`)
	require.Error(t, err)
	assert.True(t, errors.Is(err, fluss.ErrDatabaseNotExist), "%v", err)
	_, err = db.Exec(`ALTER DATABASE IF EXISTS ` + dbName + `_nope SET ('a' = 'b')`)
	require.NoError(t, err, "IF EXISTS ignores a missing database")

	health := queryStrings(t, db, `SHOW CLUSTER HEALTH`)
	require.Len(t, health, 1)
	assert.Equal(t, "GREEN", health[0][0], "a healthy local cluster: %v", health[0])
	assert.Equal(t, health[0][1], health[0][2], "every replica in sync")
	assert.Equal(t, health[0][3], health[0][4], "every leader active")
}
