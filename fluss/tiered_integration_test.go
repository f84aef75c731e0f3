package fluss_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/flusstest/realcluster"
	"github.com/flussql/flussql/fluss/localcluster"
	"github.com/flussql/flussql/fluss/types"
)

// The tiered-log test starts its own cluster (localcluster.Options.LogTiering: 64 KiB
// segments, tiering every second) when FLUSS_BOOTSTRAP_SERVERS is set (to anything), e.g.
// FLUSS_BOOTSTRAP_SERVERS=own go test ./fluss -run TieredLog; FLUSS_VERSION picks the
// server.

// tieringCluster starts a one-tablet-server cluster that tiers log segments within
// seconds, stopped when the test ends.
func tieringCluster(t *testing.T) *localcluster.Cluster {
	t.Helper()
	if !realcluster.Configured() {
		t.Skip("FLUSS_BOOTSTRAP_SERVERS is not set: integration tests are off")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	c, err := localcluster.Start(ctx, localcluster.Options{LogTiering: true, Logf: t.Logf})
	require.NoError(t, err)
	t.Cleanup(func() { assert.NoError(t, c.Stop()) })
	return c
}

// tieredPad is the pad value of row id: 64 random characters (they compress badly, so
// that rows fill segments).
func tieredPad(id int64) string {
	rnd := rand.New(rand.NewPCG(uint64(id), 7))
	b := make([]byte, 64)
	for i := range b {
		b[i] = "0123456789abcdefghijklmnopqrstuvwxyz"[rnd.IntN(36)]
	}
	return string(b)
}

// writeTiered appends rows ids [from, to) to tbl and waits for them to be acknowledged.
func writeTiered(t *testing.T, tbl *fluss.Table, from, to int64) {
	t.Helper()
	ctx := testCtx(t)
	w, err := tbl.NewAppendWriter(ctx, fluss.AppendWriterOptions{WriterOptions: fluss.WriterOptions{BatchSize: 8 << 10}})
	require.NoError(t, err)
	for id := from; id < to; id++ {
		require.NoError(t, w.Append(ctx, []any{id, tieredPad(id)}))
	}
	require.NoError(t, w.Flush(ctx))
	require.NoError(t, w.Close(ctx))
}

// segmentStarts returns the start offsets of the *.log segment files in dir's subtree.
func segmentStarts(t *testing.T, dir string) []int64 {
	var out []int64
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".log") {
			return nil
		}
		if off, err := strconv.ParseInt(strings.TrimSuffix(d.Name(), ".log"), 10, 64); err == nil {
			out = append(out, off)
		}
		return nil
	})
	slices.Sort(out)
	return out
}

// tieredRow is one row a scan returned.
type tieredRow struct {
	offset int64
	id     int64
	pad    string
	score  int64 // -1: NULL or not scanned
}

// scanTieredLog scans every bucket of tbl from the earliest offset to the end (bounded),
// returning the rows by bucket and the bytes read from remote segments.
func scanTieredLog(t *testing.T, tbl *fluss.Table, buckets int, projection []int) (map[int32][]tieredRow, int64) {
	t.Helper()
	ctx := testCtx(t)
	s, err := tbl.NewLogScanner(fluss.ScannerOptions{Bounded: true, Projection: projection})
	require.NoError(t, err)
	defer s.Close()
	subs := map[fluss.TableBucket]int64{}
	for b := range buckets {
		subs[fluss.TableBucket{PartitionID: fluss.NoPartition, Bucket: int32(b)}] = fluss.EarliestOffset
	}
	require.NoError(t, s.SubscribeBuckets(ctx, subs))
	out := map[int32][]tieredRow{}
	start := time.Now()
	rows := 0
	for {
		b, err := s.Poll(ctx)
		if errors.Is(err, io.EOF) {
			t.Logf("scanned %d rows in %s: %d bytes from remote segments, %d fetched from the server",
				rows, time.Since(start).Round(time.Millisecond), s.RemoteFetchedBytes(), s.FetchedBytes())
			return out, s.RemoteFetchedBytes()
		}
		require.NoError(t, err)
		for i := 0; i < b.NumRows(); i++ {
			r := tieredRow{offset: b.Offset(i), id: -1, score: -1}
			for c, field := range b.Record.Schema().Fields() {
				col := b.Record.Column(c)
				switch field.Name {
				case "id":
					r.id = col.(*array.Int64).Value(i)
				case "pad":
					r.pad = col.(*array.String).Value(i)
				case "score":
					if col.IsValid(i) {
						r.score = col.(*array.Int64).Value(i)
					}
				}
			}
			out[b.Bucket.Bucket] = append(out[b.Bucket.Bucket], r)
		}
		rows += b.NumRows()
		b.Release()
	}
}

