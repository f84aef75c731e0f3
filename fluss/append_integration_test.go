package fluss_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/datum"
	"github.com/flussql/flussql/fluss/types"
)

// TestAppendScanTypeMatrix writes every scalar type, NULLs included, with
// each ARROW compression and the INDEXED and COMPACTED log formats, and
// reads it back equal.
func TestAppendScanTypeMatrix(t *testing.T) {
	c := connect(t)
	db := tempDatabase(t, c.Admin())
	cases := []struct{ name, format, compression string }{
		{"arrow_none", "ARROW", "NONE"},
		{"arrow_lz4", "ARROW", "LZ4_FRAME"},
		{"arrow_zstd", "ARROW", "ZSTD"},
		{"indexed", "INDEXED", ""},
		{"compacted", "COMPACTED", ""},
	}
	const rows = 600
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			props := map[string]string{fluss.PropLogFormat: tc.format}
			if tc.compression != "" {
				props[fluss.PropArrowCompression] = tc.compression
			}
			tbl := createLogTable(t, c, db, "matrix_"+tc.name, fluss.TableDescriptor{
				Schema: types.Schema{Columns: matrixColumns()}, BucketCount: 3, Properties: props,
			})
			ctx := testCtx(t)
			w, err := tbl.NewAppendWriter(ctx, fluss.AppendWriterOptions{WriterOptions: fluss.WriterOptions{BatchSize: 16 << 10}})
			require.NoError(t, err)
			for i := 0; i < rows; i++ {
				require.NoError(t, w.Append(ctx, matrixRow(i)))
			}
			flushClose(t, w)

			got := readAll(t, c, tbl, nil)
			require.Len(t, got, rows)
			sortByID(got)
			perBucket := map[int32]int{}
			for i, r := range got {
				require.Equal(t, matrixRow(i), r.values, "row %d", i)
				perBucket[r.bucket.Bucket]++
			}
			assert.Greater(t, len(perBucket), 1, "sticky assignment moves between buckets as batches fill")
		})
	}
}

// TestAppendProjectionOrder reads columns in an order other than the
// table's: the server gets them ascending, the scanner reorders.
func TestAppendProjectionOrder(t *testing.T) {
	c := connect(t)
	db := tempDatabase(t, c.Admin())
	tbl := createLogTable(t, c, db, "proj", fluss.TableDescriptor{Schema: types.Schema{Columns: matrixColumns()}, BucketCount: 1})
	ctx := testCtx(t)
	w, err := tbl.NewAppendWriter(ctx, fluss.AppendWriterOptions{})
	require.NoError(t, err)
	for i := 0; i < 50; i++ {
		require.NoError(t, w.Append(ctx, matrixRow(i)))
	}
	flushClose(t, w)

	proj := []int{11, 0, 5} // c_string, id, c_bigint
	got := readAll(t, c, tbl, proj)
	require.Len(t, got, 50)
	for i, r := range got {
		full := matrixRow(i)
		assert.Equal(t, []any{full[11], full[0], full[5]}, r.values)
		assert.Equal(t, int64(i), r.offset, "one bucket: offsets are the append order")
	}
	_, err = tbl.NewLogScanner(fluss.ScannerOptions{Projection: []int{1, 1}})
	assert.Error(t, err, "a column projected twice")
	_, err = tbl.NewLogScanner(fluss.ScannerOptions{Projection: []int{99}})
	assert.Error(t, err)
}

