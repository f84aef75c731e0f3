package engine

import (
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/flussql/flussql/fluss/types"
)

// BenchmarkAggregateSpreadKeys is TPC-H Q18's subquery, SUM(l_quantity) GROUP BY
// l_orderkey, at a quarter of scale 1: 1.5M rows, four a key, the keys every fourth
// integer (375,000 groups over a range of 1.5M), in batches of 8,192 rows that arrive out
// of order, as a scan's buckets deliver them.
func BenchmarkAggregateSpreadKeys(b *testing.B) {
	const rows, per = 1_500_000, 8192
	k, v := col(0, "k", types.NewBigInt()), col(1, "v", types.NewBigInt())
	cols := []Column{{"k", types.NewBigInt()}, {"v", types.NewBigInt()}}
	n := &Aggregate{Input: &Input{Cols: cols}, Keys: []Expr{k}, Names: []string{"k"},
		Aggs: []*Agg{must(NewAgg("SUM", v, false))}}
	mem := memory.NewGoAllocator()
	in := &benchInput{}
	for start := 0; start < rows; start += per {
		batch := make([][]any, 0, per)
		for r := start; r < min(rows, start+per); r++ {
			batch = append(batch, []any{int64(r / 4 * 4), int64(r)})
		}
		rec := batchOf(b, mem, cols, batch)
		defer rec.Release()
		in.batches = append(in.batches, rec)
	}
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(in.batches), func(i, j int) {
		in.batches[i], in.batches[j] = in.batches[j], in.batches[i]
	})
	benchPlan(b, n, in, mem, rows)
}
