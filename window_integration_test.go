package flussql_test

import (
	"database/sql"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/flusstest/realcluster"
)

// TestWindowFunctionsSQLite loads one log table with ties and NULLs (in the
// partition key, the order key and the values) into Fluss and into SQLite
// (modernc.org/sqlite) and runs the same window queries on both: every
// function, frames, Flink's Top-N and dedup patterns and a window over an
// aggregate. Every query orders its result completely; within a window, an
// ORDER BY with ties is used only where the result does not depend on the
// order of the peers (RANK, DENSE_RANK, RANGE frames). FIRST_VALUE and
// LAST_VALUE read a column without NULLs (Flink's skip NULLs, SQLite's do
// not), AVG a DOUBLE (Flink's AVG of an integer is an integer).
func TestWindowFunctionsSQLite(t *testing.T) {
	db, dbName := openTestDB(t)
	ref, err := sql.Open("sqlite", ":memory:")
	require.NoError(t, err)
	defer ref.Close()
	ref.SetMaxOpenConns(1)
	_, err = ref.Exec(`CREATE TABLE t (id INTEGER, k TEXT, ts INTEGER, x INTEGER)`)
	require.NoError(t, err)
	_, err = db.Exec(`CREATE TABLE ` + dbName + `.t (id INT, k STRING, ts INT, x INT) WITH ('bucket.num' = '3')`)
	require.NoError(t, err)

	rng := rand.New(rand.NewPCG(26, 1))
	var vals []string
	for id := range 60 {
		k := []string{"'a'", "'b'", "'c'", "'d'", "NULL"}[rng.IntN(5)]
		ts := nullOr(rng, 0.1, strconv.Itoa(rng.IntN(8))) // few values: many ties
		x := nullOr(rng, 0.15, strconv.Itoa(rng.IntN(41)-20))
		vals = append(vals, fmt.Sprintf("(%d, %s, %s, %s)", id, k, ts, x))
	}
	insert := `INSERT INTO %s VALUES ` + strings.Join(vals, ", ")
	_, err = db.Exec(fmt.Sprintf(insert, dbName+".t"))
	require.NoError(t, err)
	_, err = ref.Exec(fmt.Sprintf(insert, "t"))
	require.NoError(t, err)

	queries := map[string]string{
		"ranking": `SELECT id, ROW_NUMBER() OVER (PARTITION BY k ORDER BY ts, id), RANK() OVER (PARTITION BY k ORDER BY ts),
			DENSE_RANK() OVER (PARTITION BY k ORDER BY ts DESC), RANK() OVER (ORDER BY x DESC) FROM t ORDER BY id`,
		"lag and lead": `SELECT id, LAG(x) OVER (PARTITION BY k ORDER BY ts, id), LAG(x, 2, -1) OVER (PARTITION BY k ORDER BY ts, id),
			LEAD(x) OVER (PARTITION BY k ORDER BY ts DESC, id), LEAD(x, 3, 0) OVER (ORDER BY id) FROM t ORDER BY id`,
		"aggregates, default frames": `SELECT id, SUM(x) OVER (PARTITION BY k ORDER BY ts), COUNT(*) OVER (PARTITION BY k),
			COUNT(x) OVER (ORDER BY ts), MIN(x) OVER (PARTITION BY k ORDER BY ts DESC), MAX(x) OVER (PARTITION BY k),
			AVG(CAST(x AS DOUBLE)) OVER (PARTITION BY k ORDER BY ts) FROM t ORDER BY id`,
		"rows frames": `SELECT id,
			SUM(x) OVER (PARTITION BY k ORDER BY ts, id ROWS BETWEEN 2 PRECEDING AND 1 FOLLOWING),
			MIN(x) OVER (PARTITION BY k ORDER BY ts, id ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING),
			MAX(x) OVER (PARTITION BY k ORDER BY ts, id ROWS BETWEEN 1 FOLLOWING AND 3 FOLLOWING),
			COUNT(x) OVER (PARTITION BY k ORDER BY ts, id ROWS 3 PRECEDING),
			SUM(x) OVER (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND 2 PRECEDING),
			AVG(CAST(x AS DOUBLE)) OVER (PARTITION BY k ORDER BY ts, id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
			FROM t ORDER BY id`,
		"range frames": `SELECT id,
			SUM(x) OVER (PARTITION BY k ORDER BY ts RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING),
			COUNT(*) OVER (PARTITION BY k ORDER BY ts DESC RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW),
			MAX(x) OVER (PARTITION BY k ORDER BY ts RANGE BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)
			FROM t ORDER BY id`,
		"first and last value": `SELECT id, FIRST_VALUE(id) OVER (PARTITION BY k ORDER BY ts, id), LAST_VALUE(id) OVER (PARTITION BY k ORDER BY ts, id),
			LAST_VALUE(id) OVER (PARTITION BY k ORDER BY ts DESC, id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING),
			FIRST_VALUE(id) OVER (PARTITION BY k ORDER BY id ROWS BETWEEN 1 FOLLOWING AND 2 FOLLOWING) FROM t ORDER BY id`,
		"top-n": `SELECT k, id, ts, rn FROM (SELECT k, id, ts, ROW_NUMBER() OVER (PARTITION BY k ORDER BY ts DESC, id) AS rn FROM t)
			WHERE rn <= 3 ORDER BY k, rn`,
		"top-n with <": `SELECT * FROM (SELECT id, k, x, ROW_NUMBER() OVER (PARTITION BY k ORDER BY x, id) AS rn FROM t) AS s
			WHERE rn < 3 ORDER BY id`,
		"top-n with BETWEEN": `SELECT id, rn FROM (SELECT id, ROW_NUMBER() OVER (PARTITION BY k ORDER BY ts, id) AS rn FROM t)
			WHERE rn BETWEEN 2 AND 4 ORDER BY id`,
		"dedup": `SELECT id, k, ts FROM (SELECT id, k, ts, ROW_NUMBER() OVER (PARTITION BY k ORDER BY ts DESC, id DESC) AS rn FROM t)
			WHERE rn = 1 ORDER BY k`,
		"top-n with another window": `SELECT * FROM (SELECT id, k, ROW_NUMBER() OVER (PARTITION BY k ORDER BY x DESC, id) AS rn,
			SUM(x) OVER (PARTITION BY k) AS total, COUNT(*) OVER (ORDER BY id) AS c FROM t) WHERE rn <= 2 ORDER BY id`,
		"top-n by rank": `SELECT id, rk FROM (SELECT id, RANK() OVER (PARTITION BY k ORDER BY ts) AS rk FROM t) WHERE rk <= 2 ORDER BY id`,
		"top-n by dense rank": `SELECT id, dr, rn FROM (SELECT id, DENSE_RANK() OVER (PARTITION BY k ORDER BY ts DESC) AS dr,
			ROW_NUMBER() OVER (PARTITION BY k ORDER BY ts DESC, id) AS rn FROM t) WHERE dr <= 3 ORDER BY id`,
		"over a join": `SELECT a.id, b.id, RANK() OVER (PARTITION BY a.k ORDER BY b.x DESC) FROM t a JOIN t b ON a.ts = b.ts
			WHERE a.id < 20 ORDER BY a.id, b.id`,
		"window over an aggregate": `SELECT k, SUM(x) AS s, RANK() OVER (ORDER BY SUM(x) DESC) AS r, ROW_NUMBER() OVER (ORDER BY COUNT(*), k) AS n
			FROM t GROUP BY k ORDER BY k`,
		"window over HAVING": `SELECT ts, COUNT(*), DENSE_RANK() OVER (ORDER BY COUNT(*) DESC) FROM t GROUP BY ts HAVING COUNT(*) > 2 ORDER BY ts`,
		"named window":       `SELECT id, ROW_NUMBER() OVER w, SUM(x) OVER w, LAG(x, 1, 99) OVER w FROM t WINDOW w AS (PARTITION BY k ORDER BY ts DESC, id) ORDER BY id`,
		"ORDER BY a window":  `SELECT id FROM t ORDER BY ROW_NUMBER() OVER (ORDER BY ts DESC, id) LIMIT 7`,
		"after WHERE, in an expression": `SELECT id, x - LAG(x) OVER (PARTITION BY k ORDER BY ts, id) AS d,
			ROW_NUMBER() OVER (ORDER BY id) * 10 FROM t WHERE x > -5 ORDER BY id`,
	}
	for name, q := range queries {
		t.Run(name, func(t *testing.T) {
			want := queryValues(t, ref, q)
			require.NotEmpty(t, want)
			fq := strings.NewReplacer("FROM t", "FROM "+dbName+".t", "JOIN t", "JOIN "+dbName+".t").Replace(q)
			got := queryStrings(t, db, fq)
			require.Len(t, got, len(want), q)
			for i := range want {
				require.Len(t, got[i], len(want[i]))
				for j := range want[i] {
					assert.True(t, sameText(got[i][j], want[i][j]), "%s\nrow %d column %d: flussql %v, SQLite %v", q, i, j, got[i], want[i])
				}
			}
		})
	}

	t.Run("primary-key table", func(t *testing.T) {
		_, err := db.Exec(`CREATE TABLE ` + dbName + `.pk (id INT, k STRING, x INT, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket.num' = '2')`)
		require.NoError(t, err)
		_, err = db.Exec(`INSERT INTO ` + dbName + `.pk VALUES (1, 'a', 5), (2, 'a', 7), (3, 'b', 1), (4, 'b', 1), (5, NULL, 2)`)
		require.NoError(t, err)
		q := `SELECT id, RANK() OVER (PARTITION BY k ORDER BY x DESC), SUM(x) OVER (PARTITION BY k) FROM ` + dbName + `.pk ORDER BY id`
		if !testServerVersion(t).AtLeast(1, 0) {
			_, err := db.Query(q)
			require.Error(t, err)
			assert.Contains(t, err.Error(), "1.0")
			return
		}
		assert.Equal(t, [][]string{{"1", "2", "12"}, {"2", "1", "12"}, {"3", "1", "2"}, {"4", "1", "2"}, {"5", "1", "2"}}, queryStrings(t, db, q))
	})
	t.Run("EXPLAIN shows the bounded top-N", func(t *testing.T) {
		plan := queryStrings(t, db, `EXPLAIN SELECT * FROM (SELECT id, ROW_NUMBER() OVER (PARTITION BY k ORDER BY ts DESC) AS rn FROM `+dbName+`.t) WHERE rn <= 3`)
		var text []string
		for _, r := range plan {
			text = append(text, strings.Join(r, " "))
		}
		assert.Contains(t, strings.Join(text, "\n"), "WindowTopN PARTITION BY k ORDER BY ts DESC NULLS LAST, rows 1..3 per partition")
	})
	t.Run("unbounded scan refused", func(t *testing.T) {
		_, err := db.Query(`SELECT id, ROW_NUMBER() OVER (ORDER BY ts) FROM ` + dbName + `.t /*+ OPTIONS('scan.bounded' = 'false') */`)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "window functions need a bounded scan")
	})
	t.Run("query memory budget", func(t *testing.T) {
		small, err := sql.Open("fluss", "fluss://"+realcluster.Addr(t)+"/fluss?query_memory=1KiB")
		require.NoError(t, err)
		defer small.Close()
		rows, err := small.Query(`SELECT id, SUM(x) OVER (PARTITION BY k) FROM ` + dbName + `.t`)
		if err == nil {
			for rows.Next() {
			}
			err = rows.Err()
			rows.Close()
		}
		require.Error(t, err)
		assert.Contains(t, err.Error(), "query_memory")
	})
}

// sameText compares two rendered values, numbers within 1e-9 relative.
func sameText(a, b string) bool {
	if a == b {
		return true
	}
	x, errA := strconv.ParseFloat(a, 64)
	y, errB := strconv.ParseFloat(b, 64)
	return errA == nil && errB == nil && math.Abs(x-y) <= 1e-9*math.Max(1, math.Abs(y))
}
