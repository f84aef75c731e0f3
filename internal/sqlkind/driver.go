package sqlkind

import (
	"database/sql"
	"reflect"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/flussql/flussql/fluss/types"
)

// Cell returns the driver value of row i of an Arrow column; nulls are the caller's.
type Cell = func(i int) any

// Length says what driver.RowsColumnTypeLength reports for a kind.
type Length int8

// The length shapes.
const (
	NoLength        Length = iota
	DeclaredLength         // CHAR(n), BINARY(n): n
	UnboundedLength        // STRING, BYTES: math.MaxInt64
)

// PrecisionShape says what driver.RowsColumnTypePrecisionScale reports for a kind.
type PrecisionShape int8

// The precision shapes.
const (
	NoPrecision    PrecisionShape = iota
	PrecisionScale                // DECIMAL(p, s): p, s
	PrecisionOnly                 // TIME(p), TIMESTAMP(p), TIMESTAMP_LTZ(p): p, 0
)

// Driver is how the values of a kind reach database/sql (internal/executor's table
// of the driver's column facts, and the README's).
type Driver struct {
	// Scan and NullScan are ColumnTypeScanType for a NOT NULL and a nullable column.
	Scan, NullScan reflect.Type
	// Value is the Go type of the values Next returns.
	Value reflect.Type
	// Length and Precision are what ColumnTypeLength and ColumnTypePrecisionScale report.
	Length    Length
	Precision PrecisionShape
	// Cell builds, once per batch and column, the converter from an Arrow column of
	// type t (of types.ArrowType(t)) to driver values; nil when arr is not of the
	// kind's Arrow type. Strings and bytes are copied out of the Arrow buffers.
	Cell func(t types.DataType, arr arrow.Array) Cell
	// Slab, if set, is a converter like Cell that avoids an allocation per value
	// (slab.go); nil when it does not apply (then Cell is used).
	Slab func(arr arrow.Array) Cell
	// FromValue converts a value of the fluss value model (lookups, limit scans) of
	// type t to a driver value; ok is false for a value of another Go type.
	FromValue func(t types.DataType, v any) (out any, ok bool)
}

var (
	typeBool        = reflect.TypeFor[bool]()
	typeInt8        = reflect.TypeFor[int8]()
	typeInt16       = reflect.TypeFor[int16]()
	typeInt32       = reflect.TypeFor[int32]()
	typeInt64       = reflect.TypeFor[int64]()
	typeFloat32     = reflect.TypeFor[float32]()
	typeFloat64     = reflect.TypeFor[float64]()
	typeString      = reflect.TypeFor[string]()
	typeBytes       = reflect.TypeFor[[]byte]()
	typeTime        = reflect.TypeFor[time.Time]()
	typeNullBool    = reflect.TypeFor[sql.NullBool]()
	typeNullInt64   = reflect.TypeFor[sql.NullInt64]()
	typeNullFloat64 = reflect.TypeFor[sql.NullFloat64]()
	typeNullString  = reflect.TypeFor[sql.NullString]()
	typeNullTime    = reflect.TypeFor[sql.NullTime]()
)

// cellOf makes a Driver.Cell for the Arrow array type A.
func cellOf[A arrow.Array](build func(t types.DataType, a A) Cell) func(types.DataType, arrow.Array) Cell {
	return func(t types.DataType, arr arrow.Array) Cell {
		if a, ok := arr.(A); ok {
			return build(t, a)
		}
		return nil
	}
}

// slabOf makes a Driver.Slab for the Arrow array type A.
func slabOf[A arrow.Array](build func(a A) Cell) func(arrow.Array) Cell {
	return func(arr arrow.Array) Cell {
		if a, ok := arr.(A); ok {
			return build(a)
		}
		return nil
	}
}
