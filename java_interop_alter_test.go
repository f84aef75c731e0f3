package flussql_test

import (
	"database/sql"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestJavaInteropAltered checks data written by SQL on both sides of an ALTER TABLE … ADD
// against the official Java client: its LogScanner reads every row of a log table whose
// batches carry two schema ids, and its Lookuper finds every key of a primary-key table
// whose rows were upserted under two schema ids, with the right values.
func TestJavaInteropAltered(t *testing.T) {
	j := newJavaClient(t)
	db, dbName := openTestDB(t)
	const n = 1000
	insert := func(table, cols, placeholders string, from, to int, row func(i int) []any) {
		t.Helper()
		tx, err := db.Begin()
		require.NoError(t, err)
		st, err := tx.Prepare(`INSERT INTO ` + dbName + `.` + table + ` (` + cols + `) VALUES (` + placeholders + `)`)
		require.NoError(t, err)
		for i := from; i < to; i++ {
			_, err := st.Exec(row(i)...)
			require.NoError(t, err)
		}
		require.NoError(t, tx.Commit())
	}

	t.Run("log", func(t *testing.T) {
		table := createTable(t, db, dbName, "altered_log", `id INT, name STRING, value BIGINT`, `'bucket.num' = '2'`)
		insert(table, "id, name, value", "?, ?, ?", 0, n/2, func(i int) []any { return []any{i, fmt.Sprintf("go-%d", i), int64(i) * 3} })
		_, err := db.Exec(`ALTER TABLE ` + dbName + `.` + table + ` ADD email STRING`)
		require.NoError(t, err)
		insert(table, "id, name, value, email", "?, ?, ?, ?", n/2, n, func(i int) []any {
			return []any{i, fmt.Sprintf("go-%d", i), int64(i) * 3, sql.NullString{String: "e", Valid: i%2 == 0}}
		})
		res := j.run(t, "scan", dbName, table)
		require.EqualValues(t, n, res["count"])
		seen := map[int64]bool{}
		for _, r := range scanRows(t, res) {
			assert.Equal(t, fmt.Sprintf("go-%d", r.ID), r.Name)
			assert.Equal(t, r.ID*3, r.Value)
			seen[r.ID] = true
		}
		assert.Len(t, seen, n, "every id read once")
	})

	t.Run("pk", func(t *testing.T) {
		table := createTable(t, db, dbName, "altered_pk", `id INT NOT NULL, name STRING, score BIGINT, PRIMARY KEY (id) NOT ENFORCED`, `'bucket.num' = '4'`)
		insert(table, "id, name, score", "?, ?, ?", 0, n/2, func(i int) []any { return []any{i, fmt.Sprintf("go-%d", i), int64(i) * 7} })
		_, err := db.Exec(`ALTER TABLE ` + dbName + `.` + table + ` ADD note STRING`)
		require.NoError(t, err)
		insert(table, "id, name, score, note", "?, ?, ?, ?", n/2, n, func(i int) []any { return []any{i, fmt.Sprintf("go-%d", i), int64(i) * 7, "new"} })
		res := j.run(t, "lookup", dbName, table, "0", fmt.Sprint(n), "go")
		assert.EqualValues(t, n, res["found"], "the Java client finds keys upserted under both schemas: %v", res)
		assert.EqualValues(t, 0, res["wrong"], "%v", res["first_wrong"])
	})
}
