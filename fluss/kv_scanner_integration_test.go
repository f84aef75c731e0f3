package fluss_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/flusserr"
	"github.com/flussql/flussql/fluss/types"
)

// offersKvScan reports whether the server offers SCAN_KV (Fluss 1.0+); on an older one it
// checks that a KvScanner is refused with ErrUnsupportedByServer naming SCAN_KV, and the
// test ends there.
func offersKvScan(t *testing.T, c *fluss.Client, tb *fluss.Table, opts fluss.KvScanOptions) bool {
	t.Helper()
	v := serverVersion(t, c)
	if v.AtLeast(1, 0) {
		return true
	}
	_, err := tb.NewKvScanner(testCtx(t), opts)
	require.ErrorIs(t, err, fluss.ErrUnsupportedByServer)
	assert.ErrorContains(t, err, "SCAN_KV(1061)")
	assert.ErrorContains(t, err, "(it speaks Fluss "+v.String()+", older than 1.0)")
	t.Logf("the server speaks Fluss %s, which has no SCAN_KV: the refusal is checked", v)
	return false
}

// drainKv reads a KvScanner to the end and returns its rows and how many batches came.
func drainKv(ctx context.Context, s *fluss.KvScanner) ([][]any, int, error) {
	var rows [][]any
	batches := 0
	for {
		b, err := s.Next(ctx)
		if errors.Is(err, io.EOF) {
			return rows, batches, nil
		}
		if err != nil {
			return rows, batches, err
		}
		if len(b) == 0 {
			return rows, batches, fmt.Errorf("Next returned an empty batch")
		}
		batches++
		rows = append(rows, b...)
	}
}

// sortKvRows orders rows by their INT first column.
func sortKvRows(rows [][]any) {
	sort.Slice(rows, func(i, j int) bool { return rows[i][0].(int32) < rows[j][0].(int32) })
}

// eventuallyScan scans with opts until the rows equal want (the leader applies
// acknowledged writes to its KV store asynchronously).
func eventuallyScan(t *testing.T, tb *fluss.Table, opts fluss.KvScanOptions, want [][]any) [][]any {
	t.Helper()
	ctx := testCtx(t)
	var rows [][]any
	var scanErr error
	require.Eventually(t, func() bool {
		s, err := tb.NewKvScanner(ctx, opts)
		if scanErr = err; err != nil {
			return false
		}
		defer s.Close()
		rows, _, scanErr = drainKv(ctx, s)
		sortKvRows(rows)
		return scanErr == nil && len(rows) == len(want)
	}, 20*time.Second, 100*time.Millisecond, "kv scan saw %d rows, want %d (last error %v)", len(rows), len(want), scanErr)
	assert.Equal(t, want, rows)
	return rows
}

