package flussql_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestQueryGaps runs SQL a person types that the dialect used to refuse, against a real
// cluster: a placeholder in a subquery's LIMIT and OFFSET, a parenthesised first query of a
// UNION ALL, OPTIONS hints after every table of a FROM, and ROW field access (r.f, t.r.f,
// and after.x / before.x on t$binlog).
func TestQueryGaps(t *testing.T) {
	db, dbName := openTestDB(t)
	logT, pkT, rowT, wordT, timeT := dbName+".events", dbName+".accounts", dbName+".people", dbName+".words", dbName+".times"
	bagT := dbName + ".bags"
	_, err := db.Exec(`CREATE TABLE ` + logT + ` (id INT, v BIGINT) WITH ('bucket.num' = '1')`)
	require.NoError(t, err)
	_, err = db.Exec(`INSERT INTO ` + logT + ` VALUES (1, 10), (2, 20), (3, 30), (4, 40), (5, 50)`)
	require.NoError(t, err)
	_, err = db.Exec(`CREATE TABLE ` + pkT + ` (id INT, name STRING, amount BIGINT, PRIMARY KEY (id) NOT ENFORCED)
		WITH ('bucket.num' = '1')`)
	require.NoError(t, err)
	for _, st := range []string{
		`INSERT INTO ` + pkT + ` VALUES (1, 'ada', 10), (2, 'bob', 20)`,
		`UPSERT INTO ` + pkT + ` VALUES (1, 'ada', 15)`,
		`DELETE FROM ` + pkT + ` WHERE id = 2`,
	} {
		_, err := db.Exec(st)
		require.NoError(t, err, st)
	}
	_, err = db.Exec(`CREATE TABLE ` + rowT + ` (id INT, addr ROW<city STRING, zip INT>) WITH ('bucket.num' = '1')`)
	require.NoError(t, err)
	_, err = db.Exec(`INSERT INTO ` + rowT + ` VALUES (1, ROW('Paris', 75001)), (2, NULL), (3, ROW(NULL, 10115))`)
	require.NoError(t, err)

	_, err = db.Exec(`CREATE TABLE ` + wordT + ` (id INT, w STRING) WITH ('bucket.num' = '1')`)
	require.NoError(t, err)
	_, err = db.Exec(`INSERT INTO ` + wordT + ` VALUES (1, 'a_b'), (2, 'axb'), (3, '100%'), (4, '100x'), (5, 'back\slash'), (6, NULL)`)
	require.NoError(t, err)
	_, err = db.Exec(`CREATE TABLE ` + timeT + ` (id INT, d DATE, ts TIMESTAMP(3), ltz TIMESTAMP_LTZ(3)) WITH ('bucket.num' = '1')`)
	require.NoError(t, err)
	_, err = db.Exec(`INSERT INTO ` + timeT + ` VALUES (1, DATE '2024-01-31', TIMESTAMP '2024-01-31 10:00:00.250', '2024-01-31T10:00:00Z'),
		(2, DATE '2024-02-29', TIMESTAMP '2024-03-01 00:30:00', '2024-02-29T23:00:00Z'), (3, NULL, NULL, NULL)`)
	require.NoError(t, err)
	_, err = db.Exec(`CREATE TABLE ` + bagT + ` (id INT, tags ARRAY<STRING>, scores MAP<STRING, INT>, grid ARRAY<ARRAY<BIGINT>>) WITH ('bucket.num' = '1')`)
	require.NoError(t, err)
	_, err = db.Exec(`INSERT INTO ` + bagT + ` VALUES (1, ARRAY['a', NULL, 'c'], MAP['x', 1, 'y', NULL], ARRAY[ARRAY[1, 2], ARRAY[]]),
		(2, NULL, NULL, NULL), (3, ARRAY[], MAP[], ARRAY[ARRAY[5]])`)
	require.NoError(t, err)

	for _, tc := range []struct {
		name, sql string
		args      []any
		want      [][]string
	}{
		{"subquery limit placeholder", `SELECT x.id FROM (SELECT id FROM ` + logT + ` ORDER BY v DESC LIMIT ?) AS x ORDER BY x.id`,
			[]any{2}, [][]string{{"4"}, {"5"}}},
		{"subquery limit and offset placeholders", `SELECT x.id, x.v FROM (SELECT id, v FROM ` + logT + ` ORDER BY v LIMIT ? OFFSET ?) AS x WHERE x.v > ?`,
			[]any{3, 1, 20}, [][]string{{"3", "30"}, {"4", "40"}}},
		{"subquery limit placeholder again", `SELECT x.id FROM (SELECT id FROM ` + logT + ` ORDER BY v DESC LIMIT ?) AS x ORDER BY x.id`,
			[]any{1}, [][]string{{"5"}}},
		{"parenthesised first query of a union", `(SELECT id FROM ` + logT + ` WHERE id < 3) UNION ALL SELECT id FROM ` + logT + ` WHERE id = 5 ORDER BY id`,
			nil, [][]string{{"1"}, {"2"}, {"5"}}},
		{"parenthesised members with their own limits", `(SELECT id FROM ` + logT + ` ORDER BY id DESC LIMIT 1) UNION ALL (SELECT id FROM ` + logT + ` ORDER BY id LIMIT 1)`,
			nil, [][]string{{"5"}, {"1"}}},
		{"hints after every table of a join", `SELECT a.id, b.v FROM ` + logT + ` /*+ OPTIONS('scan.startup.mode' = 'earliest') */ a
			JOIN ` + logT + ` /*+ OPTIONS('scan.startup.mode' = 'latest') */ b ON a.id = b.id`,
			nil, nil}, // b starts at the end of the log: nothing to join
		{"hints in union members", `SELECT id FROM ` + logT + ` /*+ OPTIONS('scan.startup.mode' = 'latest') */ UNION ALL
			SELECT id FROM ` + logT + ` /*+ OPTIONS('scan.startup.mode' = 'earliest') */ WHERE id = 3`,
			nil, [][]string{{"3"}}},
		{"row fields", `SELECT id, addr.city, p.addr.zip + 1 FROM ` + rowT + ` AS p ORDER BY id`,
			nil, [][]string{{"1", "Paris", "75002"}, {"2", "NULL", "NULL"}, {"3", "NULL", "10116"}}},
		{"row field in where and group by", `SELECT addr.city, COUNT(*) FROM ` + rowT + ` WHERE addr.zip > 100 GROUP BY addr.city ORDER BY 2, 1`,
			nil, [][]string{{"NULL", "1"}, {"Paris", "1"}}},
		{"binlog images", `SELECT _change_type, before.amount, after.amount, after.amount - before.amount FROM ` + pkT + `$binlog ORDER BY _log_offset`,
			nil, [][]string{
				{"insert", "NULL", "10", "NULL"},
				{"insert", "NULL", "20", "NULL"},
				{"update", "10", "15", "5"},
				{"delete", "20", "NULL", "NULL"},
			}},
		{"binlog filter on an image", `SELECT before.name FROM ` + pkT + `$binlog WHERE _change_type = 'delete' AND before.amount >= 20`,
			nil, [][]string{{"bob"}}},
		{"alias on a binlog", `SELECT b._change_type, b.after.amount FROM ` + pkT + `$binlog AS b WHERE b._change_type <> 'delete' ORDER BY b._log_offset`,
			nil, [][]string{{"insert", "10"}, {"insert", "20"}, {"update", "15"}}},
		{"alias on a changelog", `SELECT c._change_type, c.id, c.amount FROM ` + pkT + `$changelog c WHERE c.id = 1 ORDER BY c._log_offset`,
			nil, [][]string{{"insert", "1", "10"}, {"update_before", "1", "10"}, {"update_after", "1", "15"}}},
		{"changelog joined with its table", `SELECT c._change_type, a.name FROM ` + pkT + `$changelog AS c JOIN ` + pkT + ` AS a ON a.id = c.id ORDER BY c._log_offset`,
			nil, [][]string{{"insert", "ada"}, {"update_before", "ada"}, {"update_after", "ada"}}},
		{"binlog joined with a log table", `SELECT b.before.name, e.v FROM ` + pkT + `$binlog b JOIN ` + logT + ` e ON e.id = b.before.id WHERE b._change_type = 'delete'`,
			nil, [][]string{{"bob", "20"}}},
		{"IF", `SELECT id, IF(v > 20, 'big', 'small'), IF(id = 3, NULL, v) FROM ` + logT + ` WHERE IF(id < 5, TRUE, FALSE) ORDER BY id`,
			nil, [][]string{{"1", "small", "10"}, {"2", "small", "20"}, {"3", "big", "NULL"}, {"4", "big", "40"}}},
		{"IF in GROUP BY", `SELECT IF(v > 20, 'big', 'small') AS size, COUNT(*) FROM ` + logT + ` GROUP BY IF(v > 20, 'big', 'small') ORDER BY size`,
			nil, [][]string{{"big", "3"}, {"small", "2"}}},
		{"LIKE ESCAPE backslash", `SELECT id FROM ` + wordT + ` WHERE w LIKE 'a\_b' ESCAPE '\'`,
			nil, [][]string{{"1"}}},
		{"NOT LIKE ESCAPE", `SELECT id FROM ` + wordT + ` WHERE w NOT LIKE '%!%' ESCAPE '!' ORDER BY id`,
			nil, [][]string{{"1"}, {"2"}, {"4"}, {"5"}}},
		{"LIKE ESCAPE in the select list, placeholders", `SELECT id, w LIKE ? ESCAPE ? FROM ` + wordT + ` WHERE id <= 4 ORDER BY id`,
			[]any{"100#%", "#"}, [][]string{{"1", "false"}, {"2", "false"}, {"3", "true"}, {"4", "false"}}},
		{"a backslash in a string is a character", `SELECT id, w LIKE 'back\\%' ESCAPE '\', w LIKE 'back\s%' FROM ` + wordT + ` WHERE w = 'back\slash'`,
			nil, [][]string{{"5", "true", "true"}}},
		{"interval arithmetic", `SELECT id, d + INTERVAL '1' MONTH, ts + INTERVAL '1' DAY, ts - INTERVAL '2' HOUR, ltz + INTERVAL '30' MINUTE FROM ` + timeT + ` ORDER BY id`,
			nil, [][]string{
				{"1", "2024-02-29T00:00:00Z", "2024-02-01T10:00:00.25Z", "2024-01-31T08:00:00.25Z", "2024-01-31T10:30:00Z"},
				{"2", "2024-03-29T00:00:00Z", "2024-03-02T00:30:00Z", "2024-02-29T22:30:00Z", "2024-02-29T23:30:00Z"},
				{"3", "NULL", "NULL", "NULL", "NULL"},
			}},
		{"years, quarters, seconds", `SELECT d - INTERVAL '1' YEAR, ts + INTERVAL '1' YEAR, TIMESTAMPADD(QUARTER, 1, d), TIMESTAMPADD(SECOND, 90, ltz), INTERVAL '1.5' SECOND + ts FROM ` + timeT + ` WHERE id = 2`,
			nil, [][]string{{"2023-02-28T00:00:00Z", "2025-03-01T00:30:00Z", "2024-05-29T00:00:00Z", "2024-02-29T23:01:30Z", "2024-03-01T00:30:01.5Z"}}},
		{"TIMESTAMPDIFF", `SELECT id, TIMESTAMPDIFF(DAY, d, ts), TIMESTAMPDIFF(HOUR, ts, ltz), TIMESTAMPDIFF(MONTH, d, DATE '2024-03-30'), TIMESTAMPDIFF(SECOND, ts, ts + INTERVAL '1' MINUTE) FROM ` + timeT + ` ORDER BY id`,
			nil, [][]string{{"1", "0", "0", "1", "60"}, {"2", "1", "-1", "1", "60"}, {"3", "NULL", "NULL", "NULL", "NULL"}}},
		{"interval in WHERE", `SELECT id FROM ` + timeT + ` WHERE ts - INTERVAL '1' DAY < TIMESTAMP '2024-02-01 00:00:00'`,
			nil, [][]string{{"1"}}},
		{"CARDINALITY and elements", `SELECT id, CARDINALITY(tags), CARDINALITY(scores), tags[1], tags[3], tags[4], scores['x'], scores['nope'], grid[1][2], CARDINALITY(grid[2]) FROM ` + bagT + ` ORDER BY id`,
			nil, [][]string{
				{"1", "3", "2", "a", "c", "NULL", "1", "NULL", "2", "0"},
				{"2", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL"},
				{"3", "0", "0", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL"},
			}},
		{"elements in WHERE", `SELECT b.id FROM ` + bagT + ` AS b WHERE b.tags[1] = 'a' OR b.scores['x'] > 0 OR b.grid[1][1] = 5 ORDER BY b.id`,
			nil, [][]string{{"1"}, {"3"}}},
		{"GROUP BY CARDINALITY", `SELECT CARDINALITY(tags) AS n, COUNT(*) FROM ` + bagT + ` GROUP BY CARDINALITY(tags) ORDER BY n`,
			nil, [][]string{{"NULL", "1"}, {"0", "1"}, {"3", "1"}}},
		{"GROUP BY a DATE", `SELECT d, COUNT(*) FROM ` + timeT + ` GROUP BY d ORDER BY d`,
			nil, [][]string{{"NULL", "1"}, {"2024-01-31T00:00:00Z", "1"}, {"2024-02-29T00:00:00Z", "1"}}},
		{"GROUP BY a TIMESTAMP expression", `SELECT CAST(ts + INTERVAL '12' HOUR AS DATE) AS day, COUNT(*) FROM ` + timeT + ` GROUP BY CAST(ts + INTERVAL '12' HOUR AS DATE) ORDER BY day`,
			nil, [][]string{{"NULL", "1"}, {"2024-01-31T00:00:00Z", "1"}, {"2024-03-01T00:00:00Z", "1"}}},
		{"GROUP BY TIMESTAMP_LTZ and TIMESTAMP", `SELECT ltz, ts, COUNT(*) FROM ` + timeT + ` WHERE id < 3 GROUP BY ltz, ts ORDER BY ltz`,
			nil, [][]string{{"2024-01-31T10:00:00Z", "2024-01-31T10:00:00.25Z", "1"}, {"2024-02-29T23:00:00Z", "2024-03-01T00:30:00Z", "1"}}},
		{"DISTINCT on dates", `SELECT DISTINCT d - INTERVAL '1' MONTH FROM ` + timeT + ` WHERE d IS NOT NULL ORDER BY 1`,
			nil, [][]string{{"2023-12-31T00:00:00Z"}, {"2024-01-29T00:00:00Z"}}},
		{"TIMESTAMPADD and TIMESTAMPDIFF with placeholders", `SELECT id, TIMESTAMPADD(DAY, ?, d) FROM ` + timeT + ` WHERE TIMESTAMPDIFF(DAY, ts, ?) >= 1`,
			[]any{2, time.Date(2024, 2, 2, 0, 0, 0, 0, time.UTC)}, [][]string{{"1", "2024-02-02T00:00:00Z"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {

			assert.Equal(t, tc.want, queryStrings(t, db, tc.sql, tc.args...), tc.sql)
		})
	}

	t.Run("result column of a field is the field's name", func(t *testing.T) {
		rows, err := db.Query(`SELECT after.amount FROM ` + pkT + `$binlog LIMIT 1`)
		require.NoError(t, err)
		defer rows.Close()
		cols, err := rows.Columns()
		require.NoError(t, err)
		assert.Equal(t, []string{"amount"}, cols)
	})
	t.Run("errors name the problem", func(t *testing.T) {
		for sql, want := range map[string]string{
			`SELECT after.nope FROM ` + pkT + `$binlog`:                               "after has no field nope",
			`SELECT id.x FROM ` + logT:                                                "id is INT, not a ROW",
			`SELECT id FROM ` + wordT + ` WHERE w LIKE 'a\b' ESCAPE '\'`:              "invalid escape sequence",
			`SELECT tags['a'] FROM ` + bagT:                                           "the index of an ARRAY is an integer",
			`SELECT x.id FROM (SELECT id FROM ` + logT + ` ORDER BY id LIMIT ?) AS x`: "LIMIT of a subquery",
		} {
			var args []any
			if want == "LIMIT of a subquery" {
				args = []any{-1}
			}
			_, err := db.Query(sql, args...)
			require.ErrorContains(t, err, want, sql)
		}
	})
}
