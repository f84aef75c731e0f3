package flussql_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql"
	"github.com/flussql/flussql/fluss/flusserr"
)

// TestAlterTableSQL adds columns to a log table and a primary-key table holding rows,
// writes through a statement prepared before the ALTER and through new ones, and reads
// everything back: rows written before have NULL in the new columns. It also sets and
// resets properties and checks the errors a user acts on.
func TestAlterTableSQL(t *testing.T) {
	db, dbName := openTestDB(t)
	ctx := context.Background()
	for _, tc := range []struct{ name, key, where string }{
		{name: "log", key: ""},
		{name: "pk", key: ", PRIMARY KEY (id) NOT ENFORCED", where: " WHERE id IN (1, 2, 3, 4)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			table := dbName + ".alter_" + tc.name
			_, err := db.Exec(`CREATE TABLE ` + table + ` (id INT NOT NULL, name STRING` + tc.key + `) WITH ('bucket.num' = '2')`)
			require.NoError(t, err)
			_, err = db.Exec(`INSERT INTO ` + table + ` VALUES (1, 'one')`)
			require.NoError(t, err)

			// A second connection keeps a prepared INSERT planned on the old schema.
			conn, err := db.Conn(ctx)
			require.NoError(t, err)
			defer conn.Close()
			old, err := conn.PrepareContext(ctx, `INSERT INTO `+table+` (id, name) VALUES (?, ?)`)
			require.NoError(t, err)
			_, err = old.Exec(2, "two")
			require.NoError(t, err)

			_, err = db.Exec(`ALTER TABLE ` + table + ` ADD (email STRING COMMENT 'contact', tags ARRAY<STRING>)`)
			require.NoError(t, err)
			_, err = db.Exec(`INSERT INTO ` + table + ` VALUES (3, 'three', 'c@example.com', ARRAY['x'])`)
			require.NoError(t, err)
			_, err = old.Exec(4, "four") // planned before the ALTER: re-planned, new columns NULL
			require.NoError(t, err)

			got := queryStrings(t, db, `SELECT id, name, email FROM `+table+tc.where)
			assert.ElementsMatch(t, [][]string{{"1", "one", "NULL"}, {"2", "two", "NULL"}, {"3", "three", "c@example.com"}, {"4", "four", "NULL"}}, got)
			var tags []string
			require.NoError(t, db.QueryRow(`SELECT tags FROM `+table+` WHERE id = 3`).Scan(flussql.Array(&tags)))
			assert.Equal(t, []string{"x"}, tags)

			var name, create string
			require.NoError(t, db.QueryRow(`SHOW CREATE TABLE `+table).Scan(&name, &create))
			assert.Contains(t, create, "email STRING COMMENT 'contact', tags ARRAY<STRING>")

			_, err = db.Exec(`ALTER TABLE ` + table + ` ADD email STRING`)
			require.ErrorContains(t, err, `column "email" already exists`)
			_, err = db.Exec(`ALTER TABLE ` + table + ` ADD phone STRING NOT NULL`)
			require.ErrorContains(t, err, "Fluss adds only nullable columns")
		})
	}

	table := dbName + ".alter_log"
	_, err := db.Exec(`ALTER TABLE ` + table + ` SET ('owner' = 'ops', 'team' = 'data')`)
	require.NoError(t, err)
	var name, create string
	require.NoError(t, db.QueryRow(`SHOW CREATE TABLE `+table).Scan(&name, &create))
	assert.Contains(t, create, "'owner' = 'ops'")
	_, err = db.Exec(`ALTER TABLE ` + table + ` RESET ('owner')`)
	require.NoError(t, err)
	require.NoError(t, db.QueryRow(`SHOW CREATE TABLE `+table).Scan(&name, &create))
	assert.NotContains(t, create, "'owner'")
	assert.Contains(t, create, "'team' = 'data'")

	// Fluss 0.9.1 alters 3 table.* options, 1.0 alters 12, table.log.ttl among them.
	_, err = db.Exec(`ALTER TABLE ` + table + ` SET ('table.log.ttl' = '1d')`)
	if v := testServerVersion(t); v.AtLeast(1, 0) {
		require.NoError(t, err, "Fluss %s alters table.log.ttl", v)
		require.NoError(t, db.QueryRow(`SHOW CREATE TABLE `+table).Scan(&name, &create))
		assert.Contains(t, create, "'table.log.ttl' = '1d'")
	} else {
		require.ErrorIs(t, err, flusserr.InvalidAlterTableException)
		require.ErrorContains(t, err, "Fluss "+v.String()+" alters only table.datalake.enabled, table.datalake.freshness, table.log.tiered.local-segments")
	}
	_, err = db.Exec(`ALTER TABLE ` + table + ` SET ('table.log.format' = 'INDEXED')`)
	require.ErrorIs(t, err, flusserr.InvalidAlterTableException, "no Fluss release alters the log format")
	_, err = db.Exec(`ALTER TABLE ` + dbName + `.nosuch ADD c INT`)
	require.ErrorContains(t, err, "does not exist")
	_, err = db.Exec(`ALTER TABLE IF EXISTS ` + dbName + `.nosuch ADD c INT`)
	require.NoError(t, err)
}
