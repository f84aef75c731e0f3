package fluss_test

import (
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss"
)

// TestChangelogOfScriptedSequence writes a scripted sequence of upserts,
// deletes and a partial update to a one-bucket primary-key table and reads
// the table's changelog with the log scanner: each step must show up as
// +I, -U/+U or -D with the old and new values.
func TestChangelogOfScriptedSequence(t *testing.T) {
	c := connect(t)
	ctx := testCtx(t)
	path := createUsersTable(t, c, 1)
	tb := openTable(t, c, path)
	w := newUpsertWriter(t, tb, fluss.UpsertWriterOptions{})
	pw := newUpsertWriter(t, tb, fluss.UpsertWriterOptions{TargetColumns: []string{"id", "score"}})

	row := func(id int32, name any, score int64) []any { return []any{id, name, score} }
	require.NoError(t, w.Upsert(ctx, row(1, "a", 10)))
	require.NoError(t, w.Upsert(ctx, row(2, "b", 20)))
	require.NoError(t, w.Upsert(ctx, row(1, "a2", 11)))
	require.NoError(t, w.DeleteKey(ctx, []any{int32(2)}))
	require.NoError(t, w.DeleteKey(ctx, []any{int32(99)})) // no such key: no change
	require.NoError(t, w.Flush(ctx))
	require.NoError(t, pw.Upsert(ctx, []any{int32(1), nil, int64(12)}))
	require.NoError(t, pw.Flush(ctx))
	require.NoError(t, w.Upsert(ctx, row(2, "c", 30)))
	require.NoError(t, w.Flush(ctx))

	want := []string{
		"+I [1 a 10]",
		"+I [2 b 20]",
		"-U [1 a 10]",
		"+U [1 a2 11]",
		"-D [2 b 20]",
		"-U [1 a2 11]",
		"+U [1 a2 12]",
		"+I [2 c 30]",
	}

	s, err := tb.NewLogScanner(fluss.ScannerOptions{Bounded: true})
	require.NoError(t, err)
	defer s.Close()
	require.NoError(t, s.Subscribe(ctx, 0, fluss.EarliestOffset))
	types := tb.Info().Schema().Columns
	var got []string
	for {
		b, err := s.Poll(ctx)
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
		for i := range b.NumRows() {
			vals, err := fluss.RowValues(b.Record, colTypes(types), i)
			require.NoError(t, err)
			got = append(got, fmt.Sprintf("%s %v", b.ChangeType(i), vals))
		}
		b.Release()
	}
	require.Equal(t, want, got)
}
