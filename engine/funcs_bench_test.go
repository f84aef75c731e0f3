package engine

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/flussql/flussql/fluss/types"
)

// Benchmarks of the function families' kernels (string, regex, JSON, temporal) over one
// batch of FLUSSQL_FUNC_BENCH_ROWS rows (default 100 000; the figure is 10 000 000):
//
//	FLUSSQL_FUNC_BENCH_ROWS=10000000 go test ./engine -run '^$' -bench BenchmarkFunc -benchtime 1x
//
// Not run in CI; ns/row = ns/op ÷ rows, MB/s of the column argument's values.

func funcBenchRows() int {
	if n, err := strconv.Atoi(os.Getenv("FLUSSQL_FUNC_BENCH_ROWS")); err == nil && n > 0 {
		return n
	}
	return 100_000
}

// funcBenchBatch has s (short strings), j (JSON documents) and ts (TIMESTAMP(3)).
func funcBenchBatch(n int) arrow.RecordBatch {
	mem := memory.DefaultAllocator
	sb, jb := array.NewStringBuilder(mem), array.NewStringBuilder(mem)
	tt, _ := types.ArrowType(types.NewTimestamp(3))
	tb := array.NewTimestampBuilder(mem, tt.(*arrow.TimestampType))
	base := time.Date(2024, 2, 29, 10, 15, 30, 0, time.UTC).UnixMilli()
	for i := range n {
		sb.Append(fmt.Sprintf("user-%d@fluss-%d.example", i, i%97))
		jb.Append(fmt.Sprintf(`{"id": %d, "user": {"name": "u%d", "tags": ["a", "b"]}, "score": %d.5}`, i, i, i%1000))
		tb.Append(arrow.Timestamp(base + int64(i)*1000))
	}
	schema := arrow.NewSchema([]arrow.Field{{Name: "s", Type: arrow.BinaryTypes.String}, {Name: "j", Type: arrow.BinaryTypes.String}, {Name: "ts", Type: tt}}, nil)
	cols := []arrow.Array{sb.NewArray(), jb.NewArray(), tb.NewArray()}
	return array.NewRecordBatch(schema, cols, int64(n))
}

var benchCols = []*Col{
	{Index: 0, Name: "s", T: types.NewString()},
	{Index: 1, Name: "j", T: types.NewString()},
	{Index: 2, Name: "ts", T: types.NewTimestamp(3)},
}

func benchFunc(b *testing.B, name string, args ...Expr) {
	e, err := NewCall(name, args)
	if err != nil {
		b.Fatal(err)
	}
	n := funcBenchRows()
	batch := funcBenchBatch(n)
	defer batch.Release()
	ec := &evalCtx{ctx: context.Background(), mem: memory.DefaultAllocator, now: time.Now(), consts: map[*Const]arrow.Array{}}
	defer ec.release()
	b.SetBytes(benchInputBytes(batch, args))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		out, err := e.eval(ec, batch)
		if err != nil {
			b.Fatal(err)
		}
		out.Release()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/row")
}

// benchInputBytes is the size of the column argument's values (a string's bytes, a
// TIMESTAMP's 8), for the MB/s figure.
func benchInputBytes(batch arrow.RecordBatch, args []Expr) int64 {
	for _, a := range args {
		c, ok := a.(*Col)
		if !ok {
			continue
		}
		switch col := batch.Column(c.Index).(type) {
		case *array.String:
			return int64(len(col.ValueBytes()))
		default:
			return int64(col.Len()) * 8
		}
	}
	return 0
}

func BenchmarkFuncStringUpper(b *testing.B) { benchFunc(b, "UPPER", benchCols[0]) }
func BenchmarkFuncStringReplace(b *testing.B) {
	benchFunc(b, "REPLACE", benchCols[0], strConst("-"), strConst("_"))
}
func BenchmarkFuncStringLpad(b *testing.B) {
	benchFunc(b, "LPAD", benchCols[0], intConst(40), strConst("*"))
}
func BenchmarkFuncStringSplitIndex(b *testing.B) {
	benchFunc(b, "SPLIT_INDEX", benchCols[0], strConst("@"), intConst(1))
}
func BenchmarkFuncRegexExtract(b *testing.B) {
	benchFunc(b, "REGEXP_EXTRACT", benchCols[0], strConst(`user-(\d+)@`), intConst(1))
}
func BenchmarkFuncRegexReplace(b *testing.B) {
	benchFunc(b, "REGEXP_REPLACE", benchCols[0], strConst(`\d+`), strConst("#"))
}
func BenchmarkFuncJSONValue(b *testing.B) {
	benchFunc(b, "JSON_VALUE", benchCols[1], strConst("$.user.name"))
}
func BenchmarkFuncJSONQuery(b *testing.B) {
	benchFunc(b, "JSON_QUERY", benchCols[1], strConst("$.user.tags"))
}
func BenchmarkFuncTemporalDateFormat(b *testing.B) {
	benchFunc(b, "DATE_FORMAT", benchCols[2], strConst("yyyy-MM-dd HH:mm:ss"))
}
func BenchmarkFuncTemporalToTimestamp(b *testing.B) {
	benchFunc(b, "TO_TIMESTAMP", benchCols[0], strConst("yyyy-MM-dd"))
}
