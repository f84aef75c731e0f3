package fluss_test

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/flusserr"
)

// TestLookupFindsRowsWrittenByPyfluss upserts rows with the official Python
// client and finds each one with Lookup and LookupMany. One bucket: with
// more, pyfluss puts some small keys in other buckets than Java (see
// TestInteropBucketingOfPyfluss).
func TestLookupFindsRowsWrittenByPyfluss(t *testing.T) {
	c := connect(t)
	ctx := testCtx(t)
	path := createUsersTable(t, c, 1)
	var w struct{ Written int }
	runPyKV(t, &w, "upsert", "--db", path.Database, "--table", path.Table, "--start", "0", "--count", "2000")
	require.Equal(t, 2000, w.Written)

	l := newLookuper(t, c, path)
	assert.Equal(t, []string{"id"}, l.KeyColumns())

	for _, id := range []int{0, 1, 127, 128, 200, 1000, 1999} {
		row, found, err := l.Lookup(ctx, []any{int32(id)})
		require.NoError(t, err)
		require.True(t, found, "id %d", id)
		assert.Equal(t, userRow(id, "name"), row)
	}

	row, found, err := l.Lookup(ctx, []any{int32(5000)})
	require.NoError(t, err)
	assert.False(t, found)
	assert.Nil(t, row)

	keys := make([][]any, 0, 2100)
	for id := range 2100 {
		keys = append(keys, []any{int32(id)})
	}
	rows, err := l.LookupMany(ctx, keys)
	require.NoError(t, err)
	require.Len(t, rows, len(keys))
	for id, r := range rows {
		if id < 2000 {
			require.Equal(t, userRow(id, "name"), r, "id %d", id)
		} else {
			require.Nil(t, r, "id %d was never written", id)
		}
	}
}

// TestLookupRejectsBadKeys checks the errors a caller sees before anything
// is sent: a NULL key column, a key of the wrong arity or Go type, and a
// log table.
func TestLookupRejectsBadKeys(t *testing.T) {
	c := connect(t)
	ctx := testCtx(t)
	path := createUsersTable(t, c, 2)
	l := newLookuper(t, c, path)

	for _, tc := range []struct {
		name string
		key  []any
		want string
	}{
		{"null", []any{nil}, `"id"`},
		{"arity", []any{int32(1), "x"}, "got 2 values for the 1 columns (id)"},
		{"go type", []any{1}, "int32"},
		{"string for int", []any{strconv.Itoa(1)}, `"id"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := l.Lookup(ctx, tc.key)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}

	logPath := fluss.TablePath{Database: path.Database, Table: "events"}
	desc := fluss.TableDescriptor{Schema: usersSchema()}
	desc.Schema.PrimaryKey = nil
	require.NoError(t, c.Admin().CreateTable(ctx, logPath, desc, false))
	_, err := openTable(t, c, logPath).NewLookuper()
	require.ErrorIs(t, err, flusserr.NonPrimaryKeyTableException)
}
