package flusslake_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/flusstest/realcluster"
	"github.com/flussql/flussql/fluss/localcluster"
)

// testLake is what a test of a local lakehouse (make lake-test, Iceberg or Paimon) works
// with: flussql, the wire client and a database of its own, which is not dropped (Fluss's
// tiering service fails when a table it tiers disappears; it is restarted now —
// localcluster's tiering restart strategy — but the tests do not make it go through that).
type testLake struct {
	t      *testing.T
	ctx    context.Context
	db     *sql.DB
	client *fluss.Client
	dbName string
	format string // iceberg or paimon
}

// newLake skips the test unless a local lakehouse (Iceberg or Paimon) runs.
func newLake(t *testing.T, prefix string, timeout time.Duration) *testLake {
	t.Helper()
	format := lakeFormat(t)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	t.Cleanup(cancel)
	db, err := sql.Open("fluss", "fluss://"+realcluster.Addr(t)+"/fluss")
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	client, err := fluss.Connect(ctx, fluss.Config{BootstrapServers: realcluster.Addrs(t)})
	require.NoError(t, err)
	t.Cleanup(func() { client.Close() })
	l := &testLake{t: t, ctx: ctx, db: db, client: client, dbName: fmt.Sprintf("%s_%d", prefix, time.Now().UnixNano()%1e9), format: format}
	l.exec("CREATE DATABASE " + l.dbName)
	return l
}

func (l *testLake) exec(q string) {
	l.t.Helper()
	_, err := l.db.ExecContext(l.ctx, q)
	require.NoError(l.t, err, q)
}

// rows runs a query and returns its rows as strings (NULL as "NULL").
func (l *testLake) rows(q string, args ...any) [][]string {
	l.t.Helper()
	rows, err := l.db.QueryContext(l.ctx, q, args...)
	require.NoError(l.t, err, q)
	defer rows.Close()
	cols, err := rows.Columns()
	require.NoError(l.t, err)
	var out [][]string
	for rows.Next() {
		vals := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		require.NoError(l.t, rows.Scan(ptrs...))
		r := make([]string, len(vals))
		for i, v := range vals {
			r[i] = "NULL"
			if v.Valid {
				r[i] = v.String
			}
		}
		out = append(out, r)
	}
	require.NoError(l.t, rows.Err(), q)
	return out
}

// waitTiered waits until the lake snapshot covers every bucket (of every partition) of
// table to its log end now, and returns the snapshot.
func (l *testLake) waitTiered(table string) *fluss.LakeSnapshot {
	l.t.Helper()
	path := fluss.TablePath{Database: l.dbName, Table: table}
	info, err := l.client.Admin().GetTableInfo(l.ctx, path)
	require.NoError(l.t, err)
	parts := []fluss.PartitionInfo{{ID: fluss.NoPartition}}
	if info.IsPartitioned() {
		parts, err = l.client.Admin().ListPartitions(l.ctx, path, nil)
		require.NoError(l.t, err)
	}
	want := map[fluss.TableBucket]int64{}
	for _, p := range parts {
		ends, err := l.client.Admin().ListOffsets(l.ctx, path, p.Name, nil, fluss.OffsetLatest())
		require.NoError(l.t, err)
		for b, end := range ends {
			if end > 0 {
				want[fluss.TableBucket{PartitionID: p.ID, Bucket: b}] = end
			}
		}
	}
	start := time.Now()
	snap, err := localcluster.WaitLakeTiered(l.ctx, l.client.Admin(), path, want, 200*time.Millisecond)
	require.NoError(l.t, err, "waiting until %s is tiered", table)
	l.t.Logf("%s tiered (snapshot %d) after %s", table, snap.SnapshotID, time.Since(start).Round(10*time.Millisecond))
	return snap
}

// longLake reports whether the long lake profile runs (FLUSSQL_LAKE_LONG set: make
// lake-long): the parts that wait for more than one round of tiering, and the Flink oracle.
func longLake(t *testing.T) bool {
	t.Helper()
	return os.Getenv("FLUSSQL_LAKE_LONG") != ""
}

// pkState is what a test wrote to a primary-key table (id → v), to compare with what
// flussql reads back.
type pkState map[int]int64

