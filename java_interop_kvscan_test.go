package flussql_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestJavaInteropKvScan: flussql's KV scan of a primary-key table returns, row for row, what
// the released Java client's batch scanner (fluss-client 1.0.0, the server-side KV scan)
// returns for the same table, after upserts, overwrites, deletes and partial updates; for a
// plain and a partitioned table. On servers older than 1.0 the scan is refused (checked).
func TestJavaInteropKvScan(t *testing.T) {
	db, dbName := openTestDB(t)
	const cols = `id INT, name STRING, score BIGINT, PRIMARY KEY (id) NOT ENFORCED`
	plain := dbName + "." + createTable(t, db, dbName, "kv_scan", cols, `'bucket.num' = '3'`)
	if !offersKvScanSQL(t, db, `SELECT * FROM `+plain) {
		return
	}
	j := newJavaClient(t)
	parted := dbName + ".kv_scan_parted"
	_, err := db.Exec(`CREATE TABLE ` + parted + ` (id INT NOT NULL, region STRING NOT NULL, name STRING, score BIGINT,
		PRIMARY KEY (id, region) NOT ENFORCED) PARTITIONED BY (region) WITH ('bucket.num' = '2')`)
	require.NoError(t, err)
	for _, r := range []string{"r0", "r1", "r2"} {
		_, err = db.Exec(`ALTER TABLE ` + parted + ` ADD PARTITION (region = '` + r + `')`)
		require.NoError(t, err)
	}

	const n = 3000
	for start := 0; start < n; start += 500 {
		var plainVals, partedVals []string
		for id := start; id < start+500; id++ {
			plainVals = append(plainVals, fmt.Sprintf("(%d, 'go-%d', %d)", id, id, id*7))
			partedVals = append(partedVals, fmt.Sprintf("(%d, 'r%d', 'go-%d', %d)", id, id%3, id, id*11))
		}
		_, err = db.Exec(`INSERT INTO ` + plain + ` VALUES ` + strings.Join(plainVals, ", "))
		require.NoError(t, err)
		_, err = db.Exec(`INSERT INTO ` + parted + ` VALUES ` + strings.Join(partedVals, ", "))
		require.NoError(t, err)
	}
	_, err = db.Exec(`INSERT INTO ` + plain + ` VALUES (1, 'again', NULL), (2, NULL, 2)`)
	require.NoError(t, err)
	_, err = db.Exec(`DELETE FROM ` + plain + ` WHERE id IN (10, 11, 12)`)
	require.NoError(t, err)
	_, err = db.Exec(`UPDATE ` + plain + ` SET score = -1 WHERE id = 20`)
	require.NoError(t, err)
	_, err = db.Exec(`DELETE FROM ` + parted + ` WHERE id = 3 AND region = 'r0'`)
	require.NoError(t, err)

	for _, tc := range []struct {
		table string
		want  int
	}{{plain, n - 3}, {parted, n - 1}} {
		t.Run(tc.table, func(t *testing.T) {
			// The leader applies acknowledged writes to its KV store asynchronously.
			require.Eventually(t, func() bool {
				got := queryStrings(t, db, `SELECT COUNT(*) FROM `+tc.table)
				return len(got) == 1 && got[0][0] == fmt.Sprint(tc.want)
			}, 20*time.Second, 100*time.Millisecond)
			ours := queryStrings(t, db, `SELECT * FROM `+tc.table)
			db, table, _ := strings.Cut(tc.table, ".")
			res := j.run(t, "kv-scan", db, table)
			require.EqualValues(t, tc.want, res["count"])
			var theirs [][]string
			for _, r := range res["rows"].([]any) {
				var row []string
				for _, v := range r.([]any) {
					switch v := v.(type) {
					case nil:
						row = append(row, "NULL")
					case float64:
						row = append(row, fmt.Sprint(int64(v)))
					default:
						row = append(row, fmt.Sprint(v))
					}
				}
				theirs = append(theirs, row)
			}
			byKey := func(rows [][]string) {
				sort.Slice(rows, func(a, b int) bool { return strings.Join(rows[a], "\x00") < strings.Join(rows[b], "\x00") })
			}
			byKey(ours)
			byKey(theirs)
			assert.Equal(t, theirs, ours, "flussql's KV scan and the Java client's batch scanner return the same rows")
		})
	}
}
