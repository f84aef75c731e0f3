package executor

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/flussql/flussql/fluss/types"
)

// Handing a value to database/sql boxes it in an interface, and boxing an int64, a
// float64 or a string allocates for each value. batchCells avoids that for the common
// scalar columns with their kind's slab converter (internal/sqlkind, slab.go): one
// allocation per column and batch.

// batchCells returns the converter of one batch's column to driver values, like
// arrowCell, without an allocation per value for integer, floating-point and (short)
// string columns.
func batchCells(t types.DataType, arr arrow.Array) (cellFunc, error) {
	if t.Kind.Nested() {
		return arrowCell(t, arr)
	}
	if ki, ok := infoOf(t.Kind); ok && ki.slab != nil {
		if cell := ki.slab(arr); cell != nil {
			return cell, nil
		}
	}
	return arrowCell(t, arr)
}
