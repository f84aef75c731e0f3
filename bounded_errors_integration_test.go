package flussql_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql"
	"github.com/flussql/flussql/fluss"
)

// TestOversizedRowIsNotWritten: a row larger than one request to the server may carry was
// resent until its connection reset (ErrOutcomeUnknown after 30 s). It is refused before
// anything is sent, as not written, naming the server's limit; the table stays empty and
// the error does not echo the value.
func TestOversizedRowIsNotWritten(t *testing.T) {
	db, dbName := openTestDB(t)
	logT, pkT := dbName+".big_log", dbName+".big_kv"
	_, err := db.Exec(`CREATE TABLE ` + logT + ` (id INT, body STRING)`)
	require.NoError(t, err)
	_, err = db.Exec(`CREATE TABLE ` + pkT + ` (id INT, body STRING, PRIMARY KEY (id) NOT ENFORCED)`)
	require.NoError(t, err)
	huge := strings.Repeat("x", 110<<20)
	for _, tbl := range []string{logT, pkT} {
		_, err := db.Exec(`INSERT INTO `+tbl+` VALUES (1, ?)`, huge)
		require.Error(t, err, tbl)
		assert.ErrorIs(t, err, flussql.ErrNotWritten, tbl)
		assert.ErrorIs(t, err, fluss.ErrRecordTooLarge, tbl)
		assert.Contains(t, err.Error(), "netty.server.max-request-size", tbl)
		assert.Less(t, len(err.Error()), 2048, "the error does not echo the value")
		// The writer is still usable, and nothing of the refused row was stored.
		_, err = db.Exec(`INSERT INTO ` + tbl + ` VALUES (2, 'small')`)
		require.NoError(t, err, tbl)
	}
	assert.Equal(t, [][]string{{"1"}}, queryStrings(t, db, `SELECT COUNT(*) FROM `+logT))
	assert.Equal(t, [][]string{{"2", "small"}}, queryStrings(t, db, `SELECT * FROM `+pkT+` WHERE id IN (1, 2)`))
}

// TestErrorsEchoInputBounded: a 1 MB identifier came back inside a 4 MB error text. Errors
// quote user input only in bounded form.
func TestErrorsEchoInputBounded(t *testing.T) {
	db, dbName := openTestDB(t)
	name := strings.Repeat("n", 1<<20)
	for _, q := range []string{
		`SELECT * FROM ` + dbName + `.` + name,
		`SELECT ` + name + ` FROM ` + dbName + `.missing`,
		`INSERT INTO ` + dbName + `.` + name + ` VALUES (1)`,
		`SELECT '` + name + `' + 1`,
	} {
		_, err := db.Exec(q)
		require.Error(t, err)
		assert.Less(t, len(err.Error()), 8192, "error text of %.60s…", q)
		if strings.Contains(err.Error(), name[:300]) {
			assert.Contains(t, err.Error(), "bytes left out", "where the name is quoted, the error says what it left out")
		}
	}
}
