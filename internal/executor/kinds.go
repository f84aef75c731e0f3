package executor

import (
	"bytes"
	"database/sql"
	"fmt"
	"math"
	"reflect"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/flussql/flussql/fluss/datum"
	"github.com/flussql/flussql/fluss/types"
)

// The one table of how Fluss types reach database/sql (also in the README):
//
//	Fluss            Next returns              ScanType (NOT NULL / nullable)   DatabaseTypeName
//	BOOLEAN          bool                      bool / sql.NullBool              BOOLEAN
//	TINYINT…BIGINT   int64                     int8…int64 / sql.NullInt64       TINYINT…BIGINT
//	FLOAT, DOUBLE    float64                   float32, float64 / NullFloat64   FLOAT, DOUBLE
//	DECIMAL(p,s)     string (exact, s digits)  string / sql.NullString          DECIMAL
//	CHAR(n), STRING  string (a copy)           string / sql.NullString          CHAR, STRING
//	BINARY(n), BYTES []byte (a copy)           []byte                           BINARY, BYTES
//	DATE             time.Time, UTC midnight   time.Time / sql.NullTime         DATE
//	TIME(p)          string "15:04:05[.fff]"   string / sql.NullString          TIME
//	TIMESTAMP(p)     time.Time, wall clock as UTC      time.Time / sql.NullTime TIMESTAMP
//	TIMESTAMP_LTZ(p) time.Time, the instant in UTC     time.Time / sql.NullTime TIMESTAMP_LTZ
//
//	ARRAY<T>         []any of T's values           []any                    ARRAY
//	MAP<K, V>        []datum.MapEntry              []datum.MapEntry         MAP
//	ROW<…>           []any, the fields in order    []any                    ROW
//
// DECIMAL is returned as text so that no digit is lost; scan it into a string, or into a
// float64 when rounding is acceptable. Elements of ARRAY, MAP and ROW values are what
// Next returns for their type (int64 for an INT element, …); scan them into typed Go
// slices, maps and structs with Array, Map and Row (complex.go of package flussql).
//
// The table kinds below holds these facts, one entry per kind; DatabaseTypeName is
// the kind's SQL name (types.Kind.String). Adding a scalar kind on the driver side is
// one entry here (its completeness test, kinds_test.go, fails without it).

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
	typeAny         = reflect.TypeFor[any]()
	typeAnySlice    = reflect.TypeFor[[]any]()
	typeMapEntries  = reflect.TypeFor[[]datum.MapEntry]()
)

// lengthShape says what ColumnTypeLength reports for a kind.
type lengthShape int8

const (
	noLength        lengthShape = iota
	declaredLength              // CHAR(n), BINARY(n): n
	unboundedLength             // STRING, BYTES: math.MaxInt64
)

// precisionShape says what ColumnTypePrecisionScale reports for a kind.
type precisionShape int8

const (
	noPrecision    precisionShape = iota
	precisionScale                // DECIMAL(p, s): p, s
	precisionOnly                 // TIME(p), TIMESTAMP(p), TIMESTAMP_LTZ(p): p, 0
)

// kindInfo is what the driver knows about the values of one kind.
type kindInfo struct {
	// scan and nullScan are ColumnTypeScanType for a NOT NULL and a nullable column.
	scan, nullScan reflect.Type
	// driver is the Go type of the values Next returns.
	driver    reflect.Type
	length    lengthShape
	precision precisionShape
	// cell builds, once per batch and column, the converter from an Arrow column of
	// type t (of types.ArrowType(t)) to driver values; nil when arr is not of the
	// kind's Arrow type. Strings and bytes are copied out of the Arrow buffers.
	cell func(t types.DataType, arr arrow.Array) cellFunc
	// slab, if set, is batchCells' converter that avoids an allocation per value;
	// nil when it does not apply (then cell is used).
	slab func(arr arrow.Array) cellFunc
}

