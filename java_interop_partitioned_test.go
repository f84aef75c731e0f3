package flussql_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// partedColumns is the PARTED table of testdata/interop/java (Interop.java), without its key.
const partedColumns = `id INT NOT NULL, region STRING NOT NULL, name STRING, value BIGINT`

// partedKeys is how many ids (0..n-1) each direction writes.
const partedKeys = 600

// partedRow is row id of a PARTED table as Interop.java writes it and prints what it reads:
// id, region, name, value and the name of the partition (the region).
func partedRow(id int, prefix string) []any {
	region := fmt.Sprintf("r%d", id%3)
	return []any{float64(id), region, fmt.Sprintf("%s-%d", prefix, id), float64(id * 11), region}
}

// TestJavaInteropPartitioned checks partitioned tables of 2 buckets, log and primary-key,
// against the official Java client in both directions: rows written with SQL are read by the
// Java LogScanner in every partition and bucket (log) or found by the Java Lookuper (primary
// key (id, region)), and rows the Java writers wrote are read with SQL, value for value.
func TestJavaInteropPartitioned(t *testing.T) {
	j := newJavaClient(t)
	db, dbName := openTestDB(t)
	for _, tc := range []struct{ name, key string }{
		{name: "log"},
		{name: "pk", key: ", PRIMARY KEY (id, region) NOT ENFORCED"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var tables []string
			for _, writer := range []string{"sql", "java"} {
				table := dbName + ".parted_" + tc.name + "_" + writer
				_, err := db.Exec(`CREATE TABLE ` + table + ` (` + partedColumns + tc.key + `) PARTITIONED BY (region) WITH ('bucket.num' = '2')`)
				require.NoError(t, err)
				for r := range 3 {
					_, err := db.Exec(fmt.Sprintf(`ALTER TABLE %s ADD PARTITION (region = 'r%d')`, table, r))
					require.NoError(t, err)
				}
				tables = append(tables, table)
			}
			sqlTable, javaTable := tables[0], tables[1]

			// SQL writes, Java reads.
			tx, err := db.Begin()
			require.NoError(t, err)
			insert, err := tx.Prepare(`INSERT INTO ` + sqlTable + ` (id, region, name, value) VALUES (?, ?, ?, ?)`)
			require.NoError(t, err)
			var want []any
			for id := range partedKeys {
				row := partedRow(id, "go")
				_, err := insert.Exec(id, row[1], row[2], id*11)
				require.NoError(t, err)
				want = append(want, row)
			}
			require.NoError(t, tx.Commit())
			res := j.run(t, "part-read", dbName, strings.TrimPrefix(sqlTable, dbName+"."), "0", fmt.Sprint(partedKeys), "go")
			assert.EqualValues(t, partedKeys, res["count"], "the Java client reads every row SQL wrote")
			assert.EqualValues(t, 0, res["missing"])
			assert.ElementsMatch(t, want, res["rows"])

			// Java writes, SQL reads: a scan of the log table, lookups of every key of the
			// primary-key table, a partition at a time.
			res = j.run(t, "part-write", dbName, strings.TrimPrefix(javaTable, dbName+"."), "0", fmt.Sprint(partedKeys), "java")
			require.EqualValues(t, partedKeys, res["written"])
			var wantSQL [][]string
			var got [][]string
			for r := range 3 {
				var ids []string
				for id := r; id < partedKeys; id += 3 {
					ids = append(ids, fmt.Sprint(id))
					row := partedRow(id, "java")
					wantSQL = append(wantSQL, []string{fmt.Sprint(id), row[1].(string), row[2].(string), fmt.Sprint(id * 11)})
				}
				where := fmt.Sprintf(` WHERE region = 'r%d'`, r)
				if tc.key != "" {
					where += ` AND id IN (` + strings.Join(ids, ", ") + `)`
				}
				got = append(got, queryStrings(t, db, `SELECT id, region, name, value FROM `+javaTable+where)...)
			}
			assert.ElementsMatch(t, wantSQL, got, "SQL reads every row the Java client wrote")
		})
	}
}
