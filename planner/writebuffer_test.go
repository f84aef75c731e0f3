package planner

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// userArgs are the arguments of row i of partitioned_users (user_id, region, score).
func userArgs(i int) []Arg {
	return []Arg{{Ordinal: 1, Value: i}, {Ordinal: 2, Value: "US"}, {Ordinal: 3, Value: int64(i * 10)}}
}

// rowsOf flattens the buffer's writes into their rows' values, checking that each write is
// the plan's table and mode, bound.
func rowsOf(t *testing.T, b *WriteBuffer) [][]any {
	t.Helper()
	var out [][]any
	for _, w := range b.Writes() {
		assert.True(t, w.Bound())
		assert.Same(t, b.Plan().Table, w.Table)
		assert.Equal(t, b.Plan().Mode, w.Mode)
		for _, r := range w.Rows {
			out = append(out, r.Any())
		}
	}
	return out
}

// A prepared one-row INSERT added many times: the rows Bind would give, in order, across
// chunks; a failed Add (bad argument, NULL key, wrong count) adds nothing and later Adds go on.
func TestWriteBufferRowsAsBindGivesThem(t *testing.T) {
	p := build(t, "INSERT INTO partitioned_users VALUES (?, ?, ?)").(*Write)
	b := NewWriteBuffer(p)
	var want [][]any
	for i := range 2*bufferChunk + 100 {
		switch i {
		case 7:
			_, err := b.Add([]Arg{{Ordinal: 1, Value: "x"}, {Ordinal: 2, Value: "US"}, {Ordinal: 3, Value: 1}})
			require.ErrorContains(t, err, "argument ?1")
		case 1500:
			_, err := b.Add([]Arg{{Ordinal: 1, Value: nil}, {Ordinal: 2, Value: "US"}, {Ordinal: 3, Value: 1}})
			require.ErrorContains(t, err, "cannot be NULL")
		case 2000:
			_, err := b.Add(userArgs(i)[:2])
			require.ErrorContains(t, err, "want 3 arguments, got 2")
		}
		added, err := b.Add(userArgs(i))
		require.NoError(t, err)
		require.Len(t, added, 1)
		assert.Equal(t, "US", added[0].Partition())
		bound, err := Bind(p, userArgs(i))
		require.NoError(t, err)
		assert.Equal(t, bound.(*Write).Rows[0].Any(), added[0].Any())
		want = append(want, bound.(*Write).Rows[0].Any())
	}
	assert.Equal(t, len(want), b.Len())
	assert.Len(t, b.Writes(), 3)
	assert.Equal(t, want, rowsOf(t, b))
}

// A multi-row plan adds all its rows or, when one is wrong, none.
func TestWriteBufferMultiRow(t *testing.T) {
	p := build(t, "INSERT INTO partitioned_users VALUES (?, 'US', ?), (?, 'EU', ?)").(*Write)
	b := NewWriteBuffer(p)
	added, err := b.Add([]Arg{{Ordinal: 1, Value: 1}, {Ordinal: 2, Value: 10}, {Ordinal: 3, Value: 2}, {Ordinal: 4, Value: 20}})
	require.NoError(t, err)
	require.Len(t, added, 2)
	assert.Equal(t, []string{"US", "EU"}, []string{added[0].Partition(), added[1].Partition()})
	_, err = b.Add([]Arg{{Ordinal: 1, Value: 3}, {Ordinal: 2, Value: 30}, {Ordinal: 3, Value: "four"}, {Ordinal: 4, Value: 40}})
	require.ErrorContains(t, err, "row 2: argument ?3")
	assert.Equal(t, 2, b.Len())
	assert.Equal(t, [][]any{{int32(1), "US", int64(10)}, {int32(2), "EU", int64(20)}}, rowsOf(t, b))
}

// A plan without placeholders (bound by Build) adds its rows as they are.
func TestWriteBufferConstantRows(t *testing.T) {
	b := NewWriteBuffer(build(t, "INSERT INTO partitioned_users VALUES (1, 'US', 10)").(*Write))
	for range 3 {
		_, err := b.Add(nil)
		require.NoError(t, err)
	}
	_, err := b.Add([]Arg{{Ordinal: 1, Value: 1}})
	require.ErrorContains(t, err, "arguments")
	assert.Equal(t, [][]any{{int32(1), "US", int64(10)}, {int32(1), "US", int64(10)}, {int32(1), "US", int64(10)}}, rowsOf(t, b))
}