func (s pkState) upsert(l *testLake, table string, ids []int, v func(id int) int64) {
	l.t.Helper()
	vals := make([]string, len(ids))
	for i, id := range ids {
		s[id] = v(id)
		vals[i] = fmt.Sprintf("(%d, 'n%d', %d)", id, id, s[id])
	}
	l.exec("UPSERT INTO " + table + " VALUES " + strings.Join(vals, ", "))
}

func (s pkState) delete(l *testLake, table string, ids []int) {
	l.t.Helper()
	list := make([]string, len(ids))
	for i, id := range ids {
		delete(s, id)
		list[i] = fmt.Sprint(id)
	}
	l.exec("DELETE FROM " + table + " WHERE id IN (" + strings.Join(list, ", ") + ")")
}

// rows are the state as SELECT id, name, v returns it, by id.
func (s pkState) rows(keep func(id int, v int64) bool) [][]string {
	var out [][]string
	for _, id := range slices.Sorted(mapKeys(s)) {
		if keep == nil || keep(id, s[id]) {
			out = append(out, []string{fmt.Sprint(id), fmt.Sprintf("n%d", id), fmt.Sprint(s[id])})
		}
	}
	return out
}

// countSum is the state's COUNT(*) and SUM(v) as flussql renders them.
func (s pkState) countSum() []string {
	var sum int64
	for _, v := range s {
		sum += v
	}
	return []string{fmt.Sprint(len(s)), fmt.Sprint(sum)}
}

func mapKeys(s pkState) func(func(int) bool) {
	return func(yield func(int) bool) {
		for k := range s {
			if !yield(k) {
				return
			}
		}
	}
}

func ids(from, to int) []int {
	out := make([]int, 0, to-from)
	for i := from; i < to; i++ {
		out = append(out, i)
	}
	return out
}

