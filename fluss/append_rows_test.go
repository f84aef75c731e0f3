package fluss_test

import (
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/datum"
	"github.com/flussql/flussql/fluss/types"
)

// TestArrowRowBuilderRoundTrip converts the type matrix to Arrow and back
// without a cluster.
func TestArrowRowBuilderRoundTrip(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	cols := matrixColumns()
	b, err := fluss.NewArrowRowBuilder(mem, cols)
	require.NoError(t, err)
	defer b.Release()
	for i := 0; i < 30; i++ {
		require.NoError(t, b.Append(matrixRow(i)))
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	want, err := types.ToArrowSchema(types.Schema{Columns: cols})
	require.NoError(t, err)
	assert.True(t, rec.Schema().Equal(want), "records carry Fluss's Arrow schema")
	for i := 0; i < 30; i++ {
		got, err := fluss.RowValues(rec, columnTypes(cols), i)
		require.NoError(t, err)
		assert.Equal(t, matrixRow(i), got, "row %d", i)
	}
}

// TestArrowUnits checks the Arrow values Fluss's Java writers produce for
// TIME and TIMESTAMP precisions, DECIMAL scale and BINARY padding.
func TestArrowUnits(t *testing.T) {
	cols := []types.Column{
		{Name: "t0", Type: types.NewTime(0)},
		{Name: "t6", Type: types.NewTime(6)},
		{Name: "ts0", Type: types.NewTimestamp(0)},
		{Name: "ts6", Type: types.NewTimestamp(6)},
		{Name: "ltz9", Type: types.NewTimestampLTZ(9)},
		{Name: "d", Type: types.NewDecimal(6, 3)},
		{Name: "bin", Type: types.NewBinary(3)},
	}
	b, err := fluss.NewArrowRowBuilder(nil, cols)
	require.NoError(t, err)
	defer b.Release()
	require.NoError(t, b.Append([]any{
		datum.Time(12_345), datum.Time(12_345),
		datum.TimestampNTZ{Millis: -1500}, datum.TimestampNTZ{Millis: 1, NanoOfMilli: 2_345},
		datum.TimestampLTZ{EpochMillis: 1, NanoOfMilli: 2_345},
		datum.NewDecimal(15, 1), []byte{7},
	}))
	rec := b.NewRecordBatch()
	defer rec.Release()
	assert.Equal(t, arrow.Time32(12), rec.Column(0).(*array.Time32).Value(0), "TIME(0): seconds, truncated")
	assert.Equal(t, arrow.Time64(12_345_000), rec.Column(1).(*array.Time64).Value(0), "TIME(6): micros")
	assert.Equal(t, arrow.Timestamp(-1), rec.Column(2).(*array.Timestamp).Value(0), "TIMESTAMP(0): millis/1000 toward zero, as Java")
	assert.Equal(t, arrow.Timestamp(1002), rec.Column(3).(*array.Timestamp).Value(0), "TIMESTAMP(6): micros")
	assert.Equal(t, arrow.Timestamp(1_002_345), rec.Column(4).(*array.Timestamp).Value(0), "TIMESTAMP_LTZ(9): nanos")
	assert.Equal(t, int64(1500), int64(rec.Column(5).(*array.Decimal128).Value(0).LowBits()), "DECIMAL unscaled at the column's scale")
	assert.Equal(t, []byte{7, 0, 0}, rec.Column(6).(*array.FixedSizeBinary).Value(0), "BINARY(n) zero-padded")

	for _, bad := range [][]any{
		{datum.Time(1), nil, nil, nil, nil, datum.NewDecimal(1234567, 3), nil},     // too many digits
		{datum.Time(1), nil, nil, nil, nil, datum.NewDecimal(1, 4), nil},           // would round
		{datum.Time(1), nil, nil, nil, nil, nil, []byte{1, 2, 3, 4}},               // too long
		{time.Now(), nil, nil, nil, nil, nil, nil},                                 // not the value model
		{nil, nil, datum.TimestampNTZ{NanoOfMilli: 1_000_000}, nil, nil, nil, nil}, // nano out of range
	} {
		assert.Error(t, b.Append(bad), "%v", bad)
	}
	rec2 := b.NewRecordBatch()
	defer rec2.Release()
	assert.Zero(t, rec2.NumRows(), "rejected rows add nothing")
}
