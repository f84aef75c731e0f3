package flussql_test

import (
	"database/sql"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestJavaInteropStatistics checks log tables with column statistics
// ('table.statistics.columns' = '*', Fluss 1.0) against the official Java
// client in both directions: the Java AppendWriter writes magic-1 batches
// with statistics, which SELECT reads exactly once each and whose statistics
// the server uses for a pushed filter; the magic-1 batches flussql writes are
// read by the Java LogScanner. On older servers the tables have no
// statistics and the same checks run on magic-0 batches.
func TestJavaInteropStatistics(t *testing.T) {
	j := newJavaClient(t)
	db, dbName := openTestDB(t)
	v := testServerVersion(t)
	with := `'bucket.num' = '2'`
	if v.AtLeast(1, 0) {
		with += `, 'table.statistics.columns' = '*'`
	}
	const logColumns = `id INT, name STRING, value BIGINT`
	javaLog := createTable(t, db, dbName, "java_stats", logColumns, with)
	sqlLog := createTable(t, db, dbName, "sql_stats", logColumns, with)
	const batchBytes = 16 << 10

	// Java appends, SQL reads (whole and with a pushed filter).
	res := j.with(fmt.Sprintf("client.writer.batch-size=%db", batchBytes)).run(t, "append", dbName, javaLog, "0", fmt.Sprint(javaInteropKeys), "java")
	require.EqualValues(t, javaInteropKeys, res["written"])
	got := queryStrings(t, db, `SELECT id, name, value FROM `+dbName+`.`+javaLog)
	checkLogRows(t, toJavaRows(t, got), "java")
	q := `SELECT id FROM ` + dbName + `.` + javaLog + ` WHERE id >= 100 AND id < 150`
	assert.Len(t, queryStrings(t, db, q), 50, q)
	plan := strings.Join(flatten(queryStrings(t, db, `EXPLAIN `+q)), "\n")
	if v.AtLeast(1, 0) {
		assert.Contains(t, plan, "server filter: (id >= 100 AND id < 150)")
	} else {
		assert.NotContains(t, plan, "server filter:")
	}

	// SQL inserts (magic-1 batches with statistics on 1.0), Java scans.
	small, err := sql.Open("fluss", fmt.Sprintf("fluss://%s/fluss?write_batch_size=%d", j.bootstrap, batchBytes))
	require.NoError(t, err)
	defer small.Close()
	tx, err := small.Begin()
	require.NoError(t, err)
	insert, err := tx.Prepare(`INSERT INTO ` + dbName + `.` + sqlLog + ` VALUES (?, ?, ?)`)
	require.NoError(t, err)
	for i := 0; i < javaInteropKeys; i++ {
		_, err := insert.Exec(i, fmt.Sprintf("go-%d", i), int64(i)*3)
		require.NoError(t, err)
	}
	require.NoError(t, tx.Commit())
	res = j.run(t, "scan", dbName, sqlLog)
	require.EqualValues(t, javaInteropKeys, res["count"])
	checkLogRows(t, scanRows(t, res), "go")
}

// toJavaRows reads SELECT id, name, value answers as javaRows.
func toJavaRows(t *testing.T, got [][]string) []javaRow {
	rows := make([]javaRow, 0, len(got))
	for _, r := range got {
		var row javaRow
		_, err := fmt.Sscan(r[0], &row.ID)
		require.NoError(t, err)
		row.Name = r[1]
		_, err = fmt.Sscan(r[2], &row.Value)
		require.NoError(t, err)
		rows = append(rows, row)
	}
	return rows
}
