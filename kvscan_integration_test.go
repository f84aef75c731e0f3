package flussql_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql"
	"github.com/flussql/flussql/fluss"
)

// TestKvScanSQL: on a 1.0 server, SELECTs of a primary-key table without a key condition
// run as a KV scan: the latest value of each live key after upserts, deletes and partial
// updates, with projection, client-side filters, partition pruning, LIMIT and the engine's
// aggregates, ORDER BY and DISTINCT on top; EXPLAIN says so. On 0.9 they are refused with
// fluss.ErrUnsupportedByServer (and a LIMIT without key condition is still a limit scan).
func TestKvScanSQL(t *testing.T) {
	db, dbName := openTestDB(t)
	v := testServerVersion(t)
	tbl := dbName + ".users"
	_, err := db.Exec(`CREATE TABLE ` + tbl + ` (id INT NOT NULL, name STRING, score BIGINT, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket.num' = '3')`)
	require.NoError(t, err)
	var vals []string
	for id := 1; id <= 60; id++ {
		vals = append(vals, fmt.Sprintf("(%d, 'n%d', %d)", id, id, id))
	}
	_, err = db.Exec(`INSERT INTO ` + tbl + ` VALUES ` + strings.Join(vals, ", "))
	require.NoError(t, err)
	_, err = db.Exec(`INSERT INTO ` + tbl + ` VALUES (1, 'again', 100), (2, 'again', 200)`)
	require.NoError(t, err)
	_, err = db.Exec(`DELETE FROM ` + tbl + ` WHERE id IN (3, 4, 5)`)
	require.NoError(t, err)
	_, err = db.Exec(`UPDATE ` + tbl + ` SET score = -6 WHERE id = 6`)
	require.NoError(t, err)

	if !v.AtLeast(1, 0) {
		_, err := db.Query(`SELECT * FROM ` + tbl)
		require.ErrorIs(t, err, fluss.ErrUnsupportedByServer)
		assert.ErrorContains(t, err, "which has no SCAN_KV")
		got := queryStrings(t, db, `SELECT id FROM `+tbl+` LIMIT 2`)
		assert.Len(t, got, 2, "LIMIT without a key condition is a limit scan on 0.9")
		return
	}

	// The leader applies acknowledged writes to its KV store asynchronously: wait until
	// a scan sees the last one.
	require.Eventually(t, func() bool {
		got := queryStrings(t, db, `SELECT score FROM `+tbl+` WHERE id = 6 AND name IS NOT NULL AND score < 0`)
		return len(got) == 1
	}, 20*time.Second, 100*time.Millisecond)
	for _, tc := range []struct {
		query string
		want  [][]string
	}{
		{`SELECT COUNT(*) FROM ` + tbl, [][]string{{"57"}}},
		{`SELECT id, name, score FROM ` + tbl + ` WHERE id <= 7 ORDER BY id`, [][]string{
			{"1", "again", "100"}, {"2", "again", "200"}, {"6", "n6", "-6"}, {"7", "n7", "7"}}},
		{`SELECT name FROM ` + tbl + ` WHERE score > 50 AND score < 100 ORDER BY name DESC LIMIT 3`, [][]string{{"n60"}, {"n59"}, {"n58"}}},
		{`SELECT DISTINCT name FROM ` + tbl + ` WHERE name = 'again'`, [][]string{{"again"}}},
		{`SELECT SUM(score), MIN(id), MAX(id) FROM ` + tbl, [][]string{{fmt.Sprint(1830 - 1 - 2 - 3 - 4 - 5 - 6 + 100 + 200 - 6), "1", "60"}}},
		{`SELECT id FROM ` + tbl + ` WHERE id = 3`, nil},
	} {
		t.Run(tc.query, func(t *testing.T) {
			assert.Equal(t, tc.want, queryStrings(t, db, tc.query))
		})
	}
	got := queryStrings(t, db, `SELECT * FROM `+tbl+` LIMIT 5`)
	assert.Len(t, got, 5)
	got = queryStrings(t, db, `SELECT * FROM `+tbl)
	assert.Len(t, got, 57)

	plan := strings.Join(flatten(queryStrings(t, db, `EXPLAIN SELECT name FROM `+tbl+` LIMIT 4`)), "\n")
	assert.Contains(t, plan, "kv scan (SCAN_KV)")
	assert.Contains(t, plan, "at most 4 rows read from each")

	// QueryArrow streams the same rows through the engine.
	conn, err := db.Conn(context.Background())
	require.NoError(t, err)
	defer conn.Close()
	n := 0
	require.NoError(t, conn.Raw(func(dc any) error {
		r, err := dc.(flussql.ArrowConn).QueryArrow(context.Background(), `SELECT id, score FROM `+tbl+` WHERE score >= 0`)
		if err != nil {
			return err
		}
		defer r.Close()
		for {
			rec, err := r.Next(context.Background())
			if errors.Is(err, io.EOF) {
				return nil
			}
			if err != nil {
				return err
			}
			n += int(rec.NumRows())
		}
	}))
	assert.Equal(t, 56, n)
}

