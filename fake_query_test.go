package flussql_test

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/flusserr"
	"github.com/flussql/flussql/fluss/flusstest"
)

// scanFixture is a fake with a log table of n rows over 3 buckets, written in batches of 5
// rows, and fetched one batch at a time.
func scanFixture(t *testing.T, n int) (*sql.DB, *flusstest.Cluster) {
	t.Helper()
	db, fc := openFake(t, "", flusstest.WithTabletServers(2), flusstest.WithBatchesPerFetch(1))
	mustExec(t, db, "CREATE TABLE ev (id BIGINT, kind STRING, v INT) WITH ('bucket.num' = '3')")
	for start := 0; start < n; start += 5 {
		var vals []string
		for i := start; i < min(start+5, n); i++ {
			vals = append(vals, fmt.Sprintf("(%d, '%s', %d)", i, []string{"a", "b", "c"}[i%3], i*10))
		}
		mustExec(t, db, "INSERT INTO ev VALUES "+strings.Join(vals, ", "))
	}
	return db, fc
}

func TestFakeScanQueries(t *testing.T) {
	db, _ := scanFixture(t, 20)
	for _, tt := range []struct {
		query string
		want  [][]string
	}{
		{"SELECT COUNT(*) FROM ev", [][]string{{"20"}}},
		{"SELECT id FROM ev WHERE v >= 170 ORDER BY id", [][]string{{"17"}, {"18"}, {"19"}}},
		{"SELECT kind, COUNT(*) AS n FROM ev GROUP BY kind ORDER BY kind", [][]string{{"a", "7"}, {"b", "7"}, {"c", "6"}}},
		{"SELECT DISTINCT kind FROM ev ORDER BY kind", [][]string{{"a"}, {"b"}, {"c"}}},
		{"SELECT id, v * 2 AS w FROM ev WHERE id = 3", [][]string{{"3", "60"}}},
		{"SELECT id FROM ev ORDER BY id DESC LIMIT 2", [][]string{{"19"}, {"18"}}},
		{"SELECT COUNT(*) FROM ev WHERE kind = 'c'", [][]string{{"6"}}},
		{"SELECT MAX(v), MIN(id), SUM(v) FROM ev", [][]string{{"190", "0", "1900"}}},
	} {
		t.Run(tt.query, func(t *testing.T) {
			assert.Equal(t, tt.want, queryStrings(t, db, tt.query))
		})
	}
	// LIMIT without ORDER BY stops the scan after n rows, whichever they are.
	assert.Len(t, queryStrings(t, db, "SELECT id, kind FROM ev LIMIT 4"), 4)
	assert.Len(t, queryStrings(t, db, "SELECT id FROM ev WHERE v > 50 LIMIT 3"), 3)
	assert.Len(t, queryStrings(t, db, "SELECT * FROM ev"), 20)
}

func TestFakeScanPartitions(t *testing.T) {
	db, _ := openFake(t, "")
	mustExec(t, db,
		"CREATE TABLE p (id BIGINT, region STRING) PARTITIONED BY (region) WITH ('bucket.num' = '2')",
		"ALTER TABLE p ADD PARTITION (region = 'EU')", "ALTER TABLE p ADD PARTITION (region = 'US')",
		"INSERT INTO p VALUES (1, 'EU'), (2, 'US'), (3, 'EU')",
	)
	assert.Equal(t, [][]string{{"1"}, {"3"}}, queryStrings(t, db, "SELECT id FROM p WHERE region = 'EU' ORDER BY id"))
	assert.Equal(t, [][]string{{"3"}}, queryStrings(t, db, "SELECT COUNT(*) FROM p"))
	// every partition pruned: no rows, and COUNT(*) is 0
	assert.Empty(t, queryStrings(t, db, "SELECT id FROM p WHERE region = 'APAC'"))
	assert.Equal(t, [][]string{{"0"}}, queryStrings(t, db, "SELECT COUNT(*) FROM p WHERE region = 'APAC'"))
}

