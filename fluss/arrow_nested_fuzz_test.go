package fluss_test

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/internal/logbatch"
	"github.com/flussql/flussql/fluss/types"
)

// encodeNestedBatch encodes rows of nestedColumns as one ARROW log batch.
func encodeNestedBatch(t testing.TB, codec logbatch.Compression, rows int) []byte {
	cols := nestedColumns()
	b, err := fluss.NewArrowRowBuilder(nil, cols)
	require.NoError(t, err)
	defer b.Release()
	for i := 0; i < rows; i++ {
		require.NoError(t, b.Append(nestedRow(i)))
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	enc, err := logbatch.NewArrowEncoder(rec.Schema(), codec)
	require.NoError(t, err)
	defer enc.Close()
	data, err := enc.AppendBatch(nil, logbatch.Header{SchemaID: 1, WriterID: logbatch.NoWriterID, BatchSequence: logbatch.NoBatchSequence}, rec, nil)
	require.NoError(t, err)
	return data
}

// FuzzNestedRowValues decodes arbitrary ARROW log batches of ARRAY, MAP and
// ROW columns and reads every row as values: a corrupt batch is an error
// from the decoder, never a panic or a hang in the value conversion.
func FuzzNestedRowValues(f *testing.F) {
	for _, codec := range []logbatch.Compression{logbatch.CompressionNone, logbatch.CompressionZstd} {
		f.Add(encodeNestedBatch(f, codec, 9))
	}
	cols := nestedColumns()
	schema, err := types.ToArrowSchema(types.Schema{Columns: cols})
	require.NoError(f, err)
	dec, err := logbatch.NewArrowDecoder(schema, logbatch.WithAllocator(memory.NewGoAllocator()), logbatch.WithMaxAllocation(1<<20))
	require.NoError(f, err)
	f.Fuzz(func(t *testing.T, data []byte) {
		batches, err := logbatch.DecodeBatches(data, logbatch.DecodeOptions{SkipCRC: true})
		if err != nil {
			return
		}
		for _, b := range batches {
			recs, err := dec.Decode(b)
			if err != nil {
				continue
			}
			for i := 0; i < recs.NumRows(); i++ {
				v, err := fluss.RowValues(recs.Record, columnTypes(cols), i)
				require.NoError(t, err)
				require.Len(t, v, len(cols))
			}
			recs.Release()
		}
	})
}

// TestNestedBatchRoundTrip: the encoded seed of the fuzz target decodes to
// the rows it was built from, so the fuzzer starts from meaningful input.
func TestNestedBatchRoundTrip(t *testing.T) {
	cols := nestedColumns()
	schema, err := types.ToArrowSchema(types.Schema{Columns: cols})
	require.NoError(t, err)
	dec, err := logbatch.NewArrowDecoder(schema)
	require.NoError(t, err)
	defer dec.Close()
	for _, codec := range []logbatch.Compression{logbatch.CompressionNone, logbatch.CompressionLZ4Frame, logbatch.CompressionZstd} {
		batches, err := logbatch.DecodeBatches(encodeNestedBatch(t, codec, 9), logbatch.DecodeOptions{})
		require.NoError(t, err)
		require.Len(t, batches, 1)
		recs, err := dec.Decode(batches[0])
		require.NoError(t, err)
		require.Equal(t, 9, recs.NumRows())
		for i := 0; i < 9; i++ {
			v, err := fluss.RowValues(recs.Record, columnTypes(cols), i)
			require.NoError(t, err)
			require.Equal(t, nestedRow(i), v, "%s row %d", codec, i)
		}
		recs.Release()
	}
}
