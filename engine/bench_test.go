package engine

import (
	"context"
	"io"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/flussql/flussql/fluss/types"
)

// benchInput replays the same batches; the benchmarks measure the operators alone.
type benchInput struct {
	batches []arrow.RecordBatch
	i       int
}

func (b *benchInput) Next() (arrow.RecordBatch, error) {
	if b.i >= len(b.batches) {
		return nil, io.EOF
	}
	r := b.batches[b.i]
	r.Retain()
	b.i++
	return r, nil
}

func (b *benchInput) Close() {}

func benchRows(keys int) ([]Column, [][]any) {
	cols := []Column{{"k", types.NewBigInt()}, {"v", types.NewBigInt()}}
	rows := make([][]any, 1<<16)
	for i := range rows {
		rows[i] = []any{int64(i * 7919 % keys), int64(i)}
	}
	return cols, rows
}

func runBench(b *testing.B, n Node, keys int) {
	cols, rows := benchRows(keys)
	mem := memory.NewGoAllocator()
	batch := batchOf(b, mem, cols, rows)
	defer batch.Release()
	in := &benchInput{}
	for range 16 { // 1M rows
		in.batches = append(in.batches, batch)
	}
	benchPlan(b, n, in, mem, 16<<16)
}

func BenchmarkAggregate100Keys(b *testing.B) { benchAgg(b, 100) }

func BenchmarkAggregate50kKeys(b *testing.B) { benchAgg(b, 50000) }

func benchAgg(b *testing.B, keys int) {
	k, v := col(0, "k", types.NewBigInt()), col(1, "v", types.NewBigInt())
	n := &Aggregate{Input: &Input{Cols: []Column{{"k", types.NewBigInt()}, {"v", types.NewBigInt()}}}, Keys: []Expr{k}, Names: []string{"k"},
		Aggs: []*Agg{must(NewAgg("COUNT", nil, false)), must(NewAgg("SUM", v, false))}}
	runBench(b, n, keys)
}

func BenchmarkTopN10(b *testing.B) {
	n := &Sort{Input: &Input{Cols: []Column{{"k", types.NewBigInt()}, {"v", types.NewBigInt()}}}, Keys: []SortKey{{Col: 1, Desc: true}}, Limit: 10}
	runBench(b, n, 100)
}

func BenchmarkFilterProject(b *testing.B) {
	k, v := col(0, "k", types.NewBigInt()), col(1, "v", types.NewBigInt())
	in := &Input{Cols: []Column{{"k", types.NewBigInt()}, {"v", types.NewBigInt()}}}
	n := &Project{Input: &Filter{Input: in, Cond: must(NewCompare(">", k, intConst(50)))},
		Exprs: []Expr{must(NewBinary("+", v, intConst(1)))}, Names: []string{"x"}}
	runBench(b, n, 100)
}

// BenchmarkAggregate1MKeys groups 1M rows with 1M distinct keys (every group new).
func BenchmarkAggregate1MKeys(b *testing.B) { benchAggKeys(b, 1, 1<<20) }

// BenchmarkAggregate1MKeys10MRows groups 10M rows with 1M distinct keys (ten rows a group,
// in runs of 65,536 distinct keys), as the root package's BenchmarkQueryEngine group-by-1m.
func BenchmarkAggregate1MKeys10MRows(b *testing.B) { benchAggKeys(b, 10, 1<<20) }

// BenchmarkAggregate1MStringKeys is BenchmarkAggregate1MKeys10MRows with STRING keys.
func BenchmarkAggregate1MStringKeys10MRows(b *testing.B) { benchAggKeysOf(b, 10, 1<<20, true, false) }

// BenchmarkAggregate1MKeys10MRowsShuffled is BenchmarkAggregate1MKeys10MRows with the
// batches of the first pass in random order.
func BenchmarkAggregate1MKeys10MRowsShuffled(b *testing.B) { benchAggKeysOf(b, 10, 1<<20, false, true) }