// TestKvScannerLatestValues: after inserts, overwrites, deletes and partial updates a
// full scan returns each live key once with its latest value; deleted keys are absent.
// Projection picks and orders columns.
func TestKvScannerLatestValues(t *testing.T) {
	c := connect(t)
	ctx := testCtx(t)
	path := createUsersTable(t, c, 3)
	tb := openTable(t, c, path)
	if !offersKvScan(t, c, tb, fluss.KvScanOptions{}) {
		return
	}
	w := newUpsertWriter(t, tb, fluss.UpsertWriterOptions{})
	for id := 1; id <= 200; id++ {
		require.NoError(t, w.Upsert(ctx, userRow(id, "v1")))
	}
	for id := 1; id <= 50; id++ {
		require.NoError(t, w.Upsert(ctx, userRow(id, "v2")))
	}
	for id := 51; id <= 80; id++ {
		require.NoError(t, w.DeleteKey(ctx, []any{int32(id)}))
	}
	require.NoError(t, w.Flush(ctx))
	pw := newUpsertWriter(t, tb, fluss.UpsertWriterOptions{TargetColumns: []string{"id", "score"}})
	require.NoError(t, pw.Upsert(ctx, []any{int32(100), nil, int64(-1)}))
	require.NoError(t, pw.Upsert(ctx, []any{int32(500), nil, int64(5)}))
	require.NoError(t, pw.Flush(ctx))

	var want [][]any
	for id := 1; id <= 200; id++ {
		switch {
		case id <= 50:
			want = append(want, userRow(id, "v2"))
		case id <= 80:
		case id == 100:
			want = append(want, []any{int32(100), "v1-100", int64(-1)})
		default:
			want = append(want, userRow(id, "v1"))
		}
	}
	want = append(want, []any{int32(500), nil, int64(5)})
	eventuallyScan(t, tb, fluss.KvScanOptions{}, want)

	var proj [][]any
	for _, r := range want {
		proj = append(proj, []any{r[0], r[2]})
	}
	eventuallyScan(t, tb, fluss.KvScanOptions{Projection: []int{0, 2}}, proj)
	s, err := tb.NewKvScanner(ctx, fluss.KvScanOptions{Projection: []int{2, 0}})
	require.NoError(t, err)
	defer s.Close()
	assert.Equal(t, int64(-1), s.LogOffset(), "before the first answer")
	first, err := s.Next(ctx)
	require.NoError(t, err)
	require.NotEmpty(t, first)
	assert.IsType(t, int32(0), first[0][1], "columns come in projection order")
	assert.Positive(t, s.LogOffset(), "the high watermark of a bucket that was written to")

	_, err = tb.NewKvScanner(ctx, fluss.KvScanOptions{Projection: []int{3}})
	require.ErrorIs(t, err, flusserr.InvalidColumnProjection)
	_, err = tb.NewKvScanner(ctx, fluss.KvScanOptions{Partitions: []string{"p"}})
	require.ErrorIs(t, err, flusserr.TableNotPartitionedException)
}

// TestKvScannerManyBatches: a table larger than a batch comes in many batches, every row
// once; Limit ends each bucket's session after that many rows.
func TestKvScannerManyBatches(t *testing.T) {
	c := connect(t)
	ctx := testCtx(t)
	path := createUsersTable(t, c, 2)
	tb := openTable(t, c, path)
	if !offersKvScan(t, c, tb, fluss.KvScanOptions{}) {
		return
	}
	w := newUpsertWriter(t, tb, fluss.UpsertWriterOptions{})
	const n = 20000
	var want [][]any
	for id := range n {
		r := userRow(id, "row-with-some-padding-to-fill-batches")
		require.NoError(t, w.Upsert(ctx, r))
		want = append(want, r)
	}
	require.NoError(t, w.Flush(ctx))
	eventuallyScan(t, tb, fluss.KvScanOptions{}, want)

	s, err := tb.NewKvScanner(ctx, fluss.KvScanOptions{BatchBytes: 16 << 10})
	require.NoError(t, err)
	rows, batches, err := drainKv(ctx, s)
	require.NoError(t, s.Close())
	require.NoError(t, err)
	sortKvRows(rows)
	assert.Equal(t, want, rows)
	assert.Greater(t, batches, 40, "20000 rows of ~60 bytes in 16 KiB batches")
	t.Logf("%d rows in %d batches of at most 16 KiB", len(rows), batches)

	s, err = tb.NewKvScanner(ctx, fluss.KvScanOptions{Limit: 7})
	require.NoError(t, err)
	rows, _, err = drainKv(ctx, s)
	require.NoError(t, err)
	assert.Len(t, rows, 14, "7 rows from each of the 2 buckets")
}

