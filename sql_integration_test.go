package flussql_test

import (
	"context"
	"database/sql"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/jmoiron/sqlx"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql"
	"github.com/flussql/flussql/fluss"
)

// TestSQLX checks what sqlx users do: Get/Select into structs by column name, NamedExec.
func TestSQLX(t *testing.T) {
	db, dbName := openTestDB(t)
	x := sqlx.NewDb(db, "fluss")
	users := dbName + ".users"
	_, err := x.Exec(`CREATE TABLE ` + users + ` (id BIGINT, name STRING, score DOUBLE, joined DATE,
		PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket.num' = '2')`)
	require.NoError(t, err)
	type user struct {
		ID     int64           `db:"id"`
		Name   string          `db:"name"`
		Score  sql.NullFloat64 `db:"score"`
		Joined time.Time       `db:"joined"`
	}
	day := time.Date(2024, 5, 17, 0, 0, 0, 0, time.UTC)
	for _, u := range []user{{ID: 1, Name: "ada", Score: sql.NullFloat64{Float64: 9.5, Valid: true}, Joined: day}, {ID: 2, Name: "bob", Joined: day.AddDate(0, 0, 1)}} {
		_, err := x.NamedExec(`INSERT INTO `+users+` (id, name, score, joined) VALUES (:id, :name, :score, :joined)`, u)
		require.NoError(t, err)
	}
	var got user
	require.NoError(t, x.Get(&got, `SELECT id, name, score, joined FROM `+users+` WHERE id = ?`, 1))
	assert.Equal(t, user{ID: 1, Name: "ada", Score: sql.NullFloat64{Float64: 9.5, Valid: true}, Joined: day}, got)

	var many []user
	require.NoError(t, x.Select(&many, `SELECT * FROM `+users+` WHERE id IN (1, 2, 3)`))
	require.Len(t, many, 2)
	byID := map[int64]user{many[0].ID: many[0], many[1].ID: many[1]}
	assert.False(t, byID[2].Score.Valid, "NULL score scans as invalid NullFloat64")
	assert.Equal(t, "bob", byID[2].Name)

	err = x.Get(&got, `SELECT * FROM `+users+` WHERE id = 42`)
	assert.ErrorIs(t, err, sql.ErrNoRows)
}

// TestTypeMatrixSQL writes every Fluss scalar type with and without NULLs through SQL and
// reads it back from the log (scan) and from a primary-key table (lookup).
func TestTypeMatrixSQL(t *testing.T) {
	db, dbName := openTestDB(t)
	cols := `k INT, b BOOLEAN, ti TINYINT, si SMALLINT, i INT, bi BIGINT, f FLOAT, d DOUBLE,
		dec DECIMAL(10, 2), bigdec DECIMAL(30, 5), c CHAR(3), s STRING, bin BINARY(2), by BYTES,
		dt DATE, tm TIME(3), ts TIMESTAMP(6), ltz TIMESTAMP_LTZ(3)`
	values := `(1, true, -8, 300, -70000, 9000000000, 1.5, -2.25, 12345678.91, 1234567890123456789012.34567,
		'abc', 'héllo', X'0102', X'ff00ee', DATE '2024-02-29', '13:14:15.123', TIMESTAMP '2024-02-29 23:59:58.123456',
		'2024-01-01 00:00:00.5Z'),
		(2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)`
	want := [][]string{
		{"1", "true", "-8", "300", "-70000", "9000000000", "1.5", "-2.25", "12345678.91", "1234567890123456789012.34567",
			"abc", "héllo", "\x01\x02", "\xff\x00\xee", "2024-02-29T00:00:00Z", "13:14:15.123", "2024-02-29T23:59:58.123456Z", "2024-01-01T00:00:00.5Z"},
		{"2", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL"},
	}
	for _, tc := range []struct{ name, table, key, where string }{
		{name: "log scan", table: dbName + ".types_log"},
		{name: "pk lookup", table: dbName + ".types_pk", key: ", PRIMARY KEY (k) NOT ENFORCED", where: " WHERE k IN (1, 2)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := db.Exec(`CREATE TABLE ` + tc.table + ` (` + cols + tc.key + `)`)
			require.NoError(t, err)
			res, err := db.Exec(`INSERT INTO ` + tc.table + ` VALUES ` + values)
			require.NoError(t, err)
			n, _ := res.RowsAffected()
			assert.Equal(t, int64(2), n)
			got := queryStrings(t, db, `SELECT * FROM `+tc.table+tc.where)
			if len(got) == 2 && got[0][0] == "2" {
				got[0], got[1] = got[1], got[0]
			}
			assert.Equal(t, want, got)
		})
	}
}

