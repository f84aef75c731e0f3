package flussql_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss"
)

// TestAlterTableAddAggColumn: ALTER TABLE … ADD (…) WITH ('fields.<col>.agg' = …) adds
// columns with their aggregate functions to an aggregation table on Fluss 1.0 (rows merge
// with the new functions, SHOW CREATE TABLE and DESCRIBE show them); on 0.9 it is refused
// before anything changes, naming the server's release (its ALTER TABLE would add the
// column without the function). Mistakes are refused on every server.
func TestAlterTableAddAggColumn(t *testing.T) {
	db, dbName := openTestDB(t)
	tbl := createTable(t, db, dbName, "addagg", `id INT, total BIGINT, PRIMARY KEY (id) NOT ENFORCED`,
		`'bucket.num' = '1', 'table.merge-engine' = 'aggregation', 'fields.total.agg' = 'sum'`)
	full := dbName + "." + tbl
	logTbl := createTable(t, db, dbName, "addagg_log", `id INT`, `'bucket.num' = '1'`)

	for _, tt := range []struct{ stmt, want string }{
		{`ALTER TABLE ` + full + ` ADD (c BIGINT) WITH ('table.log.ttl' = '1d')`, "is not one (set table options with ALTER TABLE"},
		{`ALTER TABLE ` + full + ` ADD (c BIGINT) WITH ('fields.total.agg' = 'max')`, `"total" is not an added column`},
		{`ALTER TABLE ` + full + ` ADD (c BIGINT) WITH ('fields.c.agg' = 'median')`, "unknown aggregate function"},
		{`ALTER TABLE ` + full + ` ADD (c BOOLEAN) WITH ('fields.c.agg' = 'sum')`, "which sum cannot aggregate"},
		{`ALTER TABLE ` + dbName + "." + logTbl + ` ADD (c BIGINT) WITH ('fields.c.agg' = 'sum')`, "need 'table.merge-engine' = 'aggregation'"},
	} {
		_, err := db.Exec(tt.stmt)
		require.Error(t, err, tt.stmt)
		assert.Contains(t, err.Error(), tt.want, tt.stmt)
	}

	_, err := db.Exec(`INSERT INTO ` + full + ` VALUES (1, 10)`)
	require.NoError(t, err)
	_, err = db.Exec(`ALTER TABLE ` + full + ` ADD (visits BIGINT, tags STRING) WITH ('fields.visits.agg' = 'sum', 'fields.tags.agg' = 'listagg', 'fields.tags.listagg.delimiter' = ';')`)
	if !testServerVersion(t).AtLeast(1, 0) {
		require.Error(t, err)
		assert.True(t, errors.Is(err, fluss.ErrUnsupportedByServer), "%v", err)
		assert.Contains(t, err.Error(), "Fluss 1.0 added aggregate functions to ALTER TABLE's added columns")
		assert.Len(t, queryStrings(t, db, `DESCRIBE `+full), 2, "nothing was added")
		return
	}
	require.NoError(t, err)
	_, err = db.Exec(`INSERT INTO ` + full + ` VALUES (1, 5, 2, 'a'), (1, 1, 3, 'b')`)
	require.NoError(t, err)
	assert.Equal(t, [][]string{{"1", "16", "5", "a;b"}}, queryStrings(t, db, `SELECT * FROM `+full+` WHERE id = 1`),
		"the added columns merge with their functions: sum 2+3, listagg with ';'")
	desc := map[string]string{}
	for _, r := range queryStrings(t, db, `DESCRIBE `+full) {
		desc[r[0]] = r[5]
	}
	assert.Equal(t, map[string]string{"id": "", "total": "sum", "visits": "sum", "tags": "listagg(delimiter=';')"}, desc)
	ddl := queryStrings(t, db, `SHOW CREATE TABLE `+full)[0][1]
	assert.Contains(t, ddl, `'fields.visits.agg' = 'sum'`)
	assert.Contains(t, ddl, `'fields.tags.listagg.delimiter' = ';'`)
}
