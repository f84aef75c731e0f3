package fluss_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/flusserr"
	"github.com/flussql/flussql/fluss/types"
)

func newUpsertWriter(t *testing.T, tb *fluss.Table, opts fluss.UpsertWriterOptions) *fluss.UpsertWriter {
	t.Helper()
	w, err := tb.NewUpsertWriter(testCtx(t), opts)
	require.NoError(t, err)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_ = w.Close(ctx)
	})
	return w
}

// TestUpsertOverwriteDeletePartial writes, overwrites, deletes and
// partially updates rows, and checks after each step that lookups see the
// latest state.
func TestUpsertOverwriteDeletePartial(t *testing.T) {
	c := connect(t)
	ctx := testCtx(t)
	path := createUsersTable(t, c, 4)
	tb := openTable(t, c, path)
	w := newUpsertWriter(t, tb, fluss.UpsertWriterOptions{})
	l := newLookuper(t, c, path)

	// insert 1..300
	for id := 1; id <= 300; id++ {
		require.NoError(t, w.Upsert(ctx, userRow(id, "v1")))
	}
	require.NoError(t, w.Flush(ctx))
	for _, id := range []int{1, 150, 300} {
		row, found, err := l.Lookup(ctx, []any{int32(id)})
		require.NoError(t, err)
		require.True(t, found)
		assert.Equal(t, userRow(id, "v1"), row)
	}

	// overwrite 1..100 (twice: the last write wins), delete 101..150,
	// delete a key that never existed
	for id := 1; id <= 100; id++ {
		require.NoError(t, w.Upsert(ctx, userRow(id, "v2")))
		require.NoError(t, w.Upsert(ctx, userRow(id, "v3")))
	}
	for id := 101; id <= 150; id++ {
		require.NoError(t, w.DeleteKey(ctx, []any{int32(id)}))
	}
	require.NoError(t, w.Delete(ctx, userRow(9999, "none")))
	require.NoError(t, w.Flush(ctx))

	keys := make([][]any, 300)
	for i := range keys {
		keys[i] = []any{int32(i + 1)}
	}
	rows, err := l.LookupMany(ctx, keys)
	require.NoError(t, err)
	for i, r := range rows {
		id := i + 1
		switch {
		case id <= 100:
			assert.Equal(t, userRow(id, "v3"), r, "id %d overwritten", id)
		case id <= 150:
			assert.Nil(t, r, "id %d deleted", id)
		default:
			assert.Equal(t, userRow(id, "v1"), r, "id %d untouched", id)
		}
	}

	// partial update of score only (key included): name keeps its value;
	// a partial update of a missing key inserts it with NULL name.
	pw := newUpsertWriter(t, tb, fluss.UpsertWriterOptions{TargetColumns: []string{"id", "score"}})
	assert.Equal(t, []string{"id", "score"}, pw.TargetColumns())
	require.NoError(t, pw.Upsert(ctx, []any{int32(200), "ignored", int64(-1)}))
	require.NoError(t, pw.Upsert(ctx, []any{int32(5000), nil, int64(5)}))
	require.NoError(t, pw.Flush(ctx))
	row, found, err := l.Lookup(ctx, []any{int32(200)})
	require.NoError(t, err)
	require.True(t, found)
	assert.Equal(t, []any{int32(200), "v1-200", int64(-1)}, row)
	row, found, err = l.Lookup(ctx, []any{int32(5000)})
	require.NoError(t, err)
	require.True(t, found)
	assert.Equal(t, []any{int32(5000), nil, int64(5)}, row)
}

// TestUpsertWriterRejects checks the errors raised before anything is sent.
func TestUpsertWriterRejects(t *testing.T) {
	c := connect(t)
	ctx := testCtx(t)
	path := createUsersTable(t, c, 1)
	tb := openTable(t, c, path)

	_, err := tb.NewUpsertWriter(ctx, fluss.UpsertWriterOptions{TargetColumns: []string{"name"}})
	require.ErrorContains(t, err, `primary-key column "id"`)
	_, err = tb.NewUpsertWriter(ctx, fluss.UpsertWriterOptions{TargetColumns: []string{"id", "nope"}})
	require.ErrorContains(t, err, `no column "nope"`)

	w := newUpsertWriter(t, tb, fluss.UpsertWriterOptions{})
	err = w.Upsert(ctx, []any{nil, "x", int64(1)})
	require.ErrorContains(t, err, `"id"`)
	require.ErrorContains(t, err, "NULL")
	require.ErrorContains(t, w.Upsert(ctx, []any{int32(1), "x"}), "got 2 values for 3 columns")
	require.ErrorContains(t, w.Upsert(ctx, []any{int32(1), 5, int64(1)}), "string")
	require.NoError(t, w.Flush(ctx))

	logPath := fluss.TablePath{Database: path.Database, Table: "events"}
	desc := fluss.TableDescriptor{Schema: usersSchema()}
	desc.Schema.PrimaryKey = nil
	require.NoError(t, c.Admin().CreateTable(ctx, logPath, desc, false))
	_, err = openTable(t, c, logPath).NewUpsertWriter(ctx, fluss.UpsertWriterOptions{})
	require.ErrorIs(t, err, flusserr.NonPrimaryKeyTableException)

	// Partial updates need nullable non-key columns.
	strict := fluss.TablePath{Database: path.Database, Table: "strict"}
	sd := fluss.TableDescriptor{Schema: usersSchema()}
	sd.Schema.Columns[2].Type = types.NewBigInt().AsNotNull()
	require.NoError(t, c.Admin().CreateTable(ctx, strict, sd, false))
	_, err = openTable(t, c, strict).NewUpsertWriter(ctx, fluss.UpsertWriterOptions{TargetColumns: []string{"id", "name"}})
	require.ErrorContains(t, err, `"score" is NOT NULL`)
}