// TestDMLAndErrors covers DELETE/UPDATE on the full key, transactions as write batches,
// prepared bulk inserts, and the errors a user acts on.
func TestDMLAndErrors(t *testing.T) {
	db, dbName := openTestDB(t)
	kv := dbName + ".kv"
	_, err := db.Exec(`CREATE TABLE ` + kv + ` (id INT, v STRING, n BIGINT, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket.num' = '3')`)
	require.NoError(t, err)

	// A transaction sends nothing before Commit; Rollback discards.
	tx, err := db.Begin()
	require.NoError(t, err)
	st, err := tx.Prepare(`INSERT INTO ` + kv + ` VALUES (?, ?, ?)`)
	require.NoError(t, err)
	for i := 0; i < 500; i++ {
		_, err := st.Exec(i, "v", int64(i))
		require.NoError(t, err)
	}
	var count int64
	require.NoError(t, db.QueryRow(`SELECT COUNT(*) FROM `+kv+` WHERE id IN (1, 2, 3)`).Scan(&count))
	assert.Equal(t, int64(0), count, "nothing is sent before Commit")
	require.NoError(t, tx.Commit())
	require.NoError(t, db.QueryRow(`SELECT COUNT(*) FROM `+kv+` WHERE id IN (1, 2, 3, 499, 500)`).Scan(&count))
	assert.Equal(t, int64(4), count)

	tx, err = db.Begin()
	require.NoError(t, err)
	_, err = tx.Exec(`INSERT INTO ` + kv + ` VALUES (1000, 'rolled back', 0)`)
	require.NoError(t, err)
	require.NoError(t, tx.Rollback())
	assert.Empty(t, queryStrings(t, db, `SELECT * FROM `+kv+` WHERE id = 1000`))

	// UPDATE touches only existing keys; DELETE removes.
	res, err := db.Exec(`UPDATE `+kv+` SET v = ? WHERE id = ?`, "updated", 7)
	require.NoError(t, err)
	n, _ := res.RowsAffected()
	assert.Equal(t, int64(1), n)
	assert.Equal(t, [][]string{{"7", "updated", "7"}}, queryStrings(t, db, `SELECT * FROM `+kv+` WHERE id = 7`))
	res, err = db.Exec(`UPDATE ` + kv + ` SET v = 'x' WHERE id = 123456`)
	require.NoError(t, err)
	n, _ = res.RowsAffected()
	assert.Equal(t, int64(0), n, "UPDATE of a missing key changes nothing")
	assert.Empty(t, queryStrings(t, db, `SELECT * FROM `+kv+` WHERE id = 123456`))
	res, err = db.Exec(`DELETE FROM ` + kv + ` WHERE id = 7`)
	require.NoError(t, err)
	n, _ = res.RowsAffected()
	assert.Equal(t, int64(1), n, "DELETE counts the key that existed")
	assert.Empty(t, queryStrings(t, db, `SELECT * FROM `+kv+` WHERE id = 7`))
	res, err = db.Exec(`DELETE FROM ` + kv + ` WHERE id = 7`)
	require.NoError(t, err)
	n, _ = res.RowsAffected()
	assert.Equal(t, int64(0), n, "DELETE of a missing key reports 0, as UPDATE does")

	// Partial update: INSERT with a column list keeps the other columns.
	_, err = db.Exec(`INSERT INTO ` + kv + ` (id, n) VALUES (8, 800)`)
	require.NoError(t, err)
	assert.Equal(t, [][]string{{"8", "v", "800"}}, queryStrings(t, db, `SELECT * FROM `+kv+` WHERE id = 8`))

	// LIMIT without a key is a limit scan (a KV scan on 1.0).
	assert.Len(t, queryStrings(t, db, `SELECT * FROM `+kv+` LIMIT 5`), 5)

	// A whole primary-key table: a KV scan on Fluss 1.0, an error naming the key on 0.9.
	if testServerVersion(t).AtLeast(1, 0) {
		assert.Len(t, queryStrings(t, db, `SELECT * FROM `+kv), 499, "0..499 but the deleted 7")
	} else {
		_, err := db.Query(`SELECT * FROM ` + kv)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "primary")
	}

	// Errors a user can act on.
	for _, tc := range []struct {
		q    string
		args []any
		want string
		is   error
	}{
		{q: `SELECT nope FROM ` + kv + ` WHERE id = 1`, want: `unknown column "nope"`},
		{q: `INSERT INTO ` + kv + ` VALUES (?, 'a', 1)`, args: []any{nil}, want: "NULL"},
		{q: `INSERT INTO ` + kv + ` VALUES ('abc', 'a', 1)`, want: "INT"},
		{q: `INSERT INTO ` + kv + ` VALUES (?, 'a', 1)`, args: []any{int64(1) << 40}, want: "INT"},
		{q: `SELECT * FROM ` + dbName + `.nosuch`, want: "does not exist", is: fluss.ErrTableNotExist},
		{q: `UPSERT INTO ` + dbName + `.nosuch VALUES (1)`, is: fluss.ErrTableNotExist},
		{q: `SELECT * FROM ` + dbName + `.KV WHERE id = 1`, want: "table " + dbName + ".KV does not exist (did you mean kv?)", is: fluss.ErrTableNotExist},
		{q: `SELECT * FROM ` + dbName + `x.kv WHERE id = 1`, want: "there is no database " + dbName + "x (did you mean " + dbName + "?)", is: fluss.ErrTableNotExist},
		{q: `SELECT "v" FROM ` + kv + ` WHERE id = 1`, want: "write `v` (backticks) for an identifier or 'v' (single quotes) for a string"},
		{q: `SELEC 1`, want: "line 1"},
	} {
		_, err := db.Exec(tc.q, tc.args...)
		if err == nil {
			_, err = db.Query(tc.q, tc.args...)
		}
		require.Error(t, err, tc.q)
		if tc.want != "" {
			assert.Contains(t, err.Error(), tc.want, tc.q)
		}
		if tc.is != nil {
			assert.True(t, errors.Is(err, tc.is), "%s: %v is not %v", tc.q, err, tc.is)
		}
	}
}

