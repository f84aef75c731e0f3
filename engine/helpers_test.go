package engine

import (
	"context"
	"io"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/types"
)

// sliceInput feeds batches built from rows; it counts Close calls.
type sliceInput struct {
	batches []arrow.RecordBatch
	closed  int
	read    int
}

func (s *sliceInput) Next() (arrow.RecordBatch, error) {
	if s.closed > 0 || s.read >= len(s.batches) {
		return nil, io.EOF
	}
	b := s.batches[s.read]
	s.batches[s.read] = nil
	s.read++
	return b, nil
}

func (s *sliceInput) Close() {
	s.closed++
	for _, b := range s.batches {
		if b != nil {
			b.Release()
		}
	}
	s.batches = nil
}

// batchOf builds one batch of cols from rows in the value model.
func batchOf(t testing.TB, mem memory.Allocator, cols []Column, rows [][]any) arrow.RecordBatch {
	schema, err := schemaOf(cols)
	require.NoError(t, err)
	arrs := make([]arrow.Array, len(cols))
	for i, c := range cols {
		vals := make([]any, len(rows))
		for r, row := range rows {
			vals[r] = row[i]
		}
		a, err := buildArray(mem, c.Type, vals)
		require.NoError(t, err)
		arrs[i] = a
	}
	defer releaseAll(arrs)
	return arrowRecord(schema, arrs, int64(len(rows)))
}

// input splits rows into batches of size per.
func input(t testing.TB, mem memory.Allocator, cols []Column, rows [][]any, per int) *sliceInput {
	in := &sliceInput{}
	for len(rows) > 0 {
		n := min(per, len(rows))
		in.batches = append(in.batches, batchOf(t, mem, cols, rows[:n]))
		rows = rows[n:]
	}
	return in
}

// run executes a plan over rows and returns the result rows.
func run(t testing.TB, n Node, rows [][]any, per int, budget *Budget) ([][]any, error) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	var in *sliceInput
	if leaf := leafInput(n); leaf != nil {
		in = input(t, mem, leaf.Cols, rows, per)
	}
	var src Operator
	if in != nil {
		src = in
	}
	op, err := Build(context.Background(), n, src, Options{Mem: mem, Budget: budget})
	if err != nil {
		return nil, err
	}
	out, err := drainRows(op)
	if in != nil {
		in.Close()
	}
	return out, err
}

func leafInput(n Node) *Input {
	if in, ok := n.(*Input); ok {
		return in
	}
	for _, c := range n.Inputs() {
		if in := leafInput(c); in != nil {
			return in
		}
	}
	return nil
}

func col(i int, name string, t types.DataType) *Col { return &Col{Index: i, Name: name, T: t} }

func intConst(v int64) *Const { return &Const{Value: v, T: types.NewInt().AsNotNull()} }

func strConst(s string) *Const { return &Const{Value: s, T: types.NewString().AsNotNull()} }

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// testCols and testRows are the sample input most tests use.
var testCols = []Column{{"a", types.NewInt()}, {"s", types.NewString()}, {"d", types.NewDouble()}}

var testRows = [][]any{
	{int64(3), "x", 1.5},
	{nil, "y", 2.0},
	{int64(1), nil, nil},
	{int64(3), "x", -0.5},
	{int64(2), "z", 4.25},
}

// drainRows runs op to its end and returns its batches as rows of Go values.
func drainRows(op Operator) ([][]any, error) {
	var out [][]any
	err := Drain(op, func(b arrow.RecordBatch) error {
		cols := make([][]any, b.NumCols())
		for i, c := range b.Columns() {
			v, err := values(c)
			if err != nil {
				return err
			}
			cols[i] = v
		}
		for r := range int(b.NumRows()) {
			row := make([]any, b.NumCols())
			for i := range row {
				row[i] = cols[i][r]
			}
			out = append(out, row)
		}
		return nil
	})
	return out, err
}