// TestAppendRecordBatchAndOffsets appends whole Arrow records and checks
// start offsets: exact, earliest, latest, timestamp; and unsubscribe.
func TestAppendRecordBatchAndOffsets(t *testing.T) {
	c := connect(t)
	db := tempDatabase(t, c.Admin())
	tbl := createLogTable(t, c, db, "rb", fluss.TableDescriptor{Schema: types.Schema{Columns: []types.Column{
		{Name: "id", Type: types.NewBigInt().AsNotNull()},
		{Name: "name", Type: types.NewString()},
	}}, BucketCount: 1, Properties: map[string]string{fluss.PropArrowCompression: "LZ4_FRAME"}})
	ctx := testCtx(t)
	w, err := tbl.NewAppendWriter(ctx, fluss.AppendWriterOptions{WriterOptions: fluss.WriterOptions{BatchSize: 4 << 10}})
	require.NoError(t, err)
	build := func(from, to int) {
		rb := array.NewRecordBuilder(memory.DefaultAllocator, tbl.ArrowSchema())
		defer rb.Release()
		for i := from; i < to; i++ {
			rb.Field(0).(*array.Int64Builder).Append(int64(i))
			if i%10 == 0 {
				rb.Field(1).AppendNull()
			} else {
				rb.Field(1).(*array.StringBuilder).Append(fmt.Sprint("n", i))
			}
		}
		rec := rb.NewRecordBatch()
		defer rec.Release()
		require.NoError(t, w.AppendRecordBatch(ctx, rec))
	}
	build(0, 1000)
	require.NoError(t, w.Flush(ctx))
	time.Sleep(20 * time.Millisecond) // commit times have millisecond resolution
	mid := time.Now()
	time.Sleep(50 * time.Millisecond)
	build(1000, 1500)
	require.NoError(t, w.Flush(ctx))

	read := func(offset int64, at *time.Time) []int64 {
		s, err := tbl.NewLogScanner(fluss.ScannerOptions{Bounded: true})
		require.NoError(t, err)
		defer s.Close()
		if at != nil {
			require.NoError(t, s.SubscribeTimestamp(ctx, []fluss.TableBucket{{PartitionID: fluss.NoPartition, Bucket: 0}}, *at))
		} else {
			require.NoError(t, s.Subscribe(ctx, 0, offset))
		}
		var ids []int64
		for _, r := range drain(t, ctx, s) {
			ids = append(ids, r.values[0].(int64))
			require.Equal(t, r.offset, r.values[0].(int64))
			if r.offset%10 == 0 {
				require.Nil(t, r.values[1])
			} else {
				require.Equal(t, fmt.Sprint("n", r.offset), r.values[1])
			}
		}
		return ids
	}
	assert.Len(t, read(fluss.EarliestOffset, nil), 1500)
	ids := read(777, nil)
	require.Len(t, ids, 723)
	assert.Equal(t, int64(777), ids[0], "rows before the fetch offset inside the first batch are skipped")
	assert.Empty(t, read(fluss.LatestOffset, nil))
	ids = read(0, &mid)
	require.NotEmpty(t, ids)
	assert.Equal(t, int64(1000), ids[0], "timestamp start: the first batch committed after it")

	// Unbounded from the latest offset sees only new rows.
	s, err := tbl.NewLogScanner(fluss.ScannerOptions{MaxWait: 200 * time.Millisecond})
	require.NoError(t, err)
	defer s.Close()
	require.NoError(t, s.Subscribe(ctx, 0, fluss.LatestOffset))
	build(1500, 1510)
	require.NoError(t, w.Flush(ctx))
	pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	b, err := s.Poll(pctx)
	require.NoError(t, err)
	assert.Equal(t, int64(1500), b.BaseOffset)
	b.Release()
	s.Unsubscribe(0)
	assert.Empty(t, s.Subscriptions())
	require.NoError(t, w.Close(ctx))
}

