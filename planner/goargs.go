package planner

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/flussql/flussql/fluss/types"
	"github.com/flussql/flussql/internal/sqlkind"
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
		if k := sqlkind.Of(t.Kind); k != nil && k.Bytes != nil {
			return k.Bytes(col, t, v, loc)
		}
	case bool:
		if k := sqlkind.Of(t.Kind); k != nil && k.Bool != nil {
			return k.Bool(v), nil
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
		if k := sqlkind.Of(t.Kind); k != nil && k.Time != nil {
			return k.Time(t, v), nil
		}
	default:
		if sqlkind.OfValue(x) == nil { // not one of the fluss value types (datum.Decimal, datum.Date, …)
			return nil, fmt.Errorf("column %q is %s; cannot use a Go %T value", col, typeName(t), x)
		}
		if k := sqlkind.Of(t.Kind); k != nil && k.Datum != nil {
			if c, err := k.Datum(col, t, x); err != sqlkind.ErrNoFit {
				return c, err
			}
		}
	}
	return nil, mismatch(col, t, fmt.Sprintf("%T %s", x, FormatValue(x)))
}

// fromInt converts a Go integer.
func fromInt(col string, t types.DataType, n int64) (any, error) {
	if k := sqlkind.Of(t.Kind); k != nil && k.Int != nil {
		return k.Int(col, t, n)
	}
	return nil, mismatch(col, t, "integer "+strconv.FormatInt(n, 10))
}

// fromUint converts a Go unsigned integer, which may exceed int64.
func fromUint(col string, t types.DataType, n uint64) (any, error) {
	if n <= math.MaxInt64 {
		return fromInt(col, t, int64(n))
	}
	if k := sqlkind.Of(t.Kind); k != nil && k.Uint != nil {
		return k.Uint(col, t, n)
	}
	return nil, mismatch(col, t, "integer "+strconv.FormatUint(n, 10))
}

// fromFloat converts a Go float. Integer columns take integral values in
// range; DECIMAL takes the shortest decimal that reads back as f.
func fromFloat(col string, t types.DataType, f float64, bits int) (any, error) {
	if k := sqlkind.Of(t.Kind); k != nil && k.Float != nil {
		return k.Float(col, t, f, bits)
	}
	return nil, mismatch(col, t, "float "+strconv.FormatFloat(f, 'g', -1, bits))
}