// TestFakeScanLimitManyPartitions: a LIMIT scan of a table of 20 partitions × 2 buckets asks
// for the offsets of the first partitions only (limitGroups: 8 buckets, then 16, …) when they
// hold enough rows, and still reads every partition when the LIMIT needs them all, or when
// only the last partition's rows pass the filter; scans without a LIMIT read every row.
func TestFakeScanLimitManyPartitions(t *testing.T) {
	db, fc := openFake(t, "")
	mustExec(t, db, "CREATE TABLE p (id BIGINT, region STRING) PARTITIONED BY (region) WITH ('bucket.num' = '2')")
	var rows []string
	for i := 0; i < 20; i++ {
		mustExec(t, db, fmt.Sprintf("ALTER TABLE p ADD PARTITION (region = 'r%02d')", i))
		for j := 0; j < 3; j++ {
			rows = append(rows, fmt.Sprintf("(%d, 'r%02d')", i*10+j, i))
		}
	}
	mustExec(t, db, "INSERT INTO p VALUES "+strings.Join(rows, ", "))

	offsets := func(query string) ([][]string, int) {
		before := fc.Calls(flusstest.ListOffsets)
		got := queryStrings(t, db, query)
		return got, fc.Calls(flusstest.ListOffsets) - before
	}
	got, all := offsets("SELECT * FROM p")
	assert.Len(t, got, 60, "a full scan subscribes 8 buckets first and the other 32 in the background")
	assert.Equal(t, [][]string{{"60"}}, queryStrings(t, db, "SELECT COUNT(*) FROM p"))
	got = queryStrings(t, db, "SELECT id FROM p ORDER BY id DESC LIMIT 2")
	assert.Equal(t, [][]string{{"192"}, {"191"}}, got, "ORDER BY … LIMIT reads every partition")
	open, err := db.QueryContext(fakeCtx(t), "SELECT * FROM p")
	require.NoError(t, err)
	require.NoError(t, open.Close(), "closed while the other buckets are being subscribed")
	got, few := offsets("SELECT id FROM p LIMIT 5")
	assert.Len(t, got, 5)
	assert.Less(t, few, all/2, "LIMIT 5 of 60 rows sent %d ListOffsets requests, a full scan %d", few, all)

	got, _ = offsets("SELECT id FROM p LIMIT 100")
	assert.Len(t, got, 60, "a LIMIT above the row count reads every partition")
	got, _ = offsets("SELECT id, region FROM p WHERE id = 191 LIMIT 1")
	assert.Equal(t, [][]string{{"191", "r19"}}, got, "the one matching row is in the last partition")
	got, _ = offsets("SELECT id FROM p LIMIT 2 OFFSET 58")
	assert.Len(t, got, 2)
}

// TestFakeScanListsPartitionsOnce: scans of a partitioned table take the partitions' names
// from the plan's (cached) partition list; the scanner used to list the partitions again for
// every scan, a ZooKeeper read per partition on the server (~50 ms for 200 partitions) before
// the first row.
func TestFakeScanListsPartitionsOnce(t *testing.T) {
	db, fc := openFake(t, "")
	mustExec(t, db, "CREATE TABLE p (id BIGINT, region STRING) PARTITIONED BY (region) WITH ('bucket.num' = '2')")
	for i := 0; i < 12; i++ {
		mustExec(t, db, fmt.Sprintf("ALTER TABLE p ADD PARTITION (region = 'r%02d')", i),
			fmt.Sprintf("INSERT INTO p VALUES (%d, 'r%02d')", i, i))
	}
	before := fc.Calls(flusstest.ListPartitionInfos)
	for range 3 {
		assert.Len(t, queryStrings(t, db, "SELECT * FROM p"), 12)
		assert.Equal(t, [][]string{{"3"}}, queryStrings(t, db, "SELECT id FROM p WHERE region = 'r03'"))
	}
	assert.LessOrEqual(t, fc.Calls(flusstest.ListPartitionInfos)-before, 1,
		"six scans within the catalog's cache time list the partitions at most once")
}

func TestFakeLookups(t *testing.T) {
	db, _ := openFake(t, "", flusstest.WithTabletServers(3))
	mustExec(t, db,
		"CREATE TABLE kv (a INT, b STRING, v STRING, PRIMARY KEY (a, b) NOT ENFORCED) WITH ('bucket.num' = '4', 'bucket.key' = 'a')",
		"INSERT INTO kv VALUES (1, 'x', 'one-x'), (1, 'y', 'one-y'), (2, 'x', 'two-x'), (3, 'z', 'three-z')",
	)
	for _, tt := range []struct {
		query string
		args  []any
		want  [][]string
	}{
		{"SELECT v FROM kv WHERE a = 1 AND b = 'y'", nil, [][]string{{"one-y"}}},
		{"SELECT v FROM kv WHERE a = ? AND b = ?", []any{2, "x"}, [][]string{{"two-x"}}},
		{"SELECT v FROM kv WHERE a IN (1, 2, 3) AND b = 'x' ORDER BY v", nil, [][]string{{"one-x"}, {"two-x"}}},
		{"SELECT v FROM kv WHERE a = 9 AND b = 'x'", nil, nil},
		{"SELECT b, v FROM kv WHERE a = 1 ORDER BY b", nil, [][]string{{"x", "one-x"}, {"y", "one-y"}}},
		{"SELECT COUNT(*) FROM kv WHERE a = 1", nil, [][]string{{"2"}}},
		{"SELECT v FROM kv WHERE a = 1 AND b = 'x' AND v LIKE 'one%'", nil, [][]string{{"one-x"}}},
	} {
		t.Run(tt.query, func(t *testing.T) {
			assert.Equal(t, tt.want, queryStrings(t, db, tt.query, tt.args...))
		})
	}
	// LIMIT without a key: a limit scan of each bucket
	assert.Len(t, queryStrings(t, db, "SELECT * FROM kv LIMIT 3"), 3)
	assert.Len(t, queryStrings(t, db, "SELECT * FROM kv LIMIT 10"), 4)

	var v string
	require.NoError(t, db.QueryRowContext(fakeCtx(t), "SELECT v FROM kv WHERE a = 3 AND b = 'z'").Scan(&v))
	assert.Equal(t, "three-z", v)
	err := db.QueryRowContext(fakeCtx(t), "SELECT v FROM kv WHERE a = 3 AND b = 'q'").Scan(&v)
	assert.ErrorIs(t, err, sql.ErrNoRows)

	// a full scan of a primary-key table needs the KV scan of Fluss 1.0+
	for _, q := range []string{"SELECT * FROM kv", "SELECT COUNT(*) FROM kv"} {
		_, err = db.QueryContext(fakeCtx(t), q)
		assert.ErrorIs(t, err, fluss.ErrUnsupportedByServer, q)
	}
}

