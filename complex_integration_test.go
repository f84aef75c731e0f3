package flussql_test

import (
	"database/sql"
	"testing"

	"github.com/jmoiron/sqlx"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql"
	"github.com/flussql/flussql/fluss/datum"
)

// TestNestedTypesSQL writes ARRAY, MAP and ROW values with SQL literals and with Go
// arguments, and reads them back through a log scan and a primary-key lookup.
func TestNestedTypesSQL(t *testing.T) {
	db, dbName := openTestDB(t)
	cols := `id INT NOT NULL, tags ARRAY<STRING>, scores MAP<STRING, INT>, addr ROW<city STRING, zip INT>,
		grid ARRAY<ARRAY<BIGINT>>, amounts ARRAY<DECIMAL(10, 2)>`
	type addr struct {
		City string
		Zip  *int32
	}
	zip := int32(150)
	for _, tc := range []struct{ name, table, key, where string }{
		{name: "log scan", table: dbName + ".nested_log"},
		{name: "pk lookup", table: dbName + ".nested_pk", key: ", PRIMARY KEY (id) NOT ENFORCED", where: " WHERE id = ?"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := db.Exec(`CREATE TABLE ` + tc.table + ` (` + cols + tc.key + `) WITH ('bucket.num' = '2')`)
			require.NoError(t, err)
			_, err = db.Exec(`INSERT INTO ` + tc.table + ` VALUES
				(1, ARRAY['a', NULL, 'ccccccccccccc'], MAP['x', 1, 'y', NULL], ROW('Paris', 75001), ARRAY[ARRAY[1, 2], ARRAY[]], ARRAY[1.5, -0.25]),
				(2, NULL, NULL, NULL, NULL, NULL),
				(3, ARRAY[], MAP[], ROW(NULL, NULL), ARRAY[NULL], ARRAY[NULL])`)
			require.NoError(t, err)
			_, err = db.Exec(`INSERT INTO `+tc.table+` VALUES (?, ?, ?, ?, ?, ?)`,
				4, []string{"go", "fluss"}, map[string]int{"b": 2, "a": 1}, addr{City: "Oslo", Zip: &zip},
				[][]int64{{7}, nil}, []datum.Decimal{datum.NewDecimal(99, 2)})
			require.NoError(t, err)

			read := func(id int) []any {
				q := `SELECT tags, scores, addr, grid, amounts FROM ` + tc.table
				args := []any{id}
				if tc.where == "" {
					q += " WHERE id = ?"
				} else {
					q += tc.where
				}
				vals := make([]any, 5)
				ptrs := make([]any, 5)
				for i := range vals {
					ptrs[i] = &vals[i]
				}
				require.NoError(t, db.QueryRow(q, args...).Scan(ptrs...))
				return vals
			}
			assert.Equal(t, []any{
				[]any{"a", nil, "ccccccccccccc"},
				[]datum.MapEntry{{Key: "x", Value: int64(1)}, {Key: "y", Value: nil}},
				[]any{"Paris", int64(75001)},
				[]any{[]any{int64(1), int64(2)}, []any{}},
				[]any{"1.50", "-0.25"},
			}, read(1))
			assert.Equal(t, []any{nil, nil, nil, nil, nil}, read(2))
			assert.Equal(t, []any{[]any{}, []datum.MapEntry{}, []any{nil, nil}, []any{nil}, []any{nil}}, read(3))
			assert.Equal(t, []any{
				[]any{"go", "fluss"},
				[]datum.MapEntry{{Key: "a", Value: int64(1)}, {Key: "b", Value: int64(2)}}, // a Go map is stored sorted by key
				[]any{"Oslo", int64(150)},
				[]any{[]any{int64(7)}, nil},
				[]any{"0.99"},
			}, read(4))

			// Only NULL-ness of a nested column can be tested in WHERE.
			q := `SELECT id FROM ` + tc.table + ` WHERE tags IS NULL`
			if tc.where != "" {
				q += ` AND id IN (1, 2, 3, 4)`
			}
			assert.Equal(t, [][]string{{"2"}}, queryStrings(t, db, q))

			// Typed destinations through the scanners.
			var tags []string
			var scores map[string]int32
			var a addr
			var grid [][]int64
			var amounts []float64
			q = `SELECT tags, scores, addr, grid, amounts FROM ` + tc.table + ` WHERE id = 4`
			require.NoError(t, db.QueryRow(q).Scan(flussql.Array(&tags), flussql.Map(&scores), flussql.Row(&a),
				flussql.Array(&grid), flussql.Array(&amounts)))
			assert.Equal(t, []string{"go", "fluss"}, tags)
			assert.Equal(t, map[string]int32{"a": 1, "b": 2}, scores)
			assert.Equal(t, "Oslo", a.City)
			require.NotNil(t, a.Zip)
			assert.Equal(t, int32(150), *a.Zip)
			assert.Equal(t, [][]int64{{7}, nil}, grid)
			assert.Equal(t, []float64{0.99}, amounts)

			var withNull []string
			err = db.QueryRow(`SELECT tags FROM ` + tc.table + ` WHERE id = 1`).Scan(flussql.Array(&withNull))
			require.ErrorContains(t, err, "value[2] is NULL; scan into a pointer element type")
			var nullable []*string
			require.NoError(t, db.QueryRow(`SELECT tags FROM `+tc.table+` WHERE id = 1`).Scan(flussql.Array(&nullable)))
			require.Len(t, nullable, 3)
			assert.Nil(t, nullable[1])

			// Bad values are refused before anything is written.
			_, err = db.Exec(`INSERT INTO `+tc.table+` (id, tags) VALUES (?, ?)`, 9, []int{1})
			require.ErrorContains(t, err, `argument ?2: column "tags[1]" is STRING; got integer 1`)
			_, err = db.Exec(`INSERT INTO ` + tc.table + ` (id, scores) VALUES (9, MAP['k', 'v'])`)
			require.ErrorContains(t, err, `column "scores['k']" is INT; got string 'v'`)
			var n int
			require.NoError(t, db.QueryRow(`SELECT COUNT(*) FROM `+tc.table+` WHERE id = 9`).Scan(&n))
			assert.Zero(t, n)
		})
	}
}

