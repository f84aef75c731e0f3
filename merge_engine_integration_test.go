package flussql_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMergeEngineAggregationSQL creates an aggregation merge-engine table with Flink's
// 'fields.<col>.agg' options, writes two rows for one key and reads the merged row back:
// every aggregate function of Fluss 0.9.1 that takes plain values (all but the roaring
// bitmaps rbm32/rbm64) must have merged the two rows as it defines.
func TestMergeEngineAggregationSQL(t *testing.T) {
	db, dbName := openTestDB(t)
	tbl := createTable(t, db, dbName, "agg",
		`id INT, total BIGINT, prod INT, hi INT, lo STRING, last_v STRING, last_nn STRING,
		 first_v INT, first_nn INT, tags STRING, words STRING, all_ok BOOLEAN, any_ok BOOLEAN,
		 PRIMARY KEY (id) NOT ENFORCED`,
		`'bucket.num' = '1', 'table.merge-engine' = 'aggregation',
		 'fields.total.agg' = 'sum', 'fields.prod.agg' = 'product', 'fields.hi.agg' = 'max',
		 'fields.lo.agg' = 'min', 'fields.last_v.agg' = 'last_value',
		 'fields.last_nn.agg' = 'last_value_ignore_nulls', 'fields.first_v.agg' = 'first_value',
		 'fields.first_nn.agg' = 'first-value-ignore-nulls', 'fields.tags.agg' = 'listagg',
		 'fields.tags.listagg.delimiter' = ';', 'fields.words.agg' = 'STRING_AGG',
		 'fields.all_ok.agg' = 'bool_and', 'fields.any_ok.agg' = 'bool_or'`)
	full := dbName + "." + tbl
	_, err := db.Exec(`INSERT INTO ` + full + ` VALUES (1, 10, 2, 3, 'b', 'x', 'p', 5, NULL, 'a', 'a', true, false)`)
	require.NoError(t, err)
	_, err = db.Exec(`INSERT INTO ` + full + ` VALUES (1, 5, 3, 7, 'a', NULL, NULL, 6, 8, 'b', 'b', false, true)`)
	require.NoError(t, err)
	got := queryStrings(t, db, `SELECT * FROM `+full+` WHERE id = 1`)
	require.Len(t, got, 1)
	assert.Equal(t, []string{"1", "15", "6", "7", "a", "NULL", "p", "5", "8", "a;b", "a,b", "false", "true"}, got[0],
		"id, sum, product, max, min, last_value, last_value_ignore_nulls, first_value, first_value_ignore_nulls, listagg(;), string_agg, bool_and, bool_or")

	// The functions are part of the schema: SHOW CREATE TABLE and DESCRIBE show them, and
	// the DDL SHOW CREATE TABLE prints creates the same table again.
	ddl := queryStrings(t, db, `SHOW CREATE TABLE `+full)[0][1]
	for _, want := range []string{`'fields.total.agg' = 'sum'`, `'fields.tags.listagg.delimiter' = ';'`, `'fields.first_nn.agg' = 'first_value_ignore_nulls'`, `'fields.words.agg' = 'string_agg'`} {
		assert.Contains(t, ddl, want)
	}
	desc := map[string]string{}
	for _, r := range queryStrings(t, db, `DESCRIBE `+full) {
		desc[r[0]] = r[5]
	}
	assert.Equal(t, map[string]string{"id": "", "total": "sum", "prod": "product", "hi": "max", "lo": "min", "last_v": "last_value",
		"last_nn": "last_value_ignore_nulls", "first_v": "first_value", "first_nn": "first_value_ignore_nulls",
		"tags": "listagg(delimiter=';')", "words": "string_agg", "all_ok": "bool_and", "any_ok": "bool_or"}, desc)
	again := strings.Replace(ddl, "CREATE TABLE "+full, "CREATE TABLE "+full+"_again", 1)
	require.NotEqual(t, ddl, again, "SHOW CREATE TABLE names the table: %s", ddl)
	_, err = db.Exec(again)
	require.NoError(t, err, again)
	assert.Equal(t, ddl, strings.Replace(queryStrings(t, db, `SHOW CREATE TABLE `+full+`_again`)[0][1], full+"_again", full, 1))

	// Refused before anything is created: a function without the merge engine.
	_, err = db.Exec(`CREATE TABLE ` + dbName + `.bad (id INT, n BIGINT, PRIMARY KEY (id) NOT ENFORCED) WITH ('fields.n.agg' = 'sum')`)
	require.ErrorContains(t, err, "'table.merge-engine' = 'aggregation'")
	assert.Empty(t, queryStrings(t, db, `SHOW TABLES FROM `+dbName+` LIKE 'bad'`))
}

// TestMergeEnginesSQL checks the other merge engines against the server: first_row keeps
// the first row of a key, versioned the row with the highest version column, and the
// default keeps the last.
func TestMergeEnginesSQL(t *testing.T) {
	db, dbName := openTestDB(t)
	tests := []struct {
		name, with string
		rows       []string
		want       []string
	}{
		{"default", `'bucket.num' = '1'`, []string{"(1, 1, 'a')", "(1, 2, 'b')"}, []string{"1", "2", "b"}},
		{"first_row", `'bucket.num' = '1', 'table.merge-engine' = 'first_row'`, []string{"(1, 1, 'a')", "(1, 2, 'b')"}, []string{"1", "1", "a"}},
		{"versioned", `'bucket.num' = '1', 'table.merge-engine' = 'versioned', 'table.merge-engine.versioned.ver-column' = 'ver'`,
			[]string{"(1, 2, 'a')", "(1, 1, 'b')", "(1, 3, 'c')", "(1, 0, 'd')"}, []string{"1", "3", "c"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tbl := createTable(t, db, dbName, tt.name, `id INT, ver INT, v STRING, PRIMARY KEY (id) NOT ENFORCED`, tt.with)
			for _, r := range tt.rows {
				_, err := db.Exec(`INSERT INTO ` + dbName + `.` + tbl + ` VALUES ` + r)
				require.NoError(t, err)
			}
			got := queryStrings(t, db, `SELECT * FROM `+dbName+`.`+tbl+` WHERE id = 1`)
			require.Len(t, got, 1)
			assert.Equal(t, tt.want, got[0])
		})
	}
}

// TestJavaInteropAggFunctions checks with the official Java client that a table created
// through SQL with 'fields.<col>.agg' options carries the aggregate functions in its schema.
func TestJavaInteropAggFunctions(t *testing.T) {
	j := newJavaClient(t)
	db, dbName := openTestDB(t)
	tbl := createTable(t, db, dbName, "agg", `id INT, total BIGINT, tags STRING, PRIMARY KEY (id) NOT ENFORCED`,
		`'bucket.num' = '1', 'table.merge-engine' = 'aggregation', 'fields.total.agg' = 'sum',
		 'fields.tags.agg' = 'listagg', 'fields.tags.listagg.delimiter' = '|'`)
	res := j.run(t, "schema", dbName, tbl)
	cols := map[string]any{}
	for _, c := range res["columns"].([]any) {
		m := c.(map[string]any)
		cols[m["name"].(string)] = []any{m["agg"], m["params"]}
	}
	assert.Equal(t, map[string]any{
		"id":    []any{nil, nil},
		"total": []any{"sum", map[string]any{}},
		"tags":  []any{"listagg", map[string]any{"delimiter": "|"}},
	}, cols)
}