// TestScannerUnboundedCancel: an unbounded Poll waits for rows and returns
// promptly with the context's error; Close releases every buffer.
func TestScannerUnboundedCancel(t *testing.T) {
	c := connect(t)
	db := tempDatabase(t, c.Admin())
	tbl := createLogTable(t, c, db, "cancel", fluss.TableDescriptor{Schema: types.Schema{Columns: []types.Column{
		{Name: "id", Type: types.NewInt()},
	}}, BucketCount: 2})
	ctx := testCtx(t)
	w, err := tbl.NewAppendWriter(ctx, fluss.AppendWriterOptions{})
	require.NoError(t, err)
	for i := 0; i < 100; i++ {
		require.NoError(t, w.Append(ctx, []any{int32(i)}))
	}
	flushClose(t, w)

	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	s, err := tbl.NewLogScanner(fluss.ScannerOptions{Allocator: mem})
	require.NoError(t, err)
	require.NoError(t, s.SubscribeBuckets(ctx, map[fluss.TableBucket]int64{
		{PartitionID: fluss.NoPartition, Bucket: 0}: fluss.EarliestOffset,
		{PartitionID: fluss.NoPartition, Bucket: 1}: fluss.EarliestOffset,
	}))
	n := 0
	for n < 100 {
		b, err := s.Poll(ctx)
		require.NoError(t, err)
		n += b.NumRows()
		b.Release()
	}
	assert.Equal(t, 100, n)
	pctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = s.Poll(pctx)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Less(t, time.Since(start), 2*time.Second)
	require.NoError(t, s.Close())
	mem.AssertSize(t, 0)
	_, err = s.Poll(ctx)
	assert.ErrorIs(t, err, fluss.ErrScannerClosed)
}

// TestAppendMissingPartition: a write to a partition that does not exist
// fails within the bound with an error naming the fix; with auto-creation
// the partition is made and the row lands.
func TestAppendMissingPartition(t *testing.T) {
	c := connect(t)
	db := tempDatabase(t, c.Admin())
	tbl := createLogTable(t, c, db, "parts", fluss.TableDescriptor{Schema: types.Schema{Columns: []types.Column{
		{Name: "id", Type: types.NewInt()},
		{Name: "region", Type: types.NewString().AsNotNull()},
	}}, PartitionKeys: []string{"region"}, BucketCount: 1})
	ctx := testCtx(t)
	w, err := tbl.NewAppendWriter(ctx, fluss.AppendWriterOptions{WriterOptions: fluss.WriterOptions{MissingPartitionTimeout: 1500 * time.Millisecond}})
	require.NoError(t, err)
	start := time.Now()
	err = w.Append(ctx, []any{int32(1), "US"})
	took := time.Since(start)
	require.Error(t, err)
	assert.ErrorIs(t, err, fluss.ErrPartitionNotExists)
	var pne *fluss.PartitionNotExistError
	require.ErrorAs(t, err, &pne)
	assert.Equal(t, []string{"US"}, pne.Values)
	assert.Equal(t, 1500*time.Millisecond, pne.Waited)
	assert.Contains(t, err.Error(), fmt.Sprintf("partition region=US of %s does not exist (waited 1.5s)", tbl.Path()))
	assert.GreaterOrEqual(t, took, 1400*time.Millisecond)
	assert.Less(t, took, 6*time.Second)
	require.NoError(t, w.Close(ctx))

	w, err = tbl.NewAppendWriter(ctx, fluss.AppendWriterOptions{WriterOptions: fluss.WriterOptions{AutoCreatePartitions: true}})
	require.NoError(t, err)
	require.NoError(t, w.Append(ctx, []any{int32(1), "US"}))
	require.NoError(t, w.Append(ctx, []any{int32(2), "EU"}))
	flushClose(t, w)
	parts, err := c.Admin().ListPartitions(ctx, tbl.Path(), nil)
	require.NoError(t, err)
	assert.Len(t, parts, 2)
	got := readAll(t, c, tbl, nil)
	require.Len(t, got, 2)
	for _, r := range got {
		assert.Equal(t, r.values[1], r.partition)
	}
}

