package planner

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// manyRowsInsert is a multi-row INSERT of n rows of placeholders and its arguments, numbered
// as database/sql numbers them; argOrdinal(i) gives the i-th argument's Ordinal.
func manyRowsInsert(n int, argOrdinal func(i int) int) (string, []Arg) {
	text := "INSERT INTO partitioned_users VALUES (?, ?, ?)" + strings.Repeat(", (?, ?, ?)", n-1)
	args := make([]Arg, 0, 3*n)
	for r := range n {
		args = append(args, Arg{Value: r}, Arg{Value: "US"}, Arg{Value: int64(r * 10)})
	}
	for i := range args {
		args[i].Ordinal = argOrdinal(i)
	}
	return text, args
}

// TestBindManyRows: every row of a 1,000-row INSERT gets its own arguments, with the
// arguments numbered by database/sql (1, 2, …) and without numbers (by position).
func TestBindManyRows(t *testing.T) {
	for name, ordinal := range map[string]func(int) int{
		"numbered":   func(i int) int { return i + 1 },
		"unnumbered": func(int) int { return 0 },
	} {
		t.Run(name, func(t *testing.T) {
			text, args := manyRowsInsert(1000, ordinal)
			bp, err := Bind(build(t, text), args)
			require.NoError(t, err)
			rows := bp.(*Write).Rows
			require.Len(t, rows, 1000)
			for r, row := range rows {
				require.Equal(t, []any{int32(r), "US", int64(r * 10)}, row.Any(), "row %d", r)
			}
		})
	}
	// Numbered out of order: each placeholder takes the argument with its number.
	text, args := manyRowsInsert(2, func(i int) int { return 6 - i })
	bp, err := Bind(build(t, text), args)
	require.NoError(t, err)
	assert.Equal(t, []any{int32(10), "US", int64(1)}, bp.(*Write).Rows[0].Any(), fmt.Sprint(args))
}

// BenchmarkBindManyRows binds a 1,000-row multi-row INSERT (3,000 placeholders): an argument
// is found by its number, not by a scan of all of them.
func BenchmarkBindManyRows(b *testing.B) {
	text, args := manyRowsInsert(1000, func(i int) int { return i + 1 })
	p := build(b, text)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Bind(p, args); err != nil {
			b.Fatal(err)
		}
	}
}