func TestScanReadsTieredLog(t *testing.T) {
	cl := tieringCluster(t)
	c, err := fluss.Connect(testCtx(t), fluss.Config{BootstrapServers: []string{cl.BootstrapServers}, RequestTimeout: 20 * time.Second})
	require.NoError(t, err)
	defer c.Close()
	admin := c.Admin()
	db := tempDatabase(t, admin)
	const buckets = 2
	tbl := createLogTable(t, c, db, "tiered", fluss.TableDescriptor{
		Schema: types.Schema{Columns: []types.Column{
			{Name: "id", Type: types.NewBigInt().AsNotNull()},
			{Name: "pad", Type: types.NewString()},
		}},
		BucketCount: buckets, BucketKeys: []string{"id"},
		// Keep one local segment (the active one) after tiering.
		Properties: map[string]string{"table.log.tiered.local-segments": "1"},
	})
	info := tbl.Info()

	// Several 64 KiB segments per bucket.
	const before, after = 8000, 2000
	writeTiered(t, tbl, 0, before)

	tableDir := fmt.Sprintf("%s-%d", info.Path.Table, info.TableID)
	remote := func(b int) string { return filepath.Join(cl.RemoteDataDir, "log", db, tableDir, strconv.Itoa(b)) }
	local := func(b int) string {
		return filepath.Join(cl.Dir, "data", "ts0", db, tableDir, fmt.Sprintf("log-%d", b))
	}
	start := time.Now()
	require.Eventually(t, func() bool {
		for b := range buckets {
			if len(segmentStarts(t, remote(b))) < 2 {
				return false
			}
			if l := segmentStarts(t, local(b)); len(l) == 0 || l[0] == 0 {
				return false // offset 0 still local
			}
		}
		return true
	}, 90*time.Second, 250*time.Millisecond, "the tablet server did not tier the segments of %s.%s", db, info.Path.Table)
	for b := range buckets {
		t.Logf("bucket %d after %s: remote segments start at %v, local ones at %v", b,
			time.Since(start).Round(time.Millisecond), segmentStarts(t, remote(b)), segmentStarts(t, local(b)))
	}

	writeTiered(t, tbl, before, before+after)

	for _, tc := range []struct {
		name       string
		projection []int
	}{
		{name: "all columns"},
		{name: "projection pushed down", projection: []int{1}},
		{name: "projection reordered", projection: []int{1, 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			byBucket, remoteBytes := scanTieredLog(t, tbl, buckets, tc.projection)
			assert.Positive(t, remoteBytes, "rows were read from remote segments")
			seen := map[string]int{}
			total := 0
			for b := range buckets {
				rows := byBucket[int32(b)]
				require.NotEmpty(t, rows, "bucket %d", b)
				for i, r := range rows {
					require.Equal(t, int64(i), r.offset, "bucket %d: offsets run from 0 without gap or repeat", b)
					if tc.projection == nil || slices.Contains(tc.projection, 0) {
						require.Equal(t, tieredPad(r.id), r.pad, "bucket %d offset %d: row %d", b, r.offset, r.id)
						seen[strconv.FormatInt(r.id, 10)]++
					} else {
						seen[r.pad]++
					}
				}
				total += len(rows)
			}
			assert.Equal(t, before+after, total)
			for id := int64(0); id < before+after; id++ {
				key := strconv.FormatInt(id, 10)
				if tc.projection != nil && !slices.Contains(tc.projection, 0) {
					key = tieredPad(id)
				}
				if seen[key] != 1 {
					t.Fatalf("row %d was read %d times", id, seen[key])
				}
			}
		})
	}

	// Schema evolution: rows of the tiered part (schema 1) read NULL in a column added later.
	ctx := testCtx(t)
	require.NoError(t, admin.AlterTable(ctx, info.Path, false, fluss.AddColumn(types.Column{Name: "score", Type: types.NewBigInt()})))
	newTbl, err := c.Table(ctx, info.Path)
	require.NoError(t, err)
	w, err := newTbl.NewAppendWriter(ctx, fluss.AppendWriterOptions{})
	require.NoError(t, err)
	const added = 300
	for id := int64(before + after); id < before+after+added; id++ {
		require.NoError(t, w.Append(ctx, []any{id, tieredPad(id), id * 10}))
	}
	require.NoError(t, w.Flush(ctx))
	require.NoError(t, w.Close(ctx))
	for _, projection := range [][]int{nil, {2, 0}} {
		byBucket, remoteBytes := scanTieredLog(t, newTbl, buckets, projection)
		assert.Positive(t, remoteBytes)
		ids := map[int64]bool{}
		for b := range buckets {
			for i, r := range byBucket[int32(b)] {
				require.Equal(t, int64(i), r.offset, "bucket %d", b)
				require.False(t, ids[r.id], "row %d read twice", r.id)
				ids[r.id] = true
				if r.id < before+after {
					require.Equal(t, int64(-1), r.score, "row %d was written before the column was added", r.id)
				} else {
					require.Equal(t, r.id*10, r.score, "row %d", r.id)
				}
			}
		}
		assert.Len(t, ids, before+after+added, "projection %v", projection)
	}

	t.Run("partitioned table", func(t *testing.T) { tieredPartition(t, cl, c, db) })
}

