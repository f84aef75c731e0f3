package logbatch

import (
	"bytes"
	"fmt"
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// textRecord is a compressible record like a real log table's: increasing ids, names that
// share a prefix, a column with NULLs.
func textRecord(n int) (*arrow.Schema, arrow.RecordBatch) {
	s := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "amount", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, s)
	defer b.Release()
	for i := range n {
		b.Field(0).(*array.Int64Builder).Append(int64(i))
		b.Field(1).(*array.StringBuilder).Append("customer-" + strconv.Itoa(i%500))
		if i%9 == 0 {
			b.Field(2).AppendNull()
		} else {
			b.Field(2).(*array.Int32Builder).Append(int32(i % 1000))
		}
	}
	return s, b.NewRecordBatch()
}

// TestZstdLevels: the table's level is used — each of klauspost's speeds writes other bytes,
// the best level the smallest batch (its default speed is not always smaller than its
// fastest: on these rows it is larger) — every level's batch decodes to the record, and
// levels Fluss refuses are refused.
func TestZstdLevels(t *testing.T) {
	s, rec := textRecord(20_000)
	defer rec.Release()
	sizes := map[int]int{}
	for _, level := range []int{1, 3, 9, 19} {
		enc, err := NewArrowEncoder(s, CompressionZstd, WithZstdLevel(level))
		require.NoError(t, err)
		buf, err := enc.AppendBatch(nil, Header{}, rec, nil)
		require.NoError(t, err)
		require.NoError(t, enc.Close())
		sizes[level] = len(buf)

		b, _, err := ParseBatch(buf)
		require.NoError(t, err)
		dec, err := NewArrowDecoder(s)
		require.NoError(t, err)
		got, err := dec.Decode(b)
		require.NoError(t, err, "level %d", level)
		assertSameRecord(t, rec, got.Record)
		got.Release()
		dec.Close()
	}
	t.Logf("batch bytes by level: %v (uncompressed body about %d)", sizes, 20_000*(8+4+4+12))
	assert.NotEqual(t, sizes[1], sizes[3], "level 1 is another speed than level 3")
	assert.NotEqual(t, sizes[9], sizes[3], "level 9 is another speed than level 3")
	for _, level := range []int{1, 3, 9} {
		assert.Less(t, sizes[19], sizes[level], "level 19 compresses best")
	}

	for _, bad := range []int{0, -1, 23} {
		_, err := NewArrowEncoder(s, CompressionZstd, WithZstdLevel(bad))
		assert.ErrorContains(t, err, fmt.Sprintf("invalid ZSTD compression level %d; expected a value between 1 and 22", bad))
	}
}

// TestZstdMessageReadByArrowGo: arrow-go's own IPC reader, which decompresses by itself,
// reads the message our encoder writes — the record batch's BodyCompression, buffer
// layout and framing are standard Arrow, not only what our decoder accepts.
func TestZstdMessageReadByArrowGo(t *testing.T) {
	for name, mk := range map[string]func() (*arrow.Schema, arrow.RecordBatch){
		"text": func() (*arrow.Schema, arrow.RecordBatch) { return textRecord(5_000) },
		"scalars": func() (*arrow.Schema, arrow.RecordBatch) {
			as := arrowSchema(t, scalarSchema(), nil)
			return as, randomRecord(t, memory.DefaultAllocator, as, 300, 7)
		},
		"nested": func() (*arrow.Schema, arrow.RecordBatch) {
			as := arrowSchema(t, nestedSchema(), nil)
			return as, randomRecord(t, memory.DefaultAllocator, as, 200, 9)
		},
		"sliced": func() (*arrow.Schema, arrow.RecordBatch) {
			s, rec := textRecord(5_000)
			defer rec.Release()
			return s, rec.NewSlice(1_234, 4_321) // offsets rebased by arrow-go
		},
	} {
		t.Run(name, func(t *testing.T) {
			s, rec := mk()
			defer rec.Release()
			enc, err := NewArrowEncoder(s, CompressionZstd)
			require.NoError(t, err)
			defer enc.Close()
			buf, err := enc.AppendBatch(nil, Header{}, rec, nil)
			require.NoError(t, err)
			b, _, err := ParseBatch(buf)
			require.NoError(t, err)

			// A stream of arrow-go's schema message, our record batch message, end of stream.
			var schemaOnly bytes.Buffer
			w := ipc.NewWriter(&schemaOnly, ipc.WithSchema(s))
			require.NoError(t, w.Close())
			stream := append(bytes.TrimSuffix(schemaOnly.Bytes(), []byte{0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0}), b.Records()...)
			stream = append(stream, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0)

			r, err := ipc.NewReader(bytes.NewReader(stream))
			require.NoError(t, err)
			defer r.Release()
			require.True(t, r.Next(), "arrow-go reads a record: %v", r.Err())
			assertSameRecord(t, rec, r.RecordBatch())
			assert.False(t, r.Next())
			assert.NoError(t, r.Err())
		})
	}
}

// BenchmarkEncodeZstdLevels: the cost of each level on a compressible 64k-row record.
func BenchmarkEncodeZstdLevels(b *testing.B) {
	s, rec := textRecord(65_536)
	defer rec.Release()
	for _, level := range []int{1, 3, 9} {
		b.Run("level"+strconv.Itoa(level), func(b *testing.B) {
			enc, err := NewArrowEncoder(s, CompressionZstd, WithZstdLevel(level))
			require.NoError(b, err)
			defer enc.Close()
			var buf []byte
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if buf, err = enc.AppendBatch(buf[:0], Header{}, rec, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.SetBytes(int64(recordBytesOf(rec)))
			b.ReportMetric(float64(len(buf)), "batch-bytes")
		})
	}
}

// recordBytesOf is the size of a record's buffers.
func recordBytesOf(rec arrow.RecordBatch) int {
	n := 0
	for _, c := range rec.Columns() {
		for _, buf := range c.Data().Buffers() {
			if buf != nil {
				n += buf.Len()
			}
		}
	}
	return n
}