// TestScanCancelAndUnbounded checks that an unbounded scan streams until its context ends
// and that closing rows early stops the scan.
func TestScanCancelAndUnbounded(t *testing.T) {
	db, dbName := openTestDB(t)
	logT := dbName + ".events"
	_, err := db.Exec(`CREATE TABLE ` + logT + ` (id INT, payload STRING) WITH ('bucket.num' = '2')`)
	require.NoError(t, err)
	_, err = db.Exec(`INSERT INTO ` + logT + ` VALUES (1, 'a'), (2, 'b'), (3, 'c')`)
	require.NoError(t, err)

	ctx, cancel := context.WithCancel(context.Background())
	rows, err := db.QueryContext(ctx, `SELECT id FROM `+logT+` /*+ OPTIONS('scan.bounded'='false') */`)
	require.NoError(t, err)
	seen := 0
	for seen < 3 && rows.Next() {
		seen++
	}
	assert.Equal(t, 3, seen)
	// Rows written after the query started arrive too.
	_, err = db.Exec(`INSERT INTO ` + logT + ` VALUES (4, 'd')`)
	require.NoError(t, err)
	require.True(t, rows.Next())
	var id int32
	require.NoError(t, rows.Scan(&id))
	assert.Equal(t, int32(4), id)
	cancel()
	for rows.Next() {
	}
	assert.ErrorIs(t, rows.Err(), context.Canceled)
	require.NoError(t, rows.Close())

	// LIMIT stops a bounded scan early; Close mid-way is fine.
	got := queryStrings(t, db, `SELECT id FROM `+logT+` LIMIT 2`)
	assert.Len(t, got, 2)
	rows, err = db.Query(`SELECT * FROM ` + logT)
	require.NoError(t, err)
	require.True(t, rows.Next())
	require.NoError(t, rows.Close())
}

