package flusslake

import (
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/types"
)

// statsRow serializes a BinaryRow of an INT, a short STRING and a null, as Paimon writes
// the minimum or maximum of a file's columns.
func statsRow(id int32, name string) *binaryRow {
	b := make([]byte, 4+8+3*8)
	binary.BigEndian.PutUint32(b, 3)
	row := b[4:]
	row[1] = 1 << 2 // field 2 (bit 10) is null
	binary.LittleEndian.PutUint32(row[8:], uint32(id))
	copy(row[16:], name)
	row[23] = 0x80 | byte(len(name))
	r, err := paimonBinaryRow(b, 3)
	if err != nil {
		panic(err)
	}
	return r
}

func TestPaimonStatsMayMatch(t *testing.T) {
	info := &fluss.TableInfo{Descriptor: fluss.TableDescriptor{Schema: types.Schema{Columns: []types.Column{
		{Name: "id", Type: types.NewInt()}, {Name: "name", Type: types.NewString()}, {Name: "ts", Type: types.NewBigInt()},
		{Name: "other", Type: types.NewInt()}}}}}
	// The file's ids are 10..20, its names "b".."m"; ts has no statistics (null), other none.
	stats := &paimonStats{min: statsRow(10, "b"), max: statsRow(20, "m"),
		cols: []string{"id", "name", "ts"}, types: []string{"INT", "STRING", "BIGINT"}}
	leaf := func(op fluss.PredicateOp, col int, vals ...any) fluss.Predicate {
		return fluss.Predicate{Op: op, Column: col, Values: vals}
	}
	for _, tt := range []struct {
		name string
		in   fluss.Predicate
		want bool
	}{
		{"= inside", leaf(fluss.PredEqual, 0, int32(15)), true},
		{"= at the minimum", leaf(fluss.PredEqual, 0, int64(10)), true},
		{"= below", leaf(fluss.PredEqual, 0, int32(9)), false},
		{"= above", leaf(fluss.PredEqual, 0, int32(21)), false},
		{"< the minimum", leaf(fluss.PredLess, 0, int32(10)), false},
		{"<= the minimum", leaf(fluss.PredLessOrEqual, 0, int32(10)), true},
		{"> the maximum", leaf(fluss.PredGreater, 0, int32(20)), false},
		{">= the maximum", leaf(fluss.PredGreaterOrEqual, 0, int32(20)), true},
		{"IN outside", leaf(fluss.PredIn, 0, int32(1), int32(30)), false},
		{"IN with one inside", leaf(fluss.PredIn, 0, int32(1), int32(12)), true},
		{"string above", leaf(fluss.PredEqual, 1, "z"), false},
		{"string inside", leaf(fluss.PredEqual, 1, "c"), true},
		{"a null statistic rules nothing out", leaf(fluss.PredEqual, 2, int64(-1)), true},
		{"a column without statistics", leaf(fluss.PredEqual, 3, int32(-1)), true},
		{"a value of another type", leaf(fluss.PredEqual, 0, "x"), true},
		{"!= is not used", leaf(fluss.PredNotEqual, 0, int32(15)), true},
		{"AND with one ruled out", fluss.Predicate{Op: fluss.PredAnd, Children: []fluss.Predicate{
			leaf(fluss.PredEqual, 0, int32(15)), leaf(fluss.PredEqual, 1, "z")}}, false},
		{"OR with one possible", fluss.Predicate{Op: fluss.PredOr, Children: []fluss.Predicate{
			leaf(fluss.PredEqual, 0, int32(99)), leaf(fluss.PredEqual, 1, "c")}}, true},
		{"OR with none possible", fluss.Predicate{Op: fluss.PredOr, Children: []fluss.Predicate{
			leaf(fluss.PredEqual, 0, int32(99)), leaf(fluss.PredEqual, 1, "z")}}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, stats.mayMatch(info, tt.in))
		})
	}
}
