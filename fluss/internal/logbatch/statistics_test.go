package logbatch

import (
	"encoding/hex"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/types"
)

// statsColumns returns the columns of s this package keeps statistics for.
func statsColumns(s types.Schema) ([]types.DataType, []int) {
	ts := make([]types.DataType, len(s.Columns))
	var cols []int
	for i, c := range s.Columns {
		ts[i] = c.Type
		if StatisticsSupported(c.Type) {
			cols = append(cols, i)
		}
	}
	return ts, cols
}

// TestStatisticsBatchRoundTrip writes MagicV1 and MagicV2 batches with
// statistics of random records (NULLs included) and reads back the same rows,
// the statistics a scan over the rows gives, and a verified CRC.
func TestStatisticsBatchRoundTrip(t *testing.T) {
	s := scalarSchema()
	ts, cols := statsColumns(s)
	for _, magic := range []int8{MagicV1, MagicV2} {
		for _, changelog := range []bool{false, true} {
			t.Run(fmt.Sprintf("magic%d/changelog=%v", magic, changelog), func(t *testing.T) {
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				defer mem.AssertSize(t, 0)
				as := arrowSchema(t, s, nil)
				rec := randomRecord(t, mem, as, 40, uint64(magic))
				defer rec.Release()
				var cts []ChangeType
				if changelog {
					for i := 0; i < 40; i++ {
						cts = append(cts, ChangeType(1+i%4))
					}
				}
				st, err := ComputeStatistics(rec, ts, cols)
				require.NoError(t, err)
				stats, err := EncodeStatistics(nil, ts, st)
				require.NoError(t, err)
				enc, err := NewArrowEncoder(as, CompressionZstd, WithAllocator(mem))
				require.NoError(t, err)
				h := Header{Magic: magic, SchemaID: 2, WriterID: NoWriterID, BatchSequence: NoBatchSequence, LeaderEpoch: 9}
				buf, err := enc.AppendBatchWithStatistics(nil, h, stats, rec, cts)
				require.NoError(t, err)
				require.NoError(t, enc.Close())

				batches, err := DecodeBatches(buf, DecodeOptions{})
				require.NoError(t, err)
				require.Len(t, batches, 1)
				b := batches[0]
				assert.Equal(t, magic, b.Magic)
				assert.Equal(t, int32(len(stats)), b.StatisticsLength)
				assert.Equal(t, stats, b.Statistics())
				if magic == MagicV2 {
					assert.Equal(t, int32(9), b.LeaderEpoch)
				} else {
					assert.Equal(t, NoLeaderEpoch, b.LeaderEpoch)
				}
				got, err := ParseStatistics(b.Statistics(), ts)
				require.NoError(t, err)
				assert.Equal(t, scanStats(t, rec, cols), got)

				dec, err := NewArrowDecoder(as, WithAllocator(mem))
				require.NoError(t, err)
				defer dec.Close()
				r, err := dec.Decode(b)
				require.NoError(t, err)
				defer r.Release()
				assert.Equal(t, cts, r.ChangeTypes)
				assertSameRecord(t, rec, r.Record)
			})
		}
	}
}

// scanStats is the plain definition of the statistics, to check
// ComputeStatistics against: min and max of the formatted non-null values in
// the column's natural order, and the NULL count.
func scanStats(t *testing.T, rec arrow.RecordBatch, cols []int) []ColumnStats {
	out := make([]ColumnStats, len(cols))
	for i, c := range cols {
		out[i].Column = c
		a := rec.Column(c)
		for r := 0; r < a.Len(); r++ {
			if a.IsNull(r) {
				out[i].NullCount++
				continue
			}
			v := valueAt(t, a, r)
			if out[i].Min == nil || less(v, out[i].Min) {
				out[i].Min = v
			}
			if out[i].Max == nil || less(out[i].Max, v) {
				out[i].Max = v
			}
		}
	}
	return out
}

func valueAt(t *testing.T, a arrow.Array, r int) any {
	switch a := a.(type) {
	case *array.Boolean:
		return a.Value(r)
	case *array.Int8:
		return a.Value(r)
	case *array.Int16:
		return a.Value(r)
	case *array.Int32:
		return a.Value(r)
	case *array.Int64:
		return a.Value(r)
	case *array.Float32:
		return a.Value(r)
	case *array.Float64:
		return a.Value(r)
	case *array.String:
		return a.Value(r)
	case *array.Date32:
		return int32(a.Value(r))
	}
	t.Fatalf("no value for %s", a.DataType())
	return nil
}

// less orders like Java's compare methods: false < true, NaN largest, -0 < +0.
func less(x, y any) bool {
	switch x := x.(type) {
	case bool:
		return !x && y.(bool)
	case int8:
		return x < y.(int8)
	case int16:
		return x < y.(int16)
	case int32:
		return x < y.(int32)
	case int64:
		return x < y.(int64)
	case float32:
		return floatLess(float64(x), float64(y.(float32)))
	case float64:
		return floatLess(x, y.(float64))
	case string:
		return x < y.(string)
	}
	panic(fmt.Sprintf("less %T", x))
}

func floatLess(x, y float64) bool {
	if math.IsNaN(x) {
		return false
	}
	if math.IsNaN(y) {
		return true
	}
	if x == 0 && y == 0 {
		return math.Signbit(x) && !math.Signbit(y)
	}
	return x < y
}

