package fluss_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss"
)

// TestSeedPartitionedUsers runs the seed's partitioned_users example with
// pyfluss, finds its row with flussql, writes more rows with flussql and
// finds them with pyfluss; a missing partition is "not found" for lookups
// and a clear error (or an automatic creation) for writes.
func TestSeedPartitionedUsers(t *testing.T) {
	c := connect(t)
	ctx := testCtx(t)
	db := tempDatabase(t, c.Admin())
	var seed struct{ Lookup map[string]any }
	runPyKV(t, &seed, "seed-partitioned-users", "--db", db, "--table", "partitioned_users")
	require.Equal(t, map[string]any{"user_id": 1.0, "region": "US", "score": 1234.0}, seed.Lookup)

	path := fluss.TablePath{Database: db, Table: "partitioned_users"}
	tb := openTable(t, c, path)
	l, err := tb.NewLookuper()
	require.NoError(t, err)
	assert.Equal(t, []string{"user_id", "region"}, l.KeyColumns())

	row, found, err := l.Lookup(ctx, []any{int32(1), "US"})
	require.NoError(t, err)
	require.True(t, found)
	assert.Equal(t, []any{int32(1), "US", int64(1234)}, row)

	_, found, err = l.Lookup(ctx, []any{int32(1), "EU"})
	require.NoError(t, err, "a partition that does not exist means not found")
	assert.False(t, found)
	_, _, err = l.Lookup(ctx, []any{int32(1), nil})
	require.ErrorContains(t, err, `"region"`)

	w := newUpsertWriter(t, tb, fluss.UpsertWriterOptions{})
	require.NoError(t, w.Upsert(ctx, []any{int32(2), "US", int64(99)}))
	require.NoError(t, w.Upsert(ctx, []any{int32(1), "US", int64(4321)}))
	require.NoError(t, w.Flush(ctx))
	keys, _ := json.Marshal([][]any{{1, "US"}, {2, "US"}, {3, "US"}})
	var py struct{ Rows []map[string]any }
	runPyKV(t, &py, "lookup-partitioned-users", "--db", db, "--table", path.Table, "--keys", string(keys))
	assert.Equal(t, []map[string]any{
		{"user_id": 1.0, "region": "US", "score": 4321.0},
		{"user_id": 2.0, "region": "US", "score": 99.0},
		nil,
	}, py.Rows)

	// No partition EU: a writer that does not wait fails at once, naming
	// the statement that creates it.
	strict := newUpsertWriter(t, tb, fluss.UpsertWriterOptions{WriterOptions: fluss.WriterOptions{MissingPartitionTimeout: -1}})
	start := time.Now()
	err = strict.Upsert(ctx, []any{int32(3), "EU", int64(1)})
	require.ErrorIs(t, err, fluss.ErrPartitionNotExists)
	var pne *fluss.PartitionNotExistError
	require.ErrorAs(t, err, &pne)
	assert.Equal(t, []string{"region"}, pne.Keys)
	assert.Equal(t, []string{"EU"}, pne.Values)
	assert.Less(t, time.Since(start), 5*time.Second)

	auto := newUpsertWriter(t, tb, fluss.UpsertWriterOptions{WriterOptions: fluss.WriterOptions{AutoCreatePartitions: true}})
	require.NoError(t, auto.Upsert(ctx, []any{int32(3), "EU", int64(7)}))
	require.NoError(t, auto.Flush(ctx))
	rows, err := l.LookupMany(ctx, [][]any{{int32(3), "EU"}, {int32(3), "US"}, {int32(2), "US"}})
	require.NoError(t, err)
	assert.Equal(t, [][]any{{int32(3), "EU", int64(7)}, nil, {int32(2), "US", int64(99)}}, rows)

	// delete in a partition
	require.NoError(t, auto.DeleteKey(ctx, []any{int32(3), "EU"}))
	require.NoError(t, auto.Flush(ctx))
	_, found, err = l.Lookup(ctx, []any{int32(3), "EU"})
	require.NoError(t, err)
	assert.False(t, found)
}
