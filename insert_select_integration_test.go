package flussql_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql"
	"github.com/flussql/flussql/fluss/flusstest/realcluster"
)

// TestInsertSelect writes the results of queries into tables end to end: log to log with
// a filter, an aggregate and a join, into a primary-key table (latest wins), into a
// partitioned table, with a column list and implicit widening; a type error writes nothing;
// reading and writing the same table ends; a cancelled statement stops.
func TestInsertSelect(t *testing.T) {
	db, dbName := openTestDB(t)
	q := func(name string) string { return dbName + "." + name }
	mustExec := func(s string, args ...any) sql.Result {
		t.Helper()
		res, err := db.Exec(s, args...)
		require.NoError(t, err, s)
		return res
	}
	affected := func(res sql.Result) int64 {
		t.Helper()
		n, err := res.RowsAffected()
		require.NoError(t, err)
		return n
	}
	mustExec(`CREATE TABLE ` + q("src") + ` (id INT, region STRING, amount INT) WITH ('bucket.num' = '2')`)
	mustExec(`INSERT INTO ` + q("src") + ` VALUES (1, 'US', 10), (2, 'EU', 20), (3, 'US', 30), (4, 'EU', 40), (5, 'XX', 50)`)
	mustExec(`CREATE TABLE ` + q("names") + ` (region STRING, name STRING) WITH ('bucket.num' = '1')`)
	mustExec(`INSERT INTO ` + q("names") + ` VALUES ('US', 'America'), ('EU', 'Europe')`)

	t.Run("filter", func(t *testing.T) {
		mustExec(`CREATE TABLE ` + q("dst") + ` (id INT, region STRING, amount INT)`)
		res := mustExec(`INSERT INTO `+q("dst")+` SELECT * FROM `+q("src")+` WHERE amount > ?`, 15)
		assert.EqualValues(t, 4, affected(res))
		assert.Equal(t, [][]string{{"2", "EU", "20"}, {"3", "US", "30"}, {"4", "EU", "40"}, {"5", "XX", "50"}},
			queryStrings(t, db, `SELECT * FROM `+q("dst")+` ORDER BY id`))
	})
	t.Run("aggregate with a column list and widening", func(t *testing.T) {
		// COUNT(*) is BIGINT into BIGINT, SUM(INT) into DECIMAL; the column left out is NULL.
		mustExec(`CREATE TABLE ` + q("agg") + ` (region STRING, n BIGINT, total DECIMAL(12, 2), note STRING)`)
		res := mustExec(`INSERT INTO ` + q("agg") + ` (region, n, total) SELECT region, COUNT(*), SUM(amount) FROM ` + q("src") + ` GROUP BY region`)
		assert.EqualValues(t, 3, affected(res))
		assert.Equal(t, [][]string{{"EU", "2", "60.00", "NULL"}, {"US", "2", "40.00", "NULL"}, {"XX", "1", "50.00", "NULL"}},
			queryStrings(t, db, `SELECT * FROM `+q("agg")+` ORDER BY region`))
	})
	t.Run("join", func(t *testing.T) {
		mustExec(`CREATE TABLE ` + q("joined") + ` (id BIGINT, name STRING)`)
		res := mustExec(`INSERT INTO ` + q("joined") + ` SELECT s.id, n.name FROM ` + q("src") + ` s JOIN ` + q("names") + ` n ON n.region = s.region`)
		assert.EqualValues(t, 4, affected(res))
		assert.Equal(t, [][]string{{"1", "America"}, {"2", "Europe"}, {"3", "America"}, {"4", "Europe"}},
			queryStrings(t, db, `SELECT * FROM `+q("joined")+` ORDER BY id`))
	})
	t.Run("primary-key table: latest wins", func(t *testing.T) {
		mustExec(`CREATE TABLE ` + q("latest") + ` (region STRING, id INT, PRIMARY KEY (region) NOT ENFORCED) WITH ('bucket.num' = '2')`)
		res := mustExec(`UPSERT INTO ` + q("latest") + ` SELECT region, id FROM ` + q("src") + ` ORDER BY id`)
		assert.EqualValues(t, 5, affected(res))
		got := queryStrings(t, db, `SELECT region, id FROM `+q("latest")+` WHERE region IN ('US', 'EU', 'XX') ORDER BY region`)
		assert.Equal(t, [][]string{{"EU", "4"}, {"US", "3"}, {"XX", "5"}}, got)
		// INSERT into a primary-key table upserts too.
		res = mustExec(`INSERT INTO ` + q("latest") + ` SELECT 'US', 99`)
		assert.EqualValues(t, 1, affected(res))
		assert.Equal(t, [][]string{{"99"}}, queryStrings(t, db, `SELECT id FROM `+q("latest")+` WHERE region = 'US'`))
		// From a primary-key table: a lookup, and a LIMIT read (a limit scan on 0.9, a KV scan on 1.0).
		mustExec(`CREATE TABLE ` + q("frompk") + ` (region STRING, id INT)`)
		res = mustExec(`INSERT INTO ` + q("frompk") + ` SELECT region, id FROM ` + q("latest") + ` WHERE region = 'EU'`)
		assert.EqualValues(t, 1, affected(res))
		res = mustExec(`INSERT INTO ` + q("frompk") + ` SELECT * FROM ` + q("latest") + ` LIMIT 2`)
		assert.EqualValues(t, 2, affected(res))
		assert.Equal(t, [][]string{{"3"}}, queryStrings(t, db, `SELECT COUNT(*) FROM `+q("frompk")))
		if testServerVersion(t).AtLeast(1, 0) {
			// A KV scan reads a snapshot of each bucket: upserting the rows read ends.
			res = mustExec(`UPSERT INTO ` + q("latest") + ` SELECT region, id + 100 FROM ` + q("latest"))
			assert.EqualValues(t, 3, affected(res))
			assert.Equal(t, [][]string{{"EU", "104"}, {"US", "199"}, {"XX", "105"}},
				queryStrings(t, db, `SELECT region, id FROM `+q("latest")+` ORDER BY region`))
		}
	})
	t.Run("partitioned target", func(t *testing.T) {
		mustExec(`CREATE TABLE ` + q("parts") + ` (id INT, region STRING) PARTITIONED BY (region)`)
		mustExec(`ALTER TABLE ` + q("parts") + ` ADD PARTITION (region = 'US')`)
		mustExec(`ALTER TABLE ` + q("parts") + ` ADD PARTITION (region = 'EU')`)
		res := mustExec(`INSERT INTO ` + q("parts") + ` SELECT id, region FROM ` + q("src") + ` WHERE region <> 'XX'`)
		assert.EqualValues(t, 4, affected(res))
		assert.Equal(t, [][]string{{"1", "US"}, {"2", "EU"}, {"3", "US"}, {"4", "EU"}},
			queryStrings(t, db, `SELECT * FROM `+q("parts")+` ORDER BY id`))
		// A missing partition fails the row before it is written, with the statement that creates it.
		_, err := db.Exec(`INSERT INTO ` + q("parts") + ` SELECT id, region FROM ` + q("src") + ` WHERE region = 'XX'`)
		require.Error(t, err)
		assert.ErrorIs(t, err, flussql.ErrNotWritten)
		assert.Contains(t, err.Error(), "ADD PARTITION (region = 'XX')")
		// With partition_auto_create the partition is made on the way.
		auto, err := sql.Open("fluss", "fluss://"+realcluster.Addr(t)+"/"+dbName+"?partition_auto_create=true")
		require.NoError(t, err)
		defer auto.Close()
		res, err = auto.Exec(`INSERT INTO parts SELECT id, region FROM src WHERE region = 'XX'`)
		require.NoError(t, err)
		assert.EqualValues(t, 1, affected(res))
		// (db's catalog cache has not seen the new partition yet: read through auto.)
		assert.Equal(t, [][]string{{"5"}}, queryStrings(t, auto, `SELECT id FROM parts WHERE region = 'XX'`))
	})
	t.Run("type error writes nothing", func(t *testing.T) {
		mustExec(`CREATE TABLE ` + q("narrow") + ` (id INT, region STRING)`)
		_, err := db.Exec(`INSERT INTO ` + q("narrow") + ` SELECT COUNT(*), region FROM ` + q("src") + ` GROUP BY region`)
		require.Error(t, err)
		assert.ErrorIs(t, err, flussql.ErrNotWritten)
		assert.Contains(t, err.Error(), `column "id" is INT`)
		_, err = db.Exec(`INSERT INTO ` + q("narrow") + ` SELECT id FROM ` + q("src"))
		require.Error(t, err)
		assert.ErrorIs(t, err, flussql.ErrNotWritten)
		// A value that does not fit stops the statement at that row, before it is sent.
		_, err = db.Exec(`INSERT INTO ` + q("narrow") + ` SELECT CAST(NULL AS INT), CAST(amount AS STRING) FROM ` + q("src") + ` WHERE id = 1`)
		require.NoError(t, err)
		assert.Equal(t, [][]string{{"NULL", "10"}}, queryStrings(t, db, `SELECT * FROM `+q("narrow")))
	})
	t.Run("same table", func(t *testing.T) {
		// A bounded scan reads up to the end offsets seen when it starts: the rows the
		// statement writes are not read again, so it ends, doubling the table.
		mustExec(`CREATE TABLE ` + q("twice") + ` (id INT) WITH ('bucket.num' = '2')`)
		mustExec(`INSERT INTO ` + q("twice") + ` VALUES (1), (2), (3)`)
		res := mustExec(`INSERT INTO ` + q("twice") + ` SELECT id + 10 FROM ` + q("twice"))
		assert.EqualValues(t, 3, affected(res))
		assert.Equal(t, [][]string{{"6", "42"}}, queryStrings(t, db, `SELECT COUNT(*), SUM(id) FROM `+q("twice")))
	})
	t.Run("explain", func(t *testing.T) {
		got := queryStrings(t, db, `EXPLAIN INSERT INTO `+q("dst")+` SELECT * FROM `+q("src")+` WHERE amount > 15`)
		require.NotEmpty(t, got)
		assert.Contains(t, got[0][0], "InsertSelect "+q("dst"))
		assert.Contains(t, fmt.Sprint(got), "Scan "+q("src"))
	})
	t.Run("unbounded source and transaction are refused", func(t *testing.T) {
		_, err := db.Exec(`INSERT INTO ` + q("dst") + ` SELECT * FROM ` + q("src") + ` /*+ OPTIONS('scan.bounded' = 'false') */`)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "'scan.bounded' = 'false'")
		tx, err := db.Begin()
		require.NoError(t, err)
		defer tx.Rollback()
		_, err = tx.Exec(`INSERT INTO ` + q("dst") + ` SELECT * FROM ` + q("src"))
		require.Error(t, err)
		assert.ErrorIs(t, err, flussql.ErrNotSupported)
		assert.ErrorIs(t, err, flussql.ErrNotWritten)
	})
	t.Run("cancelled", func(t *testing.T) {
		// 2^16 rows, built by doubling a table with INSERT … SELECT from itself.
		mustExec(`CREATE TABLE ` + q("big") + ` (id INT, pad STRING) WITH ('bucket.num' = '2')`)
		// Wide rows (~300 bytes): the writes take many batches, so a cancel lands mid-way.
		mustExec(`INSERT INTO ` + q("big") + ` VALUES (0, '` + strings.Repeat("padding ", 38) + `')`)
		for i := range 16 {
			res := mustExec(fmt.Sprintf(`INSERT INTO %s SELECT id + %d, pad FROM %s`, q("big"), 1<<i, q("big")))
			require.EqualValues(t, 1<<i, affected(res))
		}
		require.Equal(t, [][]string{{"65536", "65535"}}, queryStrings(t, db, `SELECT COUNT(*), MAX(id) FROM `+q("big")))
		mustExec(`CREATE TABLE ` + q("copy") + ` (id INT, pad STRING)`)
		mustExec(`CREATE TABLE ` + q("never") + ` (id INT, pad STRING)`)
		// How long the whole statement takes here (the faster of two runs, warm)…
		took := time.Duration(1 << 62)
		for range 2 {
			start := time.Now()
			res := mustExec(`INSERT INTO ` + q("copy") + ` SELECT id, pad FROM ` + q("big"))
			took = min(took, time.Since(start))
			require.EqualValues(t, 65536, affected(res))
		}
		// … and a deadline at a quarter of that stops the scan and the writes mid-way.
		ctx, cancel := context.WithTimeout(context.Background(), took/4)
		defer cancel()
		start := time.Now()
		_, err := db.ExecContext(ctx, `INSERT INTO `+q("never")+` SELECT id, pad FROM `+q("big"))
		require.Error(t, err, "the statement took %v before", took)
		assert.Less(t, time.Since(start), took+5*time.Second, "the statement stops at its deadline")
		assert.True(t, errors.Is(err, context.DeadlineExceeded), "%v", err)
		assert.True(t, errors.Is(err, flussql.ErrNotWritten) || errors.Is(err, flussql.ErrPartiallyWritten) || errors.Is(err, flussql.ErrOutcomeUnknown), "%v", err)
		got := queryStrings(t, db, `SELECT COUNT(*) FROM `+q("never"))
		t.Logf("full run %v; stopped after %v: %v; rows stored: %v", took, time.Since(start), err, got)
		assert.NotEqual(t, [][]string{{"65536"}}, got, "the stopped statement did not write every row")
	})
}

