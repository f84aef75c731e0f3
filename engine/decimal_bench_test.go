package engine

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/flussql/flussql/fluss/types"
)

// benchDecimalAgg aggregates 600k rows (ten batches of 60k) of a TPC-H-like
// lineitem: price DECIMAL(15,2), discount DECIMAL(15,2).
func benchDecimalAgg(b *testing.B, agg func(price, discount Expr) *Agg) {
	cols := []Column{{"price", types.NewDecimal(15, 2)}, {"discount", types.NewDecimal(15, 2)}}
	rows := make([][]any, 60000)
	for i := range rows {
		rows[i] = []any{decimal128.FromI64(int64(90000 + i*7919%10000000)), decimal128.FromI64(int64(i % 11))}
	}
	mem := memory.NewGoAllocator()
	batch := batchOf(b, mem, cols, rows)
	defer batch.Release()
	in := &benchInput{}
	for range 10 {
		in.batches = append(in.batches, batch)
	}
	n := &Aggregate{Input: &Input{Cols: cols},
		Aggs: []*Agg{agg(col(0, "price", cols[0].Type), col(1, "discount", cols[1].Type))}}
	b.ReportAllocs()
	benchPlan(b, n, in, mem, 600000)
}

// BenchmarkDecimalSumPrice is SUM(price).
func BenchmarkDecimalSumPrice(b *testing.B) {
	benchDecimalAgg(b, func(price, _ Expr) *Agg { return must(NewAgg("SUM", price, false)) })
}

// BenchmarkDecimalSumDiscounted is SUM(price * (1 - discount)) (TPC-H Q1/Q6).
func BenchmarkDecimalSumDiscounted(b *testing.B) {
	benchDecimalAgg(b, func(price, discount Expr) *Agg {
		return must(NewAgg("SUM", must(NewBinary("*", price, must(NewBinary("-", intConst(1), discount)))), false))
	})
}

// BenchmarkDecimalAvgQuotient is AVG(price / (1 + discount)).
func BenchmarkDecimalAvgQuotient(b *testing.B) {
	benchDecimalAgg(b, func(price, discount Expr) *Agg {
		return must(NewAgg("AVG", must(NewBinary("/", price, must(NewBinary("+", intConst(1), discount)))), false))
	})
}

// BenchmarkDecimalMax is MAX(price).
func BenchmarkDecimalMax(b *testing.B) {
	benchDecimalAgg(b, func(price, _ Expr) *Agg { return must(NewAgg("MAX", price, false)) })
}

// BenchmarkDecimalFilter is WHERE discount BETWEEN 0.05 AND 0.07 AND price < 24 (Q6's
// DECIMAL conjuncts), then COUNT(*).
func BenchmarkDecimalFilter(b *testing.B) {
	cols := []Column{{"price", types.NewDecimal(15, 2)}, {"discount", types.NewDecimal(15, 2)}}
	rows := make([][]any, 60000)
	for i := range rows {
		rows[i] = []any{decimal128.FromI64(int64(90000 + i*7919%10000000)), decimal128.FromI64(int64(i % 11))}
	}
	mem := memory.NewGoAllocator()
	batch := batchOf(b, mem, cols, rows)
	defer batch.Release()
	in := &benchInput{}
	for range 10 {
		in.batches = append(in.batches, batch)
	}
	price, discount := col(0, "price", cols[0].Type), col(1, "discount", cols[1].Type)
	lit := func(v int64, p, s int) *Const {
		return &Const{Value: decimal128.FromI64(v), T: types.NewDecimal(p, s).AsNotNull()}
	}
	cond := must(NewLogic(true, must(NewLogic(true, must(NewCompare(">=", discount, lit(5, 3, 2))), must(NewCompare("<=", discount, lit(7, 3, 2))))),
		must(NewCompare("<", price, lit(24, 2, 0)))))
	n := &Aggregate{Input: &Filter{Input: &Input{Cols: cols}, Cond: cond}, Aggs: []*Agg{must(NewAgg("COUNT", nil, false))}}
	b.ReportAllocs()
	benchPlan(b, n, in, mem, 600000)
}
