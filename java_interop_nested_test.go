package flussql_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/flussql/flussql/fluss/datum"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// nestedColumns is the NESTED table of testdata/interop/java (Interop.java).
const nestedColumns = `id INT NOT NULL, tags ARRAY<STRING>, scores MAP<STRING, INT>, addr ROW<city STRING, zip INT>, grid ARRAY<ARRAY<BIGINT>>`

// nestedInsert writes, in SQL, the rows Interop.java's nested-write writes.
const nestedInsert = `VALUES
	(1, ARRAY['a', NULL, 'a string longer than seven'], MAP['x', 1, 'y', NULL], ROW('Paris', 75001), ARRAY[ARRAY[1, 2], ARRAY[]]),
	(2, NULL, NULL, NULL, NULL),
	(3, ARRAY[], MAP[], ROW(NULL, NULL), ARRAY[NULL])`

// nestedWant is those rows as Interop.java prints them: maps as JSON objects.
const nestedWant = `[
	[1, ["a", null, "a string longer than seven"], {"x": 1, "y": null}, ["Paris", 75001], [[1, 2], []]],
	[2, null, null, null, null],
	[3, [], {}, [null, null], [null]]]`

// TestJavaInteropNested checks ARRAY, MAP and ROW values against the official Java client in
// both directions, on a log table (Arrow batches) and a primary-key table (compacted rows):
// rows written with SQL are read by the Java LogScanner/Lookuper, and rows the Java writers
// wrote are read with SQL, value for value.
func TestJavaInteropNested(t *testing.T) {
	j := newJavaClient(t)
	db, dbName := openTestDB(t)
	var want any
	require.NoError(t, json.Unmarshal([]byte(nestedWant), &want))
	for _, tc := range []struct{ name, key string }{
		{"log", ""},
		{"pk", ", PRIMARY KEY (id) NOT ENFORCED"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			goTable := createTable(t, db, dbName, "go_nested_"+tc.name, nestedColumns+tc.key, `'bucket.num' = '2'`)
			javaTable := createTable(t, db, dbName, "java_nested_"+tc.name, nestedColumns+tc.key, `'bucket.num' = '2'`)

			_, err := db.Exec(`INSERT INTO ` + dbName + `.` + goTable + ` ` + nestedInsert)
			require.NoError(t, err)
			res := j.run(t, "nested-read", dbName, goTable)
			assert.Equal(t, want, normalizeJSON(t, res["rows"]), "the Java client's reading of SQL-written rows")

			j.run(t, "nested-write", dbName, javaTable)
			q := `SELECT id, tags, scores, addr, grid FROM ` + dbName + `.` + javaTable
			if tc.key != "" {
				q += ` WHERE id IN (1, 2, 3)`
			}
			rows, err := db.Query(q)
			require.NoError(t, err)
			defer rows.Close()
			got := make([]any, 3)
			for rows.Next() {
				vals := make([]any, 5)
				ptrs := make([]any, 5)
				for i := range vals {
					ptrs[i] = &vals[i]
				}
				require.NoError(t, rows.Scan(ptrs...))
				id := vals[0].(int64)
				require.True(t, id >= 1 && id <= 3, "id %d", id)
				got[id-1] = vals
			}
			require.NoError(t, rows.Err())
			assert.Equal(t, want, normalizeJSON(t, got), "SQL's reading of Java-written rows")
		})
	}
}

// normalizeJSON turns driver values (or decoded JSON) into the shapes encoding/json gives:
// []datum.MapEntry with string keys becomes an object, numbers float64.
func normalizeJSON(t *testing.T, v any) any {
	t.Helper()
	var conv func(any) any
	conv = func(v any) any {
		switch x := v.(type) {
		case []any:
			out := make([]any, len(x))
			for i, e := range x {
				out[i] = conv(e)
			}
			return out
		case []datum.MapEntry:
			out := map[string]any{}
			for _, e := range x {
				out[fmt.Sprint(e.Key)] = conv(e.Value)
			}
			return out
		}
		return v
	}
	b, err := json.Marshal(conv(v))
	require.NoError(t, err)
	var out any
	require.NoError(t, json.Unmarshal(b, &out))
	return out
}
