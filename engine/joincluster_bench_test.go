package engine

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/flussql/flussql/fluss/types"
)

// BenchmarkHashJoinRepeatedKeys is TPC-H Q13's join at a third of scale 1: 50,000
// customers LEFT JOIN 500,000 orders on the customer key, ten orders a customer in
// random order, then COUNT(o_orderkey) GROUP BY c_custkey.
func BenchmarkHashJoinRepeatedKeys(b *testing.B) {
	const custs, orders, per = 50_000, 500_000, 8192
	ccols := []Column{{"c_custkey", types.NewBigInt()}}
	ocols := []Column{{"o_orderkey", types.NewBigInt()}, {"o_custkey", types.NewBigInt()}}
	mem := memory.NewGoAllocator()
	batches := func(cols []Column, n int, row func(int) []any) *benchInput {
		in := &benchInput{}
		for start := 0; start < n; start += per {
			var rows [][]any
			for r := start; r < min(n, start+per); r++ {
				rows = append(rows, row(r))
			}
			in.batches = append(in.batches, batchOf(b, mem, cols, rows))
		}
		return in
	}
	rnd := rand.New(rand.NewPCG(3, 4))
	left := batches(ccols, custs, func(r int) []any { return []any{int64(r)} })
	right := batches(ocols, orders, func(r int) []any { return []any{int64(r), int64(rnd.IntN(custs))} })
	join := &HashJoin{Kind: LeftJoin, Left: &Input{Cols: ccols}, Right: &Input{Cols: ocols, ID: 1},
		LeftKeys: []Expr{col(0, "c_custkey", types.NewBigInt())}, RightKeys: []Expr{col(1, "o_custkey", types.NewBigInt())}}
	n := &Aggregate{Input: join, Keys: []Expr{col(0, "c_custkey", types.NewBigInt())}, Names: []string{"c_custkey"},
		Aggs: []*Agg{must(NewAgg("COUNT", col(1, "o_orderkey", types.NewBigInt()), false))}}
	b.ResetTimer()
	for range b.N {
		left.i, right.i = 0, 0
		op, err := Build(context.Background(), n, left, Options{Mem: mem, Inputs: []Operator{right}})
		if err != nil {
			b.Fatal(err)
		}
		if err := Drain(op, func(arrow.RecordBatch) error { return nil }); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(orders*b.N)/b.Elapsed().Seconds(), "rows/s")
}