// kinds describes every kind of types.Kinds.
var kinds = [...]kindInfo{
	types.Boolean: {scan: typeBool, nullScan: typeNullBool, driver: typeBool,
		cell: booleanCell},
	types.TinyInt: {scan: typeInt8, nullScan: typeNullInt64, driver: typeInt64,
		cell: tinyIntCell,
		slab: slabOf(func(a *array.Int8) cellFunc {
			return int64Slab(a.Len(), func(i int) int64 { return int64(a.Value(i)) })
		})},
	types.SmallInt: {scan: typeInt16, nullScan: typeNullInt64, driver: typeInt64,
		cell: smallIntCell,
		slab: slabOf(func(a *array.Int16) cellFunc {
			return int64Slab(a.Len(), func(i int) int64 { return int64(a.Value(i)) })
		})},
	types.Int: {scan: typeInt32, nullScan: typeNullInt64, driver: typeInt64,
		cell: intCell,
		slab: slabOf(func(a *array.Int32) cellFunc {
			vals := a.Int32Values()
			return int64Slab(a.Len(), func(i int) int64 { return int64(vals[i]) })
		})},
	types.BigInt: {scan: typeInt64, nullScan: typeNullInt64, driver: typeInt64,
		cell: bigIntCell,
		slab: slabOf(func(a *array.Int64) cellFunc {
			vals := a.Int64Values()
			return int64Slab(a.Len(), func(i int) int64 { return vals[i] })
		})},
	types.Float: {scan: typeFloat32, nullScan: typeNullFloat64, driver: typeFloat64,
		cell: floatCell,
		slab: slabOf(func(a *array.Float32) cellFunc {
			vals := a.Float32Values()
			return float64Slab(a.Len(), func(i int) float64 { return float64(vals[i]) })
		})},
	types.Double: {scan: typeFloat64, nullScan: typeNullFloat64, driver: typeFloat64,
		cell: doubleCell,
		slab: slabOf(func(a *array.Float64) cellFunc {
			vals := a.Float64Values()
			return float64Slab(a.Len(), func(i int) float64 { return vals[i] })
		})},
	types.Decimal: {scan: typeString, nullScan: typeNullString, driver: typeString, precision: precisionScale,
		cell: decimalCell},
	types.Char: {scan: typeString, nullScan: typeNullString, driver: typeString, length: declaredLength,
		cell: stringCell, slab: stringSlabOf},
	types.String: {scan: typeString, nullScan: typeNullString, driver: typeString, length: unboundedLength,
		cell: stringCell, slab: stringSlabOf},
	types.Binary: {scan: typeBytes, nullScan: typeBytes, driver: typeBytes, length: declaredLength,
		cell: binaryCell},
	types.Bytes: {scan: typeBytes, nullScan: typeBytes, driver: typeBytes, length: unboundedLength,
		cell: bytesCell},
	types.Date: {scan: typeTime, nullScan: typeNullTime, driver: typeTime,
		cell: dateCell},
	types.Time: {scan: typeString, nullScan: typeNullString, driver: typeString, precision: precisionOnly,
		cell: timeCell},
	types.Timestamp: {scan: typeTime, nullScan: typeNullTime, driver: typeTime, precision: precisionOnly,
		cell: timestampCell},
	types.TimestampLTZ: {scan: typeTime, nullScan: typeNullTime, driver: typeTime, precision: precisionOnly,
		cell: timestampCell},
	types.Array: {scan: typeAnySlice, nullScan: typeAnySlice, driver: typeAnySlice},
	types.Map:   {scan: typeMapEntries, nullScan: typeMapEntries, driver: typeMapEntries},
	types.Row:   {scan: typeAnySlice, nullScan: typeAnySlice, driver: typeAnySlice},
}

// infoOf returns the kindInfo of k; ok is false for an unknown kind.
func infoOf(k types.Kind) (*kindInfo, bool) {
	if uint(k) < uint(len(kinds)) && kinds[k].scan != nil {
		return &kinds[k], true
	}
	return nil, false
}

// slabOf makes a kindInfo.slab from a slab builder for Arrow array type A.
func slabOf[A arrow.Array](build func(a A) cellFunc) func(arrow.Array) cellFunc {
	return func(arr arrow.Array) cellFunc {
		if a, ok := arr.(A); ok {
			return build(a)
		}
		return nil
	}
}

// The cell converters of the scalar kinds: each closure converts one value directly
// (no further call through a function value per value).

func booleanCell(_ types.DataType, arr arrow.Array) cellFunc {
	a, ok := arr.(*array.Boolean)
	if !ok {
		return nil
	}
	return func(i int) any { return a.Value(i) }
}

func tinyIntCell(_ types.DataType, arr arrow.Array) cellFunc {
	a, ok := arr.(*array.Int8)
	if !ok {
		return nil
	}
	return func(i int) any { return int64(a.Value(i)) }
}

func smallIntCell(_ types.DataType, arr arrow.Array) cellFunc {
	a, ok := arr.(*array.Int16)
	if !ok {
		return nil
	}
	return func(i int) any { return int64(a.Value(i)) }
}

func intCell(_ types.DataType, arr arrow.Array) cellFunc {
	a, ok := arr.(*array.Int32)
	if !ok {
		return nil
	}
	return func(i int) any { return int64(a.Value(i)) }
}

