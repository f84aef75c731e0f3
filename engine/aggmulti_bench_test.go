package engine

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/flussql/flussql/fluss/types"
)

// benchMultiKeys aggregates 1M rows (16 batches of 64k) GROUP BY several
// keys: TPC-H Q1's two one-letter flags (4 groups), or a name, a key and a
// price that vary together (Q10's and Q18's GROUP BY c_name, c_custkey,
// c_acctbal…; groups distinct keys).
func benchMultiKeys(b *testing.B, wide bool, groups int) {
	cols := []Column{{"f", types.NewString()}, {"s", types.NewString()}, {"v", types.NewBigInt()}}
	if wide {
		cols = []Column{{"name", types.NewString()}, {"key", types.NewBigInt()}, {"price", types.NewDecimal(15, 2)}, {"v", types.NewBigInt()}}
	}
	rows := make([][]any, 1<<16)
	flags := []string{"A", "N", "R"}
	for i := range rows {
		k := i * 7919 % groups
		if wide {
			rows[i] = []any{"Customer#" + string(rune('a'+k%26)) + string(rune('a'+k/26%26)) + string(rune('a'+k/676%26)) + string(rune('a'+k/17576%26)),
				int64(k), decimal128.FromI64(int64(k) * 37), int64(i)}
		} else {
			rows[i] = []any{flags[k%3], flags[k/3%2], int64(i)}
		}
	}
	mem := memory.NewGoAllocator()
	batch := batchOf(b, mem, cols, rows)
	defer batch.Release()
	in := &benchInput{}
	for range 16 {
		in.batches = append(in.batches, batch)
	}
	var keys []Expr
	var names []string
	for i, c := range cols[:len(cols)-1] {
		keys, names = append(keys, col(i, c.Name, c.Type)), append(names, c.Name)
	}
	v := col(len(cols)-1, "v", types.NewBigInt())
	n := &Aggregate{Input: &Input{Cols: cols}, Keys: keys, Names: names,
		Aggs: []*Agg{must(NewAgg("COUNT", nil, false)), must(NewAgg("SUM", v, false))}}
	b.ReportAllocs()
	benchPlan(b, n, in, mem, 16<<16)
}

// BenchmarkAggregateTwoFlags is Q1's GROUP BY l_returnflag, l_linestatus.
func BenchmarkAggregateTwoFlags(b *testing.B) { benchMultiKeys(b, false, 6) }

// BenchmarkAggregateNameKeyPrice50k is GROUP BY name, key, price of 50k groups.
func BenchmarkAggregateNameKeyPrice50k(b *testing.B) { benchMultiKeys(b, true, 50000) }