// TestNestedTypesAnyScan checks that *any destinations and the column types work
// for nested columns, as generic tools (the shell, sqlx into maps) use them.
func TestNestedTypesAnyScan(t *testing.T) {
	db, dbName := openTestDB(t)
	_, err := db.Exec(`CREATE TABLE ` + dbName + `.t (id INT, tags ARRAY<INT>)`)
	require.NoError(t, err)
	_, err = db.Exec(`INSERT INTO `+dbName+`.t VALUES (1, ARRAY[1, 2]), (2, ?)`, []int32(nil))
	require.NoError(t, err)
	rows, err := db.Query(`SELECT id, tags FROM ` + dbName + `.t`)
	require.NoError(t, err)
	defer rows.Close()
	types, err := rows.ColumnTypes()
	require.NoError(t, err)
	assert.Equal(t, "ARRAY", types[1].DatabaseTypeName())
	got := map[int32]any{}
	for rows.Next() {
		var id int32
		var tags any
		require.NoError(t, rows.Scan(&id, &tags))
		got[id] = tags
	}
	require.NoError(t, rows.Err())
	assert.Equal(t, map[int32]any{1: []any{int64(1), int64(2)}, 2: nil}, got)
	var ns sql.NullString
	err = db.QueryRow(`SELECT tags FROM ` + dbName + `.t WHERE id = 1`).Scan(&ns)
	require.Error(t, err, "an ARRAY does not scan into a string")
}

// TestNestedTypesSQLX maps ARRAY and MAP columns to struct fields with sqlx, both ways.
func TestNestedTypesSQLX(t *testing.T) {
	db, dbName := openTestDB(t)
	x := sqlx.NewDb(db, "fluss")
	table := dbName + ".profiles"
	_, err := x.Exec(`CREATE TABLE ` + table + ` (id INT, tags ARRAY<STRING>, prefs MAP<STRING, INT>,
		PRIMARY KEY (id) NOT ENFORCED)`)
	require.NoError(t, err)
	type profile struct {
		ID    int32                        `db:"id"`
		Tags  flussql.ArrayOf[string]      `db:"tags"`
		Prefs flussql.MapOf[string, int32] `db:"prefs"`
	}
	in := []profile{{ID: 1, Tags: []string{"go", "sql"}, Prefs: map[string]int32{"theme": 2}}, {ID: 2}}
	for _, p := range in {
		_, err := x.NamedExec(`INSERT INTO `+table+` VALUES (:id, :tags, :prefs)`, p)
		require.NoError(t, err)
	}
	var got []profile
	require.NoError(t, x.Select(&got, `SELECT * FROM `+table+` WHERE id IN (1, 2)`))
	if len(got) == 2 && got[0].ID == 2 {
		got[0], got[1] = got[1], got[0]
	}
	assert.Equal(t, in, got)
}
