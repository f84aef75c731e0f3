package executor

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/flussql/flussql/fluss/datum"
	"github.com/flussql/flussql/fluss/types"
)

// cellFunc returns the driver value of row i of a column; nulls are handled by the caller.
type cellFunc func(i int) any

// arrowCell builds, once per batch and column, the converter from an Arrow column of
// Fluss type t to driver values (the kinds table, kinds.go). Strings and bytes are copied
// out of the Arrow buffers.
func arrowCell(t types.DataType, arr arrow.Array) (cellFunc, error) {
	if t.Kind.Nested() {
		return nestedArrowCell(t, arr)
	}
	if ki, ok := infoOf(t.Kind); ok && ki.cell != nil {
		if cell := ki.cell(t, arr); cell != nil {
			return cell, nil
		}
	}
	return nil, notSupported(t, arr)
}

// formatTimeOfDay renders a TIME value with as many fractional digits as its precision
// (at most 3: Fluss stores milliseconds).
func formatTimeOfDay(t time.Time, precision int) string {
	layout := "15:04:05"
	if p := min(precision, 3); p > 0 {
		layout += "." + strings.Repeat("0", p)
	}
	return t.UTC().Format(layout)
}

// valueCell converts one value of the fluss value model (lookups, limit scans) of type t
// to a driver value.
func valueCell(t types.DataType, v any) (any, error) {
	if v == nil {
		return nil, nil
	}
	switch x := v.(type) {
	case bool, int64, float64:
		return x, nil
	case int8:
		return int64(x), nil
	case int16:
		return int64(x), nil
	case int32:
		return int64(x), nil
	case float32:
		return float64(x), nil
	case string:
		return strings.Clone(x), nil
	case []byte:
		return bytes.Clone(x), nil
	case datum.Decimal:
		return x.String(), nil
	case datum.Date:
		return x.Time(), nil
	case datum.Time:
		return formatTimeOfDay(time.UnixMilli(int64(x)), t.Precision), nil
	case datum.TimestampNTZ:
		return x.Time(), nil
	case datum.TimestampLTZ:
		return x.Time(), nil
	case []any, []datum.MapEntry:
		return nestedValue(t, x)
	}
	return nil, fmt.Errorf("flussql: value %T of column type %s is %w", v, t, ErrNotSupported)
}