// TestSQLForms runs the standard function syntax people paste from Flink and TPC-H, and
// VALUES as a table, against the server.
func TestSQLForms(t *testing.T) {
	db, dbName := openTestDB(t)
	tbl := dbName + ".forms"
	_, err := db.Exec(`CREATE TABLE ` + tbl + ` (id INT, s STRING, ts TIMESTAMP(3))`)
	require.NoError(t, err)
	_, err = db.Exec(`INSERT INTO ` + tbl + ` VALUES (1, 'xxhello worldxx', TIMESTAMP '2024-03-01 12:00:00'), (2, '  pad  ', TIMESTAMP '2024-01-31 00:00:00')`)
	require.NoError(t, err)
	for _, tc := range []struct {
		name, sql string
		want      [][]string
	}{
		{"SUBSTRING FROM FOR on an expression", `SELECT SUBSTRING(UPPER(s) FROM 3 FOR 5), SUBSTRING(s FROM 9) FROM ` + tbl + ` WHERE id = 1`,
			[][]string{{"HELLO", "worldxx"}}},
		{"TRIM forms", `SELECT TRIM(BOTH 'x' FROM s), TRIM(LEADING 'x' FROM s), TRIM(TRAILING 'x' FROM s), TRIM('x' FROM s) FROM ` + tbl + ` WHERE id = 1`,
			[][]string{{"hello world", "hello worldxx", "xxhello world", "hello world"}}},
		{"TRIM of spaces", `SELECT '[' || TRIM(s) || ']', '[' || TRIM(LEADING FROM s) || ']', '[' || TRIM(TRAILING FROM s) || ']' FROM ` + tbl + ` WHERE id = 2`,
			[][]string{{"[pad]", "[pad  ]", "[  pad]"}}},
		{"POSITION", `SELECT POSITION('o' IN s), POSITION('zz' IN s), POSITION('' IN s) FROM ` + tbl + ` WHERE id = 1`,
			[][]string{{"7", "0", "1"}}},
		{"POSITION in WHERE", `SELECT id FROM ` + tbl + ` WHERE POSITION('pad' IN s) > 0`, [][]string{{"2"}}},
		{"two-unit intervals", `SELECT ts + INTERVAL '1 10' DAY TO HOUR, ts - INTERVAL '0 00:30:15.5' DAY TO SECOND, ts + INTERVAL '1-1' YEAR TO MONTH, ts + INTERVAL '1:30' HOUR TO MINUTE FROM ` + tbl + ` WHERE id = 1`,
			[][]string{{"2024-03-02T22:00:00Z", "2024-03-01T11:29:44.5Z", "2025-04-01T12:00:00Z", "2024-03-01T13:30:00Z"}}},
		{"TPC-H Q1's interval with a precision", `SELECT id FROM ` + tbl + ` WHERE ts <= TIMESTAMP '2024-04-01 00:00:00' - INTERVAL '60' DAY (3)`,
			[][]string{{"2"}}},
		{"VALUES with a column list", `SELECT x, y FROM (VALUES (1, 'a'), (2, 'b')) AS t (x, y) ORDER BY x DESC`,
			[][]string{{"2", "b"}, {"1", "a"}}},
		{"VALUES: common type, Flink's names", `SELECT * FROM (VALUES (1, 'a'), (2.5, 'bc'))`,
			[][]string{{"1.0", "a"}, {"2.5", "bc"}}},
		{"VALUES with NULLs", `SELECT x, y FROM (VALUES (NULL, 'a'), (2, NULL)) AS t (x, y) ORDER BY x NULLS FIRST`,
			[][]string{{"NULL", "a"}, {"2", "NULL"}}},
		{"VALUES joined with a table", `SELECT f.id, v.label FROM ` + tbl + ` f JOIN (VALUES (1, 'one'), (2, 'two')) AS v (id, label) ON v.id = f.id ORDER BY f.id`,
			[][]string{{"1", "one"}, {"2", "two"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, queryStrings(t, db, tc.sql))
		})
	}
	t.Run("VALUES column names", func(t *testing.T) {
		rows, err := db.Query(`SELECT * FROM (VALUES (1, 'a'))`)
		require.NoError(t, err)
		defer rows.Close()
		cols, err := rows.Columns()
		require.NoError(t, err)
		assert.Equal(t, []string{"EXPR$0", "EXPR$1"}, cols)
	})
	t.Run("INSERT … SELECT from VALUES", func(t *testing.T) {
		res, err := db.Exec(`INSERT INTO ` + tbl + ` (id, s) SELECT x, y FROM (VALUES (3, 'c'), (4, 'd')) AS v (x, y)`)
		require.NoError(t, err)
		n, err := res.RowsAffected()
		require.NoError(t, err)
		assert.EqualValues(t, 2, n)
		assert.Equal(t, [][]string{{"3", "c"}, {"4", "d"}}, queryStrings(t, db, `SELECT id, s FROM `+tbl+` WHERE id > 2 ORDER BY id`))
	})
}

