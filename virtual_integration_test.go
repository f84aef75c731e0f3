package flussql_test

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql"
)

// queryValues runs q and renders every value with fmt: NULL as "NULL", ROW values as
// [field …], so that $binlog's before/after images can be compared as text.
func queryValues(t *testing.T, db *sql.DB, q string, args ...any) [][]string {
	t.Helper()
	rows, err := db.Query(q, args...)
	require.NoError(t, err, q)
	defer rows.Close()
	cols, err := rows.Columns()
	require.NoError(t, err)
	var out [][]string
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		require.NoError(t, rows.Scan(ptrs...))
		row := make([]string, len(cols))
		for i, v := range vals {
			row[i] = renderValue(v)
		}
		out = append(out, row)
	}
	require.NoError(t, rows.Err())
	return out
}

func renderValue(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case []byte:
		return string(x)
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = renderValue(e)
		}
		return "[" + strings.Join(parts, " ") + "]"
	}
	return fmt.Sprint(v)
}

// TestVirtualTablesOfPrimaryKeyTable writes a scripted sequence (inserts, an upsert, an
// UPDATE, a partial update, a delete, a delete of a missing key, an insert) to a one-bucket
// primary-key table and reads it back through t$changelog and t$binlog with the clauses of
// the query language.
func TestVirtualTablesOfPrimaryKeyTable(t *testing.T) {
	db, dbName := openTestDB(t)
	tbl := dbName + ".accounts"
	_, err := db.Exec(`CREATE TABLE ` + tbl + ` (id INT, name STRING, balance BIGINT, PRIMARY KEY (id) NOT ENFORCED)
		WITH ('bucket.num' = '1')`)
	require.NoError(t, err)
	before := time.Now().Add(-time.Minute)
	for _, st := range []string{
		`INSERT INTO ` + tbl + ` VALUES (1, 'ada', 10), (2, 'bob', 20)`,
		`UPSERT INTO ` + tbl + ` VALUES (1, 'ada', 15)`,
		`UPDATE ` + tbl + ` SET balance = 25 WHERE id = 2`,
		`INSERT INTO ` + tbl + ` (id, balance) VALUES (1, 99)`, // partial update: name stays
		`DELETE FROM ` + tbl + ` WHERE id = 2`,
		`DELETE FROM ` + tbl + ` WHERE id = 7`, // no such key: no change
		`INSERT INTO ` + tbl + ` VALUES (3, 'cy', NULL)`,
	} {
		_, err := db.Exec(st)
		require.NoError(t, err, st)
	}
	after := time.Now().Add(time.Minute)

	changelog := [][]string{
		{"insert", "0", "1", "ada", "10"},
		{"insert", "1", "2", "bob", "20"},
		{"update_before", "2", "1", "ada", "10"},
		{"update_after", "3", "1", "ada", "15"},
		{"update_before", "4", "2", "bob", "20"},
		{"update_after", "5", "2", "bob", "25"},
		{"update_before", "6", "1", "ada", "15"},
		{"update_after", "7", "1", "ada", "99"},
		{"delete", "8", "2", "bob", "25"},
		{"insert", "10", "3", "cy", "NULL"}, // the delete of the missing key took offset 9 (an empty batch)
	}
	binlog := [][]string{
		{"insert", "0", "NULL", "[1 ada 10]"},
		{"insert", "1", "NULL", "[2 bob 20]"},
		{"update", "2", "[1 ada 10]", "[1 ada 15]"},
		{"update", "4", "[2 bob 20]", "[2 bob 25]"},
		{"update", "6", "[1 ada 15]", "[1 ada 99]"},
		{"delete", "8", "[2 bob 25]", "NULL"},
		{"insert", "10", "NULL", "[3 cy NULL]"},
	}
	for _, tc := range []struct {
		name, sql string
		want      [][]string
	}{
		{"changelog all", `SELECT _change_type, _log_offset, id, name, balance FROM ` + tbl + `$changelog ORDER BY _log_offset`, changelog},
		{"changelog filter and projection", `SELECT _log_offset, balance FROM ` + tbl + `$changelog WHERE id = 1 AND _change_type LIKE 'update%' ORDER BY 1 DESC`,
			[][]string{{"7", "99"}, {"6", "15"}, {"3", "15"}, {"2", "10"}}},
		{"changelog group by change type", `SELECT _change_type, COUNT(*) AS n, SUM(balance) FROM ` + tbl + `$changelog GROUP BY _change_type ORDER BY n DESC, _change_type`,
			[][]string{{"insert", "3", "30"}, {"update_after", "3", "139"}, {"update_before", "3", "45"}, {"delete", "1", "25"}}},
		{"changelog distinct", `SELECT DISTINCT id FROM ` + tbl + `$changelog WHERE _change_type = 'delete'`, [][]string{{"2"}}},
		{"changelog count", `SELECT COUNT(*), MIN(_log_offset), MAX(_log_offset) FROM ` + tbl + `$changelog`, [][]string{{"10", "0", "10"}}},
		{"changelog top-n", `SELECT id, balance FROM ` + tbl + `$changelog ORDER BY balance DESC NULLS LAST LIMIT 2`, [][]string{{"1", "99"}, {"2", "25"}}},
		{"changelog latest start is empty", `SELECT id FROM ` + tbl + `$changelog /*+ OPTIONS('scan.startup.mode' = 'latest') */`, nil},
		{"binlog all", `SELECT _change_type, _log_offset, before, after FROM ` + tbl + `$binlog ORDER BY _log_offset`, binlog},
		{"binlog filter", `SELECT _log_offset FROM ` + tbl + `$binlog WHERE _change_type = 'update' AND after IS NOT NULL AND before IS NOT NULL`,
			[][]string{{"2"}, {"4"}, {"6"}}},
		{"binlog group by", `SELECT _change_type, COUNT(*) FROM ` + tbl + `$binlog GROUP BY _change_type ORDER BY 1`,
			[][]string{{"delete", "1"}, {"insert", "3"}, {"update", "3"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, queryValues(t, db, tc.sql), tc.sql)
		})
	}

	t.Run("star columns and commit timestamps", func(t *testing.T) {
		rows, err := db.Query(`SELECT * FROM ` + tbl + `$changelog ORDER BY _log_offset`)
		require.NoError(t, err)
		defer rows.Close()
		cols, err := rows.Columns()
		require.NoError(t, err)
		assert.Equal(t, []string{"_change_type", "_log_offset", "_commit_timestamp", "id", "name", "balance"}, cols)
		var last time.Time
		n := 0
		for rows.Next() {
			var kind string
			var off int64
			var ts time.Time
			var id int32
			var name sql.NullString
			var balance sql.NullInt64
			require.NoError(t, rows.Scan(&kind, &off, &ts, &id, &name, &balance))
			assert.True(t, ts.After(before) && ts.Before(after), "commit time %s of offset %d is not around the writes", ts, off)
			assert.False(t, ts.Before(last), "commit times go back at offset %d", off)
			last = ts
			n++
		}
		require.NoError(t, rows.Err())
		assert.Equal(t, 10, n)
	})

	t.Run("timestamp start", func(t *testing.T) {
		// Start at the commit time of the insert after the missing key's delete: the scan
		// reads the batches committed from then on, the rows a WHERE on _commit_timestamp keeps.
		var since time.Time
		require.NoError(t, db.QueryRow(`SELECT _commit_timestamp FROM `+tbl+`$changelog WHERE _log_offset = 10`).Scan(&since))
		want := queryValues(t, db, `SELECT _log_offset FROM `+tbl+`$changelog WHERE _commit_timestamp >= ? ORDER BY 1`, since)
		require.NotEmpty(t, want)
		got := queryValues(t, db, fmt.Sprintf(`SELECT _log_offset FROM %s$changelog /*+ OPTIONS('scan.startup.mode' = 'timestamp',
			'scan.startup.timestamp' = '%d') */ ORDER BY 1`, tbl, since.UnixMilli()))
		assert.Equal(t, want, got)
		assert.Equal(t, []string{"10"}, want[len(want)-1])
	})

	t.Run("unbounded with limit", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		rows, err := db.QueryContext(ctx, `SELECT _log_offset, id FROM `+tbl+`$changelog /*+ OPTIONS('scan.bounded' = 'false') */ WHERE _change_type <> 'insert' LIMIT 3`)
		require.NoError(t, err)
		defer rows.Close()
		var offs []int64
		for rows.Next() {
			var off int64
			var id int32
			require.NoError(t, rows.Scan(&off, &id))
			offs = append(offs, off)
		}
		require.NoError(t, rows.Err())
		assert.Equal(t, []int64{2, 3, 4}, offs)
	})

	t.Run("describe", func(t *testing.T) {
		got := firstColumn(queryStrings(t, db, `DESCRIBE `+tbl+`$binlog`))
		assert.Equal(t, [][]string{{"_change_type"}, {"_log_offset"}, {"_commit_timestamp"}, {"before"}, {"after"}}, got)
		got = queryStrings(t, db, "DESCRIBE "+dbName+".`accounts$changelog`")
		assert.Equal(t, [][]string{
			{"_change_type", "STRING", "false"}, {"_log_offset", "BIGINT", "false"}, {"_commit_timestamp", "TIMESTAMP_LTZ(3)", "false"},
			{"id", "INT", "false"}, {"name", "STRING", "true"}, {"balance", "BIGINT", "true"},
		}, firstColumns(got, 3))
	})

	t.Run("query arrow", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		conn, err := db.Conn(ctx)
		require.NoError(t, err)
		defer conn.Close()
		require.NoError(t, conn.Raw(func(dc any) error {
			r, err := dc.(flussql.ArrowConn).QueryArrow(ctx, `SELECT _change_type, _log_offset, _commit_timestamp, after FROM `+tbl+`$binlog WHERE _change_type = 'delete'`)
			if err != nil {
				return err
			}
			defer r.Close()
			names := []string{}
			for _, f := range r.Schema().Fields() {
				names = append(names, f.Name)
			}
			assert.Equal(t, []string{"_change_type", "_log_offset", "_commit_timestamp", "after"}, names)
			assert.Equal(t, arrow.TIMESTAMP, r.Schema().Field(2).Type.ID())
			assert.Equal(t, arrow.STRUCT, r.Schema().Field(3).Type.ID())
			var n int64
			for {
				b, err := r.Next(ctx)
				if err != nil {
					break
				}
				n += b.NumRows()
				if b.NumRows() > 0 {
					assert.Equal(t, int64(8), b.Column(1).(interface{ Value(int) int64 }).Value(0))
					assert.True(t, b.Column(3).IsNull(0), "a delete has no after image")
				}
			}
			assert.Equal(t, int64(1), n)
			return nil
		}))
	})

	t.Run("writes are refused", func(t *testing.T) {
		for _, st := range []string{
			`INSERT INTO ` + tbl + `$changelog VALUES ('insert', 1, TIMESTAMP '2024-01-01 00:00:00', 5, 'x', 1)`,
			`DELETE FROM ` + tbl + `$binlog WHERE id = 1`,
			`UPDATE ` + tbl + `$changelog SET name = 'x' WHERE id = 1`,
		} {
			_, err := db.Exec(st)
			require.Error(t, err, st)
			assert.Contains(t, err.Error(), "read-only virtual table", st)
		}
	})
}

