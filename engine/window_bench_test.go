package engine

import (
	"context"
	"fmt"
	"io"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

// replayInput feeds the same batches again at every run (retained, so the
// operator's releases leave them alive).
type replayInput struct {
	batches []arrow.RecordBatch
	i       int
}

func (r *replayInput) Next() (arrow.RecordBatch, error) {
	if r.i >= len(r.batches) {
		return nil, io.EOF
	}
	b := r.batches[r.i]
	r.i++
	b.Retain()
	return b, nil
}

func (r *replayInput) Close() {}

// BenchmarkWindowTopN runs ROW_NUMBER() OVER (PARTITION BY k ORDER BY t
// DESC) … WHERE rn <= 3 over 100 partitions and growing inputs, under a
// 256 KiB budget the full window would outgrow by far: the top-N's state
// is partitions × N rows whatever the input's size, and its allocations
// per run (B/op) do not grow with the rows either beyond reading them. The
// full window (PerPartition 0, no budget) is measured for comparison.
func BenchmarkWindowTopN(b *testing.B) {
	const partitions, perPart = 100, 3
	for _, rows := range []int{10_000, 100_000, 1_000_000} {
		var batches []arrow.RecordBatch
		for start := 0; start < rows; start += 4096 {
			n := min(4096, rows-start)
			data := make([][]any, n)
			for i := range data {
				r := start + i
				data[i] = []any{fmt.Sprint("p", r%partitions), int64(r * 7919 % 100_003), int64(r)}
			}
			batches = append(batches, batchOf(b, memory.DefaultAllocator, winCols, data))
		}
		for _, per := range []int64{perPart, 0} {
			name := fmt.Sprintf("topN/rows=%d", rows)
			budget := &Budget{Limit: 256 << 10, Setting: "query_memory"}
			if per == 0 {
				if rows > 100_000 {
					continue
				}
				name, budget = fmt.Sprintf("fullWindow/rows=%d", rows), nil
			}
			b.Run(name, func(b *testing.B) {
				f, err := NewWindowFunc("ROW_NUMBER", nil, 0, nil, DefaultFrame)
				require.NoError(b, err)
				n := &Window{Input: &Input{Cols: winCols}, Partition: []Expr{wk},
					Order: []WindowOrder{{Expr: wt, Desc: true}}, Funcs: []*WindowFunc{f}, Names: []string{"rn"}, PerPartition: per}
				b.ReportAllocs()
				for b.Loop() {
					op, err := Build(context.Background(), n, &replayInput{batches: batches}, Options{Budget: budget})
					require.NoError(b, err)
					out, err := drainRows(op)
					require.NoError(b, err)
					if per > 0 {
						require.Len(b, out, partitions*perPart)
					}
				}
			})
		}
		for _, bt := range batches {
			bt.Release()
		}
	}
}
