package types

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
)

// Kind names a Fluss data type family.
type Kind int

// The Fluss type families. Scalar kinds come first; Array, Map and Row nest.
const (
	Boolean Kind = iota
	TinyInt
	SmallInt
	Int
	BigInt
	Float
	Double
	Decimal
	Char
	String
	Binary
	Bytes
	Date
	Time
	Timestamp    // TIMESTAMP(p), wall-clock time without a zone
	TimestampLTZ // TIMESTAMP_LTZ(p), an instant (TIMESTAMP WITH LOCAL TIME ZONE)
	Array
	Map
	Row

	kindCount // the number of kinds; keep it last
)

// Kinds returns every kind, in declaration order.
func Kinds() []Kind {
	out := make([]Kind, kindCount)
	for i := range out {
		out[i] = Kind(i)
	}
	return out
}

// Nested reports whether the kind holds other types: ARRAY, MAP or ROW.
func (k Kind) Nested() bool { return k == Array || k == Map || k == Row }

// String returns the SQL name of the kind, e.g. "TIMESTAMP_LTZ".
func (k Kind) String() string {
	if ki, ok := k.info(); ok {
		return ki.name
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// params is the parameter shape of a kind, which decides how its types are
// written in SQL (String) and in Fluss's JSON.
type params int8

const (
	noParams       params = iota
	lengthParam           // CHAR(n), BINARY(n): "length"
	precisionParam        // TIME(p), TIMESTAMP(p), TIMESTAMP_LTZ(p): "precision" 0..9
	decimalParams         // DECIMAL(p, s): "precision" 1..38 and "scale"
	nestedParams          // ARRAY, MAP, ROW: child types
)

// kindInfo is what this package knows about one kind.
type kindInfo struct {
	name   string // SQL name (Kind.String)
	root   string // Fluss JSON "type"
	params params
	// arrow is the Arrow type of a scalar kind in Fluss's ARROW log format
	// (ArrowUtils.toArrowType); nested kinds are in ArrowType.
	arrow func(t DataType) (arrow.DataType, error)
}

// kinds describes every kind. Adding a scalar kind: its constant above, one
// entry here, its codec in fluss/internal/codec (one file) and a sample value in
// that package's codec_test.go.
var kinds = [kindCount]kindInfo{
	Boolean:      {"BOOLEAN", "BOOLEAN", noParams, arrowOf(arrow.FixedWidthTypes.Boolean)},
	TinyInt:      {"TINYINT", "TINYINT", noParams, arrowOf(arrow.PrimitiveTypes.Int8)},
	SmallInt:     {"SMALLINT", "SMALLINT", noParams, arrowOf(arrow.PrimitiveTypes.Int16)},
	Int:          {"INT", "INTEGER", noParams, arrowOf(arrow.PrimitiveTypes.Int32)},
	BigInt:       {"BIGINT", "BIGINT", noParams, arrowOf(arrow.PrimitiveTypes.Int64)},
	Float:        {"FLOAT", "FLOAT", noParams, arrowOf(arrow.PrimitiveTypes.Float32)},
	Double:       {"DOUBLE", "DOUBLE", noParams, arrowOf(arrow.PrimitiveTypes.Float64)},
	Decimal:      {"DECIMAL", "DECIMAL", decimalParams, arrowDecimal},
	Char:         {"CHAR", "CHAR", lengthParam, arrowOf(arrow.BinaryTypes.String)},
	String:       {"STRING", "STRING", noParams, arrowOf(arrow.BinaryTypes.String)},
	Binary:       {"BINARY", "BINARY", lengthParam, arrowFixedSizeBinary},
	Bytes:        {"BYTES", "BYTES", noParams, arrowOf(arrow.BinaryTypes.Binary)},
	Date:         {"DATE", "DATE", noParams, arrowOf(arrow.FixedWidthTypes.Date32)},
	Time:         {"TIME", "TIME_WITHOUT_TIME_ZONE", precisionParam, arrowTime},
	Timestamp:    {"TIMESTAMP", "TIMESTAMP_WITHOUT_TIME_ZONE", precisionParam, arrowTimestamp},
	TimestampLTZ: {"TIMESTAMP_LTZ", "TIMESTAMP_WITH_LOCAL_TIME_ZONE", precisionParam, arrowTimestamp},
	Array:        {"ARRAY", "ARRAY", nestedParams, nil},
	Map:          {"MAP", "MAP", nestedParams, nil},
	Row:          {"ROW", "ROW", nestedParams, nil},
}

// info returns the kindInfo of k; ok is false for an unknown kind.
func (k Kind) info() (kindInfo, bool) {
	if k >= 0 && int(k) < len(kinds) && kinds[k].name != "" {
		return kinds[k], true
	}
	return kindInfo{}, false
}

// params returns k's parameter shape (noParams for an unknown kind).
func (k Kind) params() params {
	ki, _ := k.info()
	return ki.params
}

func arrowOf(at arrow.DataType) func(DataType) (arrow.DataType, error) {
	return func(DataType) (arrow.DataType, error) { return at, nil }
}

func arrowDecimal(t DataType) (arrow.DataType, error) {
	if t.Precision < 1 || t.Precision > 38 || t.Scale < 0 || t.Scale > t.Precision {
		return nil, fmt.Errorf("types: invalid %s", t)
	}
	return &arrow.Decimal128Type{Precision: int32(t.Precision), Scale: int32(t.Scale)}, nil
}

func arrowFixedSizeBinary(t DataType) (arrow.DataType, error) {
	if t.Length < 1 {
		return nil, fmt.Errorf("types: invalid %s", t)
	}
	return &arrow.FixedSizeBinaryType{ByteWidth: t.Length}, nil
}

func arrowTime(t DataType) (arrow.DataType, error) {
	switch unit, err := precisionUnit(t); {
	case err != nil:
		return nil, err
	case unit == arrow.Second:
		return arrow.FixedWidthTypes.Time32s, nil
	case unit == arrow.Millisecond:
		return arrow.FixedWidthTypes.Time32ms, nil
	case unit == arrow.Microsecond:
		return arrow.FixedWidthTypes.Time64us, nil
	default:
		return arrow.FixedWidthTypes.Time64ns, nil
	}
}

func arrowTimestamp(t DataType) (arrow.DataType, error) {
	unit, err := precisionUnit(t)
	if err != nil {
		return nil, err
	}
	return &arrow.TimestampType{Unit: unit}, nil
}