func benchAggKeys(b *testing.B, passes, keys int) { benchAggKeysOf(b, passes, keys, false, false) }

func benchAggKeysOf(b *testing.B, passes, keys int, strs, shuffled bool) {
	kt := types.NewBigInt()
	if strs {
		kt = types.NewString()
	}
	k, v := col(0, "k", kt), col(1, "v", types.NewBigInt())
	cols := []Column{{"k", kt}, {"v", types.NewBigInt()}}
	n := &Aggregate{Input: &Input{Cols: cols}, Keys: []Expr{k}, Names: []string{"k"},
		Aggs: []*Agg{must(NewAgg("COUNT", nil, false)), must(NewAgg("SUM", v, false))}}
	mem := memory.NewGoAllocator()
	var batches []arrow.RecordBatch
	for p := range keys >> 16 {
		rows := make([][]any, 1<<16)
		for i := range rows {
			rows[i] = []any{int64(p<<16 + i), int64(i)}
			if strs {
				rows[i][0] = "key-" + strconv.Itoa(p<<16+i)
			}
		}
		batch := batchOf(b, mem, cols, rows)
		defer batch.Release()
		batches = append(batches, batch)
	}
	in := &benchInput{}
	for pass := range passes {
		in.batches = append(in.batches, batches...)
		if pass == 0 && shuffled {
			// as a scan's buckets deliver them: the key runs out of order
			rand.New(rand.NewPCG(1, 2)).Shuffle(len(in.batches), func(i, j int) {
				in.batches[i], in.batches[j] = in.batches[j], in.batches[i]
			})
		}
	}
	benchPlan(b, n, in, mem, len(in.batches)<<16)
}

// BenchmarkTopN10Scattered is BenchmarkTopN10 with v scattered (i·7 mod 1,000,003, as the
// root package's BenchmarkQueryEngine top-10): few rows enter the heap.
func BenchmarkTopN10Scattered(b *testing.B) {
	cols := []Column{{"k", types.NewBigInt()}, {"v", types.NewBigInt()}}
	n := &Sort{Input: &Input{Cols: cols}, Keys: []SortKey{{Col: 1, Desc: true}}, Limit: 10}
	mem := memory.NewGoAllocator()
	in := &benchInput{}
	for p := range 16 {
		rows := make([][]any, 1<<16)
		for i := range rows {
			j := p<<16 + i
			rows[i] = []any{int64(j), int64(j) * 7 % 1_000_003}
		}
		batch := batchOf(b, mem, cols, rows)
		defer batch.Release()
		in.batches = append(in.batches, batch)
	}
	benchPlan(b, n, in, mem, 16<<16)
}

// BenchmarkInConsts is Q16's p_size IN (49, 14, 23, 45, 19, 3, 36, 9) over
// 1M rows.
func BenchmarkInConsts(b *testing.B) {
	cols := []Column{{"k", types.NewBigInt()}, {"v", types.NewBigInt()}}
	var list []Expr
	for _, v := range []int64{49, 14, 23, 45, 19, 3, 36, 9} {
		list = append(list, intConst(v))
	}
	n := &Filter{Input: &Input{Cols: cols}, Cond: must(NewIn(col(0, "k", cols[0].Type), list, false))}
	b.ReportAllocs()
	runBench(b, n, 50)
}

// benchPlan runs plan n over in's batches b.N times (the timer reset first) and reports
// rows/s, rows being the rows of one run.
func benchPlan(b *testing.B, n Node, in *benchInput, mem memory.Allocator, rows int) {
	b.Helper()
	b.ResetTimer()
	for range b.N {
		in.i = 0
		op, err := Build(context.Background(), n, in, Options{Mem: mem})
		if err != nil {
			b.Fatal(err)
		}
		if err := Drain(op, func(arrow.RecordBatch) error { return nil }); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(rows*b.N)/b.Elapsed().Seconds(), "rows/s")
}
