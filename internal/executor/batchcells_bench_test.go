package executor

import (
	"testing"
)

// BenchmarkBatchCells measures the scan hot path: building a column's converter once per
// batch and converting each of its values.
func BenchmarkBatchCells(b *testing.B) {
	t := &testing.T{}
	cols := batchColumns(t)
	for _, name := range []string{"INT", "BIGINT", "DOUBLE", "STRING", "long STRING"} {
		c := cols[name]
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			var sink any
			for b.Loop() {
				cell, err := batchCells(c.typ, c.arr)
				if err != nil {
					b.Fatal(err)
				}
				for i := range c.arr.Len() {
					sink = cell(i)
				}
			}
			_ = sink
		})
	}
}
