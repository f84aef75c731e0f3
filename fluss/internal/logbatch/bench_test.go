package logbatch

import (
	"encoding/binary"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/flussql/flussql/fluss/datum"
	"github.com/flussql/flussql/fluss/internal/row"
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

// BenchmarkDecodeIndexed decodes an INDEXED batch of benchRows rows (written
// by package row's IndexedEncoder) into Arrow records.
func BenchmarkDecodeIndexed(b *testing.B) {
	for name, s := range benchSchemas() {
		b.Run(name, func(b *testing.B) {
			ts := row.FieldTypes(s.Columns)
			enc, err := row.NewIndexedEncoder(ts)
			if err != nil {
				b.Fatal(err)
			}
			var records []byte
			values := make([]any, len(ts))
			for r := range benchRows {
				for c, t := range ts {
					values[c] = benchValue(t, r)
				}
				start := len(records)
				records = append(records, 0, 0, 0, 0, byte(AppendOnly))
				if records, err = enc.Append(records, values); err != nil {
					b.Fatal(err)
				}
				binary.LittleEndian.PutUint32(records[start:], uint32(len(records)-start-4))
			}
			buf, err := AppendBatch(nil, Header{Magic: MagicV0, RecordCount: benchRows, Attributes: AttrAppendOnly,
				WriterID: NoWriterID, BatchSequence: NoBatchSequence}, records)
			if err != nil {
				b.Fatal(err)
			}
			dec, err := NewIndexedDecoder(s, nil)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(buf)))
			b.ReportAllocs()
			for b.Loop() {
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

// benchValue is a deterministic value of type t for row r (nil every 7th row
// of a nullable column).
func benchValue(t types.DataType, r int) any {
	if !t.NotNull && r%7 == 3 {
		return nil
	}
	switch t.Kind {
	case types.Int:
		return int32(r * 31)
	case types.BigInt:
		return int64(r) * 1_000_003
	case types.String:
		return fmt.Sprintf("value-%d", r)
	case types.Double:
		return float64(r) / 3
	case types.Float:
		return float32(r) / 7
	case types.Decimal:
		return datum.NewDecimal(int64(r)*101, t.Scale)
	case types.Timestamp:
		return datum.TimestampNTZ{Millis: 1_700_000_000_000 + int64(r), NanoOfMilli: int32(r % 1000 * 1000)}
	case types.TimestampLTZ:
		return datum.TimestampLTZ{EpochMillis: 1_700_000_000_000 + int64(r)}
	case types.Boolean:
		return r%2 == 0
	case types.Bytes:
		return []byte(fmt.Sprintf("bytes-%d", r))
	case types.Date:
		return datum.Date(19000 + r%1000)
	}
	panic("benchValue: " + t.String())
}
