package engine

import (
	"encoding/hex"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/flussql/flussql/fluss/types"
)

// FormatValue renders a value of type t in the value model as a SQL
// literal, e.g. 42, 'US', 1.50, DATE '2024-01-01' or NULL.
func FormatValue(t types.DataType, v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case bool:
		return strings.ToUpper(strconv.FormatBool(x))
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case decimal128.Num:
		return x.ToString(int32(t.Scale))
	case string:
		return "'" + strings.ReplaceAll(x, "'", "''") + "'"
	case []byte:
		return "X'" + hex.EncodeToString(x) + "'"
	case int32:
		return "DATE '" + time.Unix(int64(x)*86400, 0).UTC().Format("2006-01-02") + "'"
	}
	return "?"
}