// TestNotSupportedErrors: every refused construct matches flussql.ErrNotSupported through
// database/sql, and its message names it.
func TestNotSupportedErrors(t *testing.T) {
	db, dbName := openTestDB(t)
	a, b := dbName+".a", dbName+".b"
	for _, s := range []string{
		`CREATE TABLE ` + a + ` (id INT, v STRING)`,
		`CREATE TABLE ` + b + ` (id INT, w STRING)`,
	} {
		_, err := db.Exec(s)
		require.NoError(t, err, s)
	}
	for _, tc := range []struct{ sql, names string }{
		{`SELECT * FROM ` + a + ` x RIGHT JOIN ` + b + ` y ON x.id = y.id`, "RIGHT JOIN"},
		{`SELECT * FROM ` + a + ` x FULL JOIN ` + b + ` y ON x.id = y.id`, "FULL JOIN"},
		{`REPLACE INTO ` + a + ` VALUES (1, 'x')`, "REPLACE INTO"},
		{`INSERT IGNORE INTO ` + a + ` VALUES (1, 'x')`, "INSERT IGNORE"},
		{`INSERT INTO ` + a + ` (id) VALUES (1) ON DUPLICATE KEY UPDATE id = 2`, "ON DUPLICATE KEY UPDATE"},
		{`SELECT id ^ 2 FROM ` + a, "the operator ^"},
		{`SELECT * FROM ` + a + ` FOR UPDATE`, "a locking clause"},
		{`SELECT CONVERT(id, CHAR) FROM ` + a, "CONVERT"},
		{`SELECT * FROM ` + a + ` WHERE id = 0x10`, "0x… numbers"},
		{`SELECT * FROM ` + a + ` WHERE id IN ::ids`, "list placeholders"},
		{`SELECT NOSUCHFUNC(id) FROM ` + a, "function NOSUCHFUNC"},
		{`SELECT ts + INTERVAL '1 2' MONTH TO DAY FROM ` + a, "MONTH TO DAY"},
		{`UPDATE ` + a + ` SET v = 'x' WHERE id = 1 LIMIT 1`, "LIMIT in UPDATE"},
		{`DELETE FROM ` + a + ` WHERE id = 1 ORDER BY id`, "ORDER BY in DELETE"},
		{`CREATE TABLE ` + dbName + `.c (id INT, t TIMESTAMP WITH TIME ZONE)`, "TIMESTAMP WITH TIME ZONE"},
		{`SELECT * FROM ` + a + ` USE INDEX (i)`, "an index hint"},
		{`SELECT * FROM ` + a + ` WHERE id NOT IN (SELECT id FROM ` + b + ` WHERE w = v)`, "a correlated NOT IN"},
		{`SELECT * FROM ` + a + ` x JOIN ` + b + ` y ON x.id = y.id AND x.id IN (SELECT id FROM ` + b + `)`, "a subquery is not supported in ON"},
		{`SELECT COUNT(DISTINCT id) OVER () FROM ` + a, "DISTINCT is not supported in a window function"},
		{`SELECT SUM(id) OVER (ORDER BY id RANGE BETWEEN 2 PRECEDING AND CURRENT ROW) FROM ` + a, "a RANGE frame of n PRECEDING"},
	} {
		t.Run(tc.names, func(t *testing.T) {
			_, err := db.Exec(tc.sql)
			if err == nil {
				var rows *sql.Rows
				rows, err = db.Query(tc.sql)
				if err == nil {
					rows.Close()
				}
			}
			require.Error(t, err, tc.sql)
			assert.ErrorIs(t, err, flussql.ErrNotSupported, "%v", err)
			assert.Contains(t, err.Error(), tc.names)
			assert.Contains(t, err.Error(), "not supported")
		})
	}
}
