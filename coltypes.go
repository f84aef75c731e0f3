package flussql

import (
	"database/sql"
	"math"
	"reflect"
	"time"

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
// slices, maps and structs with Array, Map and Row (complex.go).

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

// scanType is the Go type a value of t scans into without loss.
func scanType(t types.DataType) reflect.Type {
	null := t.Nullable()
	pick := func(notNull, nullable reflect.Type) reflect.Type {
		if null {
			return nullable
		}
		return notNull
	}
	switch t.Kind {
	case types.Boolean:
		return pick(typeBool, typeNullBool)
	case types.TinyInt:
		return pick(typeInt8, typeNullInt64)
	case types.SmallInt:
		return pick(typeInt16, typeNullInt64)
	case types.Int:
		return pick(typeInt32, typeNullInt64)
	case types.BigInt:
		return pick(typeInt64, typeNullInt64)
	case types.Float:
		return pick(typeFloat32, typeNullFloat64)
	case types.Double:
		return pick(typeFloat64, typeNullFloat64)
	case types.Decimal, types.Char, types.String, types.Time:
		return pick(typeString, typeNullString)
	case types.Binary, types.Bytes:
		return typeBytes
	case types.Date, types.Timestamp, types.TimestampLTZ:
		return pick(typeTime, typeNullTime)
	case types.Array, types.Row:
		return typeAnySlice
	case types.Map:
		return typeMapEntries
	}
	return typeAny
}

// databaseTypeName is the upper-case type name without parameters.
func databaseTypeName(t types.DataType) string { return t.Kind.String() }

// typeLength reports the length of variable-size types.
func typeLength(t types.DataType) (int64, bool) {
	switch t.Kind {
	case types.Char, types.Binary:
		return int64(t.Length), true
	case types.String, types.Bytes:
		return math.MaxInt64, true
	}
	return 0, false
}

// typePrecisionScale reports precision and scale of DECIMAL and the temporal types.
func typePrecisionScale(t types.DataType) (int64, int64, bool) {
	switch t.Kind {
	case types.Decimal:
		return int64(t.Precision), int64(t.Scale), true
	case types.Time, types.Timestamp, types.TimestampLTZ:
		return int64(t.Precision), 0, true
	}
	return 0, 0, false
}
