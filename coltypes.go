package flussql

import (
	"reflect"

	"github.com/flussql/flussql/fluss/types"
	"github.com/flussql/flussql/internal/executor"
)

// How Fluss types reach database/sql (the table of the README) is one table of kinds in
// internal/executor/kinds.go; these are the driver's column-type answers from it.

var typeBytes = reflect.TypeFor[[]byte]()

// scanType is the Go type a value of t scans into without loss.
func scanType(t types.DataType) reflect.Type { return executor.ScanType(t) }

// databaseTypeName is the upper-case type name without parameters.
func databaseTypeName(t types.DataType) string { return t.Kind.String() }

// typeLength reports the length of variable-size types.
func typeLength(t types.DataType) (int64, bool) { return executor.TypeLength(t) }

// typePrecisionScale reports precision and scale of DECIMAL and the temporal types.
func typePrecisionScale(t types.DataType) (int64, int64, bool) {
	return executor.TypePrecisionScale(t)
}
