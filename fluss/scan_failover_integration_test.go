package fluss_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "github.com/flussql/flussql"
	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/flusstest/realcluster"
	"github.com/flussql/flussql/fluss/localcluster"
	"github.com/flussql/flussql/fluss/types"
)

// Failover tests: each starts its own cluster of three tablet servers (with
// a 6 s ZooKeeper session, so a killed server loses its buckets within
// seconds), writes rows to tables replicated three times, and kills or
// freezes (SIGSTOP) the leader of a bucket while it is being read. They run
// when FLUSS_BOOTSTRAP_SERVERS is set (to anything: the address is not
// used), e.g. FLUSS_BOOTSTRAP_SERVERS=own go test ./fluss -run Failover.

// faultCluster starts a three-tablet-server cluster stopped when the test ends.
func faultCluster(t *testing.T) *localcluster.Cluster {
	t.Helper()
	if !realcluster.Configured() {
		t.Skip("FLUSS_BOOTSTRAP_SERVERS is not set: integration tests are off")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	start := time.Now()
	c, err := localcluster.Start(ctx, localcluster.Options{
		TabletServers:           3,
		ZooKeeperSessionTimeout: 6 * time.Second,
		ServerConfig:            map[string]string{localcluster.KeyReplicaMaxLagTime: "5s"},
	})
	require.NoError(t, err)
	t.Cleanup(func() {
		for _, name := range []string{"tablet-server-0", "tablet-server-1", "tablet-server-2"} {
			_ = c.Resume(name) // a stopped process would not stop
		}
		assert.NoError(t, c.Stop())
	})
	t.Logf("cluster of 3 tablet servers up in %s", time.Since(start).Round(time.Millisecond))
	return c
}

// failoverTable creates db.name with ids 0..n-1 (and a padding column),
// replicated to every tablet server, in 3 buckets, and waits for every
// row to be acknowledged. batchSize sets how many fetches a bucket takes
// (a fetch returns at least one whole batch); each batch waits for the
// replicas, so small ones make writing slow.
func failoverTable(t *testing.T, c *fluss.Client, db, name string, n int, primaryKey bool, batchSize int) *fluss.Table {
	t.Helper()
	ctx := testCtx(t)
	schema := types.Schema{Columns: []types.Column{
		{Name: "id", Type: types.NewBigInt().AsNotNull()},
		{Name: "pad", Type: types.NewString()},
	}}
	if primaryKey {
		schema.PrimaryKey = []string{"id"}
	}
	desc := fluss.TableDescriptor{Schema: schema, BucketCount: 3, BucketKeys: []string{"id"},
		Properties: map[string]string{"table.replication.factor": "3"}}
	tbl := createLogTable(t, c, db, name, desc)
	// Rows that compress badly, so that fetches hold few of them.
	wopts := fluss.WriterOptions{BatchSize: batchSize}
	rnd := rand.New(rand.NewPCG(1, 2))
	pad := func() string {
		b := make([]byte, 64)
		for i := range b {
			b[i] = "0123456789abcdefghijklmnopqrstuvwxyz"[rnd.IntN(36)]
		}
		return string(b)
	}
	start := time.Now()
	if primaryKey {
		w, err := tbl.NewUpsertWriter(ctx, fluss.UpsertWriterOptions{WriterOptions: wopts})
		require.NoError(t, err)
		for i := range n {
			require.NoError(t, w.Upsert(ctx, []any{int64(i), fmt.Sprintf("v%d", i)}))
		}
		require.NoError(t, w.Flush(ctx))
		require.NoError(t, w.Close(ctx))
	} else {
		w, err := tbl.NewAppendWriter(ctx, fluss.AppendWriterOptions{WriterOptions: wopts})
		require.NoError(t, err)
		for i := range n {
			require.NoError(t, w.Append(ctx, []any{int64(i), pad()}))
		}
		require.NoError(t, w.Flush(ctx))
		require.NoError(t, w.Close(ctx))
	}
	t.Logf("%d rows written and acknowledged in %s", n, time.Since(start).Round(time.Millisecond))
	return tbl
}

// killLeader kills the tablet server leading bucket of db.table and
// returns its name.
func killLeader(t *testing.T, cl *localcluster.Cluster, db, table string, bucket int32) string {
	t.Helper()
	leader, err := cl.BucketLeader(testCtx(t), db, table, bucket)
	require.NoError(t, err)
	require.GreaterOrEqual(t, leader, 0)
	name := fmt.Sprintf("tablet-server-%d", leader)
	require.NoError(t, cl.Kill(name))
	t.Logf("killed %s, the leader of bucket %d", name, bucket)
	return name
}

// checkIDs checks that ids holds 0..n-1, each once.
func checkIDs(t *testing.T, ids []int64, n int) {
	t.Helper()
	seen := make([]int, n)
	var bad, dup int
	for _, id := range ids {
		if id < 0 || id >= int64(n) {
			bad++
			continue
		}
		seen[id]++
		if seen[id] == 2 {
			dup++
		}
	}
	missing := 0
	for _, c := range seen {
		if c == 0 {
			missing++
		}
	}
	assert.Zero(t, bad, "ids out of range")
	assert.Zero(t, dup, "ids read more than once")
	assert.Zero(t, missing, "ids never read")
	assert.Len(t, ids, n)
}

// A bounded scan whose bucket leader is SIGKILLed part-way returns every
// row exactly once: it goes on from its offsets on the new leaders.
func TestScanFailoverKilledLeader(t *testing.T) {
	cl := faultCluster(t)
	c, err := fluss.Connect(testCtx(t), fluss.Config{BootstrapServers: []string{cl.BootstrapServers}, RequestTimeout: 10 * time.Second})
	require.NoError(t, err)
	defer c.Close()
	db := tempDatabase(t, c.Admin())
	const n = 60_000
	tbl := failoverTable(t, c, db, "log", n, false, 64<<10)
	ends, err := c.Admin().ListOffsets(testCtx(t), tbl.Path(), "", nil, fluss.OffsetLatest())
	require.NoError(t, err)

	// Both columns: the fetch limits count projected bytes, and the id column alone (8 bytes
	// a row) would bring each bucket whole in the first fetch, leaving nothing to cut.
	s, err := tbl.NewLogScanner(fluss.ScannerOptions{Bounded: true, MaxBucketBytes: 16 << 10})
	require.NoError(t, err)
	defer s.Close()
	subs := map[fluss.TableBucket]int64{}
	for b := range 3 {
		subs[fluss.TableBucket{PartitionID: fluss.NoPartition, Bucket: int32(b)}] = fluss.EarliestOffset
	}
	require.NoError(t, s.SubscribeBuckets(testCtx(t), subs))
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	var ids []int64
	poll := func() error {
		b, err := s.Poll(ctx)
		if err != nil {
			return err
		}
		defer b.Release()
		col := b.Record.Column(0).(*array.Int64)
		for i := range col.Len() {
			ids = append(ids, col.Value(i))
		}
		return nil
	}
	require.NoError(t, poll())

	// Freeze the leader of the bucket read least (the scanner fetches ahead of Poll, so a
	// bucket may already be fetched to its end), then kill it: frozen, it can answer no
	// further fetch, so the bucket is cut part-way.
	victim := int32(-1)
	for tb, off := range s.Subscriptions() {
		if off < ends[tb.Bucket] && (victim < 0 || off < s.Subscriptions()[fluss.TableBucket{PartitionID: fluss.NoPartition, Bucket: victim}]) {
			victim = tb.Bucket
		}
	}
	require.GreaterOrEqual(t, victim, int32(0), "every bucket fetched already: %v of %v", s.Subscriptions(), ends)
	leader, err := cl.BucketLeader(testCtx(t), db, tbl.Path().Table, victim)
	require.NoError(t, err)
	name := fmt.Sprintf("tablet-server-%d", leader)
	require.NoError(t, cl.Pause(name))
	cut := s.Subscriptions()[fluss.TableBucket{PartitionID: fluss.NoPartition, Bucket: victim}]
	require.Less(t, cut, ends[victim], "bucket %d was fetched to its end before its leader froze", victim)
	t.Logf("read %d rows; bucket %d cut at offset %d of %d", len(ids), victim, cut, ends[victim])
	killAt := time.Now()
	require.NoError(t, cl.Kill(name))
	t.Logf("killed %s, the leader of bucket %d", name, victim)
	for {
		err := poll()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
	}
	t.Logf("the scan ended %s after the kill", time.Since(killAt).Round(time.Millisecond))
	checkIDs(t, ids, n)
}

// The same through database/sql: Rows.Next goes on after the kill and the
// query returns every row once.
func TestScanFailoverDriverKilledLeader(t *testing.T) {
	cl := faultCluster(t)
	c, err := fluss.Connect(testCtx(t), fluss.Config{BootstrapServers: []string{cl.BootstrapServers}, RequestTimeout: 10 * time.Second})
	require.NoError(t, err)
	defer c.Close()
	db := tempDatabase(t, c.Admin())
	const n = 250_000 // several fetches of 1 MiB per bucket
	tbl := failoverTable(t, c, db, "log", n, false, 512<<10)

	sqlDB, err := sql.Open("fluss", "fluss://"+cl.BootstrapServers+"/"+db+"?timeout=30s")
	require.NoError(t, err)
	defer sqlDB.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	// id and pad: the fetch limits count projected bytes; the id column alone would bring
	// each bucket whole in the first fetch (1 MiB per bucket).
	rows, err := sqlDB.QueryContext(ctx, "SELECT id, pad FROM "+tbl.Path().Table)
	require.NoError(t, err)
	defer rows.Close()
	var ids []int64
	killAt := time.Time{}
	for rows.Next() {
		var id int64
		var pad string
		require.NoError(t, rows.Scan(&id, &pad))
		ids = append(ids, id)
		if len(ids) == 2000 {
			killLeader(t, cl, db, tbl.Path().Table, 1)
			killAt = time.Now()
		}
	}
	require.NoError(t, rows.Err())
	t.Logf("the query ended %s after the kill", time.Since(killAt).Round(time.Millisecond))
	checkIDs(t, ids, n)
}

// A frozen (SIGSTOPped) leader: Rows.Next returns within the query's
// deadline plus a second, with an error that names the silent server, and
// Poll does the same; then the server is resumed.
func TestScanFailoverFrozenLeader(t *testing.T) {
	cl := faultCluster(t)
	c, err := fluss.Connect(testCtx(t), fluss.Config{BootstrapServers: []string{cl.BootstrapServers}, RequestTimeout: 10 * time.Second})
	require.NoError(t, err)
	defer c.Close()
	db := tempDatabase(t, c.Admin())
	const n = 250_000
	tbl := failoverTable(t, c, db, "log", n, false, 512<<10)
	leader, err := cl.BucketLeader(testCtx(t), db, tbl.Path().Table, 0)
	require.NoError(t, err)
	name := fmt.Sprintf("tablet-server-%d", leader)

	sqlDB, err := sql.Open("fluss", "fluss://"+cl.BootstrapServers+"/"+db+"?timeout=30s")
	require.NoError(t, err)
	defer sqlDB.Close()
	const deadline = 4 * time.Second
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	start := time.Now()
	// id and pad, so that the first fetch does not bring a bucket whole (see above).
	rows, err := sqlDB.QueryContext(ctx, "SELECT id, pad FROM "+tbl.Path().Table)
	require.NoError(t, err)
	require.True(t, rows.Next())
	require.NoError(t, cl.Pause(name))
	t.Logf("paused %s, the leader of bucket 0", name)
	defer func() { require.NoError(t, cl.Resume(name)) }()
	read := 1
	for rows.Next() {
		read++
	}
	elapsed := time.Since(start)
	err = rows.Err()
	rows.Close()
	require.Error(t, err, "read %d of %d rows", read, n)
	t.Logf("Rows.Next returned after %s (deadline %s) with: %v", elapsed.Round(time.Millisecond), deadline, err)
	assert.Less(t, elapsed, deadline+time.Second)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Contains(t, err.Error(), fmt.Sprintf("tablet server %d", leader))
	assert.Less(t, read, n)

	// The wire client's Poll, with the server still frozen.
	// Unbounded and subscribed at offset 0: no offset lookup (a bounded scan asks the leaders
	// for their end offsets), which would wait for the frozen leader.
	s, err := tbl.NewLogScanner(fluss.ScannerOptions{Projection: []int{0}})
	require.NoError(t, err)
	defer s.Close()
	subs := map[fluss.TableBucket]int64{}
	for b := range 3 {
		subs[fluss.TableBucket{PartitionID: fluss.NoPartition, Bucket: int32(b)}] = 0
	}
	sctx, scancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer scancel()
	require.NoError(t, s.SubscribeBuckets(sctx, subs))
	pctx, pcancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer pcancel()
	start = time.Now()
	for {
		b, err := s.Poll(pctx)
		if err != nil {
			t.Logf("Poll returned after %s with: %v", time.Since(start).Round(time.Millisecond), err)
			assert.ErrorIs(t, err, context.DeadlineExceeded)
			assert.Less(t, time.Since(start), 3*time.Second)
			break
		}
		b.Release()
	}
}

// Point lookups while the leader of their bucket is killed: each returns
// the right row or an error, within its deadline plus a second; once a
// new leader is elected they all find their rows again.
func TestLookupFailoverKilledLeader(t *testing.T) {
	cl := faultCluster(t)
	c, err := fluss.Connect(testCtx(t), fluss.Config{BootstrapServers: []string{cl.BootstrapServers}, RequestTimeout: 10 * time.Second})
	require.NoError(t, err)
	defer c.Close()
	db := tempDatabase(t, c.Admin())
	const n = 300
	tbl := failoverTable(t, c, db, "kv", n, true, 0)
	l, err := tbl.NewLookuper()
	require.NoError(t, err)
	sqlDB, err := sql.Open("fluss", "fluss://"+cl.BootstrapServers+"/"+db+"?timeout=30s")
	require.NoError(t, err)
	defer sqlDB.Close()

	killLeader(t, cl, db, tbl.Path().Table, 0)
	killAt := time.Now()
	const deadline = 3 * time.Second
	var errs, found int
	var healed time.Duration
	for round := 0; time.Since(killAt) < 40*time.Second; round++ {
		allOK := true
		for id := int64(round % 7); id < n; id += 37 {
			ctx, cancel := context.WithTimeout(context.Background(), deadline)
			start := time.Now()
			var row []any
			var ok bool
			var err error
			if id%2 == 0 {
				row, ok, err = l.Lookup(ctx, []any{id})
			} else {
				var v string
				err = sqlDB.QueryRowContext(ctx, "SELECT pad FROM "+tbl.Path().Table+" WHERE id = ?", id).Scan(&v)
				row, ok = []any{id, v}, err == nil
			}
			cancel()
			require.Less(t, time.Since(start), deadline+time.Second, "lookup of %d", id)
			if err != nil {
				errs++
				allOK = false
				if errs <= 3 {
					t.Logf("lookup of %d after %s: %v", id, time.Since(start).Round(time.Millisecond), err)
				}
				continue
			}
			require.True(t, ok, "id %d", id)
			require.Equal(t, []any{id, fmt.Sprintf("v%d", id)}, row)
			found++
		}
		if allOK && round > 0 {
			healed = time.Since(killAt)
			break
		}
	}
	t.Logf("%d lookups found their row, %d failed; all found again %s after the kill", found, errs, healed.Round(time.Millisecond))
	assert.NotZero(t, healed, "lookups never recovered")
}
