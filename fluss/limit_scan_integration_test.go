package fluss_test

import (
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/flusserr"
	"github.com/flussql/flussql/fluss/types"
)

// TestLimitScanAndKvScan reads the buckets of a primary-key table with
// LimitScan: all rows with a large limit, n per bucket with a small one.
// A KvScanner is refused on a 0.9 server with ErrUnsupportedByServer.
func TestLimitScanAndKvScan(t *testing.T) {
	c := connect(t)
	ctx := testCtx(t)
	path := createUsersTable(t, c, 3)
	tb := openTable(t, c, path)
	w := newUpsertWriter(t, tb, fluss.UpsertWriterOptions{})
	for id := range 100 {
		require.NoError(t, w.Upsert(ctx, userRow(id, "v")))
	}
	require.NoError(t, w.DeleteKey(ctx, []any{int32(7)}))
	require.NoError(t, w.Flush(ctx))

	// The leader applies acknowledged writes to its store asynchronously:
	// wait until the scans see all of them.
	var ids []int
	var scanErr error
	require.Eventually(t, func() bool {
		ids = ids[:0]
		for b := range int32(3) {
			rows, err := tb.LimitScan(ctx, "", b, 1000)
			if scanErr = err; err != nil {
				return false
			}
			for _, r := range rows {
				id := int(r[0].(int32))
				if !assert.Equal(t, userRow(id, "v"), r) {
					return true
				}
				ids = append(ids, id)
			}
		}
		return len(ids) == 99
	}, 20*time.Second, 100*time.Millisecond, "limit scans saw %d rows (last error %v)", len(ids), scanErr)
	sort.Ints(ids)
	want := make([]int, 0, 99)
	for id := range 100 {
		if id != 7 {
			want = append(want, id)
		}
	}
	assert.Equal(t, want, ids)

	for b := range int32(3) {
		rows, err := tb.LimitScan(ctx, "", b, 3)
		require.NoError(t, err)
		assert.Len(t, rows, 3)
	}

	_, err := tb.LimitScan(ctx, "", 3, 10)
	require.ErrorIs(t, err, flusserr.UnknownTableOrBucketException)
	_, err = tb.LimitScan(ctx, "", 0, 0)
	require.ErrorContains(t, err, "limit 0")
	_, err = tb.LimitScan(ctx, "p1", 0, 10)
	require.ErrorIs(t, err, flusserr.TableNotPartitionedException)

	// A scan of every key needs SCAN_KV, which Fluss 1.0 added: a 0.9 server
	// is refused naming the API and the server's release line; a 1.0 server
	// returns every current row (TestKvScanner* test it further).
	s, err := tb.NewKvScanner(ctx, fluss.KvScanOptions{})
	if v := serverVersion(t, c); v.AtLeast(1, 0) {
		require.NoError(t, err)
		defer s.Close()
		rows, _, err := drainKv(ctx, s)
		require.NoError(t, err)
		assert.Len(t, rows, 99)
	} else {
		require.ErrorIs(t, err, fluss.ErrUnsupportedByServer)
		assert.ErrorContains(t, err, "it needs the SCAN_KV(1061) API, which Fluss 1.0 added")
		assert.ErrorContains(t, err, "(it speaks Fluss "+v.String()+", older than 1.0)")
		assert.Nil(t, s)
	}
}

// TestPrefixLookup finds all rows of a tenant in a table whose bucket key
// (tenant) is a prefix of its primary key (tenant, id).
func TestPrefixLookup(t *testing.T) {
	c := connect(t)
	ctx := testCtx(t)
	db := tempDatabase(t, c.Admin())
	path := fluss.TablePath{Database: db, Table: "orders"}
	desc := fluss.TableDescriptor{
		Schema: types.Schema{
			Columns: []types.Column{
				{Name: "tenant", Type: types.NewInt().AsNotNull()},
				{Name: "id", Type: types.NewBigInt().AsNotNull()},
				{Name: "item", Type: types.NewString()},
			},
			PrimaryKey: []string{"tenant", "id"},
		},
		BucketKeys:  []string{"tenant"},
		BucketCount: 4,
	}
	require.NoError(t, c.Admin().CreateTable(ctx, path, desc, false))
	tb := openTable(t, c, path)
	w := newUpsertWriter(t, tb, fluss.UpsertWriterOptions{})
	want := map[int32][][]any{}
	for tenant := int32(1); tenant <= 5; tenant++ {
		for id := int64(0); id < int64(tenant)*3; id++ {
			r := []any{tenant, id, fmt.Sprintf("t%d-%d", tenant, id)}
			require.NoError(t, w.Upsert(ctx, r))
			want[tenant] = append(want[tenant], r)
		}
	}
	require.NoError(t, w.Flush(ctx))

	p, err := tb.NewPrefixLookuper(nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"tenant"}, p.LookupColumns())
	rows, err := p.Lookup(ctx, []any{int32(2)})
	require.NoError(t, err)
	assert.ElementsMatch(t, want[2], rows)

	all, err := p.LookupMany(ctx, [][]any{{int32(1)}, {int32(5)}, {int32(42)}})
	require.NoError(t, err)
	assert.ElementsMatch(t, want[1], all[0])
	assert.ElementsMatch(t, want[5], all[1])
	assert.Empty(t, all[2])

	_, err = tb.NewPrefixLookuper([]string{"id"})
	require.ErrorContains(t, err, "must be the bucket key")
	// A table whose bucket key is its whole primary key has no prefix lookup.
	_, err = openTable(t, c, createUsersTable(t, c, 1)).NewPrefixLookuper(nil)
	require.ErrorContains(t, err, "use a Lookuper")
}