// TestLakeUnionReadPrimaryKey writes a datalake-enabled primary-key table with flussql,
// waits until Fluss's tiering service has committed it to the lake (Iceberg or Paimon),
// then updates, deletes and inserts keys, and reads the table back on Fluss 0.9 (no KV
// scan): the union read (the lake snapshot's merged state merged by key with the changelog
// after its offsets) returns exactly the state the test wrote — the rows, COUNT, SUM, a
// filter on a changed column — while t$lake holds the tiered state. Once the changes are
// tiered too (Iceberg's equality deletes, Paimon's newer files of the buckets), both agree
// with the state again. The same for a partitioned table (whose Paimon files key rows
// without the partition key), with a query that prunes partitions.
func TestLakeUnionReadPrimaryKey(t *testing.T) {
	t.Parallel()
	l := newLake(t, "lake_pk", 3*time.Minute)
	pk, ppk := l.dbName+".pk", l.dbName+".ppk"
	const opts = `'table.datalake.enabled' = 'true', 'table.datalake.freshness' = '1s'`
	l.exec(`CREATE TABLE ` + pk + ` (id INT, name STRING, v BIGINT, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket.num' = '3', ` + opts + `)`)
	l.exec(`CREATE TABLE ` + ppk + ` (id INT, region STRING, v BIGINT, PRIMARY KEY (id, region) NOT ENFORCED) PARTITIONED BY (region) WITH ('bucket.num' = '2', ` + opts + `)`)
	l.exec("ALTER TABLE " + ppk + " ADD PARTITION (region = 'eu')")
	l.exec("ALTER TABLE " + ppk + " ADD PARTITION (region = 'us')")
	region := func(id int) string { return []string{"eu", "us"}[id%2] }
	ppkUpsert := func(s pkState, keys []int, v func(int) int64) {
		vals := make([]string, len(keys))
		for i, id := range keys {
			s[id] = v(id)
			vals[i] = fmt.Sprintf("(%d, '%s', %d)", id, region(id), s[id])
		}
		l.exec("UPSERT INTO " + ppk + " VALUES " + strings.Join(vals, ", "))
	}

	want, pwant := pkState{}, pkState{}
	want.upsert(l, pk, ids(0, 300), func(id int) int64 { return int64(id) * 10 })
	ppkUpsert(pwant, ids(0, 80), func(id int) int64 { return int64(id) })
	tiered := want.countSum()
	snap := l.waitTiered("pk")
	l.waitTiered("ppk")

	// Nothing written since: the lake holds the table.
	assert.Equal(t, [][]string{tiered}, l.rows("SELECT COUNT(*), SUM(v) FROM `"+l.dbName+"`.`pk$lake`"), "t$lake is the tiered state")
	assert.Equal(t, want.rows(nil), l.rows("SELECT id, name, v FROM `"+l.dbName+"`.`pk$lake` ORDER BY id"))

	// After the snapshot: updates, deletes, inserts, a key deleted and inserted again, a key
	// updated twice.
	want.upsert(l, pk, ids(0, 40), func(id int) int64 { return int64(id)*10 + 1 })
	want.delete(l, pk, ids(40, 70))
	want.upsert(l, pk, ids(300, 350), func(id int) int64 { return int64(id) * 10 })
	want.upsert(l, pk, []int{45}, func(int) int64 { return 4545 })
	want.upsert(l, pk, []int{7}, func(int) int64 { return 77777 })
	ppkUpsert(pwant, ids(0, 10), func(id int) int64 { return 1000 + int64(id) })
	ppkUpsert(pwant, ids(80, 100), func(id int) int64 { return int64(id) })
	for _, id := range []int{20, 21, 22} {
		delete(pwant, id)
		l.exec(fmt.Sprintf("DELETE FROM %s WHERE id = %d AND region = '%s'", ppk, id, region(id)))
	}

	check := func(when string) {
		t.Helper()
		assert.Equal(t, [][]string{want.countSum()}, l.rows("SELECT COUNT(*), SUM(v) FROM "+pk), "%s: COUNT, SUM", when)
		assert.Equal(t, want.rows(nil), l.rows("SELECT id, name, v FROM "+pk+" ORDER BY id"), "%s: the rows", when)
		assert.Equal(t, want.rows(func(id int, v int64) bool { return v%10 == 1 || v > 3000 }),
			l.rows("SELECT id, name, v FROM "+pk+" WHERE v % 10 = 1 OR v > 3000 ORDER BY id"), "%s: a filter on changed values", when)
		assert.Equal(t, [][]string{{"0"}}, l.rows("SELECT COUNT(*) FROM "+pk+" WHERE id BETWEEN 40 AND 44 OR id BETWEEN 46 AND 69"), "%s: deleted keys", when)
		assert.Equal(t, [][]string{pwant.countSum()}, l.rows("SELECT COUNT(*), SUM(v) FROM "+ppk), "%s: partitioned", when)
		eu := pkState{}
		for id, v := range pwant {
			if region(id) == "eu" {
				eu[id] = v
			}
		}
		assert.Equal(t, [][]string{eu.countSum()}, l.rows("SELECT COUNT(*), SUM(v) FROM "+ppk+" WHERE region = 'eu'"), "%s: one partition", when)
	}
	check("changes in the log")
	explain := strings.Join(flatRows(l.rows("EXPLAIN SELECT COUNT(*) FROM "+pk)), "\n")
	assert.Contains(t, explain, "merged by primary key")
	assert.Regexp(t, l.format+` snapshot \d+, \d+ data files kept`, explain)
	lake := l.rows("SELECT COUNT(*), SUM(v) FROM `" + l.dbName + "`.`pk$lake`")[0]
	t.Logf("snapshot %d: t$lake %v (tiered %v), the table %v\n%s", snap.SnapshotID, lake, tiered, want.countSum(), explain)

	// The changes tiered: the lake applies them (equality deletes), the log after the new
	// snapshot is empty. Another round of tiering (5 to 20 s): the long profile only.
	if !longLake(t) {
		return
	}
	l.waitTiered("pk")
	l.waitTiered("ppk")
	check("changes tiered")
	assert.Equal(t, [][]string{want.countSum()}, l.rows("SELECT COUNT(*), SUM(v) FROM `"+l.dbName+"`.`pk$lake`"), "t$lake applies the tiered changes")
	assert.Equal(t, [][]string{pwant.countSum()}, l.rows("SELECT COUNT(*), SUM(v) FROM `"+l.dbName+"`.`ppk$lake`"))
}

func flatRows(rows [][]string) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = strings.Join(r, " ")
	}
	return out
}

