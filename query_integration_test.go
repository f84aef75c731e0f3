package flussql_test

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/flusstest/realcluster"
	"github.com/flussql/flussql/planner"
)

// TestQueryLanguage runs the client-side query language end to end against a real
// cluster: expressions, aggregates, ORDER BY, DISTINCT, LIMIT/OFFSET and SELECT without
// FROM, over log-table scans, primary-key lookups and limit scans.
func TestQueryLanguage(t *testing.T) {
	db, dbName := openTestDB(t)
	logT, pkT := dbName+".orders", dbName+".users"
	_, err := db.Exec(`CREATE TABLE ` + logT + ` (id INT, region STRING, amount DECIMAL(10, 2), qty INT, score DOUBLE)
		WITH ('bucket.num' = '2')`)
	require.NoError(t, err)
	_, err = db.Exec(`INSERT INTO ` + logT + ` VALUES
		(1, 'US', 10.50, 2, 1.5), (2, 'EU', 3.25, 1, NULL), (3, 'US', 7.00, 5, 2.0),
		(4, NULL, 1.00, NULL, 0.5), (5, 'EU', 2.75, 3, -1.0), (6, 'US', 10.50, 2, 4.0)`)
	require.NoError(t, err)
	_, err = db.Exec(`CREATE TABLE ` + pkT + ` (id INT, name STRING, score BIGINT, PRIMARY KEY (id) NOT ENFORCED)
		WITH ('bucket.num' = '2')`)
	require.NoError(t, err)
	_, err = db.Exec(`INSERT INTO ` + pkT + ` VALUES (1, 'ada', 10), (2, 'bob', NULL), (3, 'cy', 7)`)
	require.NoError(t, err)

	for _, tc := range []struct {
		name, sql string
		args      []any
		want      [][]string
	}{
		{"select 1", `SELECT 1`, nil, [][]string{{"1"}}},
		{"no from expression", `SELECT 1 + 2 AS x, 'a' || 'b', 7 / 2, 7 % 3, -7 / 2`, nil, [][]string{{"3", "ab", "3", "1", "-3"}}},
		{"current database", `SELECT CURRENT_DATABASE()`, nil, [][]string{{"fluss"}}},
		{"group by order by position", `SELECT region, COUNT(*), SUM(amount), SUM(qty) FROM ` + logT + ` GROUP BY region ORDER BY 3 DESC`, nil,
			[][]string{{"US", "3", "28.00", "9"}, {"EU", "2", "6.00", "4"}, {"NULL", "1", "1.00", "NULL"}}},
		{"aggregates global", `SELECT COUNT(*), COUNT(qty), COUNT(DISTINCT amount), MIN(score), MAX(region), AVG(qty), AVG(score) FROM ` + logT, nil,
			[][]string{{"6", "5", "5", "-1", "US", "2", "1.4"}}},
		{"having", `SELECT region, COUNT(*) AS n FROM ` + logT + ` GROUP BY region HAVING COUNT(*) > 1 ORDER BY n, region`, nil,
			[][]string{{"EU", "2"}, {"US", "3"}}},
		{"top-n with offset", `SELECT id, score FROM ` + logT + ` ORDER BY score DESC NULLS LAST LIMIT 3 OFFSET 1`, nil,
			[][]string{{"3", "2"}, {"1", "1.5"}, {"4", "0.5"}}},
		{"full sort nulls first", `SELECT id, qty FROM ` + logT + ` ORDER BY qty, id DESC`, nil,
			[][]string{{"4", "NULL"}, {"2", "1"}, {"6", "2"}, {"1", "2"}, {"5", "3"}, {"3", "5"}}},
		{"distinct", `SELECT DISTINCT region FROM ` + logT + ` ORDER BY region NULLS LAST`, nil,
			[][]string{{"EU"}, {"US"}, {"NULL"}}},
		{"expressions and 3VL", `SELECT id, qty * 2 + 1, UPPER(region) || '!', CASE WHEN score > 1 THEN 'hi' WHEN score IS NULL THEN 'none' ELSE 'lo' END,
			COALESCE(qty, 0), NULLIF(qty, 2), CAST(amount AS INT), ROUND(score), ABS(score), SUBSTRING(region, 2), CHAR_LENGTH(region)
			FROM ` + logT + ` WHERE NOT (qty IN (1, 5)) OR qty IS NULL ORDER BY id`, nil,
			[][]string{
				{"1", "5", "US!", "hi", "2", "NULL", "10", "2", "1.5", "S", "2"},
				{"4", "NULL", "NULL", "lo", "0", "NULL", "1", "1", "0.5", "NULL", "NULL"},
				{"5", "7", "EU!", "lo", "3", "3", "2", "-1", "1", "U", "2"},
				{"6", "5", "US!", "hi", "2", "NULL", "10", "4", "4", "S", "2"},
			}},
		{"decimal arithmetic", `SELECT amount * 2, amount / 4, amount + 0.125 FROM ` + logT + ` WHERE id = 2`, nil,
			[][]string{{"6.50", "0.8125000000000", "3.375"}}},
		{"placeholders", `SELECT id FROM ` + logT + ` WHERE qty + ? > ? ORDER BY id DESC LIMIT ?`, []any{1, 3, 2},
			[][]string{{"5"}, {"3"}}},
		{"pk lookup with expressions", `SELECT name, score * 2 FROM ` + pkT + ` WHERE id IN (1, 2, 3) ORDER BY name DESC`, nil,
			[][]string{{"cy", "14"}, {"bob", "NULL"}, {"ada", "20"}}},
		{"pk lookup aggregate", `SELECT COUNT(*), SUM(score) FROM ` + pkT + ` WHERE id IN (1, 2, 3, 4)`, nil,
			[][]string{{"3", "17"}}},
		{"pk limit scan with expression", `SELECT UPPER(name) FROM ` + pkT + ` WHERE id > 0 LIMIT 5`, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.want == nil { // every row: a KV scan on 1.0; a filter over a limit scan is refused before
				if !testServerVersion(t).AtLeast(1, 0) {
					_, err := db.Query(tc.sql, tc.args...)
					require.ErrorIs(t, err, planner.ErrNeedsFullScan, tc.sql)
					return
				}
				assert.ElementsMatch(t, [][]string{{"ADA"}, {"BOB"}, {"CY"}}, queryStrings(t, db, tc.sql, tc.args...), tc.sql)
				return
			}
			assert.Equal(t, tc.want, queryStrings(t, db, tc.sql, tc.args...), tc.sql)
		})
	}

	t.Run("limit and offset stream", func(t *testing.T) {
		got := queryStrings(t, db, `SELECT id * 10 FROM `+logT+` LIMIT 2 OFFSET 1`)
		assert.Len(t, got, 2)
	})
	t.Run("column names", func(t *testing.T) {
		rows, err := db.Query(`SELECT id + 1 AS nxt, COUNT(*) FROM ` + logT + ` GROUP BY id + 1`)
		require.NoError(t, err)
		cols, err := rows.Columns()
		require.NoError(t, err)
		rows.Close()
		assert.Equal(t, []string{"nxt", "COUNT(*)"}, cols)
	})
	t.Run("ORM probes", func(t *testing.T) {
		// GORM's First, Count and the probes tools send.
		assert.Equal(t, [][]string{{"2", "bob", "NULL"}}, queryStrings(t, db, `SELECT * FROM `+pkT+` WHERE id = ? ORDER BY id LIMIT 1`, 2))
		assert.Equal(t, [][]string{{"2"}}, queryStrings(t, db, `select count(*) from `+pkT+` where id in (?, ?)`, 1, 3))
		assert.Equal(t, [][]string{{"fluss"}}, queryStrings(t, db, `SELECT DATABASE()`))
	})
	t.Run("prepared statement bound twice", func(t *testing.T) {
		st, err := db.Prepare(`SELECT id * ?, region FROM ` + logT + ` WHERE qty > ? ORDER BY 1 DESC LIMIT ?`)
		require.NoError(t, err)
		defer st.Close()
		for _, tc := range []struct {
			args []any
			want [][]any
		}{
			{[]any{10, 2, 2}, [][]any{{int64(50), "EU"}, {int64(30), "US"}}},
			{[]any{-1, 0, 3}, [][]any{{int64(-1), "US"}, {int64(-2), "EU"}, {int64(-3), "US"}}},
		} {
			rows, err := st.Query(tc.args...)
			require.NoError(t, err)
			var got [][]any
			for rows.Next() {
				var n int64
				var r string
				require.NoError(t, rows.Scan(&n, &r))
				got = append(got, []any{n, r})
			}
			require.NoError(t, rows.Err())
			rows.Close()
			assert.Equal(t, tc.want, got, "%v", tc.args)
		}
	})
	t.Run("temporal functions", func(t *testing.T) {
		ev := dbName + ".ev"
		_, err := db.Exec(`CREATE TABLE ` + ev + ` (id INT, ts TIMESTAMP(3), d DATE)`)
		require.NoError(t, err)
		_, err = db.Exec(`INSERT INTO ` + ev + ` VALUES (1, TIMESTAMP '2024-02-29 13:45:07.250', DATE '2024-02-29'),
			(2, TIMESTAMP '2024-02-29 13:05:00', DATE '2024-03-01'), (3, TIMESTAMP '2024-02-29 14:00:00', NULL)`)
		require.NoError(t, err)
		assert.Equal(t, [][]string{{"2024-02-29T13:00:00Z", "2", "45"}, {"2024-02-29T14:00:00Z", "1", "0"}},
			queryStrings(t, db, `SELECT FLOOR(ts TO HOUR) AS h, COUNT(*), MAX(EXTRACT(MINUTE FROM ts)) FROM `+ev+` GROUP BY FLOOR(ts TO HOUR) ORDER BY h`))
		assert.Equal(t, [][]string{{"1", "2024-02-29 13:45:07.250", "2024", "2024-03-01T00:00:00Z"}, {"2", "2024-02-29 13:05:00.000", "2024", "2024-03-01T00:00:00Z"}, {"3", "2024-02-29 14:00:00.000", "NULL", "NULL"}},
			queryStrings(t, db, `SELECT id, DATE_FORMAT(ts, 'yyyy-MM-dd HH:mm:ss.SSS'), EXTRACT(YEAR FROM d), CEIL(d TO MONTH) FROM `+ev+` ORDER BY id`))
		assert.Equal(t, [][]string{{"2", "2"}}, queryStrings(t, db, `SELECT COUNT(*), MAX(id) FROM `+ev+
			` WHERE ts BETWEEN '2024-02-29 13:05:00' AND TIMESTAMP '2024-02-29 13:59:59' AND (d IN ('2024-02-29', DATE '2024-03-01'))`))
		var today time.Time
		require.NoError(t, db.QueryRow(`SELECT CURRENT_DATE`).Scan(&today))
		assert.WithinDuration(t, time.Now().UTC(), today, 25*time.Hour)
	})
	t.Run("top-n over nested columns", func(t *testing.T) {
		nt := dbName + ".nested"
		_, err := db.Exec(`CREATE TABLE ` + nt + ` (id INT, tags ARRAY<STRING>, PRIMARY KEY (id) NOT ENFORCED)`)
		require.NoError(t, err)
		_, err = db.Exec(`INSERT INTO ` + nt + ` VALUES (1, ARRAY['a']), (2, ARRAY['b', 'c']), (3, NULL)`)
		require.NoError(t, err)
		rows, err := db.Query(`SELECT * FROM ` + nt + ` WHERE id IN (1, 2, 3) ORDER BY id DESC LIMIT 2 OFFSET 1`)
		require.NoError(t, err)
		var got [][]any
		for rows.Next() {
			var id int64
			var tags any
			require.NoError(t, rows.Scan(&id, &tags))
			got = append(got, []any{id, tags})
		}
		require.NoError(t, rows.Err())
		rows.Close()
		assert.Equal(t, [][]any{{int64(2), []any{"b", "c"}}, {int64(1), []any{"a"}}}, got)
	})
	t.Run("version", func(t *testing.T) {
		var v string
		require.NoError(t, db.QueryRow(`SELECT VERSION()`).Scan(&v))
		assert.Contains(t, v, "flussql")
	})
	for _, tc := range []struct{ name, sql, want string }{
		{"integer overflow", `SELECT qty * 2147483647 FROM ` + logT, "overflows INT"},
		{"division by zero", `SELECT id / (qty - qty) FROM ` + logT, "division by zero"},
		{"aggregate over unbounded", `SELECT region, COUNT(*) FROM ` + logT + ` /*+ OPTIONS('scan.bounded' = 'false') */ GROUP BY region`, "need a bounded scan"},
		{"order by over unbounded", `SELECT id FROM ` + logT + ` /*+ OPTIONS('scan.bounded' = 'false') */ ORDER BY id LIMIT 1`, "need a bounded scan"},
		{"type error", `SELECT region + 1 FROM ` + logT, "needs numbers"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rows, err := db.Query(tc.sql)
			if err == nil {
				for rows.Next() {
				}
				err = rows.Err()
				rows.Close()
			}
			require.Error(t, err, tc.sql)
			assert.Contains(t, err.Error(), tc.want)
		})
	}

	t.Run("pk full scan", func(t *testing.T) {
		// A KV scan on Fluss 1.0 (SCAN_KV); refused on older servers.
		q := `SELECT name FROM ` + pkT + ` ORDER BY name LIMIT 1`
		if testServerVersion(t).AtLeast(1, 0) {
			assert.Equal(t, [][]string{{"ada"}}, queryStrings(t, db, q))
			return
		}
		_, err := db.Query(q)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "ScanKv")
	})

	t.Run("explain", func(t *testing.T) {
		got := queryStrings(t, db, `EXPLAIN SELECT region, COUNT(*) FROM `+logT+` WHERE id > 1 GROUP BY region ORDER BY 2 DESC LIMIT 1`)
		var text strings.Builder
		for _, r := range got {
			text.WriteString(strings.Join(r, " ") + "\n")
		}
		for _, want := range []string{"client", "TopN 1", "HashAggregate COUNT(*) GROUP BY region", "server:", "projection: id, region"} {
			assert.Contains(t, text.String(), want)
		}
	})

	t.Run("unbounded streaming with limit", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		rows, err := db.QueryContext(ctx, `SELECT id * 2 FROM `+logT+` /*+ OPTIONS('scan.bounded' = 'false') */ WHERE qty > 1 LIMIT 3`)
		require.NoError(t, err)
		n := 0
		for rows.Next() {
			n++
		}
		require.NoError(t, rows.Err())
		rows.Close()
		assert.Equal(t, 3, n)
	})

	t.Run("cancellation", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		rows, err := db.QueryContext(ctx, `SELECT id + 1 FROM `+logT+` /*+ OPTIONS('scan.bounded' = 'false') */ WHERE id > 100`)
		require.NoError(t, err)
		for rows.Next() {
		}
		err = rows.Err()
		rows.Close()
		require.Error(t, err)
		assert.True(t, errors.Is(err, context.DeadlineExceeded), "%v", err)
	})

	t.Run("memory budget", func(t *testing.T) {
		small, err := sql.Open("fluss", "fluss://"+realcluster.Addr(t)+"/fluss?query_memory=200B")
		require.NoError(t, err)
		defer small.Close()
		for _, q := range []string{
			`SELECT id, COUNT(*) FROM ` + logT + ` GROUP BY id`,
			`SELECT DISTINCT id FROM ` + logT,
			`SELECT id, region, amount, score FROM ` + logT + ` ORDER BY id`,
			`SELECT id FROM ` + logT + ` ORDER BY region LIMIT 5`,
		} {
			rows, err := small.Query(q)
			if err == nil {
				for rows.Next() {
				}
				err = rows.Err()
				rows.Close()
			}
			require.Error(t, err, q)
			assert.Contains(t, err.Error(), "query_memory", q)
			assert.Contains(t, err.Error(), "200B", q)
		}
		// The same queries fit the default budget.
		assert.Len(t, queryStrings(t, db, `SELECT DISTINCT id FROM `+logT), 6)
	})
}