// firstColumns keeps the first n columns of each row.
func firstColumns(rows [][]string, n int) [][]string {
	out := make([][]string, len(rows))
	for i, r := range rows {
		out[i] = r[:n]
	}
	return out
}

// TestVirtualTablesOfLogAndPartitionedTables reads the $changelog of a log table (every row
// is an 'insert') and the $changelog and $binlog of a partitioned primary-key table, whose
// WHERE on the partition column prunes the partitions read.
func TestVirtualTablesOfLogAndPartitionedTables(t *testing.T) {
	db, dbName := openTestDB(t)
	logs, parts := dbName+".events", dbName+".stock"
	for _, st := range []string{
		`CREATE TABLE ` + logs + ` (id INT, msg STRING) WITH ('bucket.num' = '1')`,
		`INSERT INTO ` + logs + ` VALUES (1, 'a'), (2, 'b')`,
		`INSERT INTO ` + logs + ` VALUES (3, 'c')`,
		`CREATE TABLE ` + parts + ` (sku INT, region STRING, qty INT, PRIMARY KEY (sku, region) NOT ENFORCED)
			PARTITIONED BY (region) WITH ('bucket.num' = '1')`,
		`ALTER TABLE ` + parts + ` ADD PARTITION (region = 'EU')`,
		`ALTER TABLE ` + parts + ` ADD PARTITION (region = 'US')`,
		`INSERT INTO ` + parts + ` VALUES (1, 'EU', 5), (1, 'US', 7), (2, 'EU', 1)`,
		`UPSERT INTO ` + parts + ` VALUES (1, 'EU', 4)`,
		`DELETE FROM ` + parts + ` WHERE sku = 2 AND region = 'EU'`,
	} {
		_, err := db.Exec(st)
		require.NoError(t, err, st)
	}
	for _, tc := range []struct {
		name, sql string
		want      [][]string
	}{
		{"log table changelog", `SELECT _change_type, _log_offset, id, msg FROM ` + logs + `$changelog ORDER BY _log_offset`,
			[][]string{{"insert", "0", "1", "a"}, {"insert", "1", "2", "b"}, {"insert", "2", "3", "c"}}},
		{"log table changelog aggregate", `SELECT _change_type, COUNT(*) FROM ` + logs + `$changelog GROUP BY _change_type`,
			[][]string{{"insert", "3"}}},
		{"partitioned changelog", `SELECT region, _change_type, _log_offset, sku, qty FROM ` + parts + `$changelog ORDER BY region, _log_offset`,
			[][]string{
				{"EU", "insert", "0", "1", "5"}, {"EU", "insert", "1", "2", "1"},
				{"EU", "update_before", "2", "1", "5"}, {"EU", "update_after", "3", "1", "4"}, {"EU", "delete", "4", "2", "1"},
				{"US", "insert", "0", "1", "7"},
			}},
		{"partitioned changelog pruned", `SELECT _change_type, sku, qty FROM ` + parts + `$changelog WHERE region = 'US'`,
			[][]string{{"insert", "1", "7"}}},
		{"partitioned binlog", `SELECT _change_type, before, after FROM ` + parts + `$binlog WHERE _change_type <> 'insert' ORDER BY _log_offset`,
			[][]string{{"update", "[1 EU 5]", "[1 EU 4]"}, {"delete", "[2 EU 1]", "NULL"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, queryValues(t, db, tc.sql), tc.sql)
		})
	}
	t.Run("explain shows the pruning", func(t *testing.T) {
		plan := strings.Join(firstColumn0(queryStrings(t, db, `EXPLAIN SELECT sku FROM `+parts+`$changelog WHERE region = 'US'`)), "\n")
		assert.Contains(t, plan, "partitions: 1 of 2")
		assert.Contains(t, plan, "virtual table: $changelog")
	})
	t.Run("binlog of a log table is refused", func(t *testing.T) {
		_, err := db.Query(`SELECT * FROM ` + logs + `$binlog`)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "$binlog needs a primary-key table")
	})
}