// TestQueryArrow reads a scan as Arrow batches through sql.Conn.Raw.
func TestQueryArrow(t *testing.T) {
	db, dbName := openTestDB(t)
	events := dbName + ".arrow_events"
	_, err := db.Exec(`CREATE TABLE ` + events + ` (id INT, region STRING, value BIGINT) PARTITIONED BY (region) WITH ('bucket.num' = '2')`)
	require.NoError(t, err)
	for _, r := range []string{"US", "EU"} {
		_, err = db.Exec(`ALTER TABLE ` + events + ` ADD PARTITION (region = '` + r + `')`)
		require.NoError(t, err)
	}
	tx, err := db.Begin()
	require.NoError(t, err)
	for i := 0; i < 1000; i++ {
		region := []string{"US", "EU"}[i%2]
		_, err := tx.Exec(`INSERT INTO `+events+` VALUES (?, ?, ?)`, i, region, int64(i)*10)
		require.NoError(t, err)
	}
	require.NoError(t, tx.Commit())

	ctx := context.Background()
	conn, err := db.Conn(ctx)
	require.NoError(t, err)
	defer conn.Close()
	var total, sum int64
	err = conn.Raw(func(dc any) error {
		r, err := dc.(flussql.ArrowConn).QueryArrow(ctx, `SELECT value, id FROM `+events+` WHERE region = ?`, "US")
		if err != nil {
			return err
		}
		defer r.Close()
		assert.Equal(t, []string{"value", "id"}, []string{r.Schema().Field(0).Name, r.Schema().Field(1).Name})
		for {
			rec, err := r.Next(ctx)
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
			vals := rec.Column(0).(*array.Int64)
			for i := 0; i < vals.Len(); i++ {
				sum += vals.Value(i)
			}
			total += rec.NumRows()
		}
	})
	require.NoError(t, err)
	assert.Equal(t, int64(500), total)
	var want int64
	for i := 0; i < 1000; i += 2 {
		want += int64(i) * 10
	}
	assert.Equal(t, want, sum)

	// Filters, aggregates and ORDER BY run in the engine and return its batches.
	arrowRows := func(q string) (rows [][]any) {
		err := conn.Raw(func(dc any) error {
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
				require.True(t, rec.Schema().Equal(r.Schema()))
				for i := 0; i < int(rec.NumRows()); i++ {
					var row []any
					for _, col := range rec.Columns() {
						row = append(row, col.GetOneForMarshal(i))
					}
					rows = append(rows, row)
				}
			}
		})
		require.NoError(t, err, q)
		return rows
	}
	assert.Len(t, arrowRows(`SELECT id FROM `+events+` WHERE value > 5`), 999)
	var sumUS, sumEU int64
	for i := 0; i < 1000; i++ {
		if i%2 == 0 {
			sumUS += int64(i) * 10
		} else {
			sumEU += int64(i) * 10
		}
	}
	assert.Equal(t, [][]any{{"EU", int64(500), sumEU}, {"US", int64(500), sumUS}},
		arrowRows(`SELECT region, COUNT(*), SUM(value) FROM `+events+` GROUP BY region ORDER BY region`))
	assert.Equal(t, [][]any{{int32(999), int64(9990)}}, arrowRows(`SELECT id, value FROM `+events+` ORDER BY value DESC LIMIT 1`))
	assert.Equal(t, [][]any{{int64(1000)}}, arrowRows(`SELECT COUNT(*) FROM `+events))
}