// TestKvScannerPartitioned reads the partitions named, each bucket of each.
func TestKvScannerPartitioned(t *testing.T) {
	c := connect(t)
	ctx := testCtx(t)
	db := tempDatabase(t, c.Admin())
	path := fluss.TablePath{Database: db, Table: "by_region"}
	desc := fluss.TableDescriptor{
		Schema: types.Schema{
			Columns: []types.Column{
				{Name: "id", Type: types.NewInt().AsNotNull()},
				{Name: "region", Type: types.NewString().AsNotNull()},
				{Name: "score", Type: types.NewBigInt()},
			},
			PrimaryKey: []string{"id", "region"},
		},
		PartitionKeys: []string{"region"},
		BucketCount:   2,
	}
	require.NoError(t, c.Admin().CreateTable(ctx, path, desc, false))
	for _, r := range []string{"EU", "US", "APAC"} {
		require.NoError(t, c.Admin().CreatePartition(ctx, path, fluss.PartitionSpec{"region": r}, false))
	}
	tb := openTable(t, c, path)
	if !offersKvScan(t, c, tb, fluss.KvScanOptions{Partitions: []string{"EU"}}) {
		return
	}
	w := newUpsertWriter(t, tb, fluss.UpsertWriterOptions{})
	want := map[string][][]any{}
	for id := range 60 {
		region := []string{"EU", "US", "APAC"}[id%3]
		r := []any{int32(id), region, int64(id)}
		require.NoError(t, w.Upsert(ctx, r))
		want[region] = append(want[region], r)
	}
	require.NoError(t, w.DeleteKey(ctx, []any{int32(0), "EU"}))
	require.NoError(t, w.Flush(ctx))
	want["EU"] = want["EU"][1:]

	eventuallyScan(t, tb, fluss.KvScanOptions{Partitions: []string{"EU", "APAC"}}, sortedConcat(want["EU"], want["APAC"]))
	eventuallyScan(t, tb, fluss.KvScanOptions{Partitions: []string{"EU", "US", "APAC"}},
		sortedConcat(want["EU"], want["US"], want["APAC"]))

	_, err := tb.NewKvScanner(ctx, fluss.KvScanOptions{})
	require.ErrorContains(t, err, "name its partitions")
	s, err := tb.NewKvScanner(ctx, fluss.KvScanOptions{Partitions: []string{"MARS"}})
	require.NoError(t, err)
	_, err = s.Next(ctx)
	require.ErrorIs(t, err, fluss.ErrPartitionNotExists)
}

func sortedConcat(parts ...[][]any) [][]any {
	var out [][]any
	for _, p := range parts {
		out = append(out, p...)
	}
	sortKvRows(out)
	return out
}

// TestKvScannerClosesSessions: scans abandoned after their first batch — closed, or
// whose context was cancelled — close their server sessions. The server allows 8 open
// sessions per bucket (kv.scanner.max-per-bucket): 30 abandoned scans of a one-bucket
// table would exhaust that, and the scan after them would fail with TOO_MANY_SCANNERS.
func TestKvScannerClosesSessions(t *testing.T) {
	c := connect(t)
	ctx := testCtx(t)
	path := createUsersTable(t, c, 1)
	tb := openTable(t, c, path)
	if !offersKvScan(t, c, tb, fluss.KvScanOptions{}) {
		return
	}
	w := newUpsertWriter(t, tb, fluss.UpsertWriterOptions{})
	var want [][]any
	for id := range 500 {
		require.NoError(t, w.Upsert(ctx, userRow(id, "v")))
		want = append(want, userRow(id, "v"))
	}
	require.NoError(t, w.Flush(ctx))
	eventuallyScan(t, tb, fluss.KvScanOptions{}, want)

	for i := range 30 {
		s, err := tb.NewKvScanner(ctx, fluss.KvScanOptions{BatchBytes: 1024})
		require.NoError(t, err)
		if i%2 == 0 {
			_, err = s.Next(ctx)
			require.NoError(t, err, "scan %d", i)
			require.NoError(t, s.Close())
			continue
		}
		sctx, cancel := context.WithCancel(ctx)
		_, err = s.Next(sctx)
		require.NoError(t, err, "scan %d", i)
		cancel()
		_, err = s.Next(sctx)
		require.ErrorIs(t, err, context.Canceled)
		_, err = s.Next(ctx)
		require.ErrorIs(t, err, context.Canceled, "a failed scanner stays failed")
	}
	s, err := tb.NewKvScanner(ctx, fluss.KvScanOptions{BatchBytes: 1024})
	require.NoError(t, err)
	rows, _, err := drainKv(ctx, s)
	require.NoError(t, err, "no session of the abandoned scans is left open")
	assert.Len(t, rows, 500)
}