func TestFakeQueryErrors(t *testing.T) {
	db, _ := openFake(t, "")
	mustExec(t, db, "CREATE TABLE t (id BIGINT)")
	for _, tt := range []struct {
		query string
		want  error
	}{
		{"SELECT * FROM missing", fluss.ErrTableNotExist},
		{"SELECT nope FROM t", nil},
		{"SELEC 1", nil},
	} {
		rows, err := db.QueryContext(fakeCtx(t), tt.query)
		require.Error(t, err, tt.query)
		assert.Nil(t, rows)
		if tt.want != nil {
			assert.ErrorIs(t, err, tt.want)
		}
	}
	// a statement that returns no rows runs through Query too
	rows, err := db.QueryContext(fakeCtx(t), "CREATE TABLE u (id BIGINT)")
	require.NoError(t, err)
	assert.False(t, rows.Next())
	require.NoError(t, rows.Close())
	assert.Equal(t, [][]string{{"t"}, {"u"}}, queryStrings(t, db, "SHOW TABLES"))
}

func TestFakeRowsClose(t *testing.T) {
	db, _ := scanFixture(t, 30)
	rows, err := db.QueryContext(fakeCtx(t), "SELECT id FROM ev")
	require.NoError(t, err)
	require.True(t, rows.Next())
	require.NoError(t, rows.Close()) // early: the rest is never fetched
	assert.False(t, rows.Next())
	assert.NoError(t, rows.Err())
	var id int64
	assert.Error(t, rows.Scan(&id), "Scan after Close")

	// the connection is usable after an early Close
	assert.Equal(t, [][]string{{"30"}}, queryStrings(t, db, "SELECT COUNT(*) FROM ev"))

	// a non-fast scan (filter) closed early
	rows, err = db.QueryContext(fakeCtx(t), "SELECT id FROM ev WHERE v > 0")
	require.NoError(t, err)
	require.True(t, rows.Next())
	require.NoError(t, rows.Close())
	assert.False(t, rows.Next())
}

// An unbounded scan runs until its context ends; Rows.Err then matches the context's error.
func TestFakeScanCancelled(t *testing.T) {
	db, _ := scanFixture(t, 5)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rows, err := db.QueryContext(ctx, "SELECT id FROM ev /*+ OPTIONS('scan.bounded' = 'false') */")
	require.NoError(t, err)
	n := 0
	for rows.Next() {
		n++
		if n == 5 {
			cancel() // every row read: the scan now waits for more
		}
	}
	assert.Equal(t, 5, n)
	assert.ErrorIs(t, rows.Err(), context.Canceled)
	require.NoError(t, rows.Close())
}

// A deadline ends a scan whose server stopped answering, with an error that matches it.
func TestFakeScanDeadline(t *testing.T) {
	db, fc := scanFixture(t, 10)
	fc.Freeze(1, true)
	fc.Freeze(2, true)
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	rows, err := db.QueryContext(ctx, "SELECT id FROM ev")
	if err == nil {
		for rows.Next() {
		}
		err = rows.Err()
		rows.Close()
	}
	assert.ErrorIs(t, err, context.DeadlineExceeded)
}

// A cut connection, a bucket error and a moved leader during a scan: the scan goes on from
// its offsets, every row once.
func TestFakeScanSurvivesFaults(t *testing.T) {
	for _, f := range []flusstest.Fault{
		{API: flusstest.FetchLog, Call: 2, Action: flusstest.Cut},
		{API: flusstest.FetchLog, Call: 2, Action: flusstest.FailBuckets, Code: int32(flusserr.NotLeaderOrFollower)},
		{API: flusstest.FetchLog, Call: 1, Action: flusstest.Delay, Delay: 50 * time.Millisecond, Times: 3},
	} {
		t.Run(fmt.Sprint(f.Action), func(t *testing.T) {
			db, fc := scanFixture(t, 20)
			fc.Inject(f)
			got := queryStrings(t, db, "SELECT id FROM ev ORDER BY id")
			require.Len(t, got, 20)
			for i, r := range got {
				assert.Equal(t, fmt.Sprint(i), r[0])
			}
		})
	}
}
