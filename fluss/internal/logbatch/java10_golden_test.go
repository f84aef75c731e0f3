package logbatch

import (
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/types"
)

// TestJava10StatisticsBatch decodes testdata/golden/java10_stats_v1.bin: a
// batch the official Java client 1.0.0 wrote (AppendWriter, rows
// (id, "java-" + id, id*3)) into a table with 'table.statistics.columns' =
// '*', as the Fluss 1.0 server returned it in a FetchLog answer (captured
// by TestJavaInteropStatistics' table). It is magic 1 with statistics of
// the three columns; the rows and the statistics must agree with what the
// Java side wrote.
func TestJava10StatisticsBatch(t *testing.T) {
	buf := readGolden(t, "java10_stats_v1.bin")
	batches, err := DecodeBatches(buf, DecodeOptions{})
	require.NoError(t, err, "CRC and layout")
	require.Len(t, batches, 1)
	b := batches[0]
	assert.Equal(t, MagicV1, b.Magic)
	assert.Equal(t, NoLeaderEpoch, b.LeaderEpoch)
	assert.Positive(t, b.StatisticsLength)
	assert.Positive(t, b.CommitTimestamp, "stamped by the server")
	assert.True(t, b.AppendOnly())

	s := types.Schema{Columns: []types.Column{
		{Name: "id", Type: types.NewInt()}, {Name: "name", Type: types.NewString()}, {Name: "value", Type: types.NewBigInt()},
	}}
	ts, _ := statsColumns(s)
	st, err := ParseStatistics(b.Statistics(), ts)
	require.NoError(t, err)

	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dec, err := NewArrowDecoder(arrowSchema(t, s, nil), WithAllocator(mem))
	require.NoError(t, err)
	defer dec.Close()
	r, err := dec.Decode(b)
	require.NoError(t, err)
	defer r.Release()
	require.Equal(t, int(b.RecordCount), int(r.Record.NumRows()))
	ids := r.Record.Column(0).(*array.Int32)
	names := r.Record.Column(1).(*array.String)
	vals := r.Record.Column(2).(*array.Int64)
	for i := 0; i < ids.Len(); i++ {
		id := ids.Value(i)
		require.Equal(t, fmt.Sprintf("java-%d", id), names.Value(i), "row %d", i)
		require.Equal(t, int64(id)*3, vals.Value(i), "row %d", i)
	}
	assert.Equal(t, scanStats(t, r.Record, []int{0, 1, 2}), st, "Java's statistics are min/max/null count of the rows")

	// Our encoder writes the same statistics bytes for these rows.
	again, err := EncodeStatistics(nil, ts, st)
	require.NoError(t, err)
	assert.Equal(t, b.Statistics(), again)
}
