package fluss_test

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/flussql/flussql/fluss"
)

// BenchmarkArrowRows converts value-model rows of the 20-column benchmark
// schema to Arrow records (ArrowRowBuilder, as AppendWriter does) and back
// (RowValues' per-column readers, as a LogScanner's consumer does).
func BenchmarkArrowRows(b *testing.B) {
	cols := benchSchema(20)
	const rows = 1000
	data := make([][]any, rows)
	for i := range data {
		data[i] = make([]any, len(cols))
		benchRow(20, i, data[i])
	}
	b.Run("build", func(b *testing.B) {
		rb, err := fluss.NewArrowRowBuilder(memory.DefaultAllocator, cols)
		if err != nil {
			b.Fatal(err)
		}
		defer rb.Release()
		b.ReportAllocs()
		for b.Loop() {
			for _, r := range data {
				if err := rb.Append(r); err != nil {
					b.Fatal(err)
				}
			}
			rb.NewRecordBatch().Release()
		}
		b.ReportMetric(float64(b.N*rows)/b.Elapsed().Seconds(), "rows/s")
	})
	b.Run("read", func(b *testing.B) {
		rb, err := fluss.NewArrowRowBuilder(memory.DefaultAllocator, cols)
		if err != nil {
			b.Fatal(err)
		}
		defer rb.Release()
		for _, r := range data {
			if err := rb.Append(r); err != nil {
				b.Fatal(err)
			}
		}
		rec := rb.NewRecordBatch()
		defer rec.Release()
		readers := make([]func(int) any, len(cols))
		for c, col := range cols {
			get, err := fluss.ArrowValueReader(col.Type)
			if err != nil {
				b.Fatal(err)
			}
			a := rec.Column(c)
			readers[c] = func(i int) any { return get(a, i) }
		}
		out := make([]any, len(cols))
		b.ReportAllocs()
		for b.Loop() {
			for i := range rows {
				for c := range readers {
					if rec.Column(c).IsNull(i) {
						out[c] = nil
						continue
					}
					out[c] = readers[c](i)
				}
			}
		}
		b.ReportMetric(float64(b.N*rows)/b.Elapsed().Seconds(), "rows/s")
	})
}