// firstColumn0 returns the first value of each row.
func firstColumn0(rows [][]string) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = r[0]
	}
	return out
}

// TestBinlogOfWALChangelogImage reads a table with 'table.changelog.image' = 'WAL', whose log
// has no update_before rows: its $binlog updates have no before image (Fluss's Flink
// connector fails on such a log).
func TestBinlogOfWALChangelogImage(t *testing.T) {
	db, dbName := openTestDB(t)
	tbl := dbName + ".kv"
	for _, st := range []string{
		`CREATE TABLE ` + tbl + ` (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket.num' = '1', 'table.changelog.image' = 'WAL')`,
		`INSERT INTO ` + tbl + ` VALUES (1, 'a')`,
		`UPSERT INTO ` + tbl + ` VALUES (1, 'b')`,
		`DELETE FROM ` + tbl + ` WHERE id = 1`,
	} {
		_, err := db.Exec(st)
		require.NoError(t, err, st)
	}
	// WAL mode writes an insert as an update_after too (no old value is looked up).
	assert.Equal(t, [][]string{{"update_after", "1", "a"}, {"update_after", "1", "b"}, {"delete", "1", "b"}},
		queryValues(t, db, `SELECT _change_type, id, v FROM `+tbl+`$changelog ORDER BY _log_offset`))
	assert.Equal(t, [][]string{{"update", "NULL", "[1 a]"}, {"update", "NULL", "[1 b]"}, {"delete", "[1 b]", "NULL"}},
		queryValues(t, db, `SELECT _change_type, before, after FROM `+tbl+`$binlog ORDER BY _log_offset`))
}