// TestEncodeStatisticsBytes pins the statistics layout to Fluss 1.0's
// LogRecordBatchStatisticsWriter, byte by byte: version, column count and
// indexes, null counts, then the min and max AlignedRows (null bits after an
// 8-bit header, 8 bytes per field, strings over 7 bytes in the variable part).
func TestEncodeStatisticsBytes(t *testing.T) {
	ts := []types.DataType{types.NewInt(), types.NewString(), types.NewBigInt()}
	st := []ColumnStats{
		{Column: 0, NullCount: 1, Min: int32(-2), Max: int32(7)},
		{Column: 1, NullCount: 0, Min: "abc", Max: "longer than 7"},
		{Column: 2, NullCount: 3}, // only NULLs: min and max are null
	}
	got, err := EncodeStatistics(nil, ts, st)
	require.NoError(t, err)
	want := "01" + "0300" + "0000" + "0100" + "0200" + // version, count, indexes
		"01000000" + "00000000" + "03000000" + // null counts
		"20000000" + // min row: 32 bytes
		"0004000000000000" + // null bits: field 2 (bit 10)
		"feffffff00000000" + "6162630000000083" + "0000000000000000" +
		"30000000" + // max row: 48 bytes
		"0004000000000000" +
		"0700000000000000" + "0d00000020000000" + "0000000000000000" +
		hex.EncodeToString([]byte("longer than 7")) + "000000"
	assert.Equal(t, want, hex.EncodeToString(got))

	back, err := ParseStatistics(got, ts)
	require.NoError(t, err)
	assert.Equal(t, st, back)
}

func TestParseStatisticsRejectsCorrupt(t *testing.T) {
	ts := []types.DataType{types.NewInt(), types.NewString()}
	good, err := EncodeStatistics(nil, ts, []ColumnStats{{Column: 0, Min: int32(1), Max: int32(2)}, {Column: 1, Min: "a", Max: "bbbbbbbbbb"}})
	require.NoError(t, err)
	for cut := 0; cut < len(good); cut++ {
		_, err := ParseStatistics(good[:cut], ts)
		assert.ErrorIs(t, err, ErrCorrupt, "cut %d", cut)
	}
	bad := append([]byte{}, good...)
	bad[0] = 2
	_, err = ParseStatistics(bad, ts)
	assert.ErrorIs(t, err, ErrCorrupt)
	bad = append([]byte{}, good...)
	bad[3] = 5 // column 5 is not in the schema
	_, err = ParseStatistics(bad, ts)
	assert.ErrorIs(t, err, ErrCorrupt)
}

func TestStatisticsLengthOutsideBatch(t *testing.T) {
	buf, err := AppendBatchWithStatistics(nil, Header{Magic: MagicV1, RecordCount: 1}, []byte{1, 0, 0}, []byte("rec"))
	require.NoError(t, err)
	b, _, err := ParseBatch(buf)
	require.NoError(t, err)
	assert.Equal(t, []byte("rec"), b.Records())
	assert.Equal(t, []byte{1, 0, 0}, b.Statistics())
	buf[HeaderSizeV1-4] = 200 // StatisticsLength past the end
	_, _, err = ParseBatch(buf)
	assert.ErrorIs(t, err, ErrCorrupt)

	_, err = AppendBatchWithStatistics(nil, Header{Magic: MagicV0}, []byte{1}, nil)
	assert.Error(t, err, "magic 0 has no statistics")
}

// FuzzParseStatistics feeds arbitrary bytes to the statistics reader: an
// error or statistics, never a panic.
func FuzzParseStatistics(f *testing.F) {
	s := scalarSchema()
	ts, _ := statsColumns(s)
	files, _ := filepath.Glob(filepath.Join("testdata", "golden", "*stats*.bin"))
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		if bs, err := DecodeBatches(b, DecodeOptions{SkipCRC: true}); err == nil {
			for _, x := range bs {
				f.Add(x.Statistics())
			}
		}
	}
	seed, err := EncodeStatistics(nil, ts, []ColumnStats{{Column: 0, Min: int32(1), Max: int32(9)}, {Column: 11, NullCount: 2, Min: "a", Max: "zzzzzzzzzzzz"}})
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Fuzz(func(t *testing.T, data []byte) {
		st, err := ParseStatistics(data, ts)
		if err != nil {
			return
		}
		for _, c := range st {
			if c.Column < 0 || c.Column >= len(ts) {
				t.Fatalf("column %d out of range", c.Column)
			}
		}
	})
}

// addStatisticsSeeds adds MagicV1 and MagicV2 batches with statistics of
// random scalar records as fuzz seeds.
func addStatisticsSeeds(f *testing.F) {
	s := scalarSchema()
	ts, cols := statsColumns(s)
	as := arrowSchema(f, s, nil)
	for _, magic := range []int8{MagicV1, MagicV2} {
		rec := randomRecord(f, memory.NewGoAllocator(), as, 5, uint64(magic))
		st, err := ComputeStatistics(rec, ts, cols)
		if err != nil {
			f.Fatal(err)
		}
		stats, err := EncodeStatistics(nil, ts, st)
		if err != nil {
			f.Fatal(err)
		}
		enc, err := NewArrowEncoder(as, CompressionNone)
		if err != nil {
			f.Fatal(err)
		}
		buf, err := enc.AppendBatchWithStatistics(nil, Header{Magic: magic, LeaderEpoch: 3}, stats, rec, nil)
		if err != nil {
			f.Fatal(err)
		}
		_ = enc.Close()
		rec.Release()
		f.Add(buf)
	}
}
