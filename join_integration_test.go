package flussql_test

import (
	"context"
	"database/sql"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql"
)

// column returns column c of rows.
func column(rows [][]string, c int) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = r[c]
	}
	return out
}

// TestJoins runs joins, subqueries and UNION ALL end to end: lookup joins of a log table
// with primary-key tables (plain, partitioned, by prefix), hash joins of two log tables,
// subqueries in FROM and UNION ALL.
func TestJoins(t *testing.T) {
	db, dbName := openTestDB(t)
	orders, items, custs, tiers, lines := dbName+".orders", dbName+".items", dbName+".customers", dbName+".tiers", dbName+".lines"
	mustExec := func(q string) {
		t.Helper()
		_, err := db.Exec(q)
		require.NoError(t, err, q)
	}
	mustExec(`CREATE TABLE ` + orders + ` (id INT, cust BIGINT, region STRING, amount INT) WITH ('bucket.num' = '2')`)
	mustExec(`INSERT INTO ` + orders + ` VALUES (1, 10, 'US', 100), (2, 20, 'EU', 200), (3, NULL, 'US', 300),
		(4, 10, 'EU', 400), (5, 99, 'XX', 500), (6, 30, 'US', 600), (7, 5000000000, 'US', 1)`)
	mustExec(`CREATE TABLE ` + items + ` (order_id INT, sku STRING, qty INT) WITH ('bucket.num' = '1')`)
	mustExec(`INSERT INTO ` + items + ` VALUES (1, 'a', 1), (1, 'b', 2), (2, 'a', 5), (7, 'z', 1), (NULL, 'n', 1)`)
	mustExec(`CREATE TABLE ` + custs + ` (id INT, name STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket.num' = '2')`)
	mustExec(`INSERT INTO ` + custs + ` VALUES (10, 'ann'), (20, 'bob'), (30, 'cy')`)
	mustExec(`CREATE TABLE ` + tiers + ` (cust INT, region STRING, tier STRING, PRIMARY KEY (cust, region) NOT ENFORCED)
		PARTITIONED BY (region) WITH ('bucket.num' = '2')`)
	for _, r := range []string{"US", "EU"} {
		mustExec(`ALTER TABLE ` + tiers + ` ADD PARTITION (region = '` + r + `')`)
	}
	mustExec(`INSERT INTO ` + tiers + ` VALUES (10, 'US', 'gold'), (10, 'EU', 'silver'), (20, 'EU', 'bronze')`)
	mustExec(`CREATE TABLE ` + lines + ` (cust INT, line INT, what STRING, PRIMARY KEY (cust, line) NOT ENFORCED)
		WITH ('bucket.num' = '2', 'bucket.key' = 'cust')`)
	mustExec(`INSERT INTO ` + lines + ` VALUES (10, 1, 'x'), (10, 2, 'y'), (30, 1, 'z')`)

	for _, tc := range []struct {
		name, sql string
		args      []any
		want      [][]string
	}{
		{"lookup join", `SELECT o.id, c.name FROM ` + orders + ` o JOIN ` + custs + ` c ON c.id = o.cust ORDER BY o.id`, nil,
			[][]string{{"1", "ann"}, {"2", "bob"}, {"4", "ann"}, {"6", "cy"}}},
		{"left lookup join: missing keys, NULL keys, a BIGINT key out of the INT key's range", `SELECT o.id, c.name FROM ` + orders + ` AS o LEFT JOIN ` + custs + ` AS c ON o.cust = c.id ORDER BY o.id`, nil,
			[][]string{{"1", "ann"}, {"2", "bob"}, {"3", "NULL"}, {"4", "ann"}, {"5", "NULL"}, {"6", "cy"}, {"7", "NULL"}}},
		{"Flink's FOR SYSTEM_TIME AS OF form with a residual", `SELECT o.id, c.name FROM ` + orders + ` o LEFT JOIN ` + custs +
			` FOR SYSTEM_TIME AS OF o.proc_time AS c ON o.cust = c.id AND c.name <> 'ann' WHERE o.amount < 500 ORDER BY o.id`, nil,
			[][]string{{"1", "NULL"}, {"2", "bob"}, {"3", "NULL"}, {"4", "NULL"}, {"7", "NULL"}}},
		{"lookup join of a partitioned table (a missing partition finds nothing)", `SELECT o.id, t.tier FROM ` + orders + ` o LEFT JOIN ` + tiers +
			` t ON t.cust = o.cust AND t.region = o.region ORDER BY o.id`, nil,
			[][]string{{"1", "gold"}, {"2", "bronze"}, {"3", "NULL"}, {"4", "silver"}, {"5", "NULL"}, {"6", "NULL"}, {"7", "NULL"}}},
		{"qualified star", `SELECT c.*, o.id FROM ` + orders + ` o JOIN ` + custs + ` c ON c.id = o.cust WHERE o.id = 1`, nil,
			[][]string{{"10", "ann", "1"}}},
		{"prefix lookup join on the bucket key", `SELECT o.id, l.line, l.what FROM ` + orders + ` o JOIN ` + lines + ` l ON l.cust = o.cust ORDER BY o.id, l.line`, nil,
			[][]string{{"1", "1", "x"}, {"1", "2", "y"}, {"4", "1", "x"}, {"4", "2", "y"}, {"6", "1", "z"}}},
		{"lookup join with aggregation", `SELECT c.name, COUNT(*), SUM(o.amount) FROM ` + orders + ` o JOIN ` + custs + ` c ON c.id = o.cust GROUP BY c.name ORDER BY 3 DESC`, nil,
			[][]string{{"cy", "1", "600"}, {"ann", "2", "500"}, {"bob", "1", "200"}}},
		{"hash join of two log tables", `SELECT o.id, i.sku, i.qty FROM ` + orders + ` o JOIN ` + items + ` i ON i.order_id = o.id ORDER BY o.id, i.sku`, nil,
			[][]string{{"1", "a", "1"}, {"1", "b", "2"}, {"2", "a", "5"}, {"7", "z", "1"}}},
		{"left hash join with a residual", `SELECT o.id, i.sku FROM ` + orders + ` o LEFT JOIN ` + items + ` i ON i.order_id = o.id AND i.qty > 1 WHERE o.id <= 3 ORDER BY o.id`, nil,
			[][]string{{"1", "b"}, {"2", "a"}, {"3", "NULL"}}},
		{"three-way join", `SELECT o.id, c.name, i.sku FROM ` + orders + ` o JOIN ` + items + ` i ON i.order_id = o.id JOIN ` + custs + ` c ON c.id = o.cust WHERE i.qty = ? ORDER BY i.sku`, []any{5},
			[][]string{{"2", "bob", "a"}}},
		{"subquery", `SELECT s.region, s.total FROM (SELECT region, SUM(amount) AS total FROM ` + orders + ` GROUP BY region) s WHERE s.total > 500 ORDER BY s.total DESC`, nil,
			[][]string{{"US", "1001"}, {"EU", "600"}}},
		{"nested subquery with a limit", `SELECT COUNT(*) FROM (SELECT x.id FROM (SELECT id FROM ` + orders + ` ORDER BY amount DESC LIMIT 2 OFFSET 1) x WHERE x.id > 2) y`, nil,
			[][]string{{"2"}}},
		{"union all widens INT and BIGINT", `SELECT id FROM ` + orders + ` WHERE id < 3 UNION ALL SELECT cust FROM ` + orders + ` WHERE id = 2 ORDER BY id`, nil,
			[][]string{{"1"}, {"2"}, {"20"}}},
		{"union all in a subquery", `SELECT u.k, COUNT(*) FROM (SELECT sku AS k FROM ` + items + ` UNION ALL SELECT region FROM ` + orders + `) u GROUP BY u.k ORDER BY 2 DESC, 1 LIMIT 2`, nil,
			[][]string{{"US", "4"}, {"EU", "2"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, queryStrings(t, db, tc.sql, tc.args...), tc.sql)
		})
	}

	t.Run("hash join with a whole primary-key table", func(t *testing.T) {
		// ON misses the key cust of tiers: the table is read whole, a KV scan on Fluss 1.0;
		// refused on older servers.
		q := `SELECT o.id, t.tier FROM ` + orders + ` o JOIN ` + tiers + ` t ON t.region = o.region ORDER BY o.id, t.tier`
		if testServerVersion(t).AtLeast(1, 0) {
			assert.Equal(t, [][]string{{"1", "gold"}, {"2", "bronze"}, {"2", "silver"}, {"3", "gold"}, {"4", "bronze"},
				{"4", "silver"}, {"6", "gold"}, {"7", "gold"}}, queryStrings(t, db, q))
			return
		}
		_, err := db.Query(q)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "ScanKv")
	})
	t.Run("lookup join over an unbounded scan streams", func(t *testing.T) {
		got := queryStrings(t, db, `SELECT o.id, c.name FROM `+orders+` /*+ OPTIONS('scan.bounded' = 'false') */ o JOIN `+custs+` c ON c.id = o.cust LIMIT 4`)
		assert.Len(t, got, 4)
	})
	t.Run("EXPLAIN shows the join operators and the server's part", func(t *testing.T) {
		got := queryStrings(t, db, `EXPLAIN SELECT o.id, c.name, i.sku FROM `+orders+` o JOIN `+items+` i ON i.order_id = o.id JOIN `+custs+` c ON c.id = o.cust`)
		var text []string
		for _, r := range got {
			text = append(text, r[0])
		}
		plan := strings.Join(text, "\n")
		assert.Contains(t, plan, "LookupJoin INNER "+custs+" AS c ON CAST(CASE WHEN (`o.cust` >= -2147483648 AND `o.cust` <= 2147483647) THEN `o.cust` END AS INT) = c.id")
		assert.Contains(t, plan, "HashJoin INNER")
		assert.Contains(t, plan, "server, lookup join 0: Lookup "+custs+" by (id)")
		assert.Contains(t, plan, "server, input 1:\n    Scan "+items)
	})
	t.Run("QueryArrow returns the joined batches", func(t *testing.T) {
		ctx := context.Background()
		conn, err := db.Conn(ctx)
		require.NoError(t, err)
		defer conn.Close()
		names := map[int32]string{}
		err = conn.Raw(func(dc any) error {
			r, err := dc.(flussql.ArrowConn).QueryArrow(ctx, `SELECT o.id, c.name FROM `+orders+` o LEFT JOIN `+custs+` c ON c.id = o.cust`)
			if err != nil {
				return err
			}
			defer r.Close()
			for {
				rec, err := r.Next(ctx)
				if err == io.EOF {
					return nil
				}
				if err != nil {
					return err
				}
				ids, ns := rec.Column(0).(*array.Int32), rec.Column(1).(*array.String)
				for i := range ids.Len() {
					names[ids.Value(i)] = ns.ValueStr(i)
				}
			}
		})
		require.NoError(t, err)
		assert.Equal(t, map[int32]string{1: "ann", 2: "bob", 3: array.NullValueStr, 4: "ann", 5: array.NullValueStr, 6: "cy", 7: array.NullValueStr}, names)
	})
	t.Run("a table read twice is read once, and again past half the budget", func(t *testing.T) {
		q := `SELECT id FROM ` + orders + ` WHERE amount > (SELECT AVG(amount) FROM ` + orders + `) ORDER BY id`
		plan := strings.Join(column(queryStrings(t, db, `EXPLAIN `+q), 0), "\n")
		assert.Contains(t, plan, "read once with input 0")
		assert.Equal(t, [][]string{{"4"}, {"5"}, {"6"}}, queryStrings(t, db, q)) // above the average, 300.14
		// UNION ALL holds nothing: under 64 bytes, half of which holds no batch, the second
		// branch, not started while the first reads, reads the table itself.
		u := `SELECT id FROM ` + orders + ` UNION ALL SELECT amount FROM ` + orders
		plan = strings.Join(column(queryStrings(t, db, `EXPLAIN `+u), 0), "\n")
		assert.Contains(t, plan, "read once with input 0")
		small, err := sql.Open("fluss", "fluss://"+os.Getenv("FLUSS_BOOTSTRAP_SERVERS")+"/fluss?query_memory=64B")
		require.NoError(t, err)
		defer small.Close()
		want := []string{"1", "2", "3", "4", "5", "6", "7", "100", "200", "300", "400", "500", "600", "1"}
		for _, d := range []*sql.DB{db, small} {
			assert.ElementsMatch(t, want, column(queryStrings(t, d, u), 0))
		}

		ctx := context.Background()
		conn, err := db.Conn(ctx)
		require.NoError(t, err)
		defer conn.Close()
		var ids []int32
		err = conn.Raw(func(dc any) error {
			r, err := dc.(flussql.ArrowConn).QueryArrow(ctx, q)
			if err != nil {
				return err
			}
			defer r.Close()
			for {
				rec, err := r.Next(ctx)
				if err == io.EOF {
					return nil
				}
				if err != nil {
					return err
				}
				ids = append(ids, rec.Column(0).(*array.Int32).Int32Values()...)
			}
		})
		require.NoError(t, err)
		assert.Equal(t, []int32{4, 5, 6}, ids)
	})
	t.Run("hash join over the memory budget", func(t *testing.T) {
		small, err := sql.Open("fluss", "fluss://"+os.Getenv("FLUSS_BOOTSTRAP_SERVERS")+"/fluss?query_memory=32B") // the five rows and their index take more
		require.NoError(t, err)
		defer small.Close()
		rows, err := small.Query(`SELECT o.id FROM ` + orders + ` o JOIN ` + items + ` i ON i.order_id = o.id`)
		if err == nil {
			for rows.Next() {
			}
			err = rows.Err()
			rows.Close()
		}
		require.Error(t, err)
		assert.Contains(t, err.Error(), "hash join (build side)")
		assert.Contains(t, err.Error(), "query_memory")
	})
}
