package fluss

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/flusstest"
	"github.com/flussql/flussql/fluss/types"
)

// apiCounter counts the requests per API.
type apiCounter struct {
	NopObserver
	mu sync.Mutex
	n  map[string]int
}

func (c *apiCounter) RequestDone(ev RequestEvent) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n == nil {
		c.n = map[string]int{}
	}
	c.n[ev.API]++
}

func (c *apiCounter) count(api string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[api]
}

// TestScanOfManyPartitionsFetchesTheirMetadataTogether: a bounded scan of every bucket of 30
// partitions asks for the partitions' metadata in one request, not in one request per
// partition, and still reads every partition to its end.
func TestScanOfManyPartitionsFetchesTheirMetadataTogether(t *testing.T) {
	fc := flusstest.New(t)
	fc.CreateDatabase("db")
	fc.CreateTable("db", "parts", types.TableJSON{Schema: types.SchemaJSON{Schema: types.Schema{Columns: []types.Column{
		{Name: "p", Type: types.NewString()}, {Name: "id", Type: types.NewBigInt()}}}},
		PartitionKeys: []string{"p"}, BucketCount: 2})
	obs := &apiCounter{}
	ctx := context.Background()
	c, err := Connect(ctx, Config{BootstrapServers: []string{fc.Addr()}, RequestTimeout: 2 * time.Second, Observer: obs})
	require.NoError(t, err)
	defer c.Close()
	path := TablePath{Database: "db", Table: "parts"}
	const parts = 30
	for i := range parts {
		require.NoError(t, c.Admin().CreatePartition(ctx, path, PartitionSpec{"p": fmt.Sprintf("p%02d", i)}, false))
	}
	infos, err := c.Admin().ListPartitions(ctx, path, nil)
	require.NoError(t, err)
	require.Len(t, infos, parts)
	tbl, err := c.Table(ctx, path)
	require.NoError(t, err)
	s, err := tbl.NewLogScanner(ScannerOptions{Bounded: true})
	require.NoError(t, err)
	defer s.Close()
	subs := map[TableBucket]int64{}
	for _, p := range infos {
		for b := range int32(2) {
			subs[TableBucket{PartitionID: p.ID, Bucket: b}] = EarliestOffset
		}
	}
	before := obs.count("GET_METADATA")
	require.NoError(t, s.SubscribeBuckets(ctx, subs))
	assert.LessOrEqual(t, obs.count("GET_METADATA")-before, 2, "the table, then the 30 partitions in one request")
	assert.Len(t, s.Subscriptions(), 2*parts)
	_, err = s.Poll(ctx)
	assert.True(t, errors.Is(err, io.EOF), "empty partitions: the bounded scan ends at once, got %v", err)
}