// tieredPartition checks a scan of a partition whose segments were tiered (the remote
// tablet directory then has a {partition}-p{id} level, which the server's path names).
func tieredPartition(t *testing.T, cl *localcluster.Cluster, c *fluss.Client, db string) {
	ctx := testCtx(t)
	admin := c.Admin()
	tbl := createLogTable(t, c, db, "tiered_p", fluss.TableDescriptor{
		Schema: types.Schema{Columns: []types.Column{
			{Name: "id", Type: types.NewBigInt().AsNotNull()},
			{Name: "pad", Type: types.NewString()},
			{Name: "region", Type: types.NewString().AsNotNull()},
		}},
		BucketCount: 1, PartitionKeys: []string{"region"},
		Properties: map[string]string{"table.log.tiered.local-segments": "1"},
	})
	info := tbl.Info()
	require.NoError(t, admin.CreatePartition(ctx, info.Path, fluss.PartitionSpec{"region": "us"}, false))
	parts, err := admin.ListPartitions(ctx, info.Path, nil)
	require.NoError(t, err)
	require.Len(t, parts, 1)
	part := parts[0]
	write := func(from, to int64) {
		w, err := tbl.NewAppendWriter(ctx, fluss.AppendWriterOptions{WriterOptions: fluss.WriterOptions{BatchSize: 8 << 10}})
		require.NoError(t, err)
		for id := from; id < to; id++ {
			require.NoError(t, w.Append(ctx, []any{id, tieredPad(id), "us"}))
		}
		require.NoError(t, w.Flush(ctx))
		require.NoError(t, w.Close(ctx))
	}
	const before, after = 4000, 500
	write(0, before)
	partDir := filepath.Join(db, fmt.Sprintf("%s-%d", info.Path.Table, info.TableID), fmt.Sprintf("%s-p%d", part.Name, part.ID))
	remote := filepath.Join(cl.RemoteDataDir, "log", partDir, "0")
	local := filepath.Join(cl.Dir, "data", "ts0", partDir, "log-0")
	require.Eventually(t, func() bool {
		l := segmentStarts(t, local)
		return len(segmentStarts(t, remote)) >= 2 && len(l) > 0 && l[0] > 0
	}, 90*time.Second, 250*time.Millisecond, "the tablet server did not tier the segments of partition %s (%s)", part.Name, remote)
	write(before, before+after)

	s, err := tbl.NewLogScanner(fluss.ScannerOptions{Bounded: true, Projection: []int{0, 1}})
	require.NoError(t, err)
	defer s.Close()
	require.NoError(t, s.SubscribePartition(ctx, part.ID, 0, fluss.EarliestOffset))
	var n int64
	for {
		b, err := s.Poll(ctx)
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
		ids, pads := b.Record.Column(0).(*array.Int64), b.Record.Column(1).(*array.String)
		for i := 0; i < b.NumRows(); i++ {
			require.Equal(t, n, b.Offset(i))
			require.Equal(t, n, ids.Value(i), "one writer, one bucket: ids in offset order")
			require.Equal(t, tieredPad(n), pads.Value(i))
			n++
		}
		b.Release()
	}
	assert.Equal(t, int64(before+after), n)
	assert.Positive(t, s.RemoteFetchedBytes())
}
