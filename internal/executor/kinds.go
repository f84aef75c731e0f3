package executor

import (
	"fmt"
	"math"
	"reflect"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/flussql/flussql/fluss/datum"
	"github.com/flussql/flussql/fluss/types"
	"github.com/flussql/flussql/internal/sqlkind"
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
// the kind's SQL name (types.Kind.String). The entries of the scalar kinds are the
// Driver of their internal/sqlkind entry: adding a scalar kind on the driver side is
// its family's file there (kinds_test.go here fails without it).

var (
	typeAny        = reflect.TypeFor[any]()
	typeAnySlice   = reflect.TypeFor[[]any]()
	typeMapEntries = reflect.TypeFor[[]datum.MapEntry]()
)

// kindInfo is what the driver knows about the values of one kind (sqlkind.Driver).
type kindInfo struct {
	// scan and nullScan are ColumnTypeScanType for a NOT NULL and a nullable column.
	scan, nullScan reflect.Type
	// driver is the Go type of the values Next returns.
	driver    reflect.Type
	length    sqlkind.Length
	precision sqlkind.PrecisionShape
	// cell builds, once per batch and column, the converter from an Arrow column of
	// type t (of types.ArrowType(t)) to driver values; nil when arr is not of the
	// kind's Arrow type.
	cell func(t types.DataType, arr arrow.Array) cellFunc
	// slab, if set, is batchCells' converter that avoids an allocation per value;
	// nil when it does not apply (then cell is used).
	slab func(arr arrow.Array) cellFunc
	// value converts a value of the fluss value model; ok is false for another Go type.
	value func(t types.DataType, v any) (any, bool)
}

// kinds describes every kind of types.Kinds.
var kinds = func() []kindInfo {
	out := make([]kindInfo, len(types.Kinds()))
	for _, k := range types.Kinds() {
		if e := sqlkind.Of(k); e != nil {
			d := e.Driver
			out[k] = kindInfo{scan: d.Scan, nullScan: d.NullScan, driver: d.Value, length: d.Length,
				precision: d.Precision, cell: d.Cell, slab: d.Slab, value: d.FromValue}
		}
	}
	out[types.Array] = kindInfo{scan: typeAnySlice, nullScan: typeAnySlice, driver: typeAnySlice}
	out[types.Map] = kindInfo{scan: typeMapEntries, nullScan: typeMapEntries, driver: typeMapEntries}
	out[types.Row] = kindInfo{scan: typeAnySlice, nullScan: typeAnySlice, driver: typeAnySlice}
	return out
}()

// infoOf returns the kindInfo of k; ok is false for an unknown kind.
func infoOf(k types.Kind) (*kindInfo, bool) {
	if uint(k) < uint(len(kinds)) && kinds[k].scan != nil {
		return &kinds[k], true
	}
	return nil, false
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
	case sqlkind.DeclaredLength:
		return int64(t.Length), true
	case sqlkind.UnboundedLength:
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
	case sqlkind.PrecisionScale:
		return int64(t.Precision), int64(t.Scale), true
	case sqlkind.PrecisionOnly:
		return int64(t.Precision), 0, true
	}
	return 0, 0, false
}

// notSupported is the error of an Arrow column that is not of its kind's Arrow type.
func notSupported(t types.DataType, arr arrow.Array) error {
	return fmt.Errorf("flussql: column type %s (Arrow %s) is %w", t, arr.DataType(), ErrNotSupported)
}
