package executor

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestArrowSlices(t *testing.T) {
	for _, tc := range []struct {
		name    string
		rows    int
		buckets int
		want    []int64 // rows per slice
	}{
		{"small record stays whole", 1000, 4, []int64{1000}},
		{"one bucket", 100_000, 1, []int64{100_000}},
		{"unknown bucket count", 100_000, 0, []int64{100_000}},
		{"spread over the buckets", 65_536, 4, []int64{16_384, 16_384, 16_384, 16_384}},
		{"no slice below the minimum", 40_000, 8, []int64{20_000, 20_000}},
		{"uneven", 50_001, 3, []int64{16_667, 16_667, 16_667}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			defer mem.AssertSize(t, 0)
			b := array.NewInt64Builder(mem)
			for i := range tc.rows {
				b.Append(int64(i))
			}
			col := b.NewArray()
			b.Release()
			rec := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "v", Type: arrow.PrimitiveTypes.Int64}}, nil), []arrow.Array{col}, int64(tc.rows))
			col.Release()
			parts := arrowSlices(rec, tc.buckets)
			rec.Release()
			var got []int64
			next := int64(0)
			for _, p := range parts {
				got = append(got, p.NumRows())
				vals := p.Column(0).(*array.Int64)
				for i := range vals.Len() {
					require.Equal(t, next, vals.Value(i), "rows in order, each once")
					next++
				}
				p.Release()
			}
			assert.Equal(t, tc.want, got)
			assert.Equal(t, int64(tc.rows), next)
		})
	}
}
