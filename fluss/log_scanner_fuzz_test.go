package fluss

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/datum"
	"github.com/flussql/flussql/fluss/internal/logbatch"
	"github.com/flussql/flussql/fluss/internal/row"
	"github.com/flussql/flussql/fluss/types"
)

// fuzzSchema is the table of the scanner fuzz targets.
var fuzzSchema = types.Schema{Columns: []types.Column{
	{Name: "id", Type: types.NewInt().AsNotNull()},
	{Name: "s", Type: types.NewString()},
	{Name: "d", Type: types.NewDecimal(20, 3)},
	{Name: "ts", Type: types.NewTimestampLTZ(6)},
}}

func fuzzTable(t testing.TB, format string) *Table {
	info := &TableInfo{Path: TablePath{Database: "db", Table: "t"}, TableID: 1, SchemaID: 1,
		Descriptor: TableDescriptor{Schema: fuzzSchema, BucketCount: 1, Properties: map[string]string{PropLogFormat: format}}}
	// A closed client: a batch of another schema id fails to fetch its
	// schema (ErrClosed) instead of reaching the network.
	closed := make(chan struct{})
	close(closed)
	tbl, err := (&Client{meta: newMetadataCache(), closed: closed}).TableOf(info)
	require.NoError(t, err)
	return tbl
}

// fuzzRows returns a few valid rows of fuzzSchema.
func fuzzRows() [][]any {
	return [][]any{
		{int32(1), "a", datum.NewDecimal(12345, 3), datum.TimestampLTZ{EpochMillis: 1700000000000, NanoOfMilli: 123000}},
		{int32(2), nil, nil, nil},
		{int32(-3), "héllo", datum.NewDecimal(-1, 3), datum.TimestampLTZ{EpochMillis: -5}},
	}
}

// encodeFuzzBatch encodes rows as one log batch of the table's format with
// the append writer's own code.
func encodeFuzzBatch(t testing.TB, tbl *Table, rows [][]any) []byte {
	format := tbl.info.LogFormat()
	w := &AppendWriter{t: tbl, schemaID: 1, format: format}
	var err error
	w.codec, err = newRowCodec(fuzzSchema.Columns, tbl.schema)
	require.NoError(t, err)
	if format == "ARROW" {
		w.encoders = newArrowEncoderPool(func() (*logbatch.ArrowEncoder, error) {
			return logbatch.NewArrowEncoder(tbl.schema, logbatch.CompressionZstd)
		})
	} else {
		f, err := row.ParseFormat(format)
		require.NoError(t, err)
		w.rowEnc, err = row.NewEncoder(f, row.FieldTypes(fuzzSchema.Columns))
		require.NoError(t, err)
	}
	bc, err := w.newContent()
	require.NoError(t, err)
	c := bc.(*logContent)
	defer c.release()
	for _, r := range rows {
		require.NoError(t, c.put(r))
	}
	data, err := c.seal()
	require.NoError(t, err)
	return data
}

// newFuzzScanner returns a scanner over tbl that is never connected: the
// fuzz targets call its decoding directly.
func newFuzzScanner(t testing.TB, tbl *Table, projection []int) *LogScanner {
	p, err := newProjection(fuzzSchema, projection, tbl.info.LogFormat())
	require.NoError(t, err)
	return &LogScanner{t: tbl, proj: p, mem: memory.DefaultAllocator, decs: newDecoderPool(tbl, p, memory.DefaultAllocator)}
}

// FuzzDecodeFetchedRecords feeds arbitrary bytes, fetch offsets and end
// offsets to the scanner's decoding of a fetch answer (batch splitting,
// skipping rows before the fetch offset, trimming at the end offset,
// column reordering) for ARROW, INDEXED and COMPACTED tables: an error is
// fine, a panic or a row outside [offset, end) is not.
func FuzzDecodeFetchedRecords(f *testing.F) {
	formats := []string{"ARROW", "INDEXED", "COMPACTED"}
	for i, format := range formats {
		data := encodeFuzzBatch(f, fuzzTable(f, format), fuzzRows())
		f.Add(uint8(i), data, int64(-2), int64(-1))
		f.Add(uint8(i), data, int64(1), int64(2))
		f.Add(uint8(i), append(data, data[:20]...), int64(0), int64(3))
	}
	f.Fuzz(func(t *testing.T, format uint8, records []byte, offset, end int64) {
		tbl := fuzzTable(t, formats[int(format)%len(formats)])
		s := newFuzzScanner(t, tbl, []int{3, 0, 1})
		defer s.decs.close()
		if offset < -2 {
			offset = -2
		}
		if end < -1 {
			end = -1
		}
		fetch := &bucketFetch{tb: TableBucket{PartitionID: NoPartition}, offset: offset, end: end}
		dec := s.decs.get()
		defer s.decs.put(dec)
		batches, next, err := s.decodeRecords(context.Background(), dec, fetch, records, 0)
		if err != nil {
			require.Empty(t, batches)
			return
		}
		require.GreaterOrEqual(t, next, offset)
		for _, b := range batches {
			require.Equal(t, 3, int(b.Record.NumCols()))
			if offset >= 0 {
				require.GreaterOrEqual(t, b.BaseOffset, offset)
			}
			if end >= 0 {
				require.LessOrEqual(t, b.BaseOffset+int64(b.NumRows()), end)
			}
			for i := 0; i < b.NumRows(); i++ {
				_, err := RowValues(b.Record, s.proj.outTypes, i)
				require.NoError(t, err)
			}
			b.Release()
		}
	})
}
