package executor

import (
	"context"
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/engine"
	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/types"
)

// mergeTable is a primary-key table (k1 STRING, k2 INT, v BIGINT), key (k1, k2).
func mergeTable() *fluss.TableInfo {
	info := &fluss.TableInfo{}
	info.Descriptor.Schema = types.Schema{Columns: []types.Column{
		{Name: "k1", Type: types.NewString()}, {Name: "k2", Type: types.NewInt()}, {Name: "v", Type: types.NewBigInt()},
	}, PrimaryKey: []string{"k1", "k2"}}
	return info
}

// mergeBatch builds a batch of rows (k1, k2, v) of mergeTable.
func mergeBatch(t testing.TB, rows [][]any) arrow.RecordBatch {
	b, err := fluss.NewArrowRowBuilder(nil, mergeTable().Schema().Columns)
	require.NoError(t, err)
	defer b.Release()
	for _, r := range rows {
		require.NoError(t, b.Append(r))
	}
	return b.NewRecordBatch()
}

// TestLakeMerge: the latest change of a key wins over its lake row, a deleted key has no row,
// and composite keys whose concatenated text is equal ("a","bc" / "ab","c") stay apart.
func TestLakeMerge(t *testing.T) {
	budget := &engine.Budget{}
	m, err := newLakeMerge(mergeTable(), []int{0, 1, 2}, budget)
	require.NoError(t, err)
	log := &fluss.ScanBatch{Record: mergeBatch(t, [][]any{
		{"a", int32(1), int64(10)}, {"a", int32(1), int64(10)}, {"a", int32(1), int64(11)}, // update of a/1
		{"b", int32(2), int64(20)}, // delete of b/2
		{"new", int32(9), int64(90)},
		{"x", int32(7), int64(70)}, {"x", int32(7), int64(71)}, // deleted, then inserted again
	}), ChangeTypes: []fluss.ChangeType{fluss.Insert, fluss.UpdateBefore, fluss.UpdateAfter, fluss.Delete, fluss.Insert, fluss.Delete, fluss.Insert}}
	require.NoError(t, m.addChanges(log))
	log.Release()
	assert.Positive(t, budget.Used(), "the changed keys count in the budget")

	lake := mergeBatch(t, [][]any{
		{"a", int32(1), int64(1)}, {"b", int32(2), int64(2)}, {"ab", int32(0), int64(3)}, {"x", int32(7), int64(4)}, {"keep", int32(5), int64(5)},
	})
	kept, err := m.dropChanged(context.Background(), lake)
	require.NoError(t, err)
	got := rowsOf(t, kept)
	kept.Release()
	assert.ElementsMatch(t, []string{"ab/0/3", "keep/5/5"}, got, "the lake rows of unchanged keys")
	var changed []string
	for {
		rec, err := m.nextChanged()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
		changed = append(changed, rowsOf(t, rec)...)
		rec.Release()
	}
	assert.ElementsMatch(t, []string{"a/1/11", "new/9/90", "x/7/71"}, changed, "the latest change of every key that has a row")
	m.release()
	assert.Zero(t, budget.Used(), "release gives the bytes back")

	m, err = newLakeMerge(mergeTable(), []int{0, 1, 2}, nil)
	require.NoError(t, err)
	keyOf := func(rec arrow.RecordBatch) string {
		require.NoError(t, m.bindKeys(rec))
		return string([]byte(m.key(0)))
	}
	k1 := keyOf(mergeBatch(t, [][]any{{"a", int32(1), nil}}))
	assert.NotEqual(t, k1, keyOf(mergeBatch(t, [][]any{{"a\x00", int32(1), nil}})))

	_, err = newLakeMerge(mergeTable(), []int{0, 2}, nil)
	assert.ErrorContains(t, err, "primary key column k2")
}

func rowsOf(t testing.TB, rec arrow.RecordBatch) []string {
	var out []string
	ts := []types.DataType{types.NewString(), types.NewInt(), types.NewBigInt()}
	for i := range int(rec.NumRows()) {
		vals, err := fluss.RowValues(rec, ts, i)
		require.NoError(t, err)
		out = append(out, fmt.Sprintf("%v/%v/%v", vals[0], vals[1], vals[2]))
	}
	return out
}

// BenchmarkLakeMerge: a union read's merge of 100,000 changed keys with a lake of 1,000,000
// rows (8,192 a batch): b.N times the changelog taken in and the lake filtered; reports the
// state's bytes per changed key as the budget counts them. Run it alone: on a loaded machine
// ns/op is mostly the wait for a core (compare the CPU profile's samples).
func BenchmarkLakeMerge(b *testing.B) {
	const changes, lakeRows, batch = 100_000, 1_000_000, 8192
	mk := func(from, to, stride int, v int64) arrow.RecordBatch {
		rows := make([][]any, 0, to-from)
		for i := from; i < to; i++ {
			k := i * stride
			rows = append(rows, []any{fmt.Sprintf("key-%07d", k), int32(k % 16), v})
		}
		return mergeBatch(b, rows)
	}
	var logs, lake []arrow.RecordBatch
	for i := 0; i < changes; i += batch {
		logs = append(logs, mk(i, min(i+batch, changes), lakeRows/changes, 1)) // every tenth lake key changed
	}
	for i := 0; i < lakeRows; i += batch {
		lake = append(lake, mk(i, min(i+batch, lakeRows), 1, 0))
	}
	b.ResetTimer()
	var held int64
	for range b.N {
		budget := &engine.Budget{}
		m, err := newLakeMerge(mergeTable(), []int{0, 1, 2}, budget)
		require.NoError(b, err)
		for _, l := range logs {
			l.Retain()
			sb := &fluss.ScanBatch{Record: l}
			require.NoError(b, m.addChanges(sb))
			sb.Release()
		}
		held = budget.Used()
		for _, l := range lake {
			l.Retain()
			out, err := m.dropChanged(context.Background(), l)
			require.NoError(b, err)
			out.Release()
		}
		m.release()
	}
	b.ReportMetric(float64(held)/changes, "B/changed-key")
}