// TestSeedPartitionedFlow is the flow of the seed
// (shared/seeds/partitioned-tables.txt) through the Go API.
func TestSeedPartitionedFlow(t *testing.T) {
	c := connect(t)
	admin := c.Admin()
	db := tempDatabase(t, admin)
	ctx := testCtx(t)
	path := fluss.TablePath{Database: db, Table: "partitioned_events"}
	require.NoError(t, admin.CreateTable(ctx, path, fluss.TableDescriptor{Schema: types.Schema{Columns: []types.Column{
		{Name: "id", Type: types.NewInt()},
		{Name: "region", Type: types.NewString()},
		{Name: "value", Type: types.NewBigInt()},
	}}, PartitionKeys: []string{"region"}, BucketCount: 1}, true))
	require.NoError(t, admin.CreatePartition(ctx, path, fluss.PartitionSpec{"region": "US"}, true))
	require.NoError(t, admin.CreatePartition(ctx, path, fluss.PartitionSpec{"region": "EU"}, true))
	parts, err := admin.ListPartitions(ctx, path, nil)
	require.NoError(t, err)
	require.Len(t, parts, 2)

	tbl, err := c.Table(ctx, path)
	require.NoError(t, err)
	w, err := tbl.NewAppendWriter(ctx, fluss.AppendWriterOptions{})
	require.NoError(t, err)
	require.NoError(t, w.Append(ctx, []any{int32(1), "US", int64(100)}))
	require.NoError(t, w.Append(ctx, []any{int32(2), "EU", int64(200)}))
	require.NoError(t, w.Flush(ctx))
	require.NoError(t, w.Close(ctx))

	s, err := tbl.NewLogScanner(fluss.ScannerOptions{Bounded: true})
	require.NoError(t, err)
	defer s.Close()
	for _, p := range parts {
		require.NoError(t, s.SubscribePartition(ctx, p.ID, 0, fluss.EarliestOffset))
	}
	rows := drain(t, ctx, s)
	require.Len(t, rows, 2)
	sortByID(rows)
	assert.Equal(t, []any{int32(1), "US", int64(100)}, rows[0].values)
	assert.Equal(t, []any{int32(2), "EU", int64(200)}, rows[1].values)
	assert.Equal(t, "US", rows[0].partition)

	// Unsubscribing a partition leaves the other.
	s2, err := tbl.NewLogScanner(fluss.ScannerOptions{Bounded: true})
	require.NoError(t, err)
	defer s2.Close()
	for _, p := range parts {
		require.NoError(t, s2.SubscribePartition(ctx, p.ID, 0, fluss.EarliestOffset))
	}
	s2.UnsubscribePartition(parts[0].ID, 0)
	rows = drain(t, ctx, s2)
	require.Len(t, rows, 1)
	assert.Equal(t, parts[1].Name, rows[0].partition)
}

// TestAppendWriterRejects checks input errors are reported at Append.
func TestAppendWriterRejects(t *testing.T) {
	c := connect(t)
	db := tempDatabase(t, c.Admin())
	tbl := createLogTable(t, c, db, "rej", fluss.TableDescriptor{Schema: types.Schema{Columns: []types.Column{
		{Name: "id", Type: types.NewInt().AsNotNull()},
		{Name: "d", Type: types.NewDecimal(5, 2)},
	}}, BucketCount: 1})
	ctx := testCtx(t)
	w, err := tbl.NewAppendWriter(ctx, fluss.AppendWriterOptions{})
	require.NoError(t, err)
	defer w.Close(ctx)
	for _, row := range [][]any{
		{nil, nil},
		{int64(1), nil},
		{int32(1)},
		{int32(1), datum.NewDecimal(123456, 2)},
		{int32(1), "1.5"},
	} {
		err := w.Append(ctx, row)
		assert.Error(t, err, "%v", row)
	}
	require.NoError(t, w.Append(ctx, []any{int32(1), datum.NewDecimal(15, 1)}))
	require.NoError(t, w.Flush(ctx))
	got := readAll(t, c, tbl, nil)
	require.Len(t, got, 1)
	assert.Equal(t, "1.50", got[0].values[1].(datum.Decimal).String(), "decimals are stored at the column's scale")

	_, err = tbl.NewAppendWriter(ctx, fluss.AppendWriterOptions{WriterOptions: fluss.WriterOptions{Acks: fluss.AcksLeader}})
	assert.Error(t, err, "idempotence needs acks=all")
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	err = w.Flush(cctx)
	if err != nil {
		assert.True(t, errors.Is(err, context.Canceled) || strings.Contains(err.Error(), "canceled"))
	}
}