func bigIntCell(_ types.DataType, arr arrow.Array) cellFunc {
	a, ok := arr.(*array.Int64)
	if !ok {
		return nil
	}
	return func(i int) any { return a.Value(i) }
}

func floatCell(_ types.DataType, arr arrow.Array) cellFunc {
	a, ok := arr.(*array.Float32)
	if !ok {
		return nil
	}
	return func(i int) any { return float64(a.Value(i)) }
}

func doubleCell(_ types.DataType, arr arrow.Array) cellFunc {
	a, ok := arr.(*array.Float64)
	if !ok {
		return nil
	}
	return func(i int) any { return a.Value(i) }
}

func binaryCell(_ types.DataType, arr arrow.Array) cellFunc {
	a, ok := arr.(*array.FixedSizeBinary)
	if !ok {
		return nil
	}
	return func(i int) any { return bytes.Clone(a.Value(i)) }
}

func bytesCell(_ types.DataType, arr arrow.Array) cellFunc {
	a, ok := arr.(*array.Binary)
	if !ok {
		return nil
	}
	return func(i int) any { return bytes.Clone(a.Value(i)) }
}

func dateCell(_ types.DataType, arr arrow.Array) cellFunc {
	a, ok := arr.(*array.Date32)
	if !ok {
		return nil
	}
	return func(i int) any { return a.Value(i).ToTime() }
}

func stringCell(_ types.DataType, arr arrow.Array) cellFunc {
	a, ok := arr.(*array.String)
	if !ok {
		return nil
	}
	return func(i int) any { return strings.Clone(a.Value(i)) }
}

func stringSlabOf(arr arrow.Array) cellFunc {
	if a, ok := arr.(*array.String); ok {
		return stringSlab(a)
	}
	return nil
}

func decimalCell(_ types.DataType, arr arrow.Array) cellFunc {
	a, ok := arr.(*array.Decimal128)
	if !ok {
		return nil
	}
	scale := a.DataType().(*arrow.Decimal128Type).Scale
	return func(i int) any { return a.Value(i).ToString(scale) }
}

// timeCell converts TIME columns: Time32 for precisions up to 3, Time64 above.
func timeCell(t types.DataType, arr arrow.Array) cellFunc {
	switch a := arr.(type) {
	case *array.Time32:
		unit := a.DataType().(*arrow.Time32Type).Unit
		return func(i int) any { return formatTimeOfDay(a.Value(i).ToTime(unit), t.Precision) }
	case *array.Time64:
		unit := a.DataType().(*arrow.Time64Type).Unit
		return func(i int) any { return formatTimeOfDay(a.Value(i).ToTime(unit), t.Precision) }
	}
	return nil
}

func timestampCell(_ types.DataType, arr arrow.Array) cellFunc {
	a, ok := arr.(*array.Timestamp)
	if !ok {
		return nil
	}
	toTime, err := a.DataType().(*arrow.TimestampType).GetToTimeFunc()
	if err != nil {
		return nil // not a unit of ours: reported as not supported
	}
	return func(i int) any { return toTime(a.Value(i)).UTC() }
}

// ScanType is the Go type a value of t scans into without loss
// (driver.RowsColumnTypeScanType).
func ScanType(t types.DataType) reflect.Type {
	ki, ok := infoOf(t.Kind)
	switch {
	case !ok:
		return typeAny
	case t.Nullable():
		return ki.nullScan
	default:
		return ki.scan
	}
}

// TypeLength reports the length of variable-size types (driver.RowsColumnTypeLength).
func TypeLength(t types.DataType) (int64, bool) {
	ki, ok := infoOf(t.Kind)
	if !ok {
		return 0, false
	}
	switch ki.length {
	case declaredLength:
		return int64(t.Length), true
	case unboundedLength:
		return math.MaxInt64, true
	}
	return 0, false
}

// TypePrecisionScale reports precision and scale of DECIMAL and the temporal types
// (driver.RowsColumnTypePrecisionScale).
func TypePrecisionScale(t types.DataType) (int64, int64, bool) {
	ki, ok := infoOf(t.Kind)
	if !ok {
		return 0, 0, false
	}
	switch ki.precision {
	case precisionScale:
		return int64(t.Precision), int64(t.Scale), true
	case precisionOnly:
		return int64(t.Precision), 0, true
	}
	return 0, 0, false
}

// notSupported is the error of an Arrow column that is not of its kind's Arrow type.
func notSupported(t types.DataType, arr arrow.Array) error {
	return fmt.Errorf("flussql: column type %s (Arrow %s) is %w", t, arr.DataType(), ErrNotSupported)
}
