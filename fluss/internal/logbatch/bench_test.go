package logbatch

import (
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/flussql/flussql/fluss/types"
)

// benchSchemas: a 3-column log table and a 20-column one of mixed types.
func benchSchemas() map[string]types.Schema {
	three := types.Schema{Columns: []types.Column{
		{Name: "id", Type: types.NewBigInt().AsNotNull()},
		{Name: "name", Type: types.NewString()},
		{Name: "ts", Type: types.NewTimestampLTZ(3)},
	}}
	kinds := []types.DataType{types.NewInt(), types.NewBigInt(), types.NewString(), types.NewDouble(),
		types.NewDecimal(12, 2), types.NewTimestamp(6), types.NewBoolean(), types.NewBytes(), types.NewDate(), types.NewFloat()}
	var twenty types.Schema
	for i := 0; i < 20; i++ {
		twenty.Columns = append(twenty.Columns, types.Column{Name: fmt.Sprintf("c%d", i), Type: kinds[i%len(kinds)]})
	}
	return map[string]types.Schema{"3cols": three, "20cols": twenty}
}

const benchRows = 1000

func benchRecord(b *testing.B, s types.Schema) (*arrow.Schema, arrow.RecordBatch) {
	as := arrowSchema(b, s, nil)
	return as, randomRecord(b, memory.DefaultAllocator, as, benchRows, 42)
}

func BenchmarkEncodeArrow(b *testing.B) {
	for name, s := range benchSchemas() {
		for _, codec := range []Compression{CompressionNone, CompressionLZ4Frame, CompressionZstd} {
			b.Run(name+"/"+codec.String(), func(b *testing.B) {
				as, rec := benchRecord(b, s)
				defer rec.Release()
				enc, err := NewArrowEncoder(as, codec)
				if err != nil {
					b.Fatal(err)
				}
				defer enc.Close()
				var buf []byte
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					buf, err = enc.AppendBatch(buf[:0], Header{WriterID: 1, BatchSequence: int32(i)}, rec, nil)
					if err != nil {
						b.Fatal(err)
					}
				}
				b.SetBytes(int64(len(buf)))
				b.ReportMetric(float64(b.N*benchRows)/b.Elapsed().Seconds(), "rows/s")
			})
		}
	}
}

func BenchmarkDecodeArrow(b *testing.B) {
	for name, s := range benchSchemas() {
		for _, codec := range []Compression{CompressionNone, CompressionLZ4Frame, CompressionZstd} {
			b.Run(name+"/"+codec.String(), func(b *testing.B) {
				as, rec := benchRecord(b, s)
				enc, err := NewArrowEncoder(as, codec)
				if err != nil {
					b.Fatal(err)
				}
				buf, err := enc.AppendBatch(nil, Header{}, rec, nil)
				if err != nil {
					b.Fatal(err)
				}
				rec.Release()
				enc.Close()
				dec, err := NewArrowDecoder(as)
				if err != nil {
					b.Fatal(err)
				}
				defer dec.Close()
				b.SetBytes(int64(len(buf)))
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					batches, err := DecodeBatches(buf, DecodeOptions{})
					if err != nil {
						b.Fatal(err)
					}
					recs, err := dec.Decode(batches[0])
					if err != nil {
						b.Fatal(err)
					}
					recs.Release()
				}
				b.ReportMetric(float64(b.N*benchRows)/b.Elapsed().Seconds(), "rows/s")
			})
		}
	}
}
