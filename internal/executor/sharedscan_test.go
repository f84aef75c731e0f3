package executor

import (
	"errors"
	"io"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/engine"
)

// sharedBatches makes n batches of rows rows with columns a (row number), b (-row number)
// and c (row number times 10).
func sharedBatches(t *testing.T, n, rows int) []arrow.RecordBatch {
	t.Helper()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "a", Type: arrow.PrimitiveTypes.Int64},
		{Name: "b", Type: arrow.PrimitiveTypes.Int64},
		{Name: "c", Type: arrow.PrimitiveTypes.Int64},
	}, nil)
	var out []arrow.RecordBatch
	for i := range n {
		b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
		for r := range rows {
			v := int64(i*rows + r)
			b.Field(0).(*array.Int64Builder).Append(v)
			b.Field(1).(*array.Int64Builder).Append(-v)
			b.Field(2).(*array.Int64Builder).Append(v * 10)
		}
		out = append(out, b.NewRecordBatch())
		b.Release()
	}
	return out
}

// drainColumn reads in to the end and returns column 0 of every row and the number of
// columns of its batches.
func drainColumn(t *testing.T, in engine.Operator) ([]int64, int) {
	t.Helper()
	var vals []int64
	width := -1
	for {
		rec, err := in.Next()
		if errors.Is(err, io.EOF) {
			return vals, width
		}
		require.NoError(t, err)
		width = int(rec.NumCols())
		vals = append(vals, rec.Column(0).(*array.Int64).Int64Values()...)
		rec.Release()
	}
}

func TestSharedScanReadersReadOneAfterAnother(t *testing.T) {
	budget := &engine.Budget{Limit: 1 << 20}
	s := newSharedScan(&batchInput{batches: sharedBatches(t, 4, 10)}, budget, "shared scan of t")
	opened := 0
	own := func() (engine.Operator, error) { opened++; return &batchInput{batches: sharedBatches(t, 4, 10)}, nil }
	first := s.reader([]int{2, 0}, own)
	second := s.reader([]int{1}, own)
	third := s.reader([]int{0, 1, 2}, own)

	c, width := drainColumn(t, first)
	require.Len(t, c, 40)
	require.Equal(t, 2, width)
	require.Equal(t, int64(390), c[39])
	require.Positive(t, budget.Used(), "the batches wait for the other two readers")

	b, width := drainColumn(t, second)
	require.Equal(t, 1, width)
	require.Equal(t, int64(-39), b[39])
	a, width := drainColumn(t, third)
	require.Equal(t, 3, width)
	require.Equal(t, int64(39), a[39])
	require.Zero(t, budget.Used(), "every held batch is given back once all have read it")
	require.Zero(t, opened, "nobody read the table again")
	first.Close()
	second.Close()
	third.Close()
}

func TestSharedScanReadersNotStartedReadAgainOverHalfTheBudget(t *testing.T) {
	batches := sharedBatches(t, 8, 100) // 1,600 bytes a batch
	budget := &engine.Budget{Limit: 6000, Setting: "query_memory"}
	s := newSharedScan(&batchInput{batches: batches}, budget, "shared scan of t")
	opened := 0
	own := func() (engine.Operator, error) { opened++; return &batchInput{batches: sharedBatches(t, 8, 100)}, nil }
	first := s.reader([]int{0}, own)
	second := s.reader([]int{1}, own)

	a, _ := drainColumn(t, first)
	require.Len(t, a, 800)
	require.Zero(t, budget.Used(), "the reader behind stopped sharing: nothing is held")
	b, _ := drainColumn(t, second)
	require.Len(t, b, 800)
	require.Equal(t, int64(799), b[799], "the rows of its own read (all columns here)")
	require.Equal(t, 1, opened, "the reader behind read the table itself")
	first.Close()
	second.Close()
}

func TestSharedScanReaderBehindOverBudgetFails(t *testing.T) {
	budget := &engine.Budget{Limit: 6000, Setting: "query_memory"}
	s := newSharedScan(&batchInput{batches: sharedBatches(t, 8, 100)}, budget, "shared scan of t")
	own := func() (engine.Operator, error) { return nil, errors.New("not expected") }
	first := s.reader([]int{0}, own)
	second := s.reader([]int{1}, own)
	rec, err := second.Next() // started: it cannot stop sharing any more
	require.NoError(t, err)
	rec.Release()
	var memErr *engine.MemoryError
	for err == nil {
		rec, err = first.Next()
		if err == nil {
			rec.Release()
		}
	}
	require.ErrorAs(t, err, &memErr)
	require.Contains(t, err.Error(), "shared scan of t")
	first.Close()
	second.Close()
	require.Zero(t, budget.Used())
}

func TestSharedScanPrefilteredReaderHoldsOnlyItsRows(t *testing.T) {
	batches := sharedBatches(t, 8, 100) // 1,600 bytes a batch: whole, they pass half the budget
	budget := &engine.Budget{Limit: 6000, Setting: "query_memory"}
	s := newSharedScan(&batchInput{batches: batches}, budget, "shared scan of t")
	opened := 0
	own := func() (engine.Operator, error) { opened++; return &batchInput{batches: sharedBatches(t, 8, 100)}, nil }
	first := s.reader([]int{0}, own)
	second := s.reader([]int{2, 1}, own)
	var filtered int
	second.Prefilter(func(b arrow.RecordBatch) (arrow.RecordBatch, error) { // c (the reader's column 0) divisible by 70
		filtered++
		idx := array.NewInt64Builder(memory.DefaultAllocator)
		defer idx.Release()
		for r, v := range b.Column(0).(*array.Int64).Int64Values() {
			if v%70 == 0 {
				idx.Append(int64(r))
			}
		}
		keep := idx.NewInt64Array()
		defer keep.Release()
		cols := make([]arrow.Array, b.NumCols())
		for i := range cols {
			vals := b.Column(i).(*array.Int64).Int64Values()
			out := array.NewInt64Builder(memory.DefaultAllocator)
			for _, r := range keep.Int64Values() {
				out.Append(vals[r])
			}
			cols[i] = out.NewInt64Array()
			out.Release()
		}
		rec := array.NewRecordBatch(b.Schema(), cols, int64(keep.Len()))
		for _, c := range cols {
			c.Release()
		}
		return rec, nil
	})

	a, _ := drainColumn(t, first)
	require.Len(t, a, 800)
	require.Equal(t, 8, filtered, "every batch is filtered once, when it is held")
	require.Positive(t, budget.Used(), "the kept rows wait for the second reader")
	require.Less(t, budget.Used(), budget.Limit/2, "and they stay under half the budget, where whole batches would not")

	c, width := drainColumn(t, second)
	require.Equal(t, 2, width, "the reader's own columns")
	var want []int64
	for v := int64(0); v < 8000; v += 70 {
		want = append(want, v)
	}
	require.Equal(t, want, c, "the rows the filter kept, column c first")
	require.Zero(t, opened, "the reader behind still shares the scan")
	require.Zero(t, budget.Used())
	first.Close()
	second.Close()
}
