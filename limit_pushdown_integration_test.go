package flussql_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/planner"
)

// TestLimitNeverDropsMatchingRows is the statement a user typed after the refusal of a
// filtered scan advised LIMIT: on a primary-key table of 4 buckets with ids 1…1000, a
// limit scan read 5 rows of each bucket and filtered them afterwards, so WHERE name =
// 'user500' LIMIT 5 returned no row and no error. Now a filter on other columns than the
// partition keys never stands above a limit scan: Fluss 1.0 answers with a KV scan, older
// servers refuse without suggesting LIMIT. Without WHERE, LIMIT still reads a few rows of
// each bucket.
func TestLimitNeverDropsMatchingRows(t *testing.T) {
	db, dbName := openTestDB(t)
	tbl := dbName + ".u"
	_, err := db.Exec(`CREATE TABLE ` + tbl + ` (id INT, name STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket.num' = '4')`)
	require.NoError(t, err)
	vals := make([]string, 0, 1000)
	for i := 1; i <= 1000; i++ {
		vals = append(vals, fmt.Sprintf("(%d, 'user%d')", i, i))
	}
	_, err = db.Exec(`INSERT INTO ` + tbl + ` VALUES ` + strings.Join(vals, ", "))
	require.NoError(t, err)

	assert.Equal(t, [][]string{{"500"}}, queryStrings(t, db, `SELECT id FROM `+tbl+` WHERE id = 500`))
	assert.Len(t, queryStrings(t, db, `SELECT id FROM `+tbl+` LIMIT 5`), 5, "LIMIT without WHERE")

	for _, q := range []string{
		`SELECT id FROM ` + tbl + ` WHERE name = 'user500' LIMIT 5`,
		`SELECT id FROM ` + tbl + ` WHERE name = 'user500' LIMIT 5 OFFSET 0`,
		`SELECT UPPER(name) AS n FROM ` + tbl + ` WHERE id * 2 = 1000 LIMIT 1`,
		`SELECT x.id FROM (SELECT id, name FROM ` + tbl + ` WHERE name LIKE 'user500') x LIMIT 5`,
	} {
		rows, err := db.Query(q)
		if !testServerVersion(t).AtLeast(1, 0) {
			require.Error(t, err, q)
			assert.ErrorIs(t, err, planner.ErrNeedsFullScan, q)
			assert.NotContains(t, err.Error(), "add LIMIT", "the advice must not lead to a wrong answer: %s", q)
			continue
		}
		require.NoError(t, err, q)
		var got []string
		for rows.Next() {
			var v string
			require.NoError(t, rows.Scan(&v))
			got = append(got, v)
		}
		require.NoError(t, rows.Err())
		require.NoError(t, rows.Close())
		require.Len(t, got, 1, q)
		assert.Contains(t, []string{"500", "USER500"}, got[0], q)
	}
}
