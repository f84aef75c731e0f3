package parser

import (
	"testing"

	"github.com/flussql/flussql/fluss/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Each case is a place where /work/shared/research/sqlparser-probe.md found
// xwb1989/sqlparser silently dropping part of a statement. The dialect must
// either keep what was written or reject the statement.
func TestProbeDroppedClausesAreKeptOrRejected(t *testing.T) {
	kept := []struct {
		name string
		sql  string
		want Statement
	}{
		{"ALTER TABLE ADD PARTITION keeps the spec (B05)", "ALTER TABLE events ADD PARTITION (region = 'US')",
			&AlterTableAddPartition{Table: TableName{Name: "events"},
				Partition: []PartitionValue{{Column: "region", Value: &Literal{Kind: LitString, Value: "US"}}}}},
		{"ALTER TABLE DROP PARTITION keeps the spec (B07)", "ALTER TABLE events DROP PARTITION (region = 'US')",
			&AlterTableDropPartition{Table: TableName{Name: "events"},
				Partition: []PartitionValue{{Column: "region", Value: &Literal{Kind: LitString, Value: "US"}}}}},
		{"ALTER TABLE ADD COLUMN keeps the column (X20)", "ALTER TABLE events ADD COLUMN c INT",
			&AlterTableAddColumns{Table: TableName{Name: "events"}, Columns: []types.Column{{Name: "c", Type: types.NewInt()}}}},
		{"SHOW PARTITIONS keeps the table (B19c)", "SHOW PARTITIONS events",
			&ShowPartitions{Table: TableName{Name: "events"}}},
		{"SHOW CREATE TABLE keeps the table (B19d, X49)", "SHOW CREATE TABLE fluss.users",
			&ShowCreateTable{Table: TableName{Database: "fluss", Name: "users"}}},
		{"DESCRIBE keeps the table (B19e)", "DESCRIBE users", &Describe{Table: TableName{Name: "users"}}},
		{"DESC keeps the table", "DESC users", &Describe{Table: TableName{Name: "users"}}},
		{"SHOW DATABASES LIKE keeps the filter (X25)", "SHOW DATABASES LIKE 'f%'", &ShowDatabases{Like: ptr("f%")}},
		{"CREATE DATABASE WITH keeps the options (X26)", "CREATE DATABASE fluss WITH ('k' = 'v')",
			&CreateDatabase{Name: "fluss", Properties: map[string]string{"k": "v"}}},
		{"CREATE DATABASE IF NOT EXISTS is kept (B20a)", "CREATE DATABASE IF NOT EXISTS fluss",
			&CreateDatabase{Name: "fluss", IfNotExists: true}},
		{"DROP DATABASE IF EXISTS is kept (X27)", "DROP DATABASE IF EXISTS x", &DropDatabase{Name: "x", IfExists: true}},
		{"CREATE TABLE IF NOT EXISTS is kept (X37)", "CREATE TABLE IF NOT EXISTS t (a INT)",
			&CreateTable{Table: TableName{Name: "t"}, IfNotExists: true,
				Columns: []types.Column{{Name: "a", Type: types.NewInt()}}}},
		{"a hint after the table name is kept (B17)", "SELECT * FROM events /*+ OPTIONS('scan.startup.mode'='earliest') */",
			&Select{Items: []SelectItem{{Expr: &Star{}}}, Table: TableName{Name: "events"},
				Hints: map[string]string{"scan.startup.mode": "earliest"}}},
		{"ORDER BY and OFFSET are kept (X31)", "SELECT * FROM events ORDER BY id DESC NULLS FIRST LIMIT 10 OFFSET 5",
			&Select{Items: []SelectItem{{Expr: &Star{}}}, Table: TableName{Name: "events"},
				OrderBy: []OrderItem{{Expr: &ColumnRef{Name: "id"}, Desc: true, Nulls: NullsFirst}},
				Limit:   &Literal{Kind: LitInt, Value: "10"}, Offset: &Literal{Kind: LitInt, Value: "5"}}},
		{"GROUP BY is kept (X45)", "SELECT region FROM events GROUP BY region",
			&Select{Items: []SelectItem{{Expr: &ColumnRef{Name: "region"}}}, Table: TableName{Name: "events"},
				GroupBy: []Expr{&ColumnRef{Name: "region"}}}},
		{"CAST keeps its Flink type (X50)", "SELECT CAST(a AS CHAR) FROM t",
			&Select{Items: []SelectItem{{Expr: &Cast{Expr: &ColumnRef{Name: "a"}, Type: types.NewChar(1)}}}, Table: TableName{Name: "t"}}},
	}
	for _, tc := range kept {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Parse(tc.sql)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}

	rejected := []struct {
		name, sql, msg string
	}{
		{"MySQL ADD PARTITION form (B06)", "ALTER TABLE events ADD PARTITION (PARTITION p_us VALUES IN ('US'))",
			`line 1, column 45: syntax error at "p_us": expected '='`},
		{"a hint at the end (X36)", "SELECT * FROM events LIMIT 10 /*+ OPTIONS('a'='b') */",
			"line 1, column 31: a hint must directly follow the table name: SELECT … FROM t /*+ OPTIONS('k' = 'v') */"},
		{"a hint between database and table name", "SELECT * FROM db /*+ OPTIONS('a'='b') */ .events",
			"line 1, column 18: a hint must directly follow the table name: SELECT … FROM t /*+ OPTIONS('k' = 'v') */"},
		{"a hint in DDL", "DROP TABLE t /*+ OPTIONS('a'='b') */",
			"line 1, column 14: hints are only supported after the table name of a SELECT"},
		{"multi-statement text starting with CREATE DATABASE (B20)", "CREATE DATABASE IF NOT EXISTS fluss; DROP TABLE IF EXISTS users",
			"line 1, column 38: one statement at a time: a second one follows the ';' (run each on its own; Go code can split a script with parser.Split)"},
		{"multi-statement SHOW (B19)", "SHOW TABLES; SHOW DATABASES",
			"line 1, column 14: one statement at a time: a second one follows the ';' (run each on its own; Go code can split a script with parser.Split)"},
		{"a CREATE TABLE syntax error is an error, not a partial table (B01/B04)", "CREATE TABLE t (a INT, b TEXT)",
			`line 1, column 26: unknown type "TEXT"; expected one of BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, DECIMAL, CHAR, VARCHAR, STRING, BINARY, VARBINARY, BYTES, DATE, TIME, TIMESTAMP, TIMESTAMP_LTZ, ARRAY, MAP, ROW`},
		{"MySQL PARTITION BY (B03)", "CREATE TABLE t (id INT, region STRING) PARTITION BY LIST (region)",
			`line 1, column 40: syntax error at "PARTITION": expected one of COMMENT, PARTITIONED BY, WITH, end of statement`},
		{"MySQL table options (X42)", "CREATE TABLE t (a INT) COMMENT='x', `bucket.num`=4",
			`line 1, column 31: syntax error at "=": expected a comment string`},
		{"SELECT … PARTITION (B15)", "SELECT * FROM events PARTITION (p_US) LIMIT 10",
			"line 1, column 22: PARTITION (…) after a table name is not supported; filter on the partition columns instead"},
		{"ON DUPLICATE KEY UPDATE (B12)", "INSERT INTO u (a) VALUES (1) ON DUPLICATE KEY UPDATE a = VALUES(a)",
			"line 1, column 30: ON DUPLICATE KEY UPDATE is not supported; use UPSERT INTO"},
		{"REPLACE INTO (B11)", "REPLACE INTO u (a) VALUES (1)", "line 1, column 1: REPLACE INTO is not supported; use UPSERT INTO"},
		{"JOIN … USING (X44)", "SELECT * FROM events e JOIN users u USING (id)", "line 1, column 37: JOIN … USING is not supported; write JOIN … ON a.x = b.x"},
		{"EXPLAIN of an unsupported statement (X48)", "EXPLAIN TRUNCATE TABLE t",
			`line 1, column 9: syntax error at "TRUNCATE": expected one of SELECT, INSERT, UPSERT, UPDATE, DELETE, CREATE, DROP, ALTER, SHOW, DESCRIBE, USE, EXPLAIN, CALL`},
		{"a row IN (X33)", "SELECT * FROM users WHERE (user_id, region) IN ((1,'US'))",
			"line 1, column 27: row value comparisons are not supported"},
	}
	for _, tc := range rejected {
		t.Run(tc.name, func(t *testing.T) {
			st, err := Parse(tc.sql)
			require.Error(t, err, "parsed as %v", st)
			assert.Equal(t, tc.msg, err.Error())
		})
	}
}

func ptr(s string) *string { return &s }
