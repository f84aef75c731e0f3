package planner

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"time"

	"github.com/flussql/flussql/fluss/datum"
	"github.com/flussql/flussql/fluss/types"
	"github.com/flussql/flussql/parser"
)

// convertArg converts a Go argument for column col of type t. It accepts
// nil, string, []byte, bool, every int and uint type, float32, float64,
// time.Time and the fluss value types (Decimal, Date, Time, TimestampNTZ,
// TimestampLTZ); for ARRAY, MAP and ROW columns see convertComplexArg.
// driver.Valuer values are the driver's business.
func convertArg(col string, t types.DataType, x any, loc *time.Location) (any, error) {
	if t.Kind.Nested() {
		return convertComplexArg(col, t, x, loc)
	}
	switch v := x.(type) {
	case nil:
		return nil, nil
	case string:
		// The common case first: a string for a STRING column is stored as it is (x already
		// holds it: no new boxing), and the error text below is built only when needed.
		if t.Kind == types.String {
			return x, nil
		}
		return fromString(col, t, v, loc, "string "+parser.QuoteString(v))
	case []byte:
		switch t.Kind {
		case types.Binary, types.Bytes:
			return checkBinary(col, t, append([]byte(nil), v...))
		case types.Char, types.String:
			return fromString(col, t, string(v), loc, "")
		}
	case bool:
		if t.Kind == types.Boolean {
			return v, nil
		}
	case int:
		return fromInt(col, t, int64(v))
	case int8:
		return fromInt(col, t, int64(v))
	case int16:
		return fromInt(col, t, int64(v))
	case int32:
		return fromInt(col, t, int64(v))
	case int64:
		return fromInt(col, t, v)
	case uint:
		return fromUint(col, t, uint64(v))
	case uint8:
		return fromInt(col, t, int64(v))
	case uint16:
		return fromInt(col, t, int64(v))
	case uint32:
		return fromInt(col, t, int64(v))
	case uint64:
		return fromUint(col, t, v)
	case float32:
		return fromFloat(col, t, float64(v), 32)
	case float64:
		return fromFloat(col, t, v, 64)
	case time.Time:
		switch t.Kind {
		case types.Date:
			return datum.DateOf(v), nil
		case types.Time:
			return datum.TimeOfDay(v), nil
		case types.Timestamp:
			return datum.TimestampNTZOf(truncate(v, t.Precision)), nil
		case types.TimestampLTZ:
			return datum.TimestampLTZOf(truncate(v, t.Precision)), nil
		}
	case datum.Decimal:
		if t.Kind == types.Decimal {
			return fitDecimal(col, t, decimalRat(v), v.String())
		}
	case datum.Date:
		if t.Kind == types.Date {
			return v, nil
		}
	case datum.Time:
		if t.Kind == types.Time {
			return v, nil
		}
	case datum.TimestampNTZ:
		if t.Kind == types.Timestamp {
			return v, nil
		}
	case datum.TimestampLTZ:
		if t.Kind == types.TimestampLTZ {
			return v, nil
		}
	default:
		return nil, fmt.Errorf("column %q is %s; cannot use a Go %T value", col, typeName(t), x)
	}
	return nil, mismatch(col, t, fmt.Sprintf("%T %s", x, FormatValue(x)))
}

// fromInt converts a Go integer.
func fromInt(col string, t types.DataType, n int64) (any, error) {
	switch t.Kind {
	case types.TinyInt, types.SmallInt, types.Int, types.BigInt:
		return fitInt(col, t, n)
	case types.Float:
		return float32(n), nil
	case types.Double:
		return float64(n), nil
	case types.Decimal:
		return fitDecimal(col, t, new(big.Rat).SetInt64(n), strconv.FormatInt(n, 10))
	}
	return nil, mismatch(col, t, "integer "+strconv.FormatInt(n, 10))
}

// fromUint converts a Go unsigned integer, which may exceed int64.
func fromUint(col string, t types.DataType, n uint64) (any, error) {
	if n <= math.MaxInt64 {
		return fromInt(col, t, int64(n))
	}
	shown := strconv.FormatUint(n, 10)
	switch t.Kind {
	case types.TinyInt, types.SmallInt, types.Int, types.BigInt:
		return nil, outOfRange(col, t, shown)
	case types.Float:
		return float32(n), nil
	case types.Double:
		return float64(n), nil
	case types.Decimal:
		return fitDecimal(col, t, new(big.Rat).SetInt(new(big.Int).SetUint64(n)), shown)
	}
	return nil, mismatch(col, t, "integer "+shown)
}

// fromFloat converts a Go float. Integer columns take integral values in
// range; DECIMAL takes the shortest decimal that reads back as f.
func fromFloat(col string, t types.DataType, f float64, bits int) (any, error) {
	shown := strconv.FormatFloat(f, 'g', -1, bits)
	switch t.Kind {
	case types.Float:
		if !math.IsInf(f, 0) && math.Abs(f) > math.MaxFloat32 {
			return nil, outOfRange(col, t, shown)
		}
		return float32(f), nil
	case types.Double:
		return f, nil
	case types.TinyInt, types.SmallInt, types.Int, types.BigInt:
		if f != math.Trunc(f) || math.IsInf(f, 0) || math.IsNaN(f) {
			return nil, mismatch(col, t, "float "+shown)
		}
		if f < math.MinInt64 || f >= math.MaxInt64 {
			return nil, outOfRange(col, t, shown)
		}
		return fitInt(col, t, int64(f))
	case types.Decimal:
		r, ok := parseRat(shown)
		if !ok {
			return nil, mismatch(col, t, "float "+shown)
		}
		return fitDecimal(col, t, r, shown)
	}
	return nil, mismatch(col, t, "float "+shown)
}