// TestCatalogStatements runs the statements that manage and describe the catalog through
// database/sql: USE, SHOW DATABASES/TABLES/PARTITIONS, SHOW CREATE TABLE, DESCRIBE, EXPLAIN,
// DROP TABLE/PARTITION, and Ping.
func TestCatalogStatements(t *testing.T) {
	db, dbName := openTestDB(t)
	ctx := context.Background()
	require.NoError(t, db.PingContext(ctx))

	conn, err := db.Conn(ctx) // USE is per connection
	require.NoError(t, err)
	defer conn.Close()
	_, err = conn.ExecContext(ctx, "USE "+dbName)
	require.NoError(t, err)
	_, err = conn.ExecContext(ctx, `CREATE TABLE orders (id BIGINT NOT NULL COMMENT 'order id', day DATE, amount DECIMAL(12, 2),
		PRIMARY KEY (id, day) NOT ENFORCED) COMMENT 'all orders' PARTITIONED BY (day) WITH ('bucket.num' = '2', 'table.log.arrow.compression.type' = 'LZ4_FRAME', 'owner' = 'sales')`)
	require.NoError(t, err)
	_, err = conn.ExecContext(ctx, `ALTER TABLE orders ADD PARTITION (day = '2024-05-01')`)
	require.NoError(t, err)

	str := func(q string) [][]string {
		t.Helper()
		rows, err := conn.QueryContext(ctx, q)
		require.NoError(t, err, q)
		defer rows.Close()
		cols, _ := rows.Columns()
		var out [][]string
		for rows.Next() {
			vals := make([]sql.NullString, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			require.NoError(t, rows.Scan(ptrs...))
			row := make([]string, len(cols))
			for i, v := range vals {
				row[i] = v.String
			}
			out = append(out, row)
		}
		require.NoError(t, rows.Err())
		return out
	}
	assert.Contains(t, firstColumn(str("SHOW DATABASES")), []string{dbName})
	assert.Equal(t, [][]string{{"orders"}}, str("SHOW TABLES"))
	assert.Equal(t, [][]string{{"orders"}}, str("SHOW TABLES FROM "+dbName+" LIKE 'ord%'"))
	assert.Empty(t, str("SHOW TABLES LIKE 'x%'"))
	assert.Equal(t, [][]string{{"day=2024-05-01"}}, firstColumn(str("SHOW PARTITIONS orders")))

	desc := str("DESCRIBE orders")
	require.Len(t, desc, 3)
	assert.Equal(t, "id", desc[0][0])
	assert.Contains(t, desc[0][1], "BIGINT")
	assert.Equal(t, "DECIMAL(12, 2)", desc[2][1])

	create := str("SHOW CREATE TABLE orders")
	require.Len(t, create, 1)
	ddl := create[0][1]
	for _, want := range []string{"PRIMARY KEY (id, day) NOT ENFORCED", "PARTITIONED BY (day)", "'bucket.num' = '2'", "COMMENT 'order id'", "'owner' = 'sales'"} {
		assert.Contains(t, ddl, want)
	}
	// The DDL SHOW CREATE TABLE prints creates the same table again.
	_, err = conn.ExecContext(ctx, strings.Replace(ddl, "orders", "orders_copy", 1))
	require.NoError(t, err, ddl)
	copyDDL := str("SHOW CREATE TABLE orders_copy")[0][1]
	assert.Equal(t, strings.Replace(ddl, "orders", "orders_copy", 1), copyDDL)

	plan := str("EXPLAIN SELECT amount FROM orders WHERE id = 7 AND day = '2024-05-01'")
	require.NotEmpty(t, plan)
	assert.Contains(t, strings.ToLower(plan[0][0]), "lookup")

	_, err = conn.ExecContext(ctx, `ALTER TABLE orders DROP PARTITION (day = '2024-05-01')`)
	require.NoError(t, err)
	assert.Empty(t, str("SHOW PARTITIONS orders"))
	_, err = conn.ExecContext(ctx, `DROP TABLE orders_copy`)
	require.NoError(t, err)
	_, err = conn.ExecContext(ctx, `DROP TABLE orders_copy`)
	assert.ErrorIs(t, err, fluss.ErrTableNotExist)
	_, err = conn.ExecContext(ctx, `DROP TABLE IF EXISTS orders_copy`)
	require.NoError(t, err)
	_, err = conn.ExecContext(ctx, "USE no_such_db_here")
	assert.ErrorIs(t, err, fluss.ErrDatabaseNotExist)
	_, err = conn.ExecContext(ctx, "SELECT * FROM orders WHERE id = 1 AND day = '2024-05-01'")
	assert.ErrorContains(t, err, "run it with Query")
}