// TestLakeUnionReadPrimaryKeyWhileTiering reads a primary-key table while it is
// written and tiered: keys 0..39 are updated every round (v = the round), keys 40..49
// deleted in odd rounds and upserted in even ones. Every read, whichever snapshot and log
// it merges, returns no key twice, every key of 0..39, and no version older than the last
// round finished before the read began or newer than the one under way when it ended. The
// writer runs until the reads have seen the lake snapshot move.
func TestLakeUnionReadPrimaryKeyWhileTiering(t *testing.T) {
	t.Parallel()
	if !longLake(t) {
		t.Skip("FLUSSQL_LAKE_LONG is not set: the writes run until the tiering service has moved the lake snapshot (20 s or more; make lake-long)")
	}
	l := newLake(t, "lake_pkw", 2*time.Minute)
	table := l.dbName + ".wt"
	l.exec(`CREATE TABLE ` + table + ` (id INT, name STRING, v BIGINT, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket.num' = '2',
		'table.datalake.enabled' = 'true', 'table.datalake.freshness' = '1s')`)
	state := pkState{}
	round := func(r int) {
		state.upsert(l, table, ids(0, 40), func(int) int64 { return int64(r) })
		if r%2 == 1 {
			state.delete(l, table, ids(40, 50))
		} else {
			state.upsert(l, table, ids(40, 50), func(int) int64 { return int64(r) })
		}
	}
	round(0)
	l.waitTiered("wt")

	var done atomic.Int64 // the last round written whole
	stop := make(chan struct{})
	writer := make(chan error, 1)
	del := "DELETE FROM " + table + " WHERE id IN (40, 41, 42, 43, 44, 45, 46, 47, 48, 49)"
	go func() { // its failures come back on the channel, not through t
		defer close(writer)
		for r := 1; ; r++ {
			select {
			case <-stop:
				return
			default:
			}
			vals := make([]string, 0, 50)
			hi := 40
			if r%2 == 0 {
				hi = 50
			}
			for id := range hi {
				vals = append(vals, fmt.Sprintf("(%d, 'n%d', %d)", id, id, r))
			}
			if _, err := l.db.ExecContext(l.ctx, "UPSERT INTO "+table+" VALUES "+strings.Join(vals, ", ")); err != nil {
				writer <- err
				return
			}
			if r%2 == 1 {
				if _, err := l.db.ExecContext(l.ctx, del); err != nil {
					writer <- err
					return
				}
			}
			done.Store(int64(r))
		}
	}()

	snaps := map[int64]bool{}
	reads := 0
	deadline := time.Now().Add(40 * time.Second)
	for (len(snaps) < 2 || reads < 5) && time.Now().Before(deadline) {
		if snap, err := l.client.Admin().ReadableLakeSnapshot(l.ctx, fluss.TablePath{Database: l.dbName, Table: "wt"}); err == nil {
			snaps[snap.SnapshotID] = true
		}
		r0 := done.Load()
		got := l.rows("SELECT id, v FROM " + table)
		r1 := done.Load() + 1
		reads++
		seen := map[string]bool{}
		for _, row := range got {
			id, v := row[0], int64(0)
			_, err := fmt.Sscan(row[1], &v)
			require.NoError(t, err)
			require.False(t, seen[id], "read %d: key %s twice", reads, id)
			seen[id] = true
			require.True(t, v >= r0 && v <= r1, "read %d: key %s has version %d, not in [%d, %d]: a stale or unknown row", reads, id, v, r0, r1)
		}
		for id := range 40 {
			require.True(t, seen[fmt.Sprint(id)], "read %d: key %d missing", reads, id)
		}
	}
	close(stop)
	require.NoError(t, <-writer)
	t.Logf("%d reads over %d lake snapshots while %d rounds were written", reads, len(snaps), done.Load())
	require.GreaterOrEqual(t, len(snaps), 2, "the lake snapshot moved while the table was written (the tiering service runs)")

	final := done.Load()
	want := pkState{}
	for id := range 40 {
		want[id] = final
	}
	if final%2 == 0 {
		for id := 40; id < 50; id++ {
			want[id] = final
		}
	}
	got := l.rows("SELECT id, v FROM " + table + " ORDER BY id")
	var exp [][]string
	for _, id := range slices.Sorted(mapKeys(want)) {
		exp = append(exp, []string{fmt.Sprint(id), fmt.Sprint(want[id])})
	}
	assert.Equal(t, exp, got, "after the last round")
}
