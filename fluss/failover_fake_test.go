package fluss

import (
	"context"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/flusserr"
	"github.com/flussql/flussql/fluss/flusstest"
	"github.com/flussql/flussql/fluss/types"
)

// failoverFake is the fake of package flusstest with a coordinator, several tablet servers
// and one log table db.failover (one BIGINT column "id"), whose servers the tests kill,
// freeze, and whose bucket leaders and high watermarks they move, as a real cluster does
// when a tablet server dies.
type failoverFake struct {
	*flusstest.Cluster
	t       *testing.T
	path    TablePath
	tablets int
	ids     []int64 // every row id of the table
}

// newFailoverFake starts tablets tablet servers (ids 1..tablets) and a coordinator (id 0),
// each FETCH_LOG answer carrying at most 2 batches per bucket. Bucket b has rowsPerBucket
// rows in batches of batchRows, ids b*1_000_000 + offset, led by tablet server b%tablets+1.
func newFailoverFake(t *testing.T, tablets, buckets, rowsPerBucket, batchRows int) *failoverFake {
	f := &failoverFake{
		Cluster: flusstest.New(t, flusstest.WithTabletServers(tablets), flusstest.WithBatchesPerFetch(2)),
		t:       t, path: TablePath{Database: "db", Table: "failover"}, tablets: tablets,
	}
	s := types.Schema{Columns: []types.Column{{Name: "id", Type: types.NewBigInt()}}}
	f.CreateDatabase("db")
	f.CreateTable("db", "failover", types.TableJSON{Schema: types.SchemaJSON{Schema: s}, BucketCount: buckets,
		Properties: map[string]string{"table.log.format": "ARROW"}})
	schema, err := types.ToArrowSchema(s)
	require.NoError(t, err)
	for b := int32(0); b < int32(buckets); b++ {
		for off := 0; off < rowsPerBucket; off += batchRows {
			n := min(batchRows, rowsPerBucket-off)
			bld := array.NewInt64Builder(memory.DefaultAllocator)
			for i := range n {
				id := int64(b)*1_000_000 + int64(off+i)
				bld.Append(id)
				f.ids = append(f.ids, id)
			}
			col := bld.NewArray()
			rec := array.NewRecordBatch(schema, []arrow.Array{col}, int64(n))
			f.AppendLog("db", "failover", "", b, rec)
			rec.Release()
			col.Release()
			bld.Release()
		}
	}
	return f
}

// kill kills tablet server id: its port refuses, its connections are closed.
func (f *failoverFake) kill(id int32) { f.Kill(id) }

// close kills every server (without waiting: it may run inside a request).
func (f *failoverFake) close() {
	for id := int32(0); id <= int32(f.tablets); id++ {
		f.Kill(id)
	}
}

// moveLeader makes node the leader of bucket (-1: no leader).
func (f *failoverFake) moveLeader(bucket, node int32) { f.SetLeader("db", "failover", bucket, node) }

// setFrozen makes tablet server id read requests and never answer them.
func (f *failoverFake) setFrozen(id int32, frozen bool) { f.Freeze(id, frozen) }

// setHW sets the high watermark node serves for bucket.
func (f *failoverFake) setHW(node, bucket int32, hw int64) {
	f.SetHighWatermark("db", "failover", "", bucket, node, hw)
}

func (f *failoverFake) leaderOf(bucket int32) int32 { return f.Leader("db", "failover", bucket) }

// allIDs returns every row id of the table.
func (f *failoverFake) allIDs() []int64 { return f.ids }

// onFetch sets the hook run before each FETCH_LOG bucket is answered; a code other than
// flusserr.None is answered instead of rows.
func (f *failoverFake) onFetch(hook func(node, bucket int32, offset int64) flusserr.Code) {
	f.OnFetch(func(node, bucket int32, offset int64) int32 { return int32(hook(node, bucket, offset)) })
}

// fetchCount returns how many answers with rows node sent.
func (f *failoverFake) fetchCount(node int32) int { return f.FetchesWithRows(node) }

func (f *failoverFake) connect(t *testing.T, requestTimeout time.Duration) (*Client, *Table) {
	c, err := Connect(context.Background(), Config{BootstrapServers: []string{f.Addr()}, RequestTimeout: requestTimeout})
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	tm, err := c.tableMetadata(context.Background(), f.path)
	require.NoError(t, err)
	tbl, err := c.TableOf(tm.Info)
	require.NoError(t, err)
	return c, tbl
}