// TestKvScanSQLPartitioned: a partitioned primary-key table is scanned partition by
// partition; a WHERE on the partition column prunes the others.
func TestKvScanSQLPartitioned(t *testing.T) {
	db, dbName := openTestDB(t)
	tbl := dbName + ".by_region"
	_, err := db.Exec(`CREATE TABLE ` + tbl + ` (id INT NOT NULL, region STRING NOT NULL, score BIGINT, PRIMARY KEY (id, region) NOT ENFORCED) PARTITIONED BY (region) WITH ('bucket.num' = '1')`)
	require.NoError(t, err)
	for _, r := range []string{"EU", "US", "APAC"} {
		_, err = db.Exec(`ALTER TABLE ` + tbl + ` ADD PARTITION (region = '` + r + `')`)
		require.NoError(t, err)
	}
	if !offersKvScanSQL(t, db, `SELECT region, COUNT(*) FROM `+tbl+` GROUP BY region`) {
		return
	}
	var vals []string
	for id := range 300 {
		vals = append(vals, fmt.Sprintf("(%d, '%s', %d)", id, []string{"EU", "US", "APAC"}[id%3], id))
	}
	_, err = db.Exec(`INSERT INTO ` + tbl + ` VALUES ` + strings.Join(vals, ", "))
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		return len(queryStrings(t, db, `SELECT id FROM `+tbl+` WHERE id >= 0`)) == 300
	}, 20*time.Second, 100*time.Millisecond)

	assert.Equal(t, [][]string{{"EU", "100", "14850"}}, queryStrings(t, db,
		`SELECT region, COUNT(*), SUM(score) FROM `+tbl+` WHERE region = 'EU' GROUP BY region`))
	assert.Equal(t, [][]string{{"APAC", "100"}, {"EU", "100"}, {"US", "100"}}, queryStrings(t, db,
		`SELECT region, COUNT(*) FROM `+tbl+` GROUP BY region ORDER BY region`))
	plan := strings.Join(flatten(queryStrings(t, db, `EXPLAIN SELECT * FROM `+tbl+` WHERE region = 'US'`)), "\n")
	assert.Contains(t, plan, "partitions: 1 of 3")

}

// TestKvScanSQLClosesSessions: rows closed before the end of a KV scan (here at a LIMIT
// with a WHERE, so the limit is not pushed to the server) close the server's scan session.
// The table's one bucket holds more than one 4 MiB batch, so each query leaves a session
// open until it is closed; the server allows 8 per bucket (kv.scanner.max-per-bucket), so
// 20 unclosed ones would make the last query fail with TOO_MANY_SCANNERS.
func TestKvScanSQLClosesSessions(t *testing.T) {
	db, dbName := openTestDB(t)
	tbl := dbName + ".big"
	_, err := db.Exec(`CREATE TABLE ` + tbl + ` (id INT NOT NULL, pad STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket.num' = '1')`)
	require.NoError(t, err)
	if !offersKvScanSQL(t, db, `SELECT COUNT(*) FROM `+tbl) {
		return
	}
	pad := strings.Repeat("x", 2000)
	const n = 3000 // ~6 MB
	for start := 0; start < n; start += 500 {
		var vals []string
		for id := start; id < start+500; id++ {
			vals = append(vals, fmt.Sprintf("(%d, '%s')", id, pad))
		}
		_, err = db.Exec(`INSERT INTO ` + tbl + ` VALUES ` + strings.Join(vals, ", "))
		require.NoError(t, err)
	}
	count := `SELECT COUNT(*) FROM ` + tbl
	require.Eventually(t, func() bool {
		got := queryStrings(t, db, count)
		return len(got) == 1 && got[0][0] == fmt.Sprint(n)
	}, 20*time.Second, 100*time.Millisecond)

	for i := range 20 {
		rows, err := db.Query(`SELECT id FROM ` + tbl + ` WHERE id >= 0 LIMIT 1`)
		require.NoError(t, err, "query %d", i)
		require.True(t, rows.Next(), "query %d: %v", i, rows.Err())
		require.NoError(t, rows.Close())
	}
	assert.Equal(t, [][]string{{fmt.Sprint(n)}}, queryStrings(t, db, count), "no session of the closed queries is left open")
}

// offersKvScanSQL reports whether the server offers SCAN_KV (Fluss 1.0+); on an older one
// it checks that query, which needs a full scan, is refused with ErrUnsupportedByServer, and
// the test ends there.
func offersKvScanSQL(t *testing.T, db *sql.DB, query string) bool {
	t.Helper()
	v := testServerVersion(t)
	if v.AtLeast(1, 0) {
		return true
	}
	_, err := db.Query(query)
	require.ErrorIs(t, err, fluss.ErrUnsupportedByServer)
	assert.ErrorContains(t, err, "the server speaks Fluss "+v.String()+", which has no SCAN_KV")
	t.Logf("the server speaks Fluss %s, which has no SCAN_KV: the refusal is checked", v)
	return false
}
