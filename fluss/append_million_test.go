package fluss_test

import (
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/types"
)

// rowHash is the order-independent checksum term of one row.
func rowHash(id int64, region string, v float64, s string) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d|%s|%g|%s", id, region, v, s)
	return h.Sum64()
}

// TestAppendMillionRows writes 1,000,000 rows over 3 partitions × 4
// buckets (bucketed by id) and reads them back: the same count, every id
// exactly once, and the same order-independent checksum.
func TestAppendMillionRows(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	c := connect(t)
	db := tempDatabase(t, c.Admin())
	regions := []string{"US", "EU", "APAC"}
	tbl := createLogTable(t, c, db, "million", fluss.TableDescriptor{Schema: types.Schema{Columns: []types.Column{
		{Name: "id", Type: types.NewBigInt().AsNotNull()},
		{Name: "region", Type: types.NewString().AsNotNull()},
		{Name: "v", Type: types.NewDouble()},
		{Name: "s", Type: types.NewString()},
	}}, PartitionKeys: []string{"region"}, BucketKeys: []string{"id"}, BucketCount: 4})
	ctx := testCtx(t)
	for _, r := range regions {
		require.NoError(t, c.Admin().CreatePartition(ctx, tbl.Path(), fluss.PartitionSpec{"region": r}, false))
	}
	const n = 1_000_000
	start := time.Now()
	w, err := tbl.NewAppendWriter(ctx, fluss.AppendWriterOptions{})
	require.NoError(t, err)
	var want uint64
	row := make([]any, 4)
	for i := 0; i < n; i++ {
		id := int64(i)
		region := regions[i%3]
		v := float64(i) * 0.5
		s := fmt.Sprintf("row-%d", i)
		want += rowHash(id, region, v, s)
		row[0], row[1], row[2], row[3] = id, region, v, s
		require.NoError(t, w.Append(ctx, row))
	}
	require.NoError(t, w.Flush(ctx))
	require.NoError(t, w.Close(ctx))
	t.Logf("wrote %d rows in %s", n, time.Since(start))

	start = time.Now()
	s, err := tbl.NewLogScanner(fluss.ScannerOptions{Bounded: true})
	require.NoError(t, err)
	defer s.Close()
	parts, err := c.Admin().ListPartitions(ctx, tbl.Path(), nil)
	require.NoError(t, err)
	require.Len(t, parts, 3)
	subs := map[fluss.TableBucket]int64{}
	for _, p := range parts {
		for b := int32(0); b < 4; b++ {
			subs[fluss.TableBucket{PartitionID: p.ID, Bucket: b}] = fluss.EarliestOffset
		}
	}
	require.NoError(t, s.SubscribeBuckets(ctx, subs))
	seen := make([]bool, n)
	var got uint64
	count := 0
	perBucket := map[fluss.TableBucket]int{}
	for {
		b, err := s.Poll(ctx)
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
		ids := b.Record.Column(0).(*array.Int64)
		regs := b.Record.Column(1).(*array.String)
		vs := b.Record.Column(2).(*array.Float64)
		ss := b.Record.Column(3).(*array.String)
		for i := 0; i < b.NumRows(); i++ {
			id := ids.Value(i)
			require.False(t, seen[id], "id %d read twice", id)
			seen[id] = true
			require.Equal(t, b.Partition, regs.Value(i))
			got += rowHash(id, regs.Value(i), vs.Value(i), ss.Value(i))
		}
		count += b.NumRows()
		perBucket[b.Bucket] += b.NumRows()
		b.Release()
	}
	t.Logf("read %d rows in %s", count, time.Since(start))
	assert.Equal(t, n, count)
	assert.Equal(t, want, got, "order-independent checksum")
	assert.Len(t, perBucket, 12, "every bucket of every partition has rows")
	for i, ok := range seen {
		if !ok {
			t.Fatalf("id %d missing", i)
		}
	}
}
