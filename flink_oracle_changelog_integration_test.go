package flussql_test

import (
	"context"
	"database/sql"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// flinkChangelogColumns (a part of TestFlinkOracle, which shares its database and Flink
// session) reads the virtual tables `t$changelog` and `t$binlog` through both engines — Flink
// streaming, stopped after the known number of changes — and compares the column names, the
// types and every row, metadata columns (_change_type, _log_offset, _commit_timestamp)
// included: of a log table, and of a primary-key table after inserts, updates and deletes.
func flinkChangelogColumns(ctx context.Context, t *testing.T, db *sql.DB, fl *flinkSession, dbName string) {
	exec := func(q string) {
		t.Helper()
		_, err := db.ExecContext(ctx, q)
		require.NoError(t, err, q)
	}
	logT, pkT := dbName+".events", dbName+".accounts"
	exec("CREATE TABLE " + logT + " (id INT, name STRING, amount DECIMAL(10, 2)) WITH ('bucket.num' = '1')")
	exec("INSERT INTO " + logT + " VALUES (1, 'a', 1.50), (2, NULL, -3.00), (3, 'c', NULL)")
	exec("CREATE TABLE " + pkT + " (id INT, name STRING, balance BIGINT, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket.num' = '1')")
	exec("INSERT INTO " + pkT + " VALUES (1, 'ann', 10), (2, 'bob', 20), (3, 'cy', NULL)")
	exec("UPDATE " + pkT + " SET balance = 15 WHERE id = 1")
	exec("DELETE FROM " + pkT + " WHERE id = 2")
	exec("INSERT INTO " + pkT + " VALUES (3, 'cy', 30)")

	catalog := "flussql_" + dbName
	// The binlog's before and after are ROWs: their fields, one column each.
	binlogCols := "_change_type, _log_offset, _commit_timestamp, `before`.id AS b_id, `before`.name AS b_name, `before`.balance AS b_balance, " +
		"`after`.id AS a_id, `after`.name AS a_name, `after`.balance AS a_balance"
	for _, c := range []struct {
		table, cols string
		n           int // changes: 3 inserts; 3 inserts + 2 updates (before and after) + 1 delete
	}{
		{"events$changelog", "*", 3},
		{"accounts$changelog", "*", 3 + 2*2 + 1},
		{"accounts$binlog", binlogCols, 3 + 2 + 1},
	} {
		t.Run(c.table, func(t *testing.T) {
			q := "SELECT " + c.cols + " FROM %s`" + c.table + "`"
			ours, err := flussqlAnswer(ctx, db, fmt.Sprintf(q, dbName+"."))
			require.NoError(t, err)
			read := fl.streamRows(ctx, t, fmt.Sprintf(q, catalog+"."+dbName+"."), c.n)
			rows, err := db.QueryContext(ctx, fmt.Sprintf(q, dbName+".")+" LIMIT 0")
			require.NoError(t, err)
			names, err := rows.Columns()
			require.NoError(t, err)
			rows.Close()
			assert.Equal(t, read.names, names, "column names")
			assert.Equal(t, read.types, ours.types, "column types: Flink's, then flussql's")
			assert.ElementsMatch(t, normalizeRows(read.rows, read.types), normalizeRows(ours.rows, read.types),
				"rows: Flink's, then flussql's")
		})
	}
}
