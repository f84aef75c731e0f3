package flusslake_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLakePaimonPrimaryKeyMerge writes, updates and deletes rows of a partitioned
// primary-key table of a local Paimon lakehouse with flussql (its Paimon files key rows by
// the primary key without the partition key), in two tiering rounds, and reads t$lake: the
// Paimon snapshot merged on read (the files of each bucket, the newest change of a key by
// _SEQUENCE_NUMBER, deletes dropped) holds each live key once with its latest values.
func TestLakePaimonPrimaryKeyMerge(t *testing.T) {
	if lakeFormat(t) != "paimon" {
		t.Skip("the merge of a Paimon primary-key table needs a Paimon lakehouse (make lake-test LAKE=paimon)")
	}
	l := newLake(t, "lake_pk", 2*time.Minute)
	ctx, db, dbName, exec := l.ctx, l.db, l.dbName, l.exec
	const opts = ` WITH ('bucket.num' = '2', 'table.datalake.enabled' = 'true', 'table.datalake.freshness' = '1s')`
	exec("CREATE TABLE " + dbName + ".pkv (id INT, region STRING, v BIGINT, name STRING, PRIMARY KEY (id, region) NOT ENFORCED) PARTITIONED BY (region)" + opts)
	exec("ALTER TABLE " + dbName + ".pkv ADD PARTITION (region = 'eu')")
	exec("ALTER TABLE " + dbName + ".pkv ADD PARTITION (region = 'us')")
	region := func(id int) string { return []string{"eu", "us"}[id%2] }
	const n = 40
	var vals []string
	for i := range n {
		vals = append(vals, fmt.Sprintf("(%d, '%s', %d, 'n%d')", i, region(i), i*10, i))
	}

	tables := []string{"pkv"} // one table: each more adds its tiering rounds to the test's time
	// Two tiering rounds, so that the changes of the second are in newer files of the
	// buckets than the rows they change.
	for _, tb := range tables {
		exec("INSERT INTO " + dbName + "." + tb + " VALUES " + strings.Join(vals, ", "))
	}
	for _, tb := range tables {
		l.waitTiered(tb)
	}
	for _, tb := range tables {
		table := dbName + "." + tb
		exec("INSERT INTO " + table + " VALUES (1, 'us', 1001, 'u1'), (2, 'eu', 1002, 'u2'), (3, 'us', 1003, 'u3')")
		exec("INSERT INTO " + table + " VALUES (3, 'us', 2003, 'u3 again')")
		for _, id := range []int{5, 6, 7} {
			where := fmt.Sprintf("id = %d", id)
			if tb == "pkv" {
				where += " AND region = '" + region(id) + "'"
			}
			exec("DELETE FROM " + table + " WHERE " + where)
		}
	}
	for _, tb := range tables {
		l.waitTiered(tb)
	}

	for _, tb := range tables {
		lake := "`" + dbName + "`.`" + tb + "$lake`"
		var count, distinct, sum int64
		require.NoError(t, db.QueryRowContext(ctx, "SELECT COUNT(*), COUNT(DISTINCT id), SUM(v) FROM "+lake).Scan(&count, &distinct, &sum))
		wantSum := int64(10*n*(n-1)/2) - 10 - 20 - 30 + 1001 + 1002 + 2003 - 50 - 60 - 70
		assert.Equal(t, []int64{n - 3, n - 3, wantSum}, []int64{count, distinct, sum},
			"%s: every live key once, with its latest value; the deleted keys gone", tb)
		var v int64
		var name string
		require.NoError(t, db.QueryRowContext(ctx, "SELECT v, name FROM "+lake+" WHERE id = 3").Scan(&v, &name))
		assert.Equal(t, int64(2003), v, "%s: the newest of two updates wins", tb)
		assert.Equal(t, "u3 again", name)
		var deleted, us int64
		require.NoError(t, db.QueryRowContext(ctx, "SELECT COUNT(*) FROM "+lake+" WHERE id IN (5, 6, 7)").Scan(&deleted))
		assert.Zero(t, deleted, "%s: a deleted key is not in the merged snapshot", tb)
		require.NoError(t, db.QueryRowContext(ctx, "SELECT COUNT(*) FROM "+lake+" WHERE region = 'us'").Scan(&us))
		assert.Equal(t, int64(n/2-2), us, "%s: the odd ids but 5 and 7", tb)

		rows, err := db.QueryContext(ctx, "EXPLAIN SELECT COUNT(*) FROM "+lake)
		require.NoError(t, err)
		files, buckets := 0, map[string]bool{}
		for rows.Next() {
			var l string
			require.NoError(t, rows.Scan(&l))
			if f, ok := strings.CutPrefix(strings.TrimSpace(l), "file "); ok {
				files++
				buckets[filepath.Dir(f)] = true
			}
		}
		require.NoError(t, rows.Close())
		assert.Greater(t, files, len(buckets), "%s: a bucket has files of both rounds, merged on read", tb)
	}
}
