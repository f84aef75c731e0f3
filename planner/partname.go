package planner

import (
	"encoding/hex"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/types"
)

// partitionString renders a partition value the way Fluss names
// partitions (Java PartitionUtils.convertValueOfType, fluss 0.9.1):
// strings as they are, booleans true/false, integers in decimal, bytes as
// lower-case hex, DATE yyyy-MM-dd, TIME HH-mm-ss_SSS, FLOAT/DOUBLE Java's
// toString with '.' as '_', TIMESTAMP[_LTZ] yyyy-MM-dd-HH-mm-ss_<nanos
// without trailing zeros> (UTC). The wire client renders partitions of
// written rows with the same rules (fluss/internal/bucketing, which
// package planner cannot import).
func partitionString(t types.DataType, v any) (string, error) {
	switch x := v.(type) {
	case nil:
		return "", fmt.Errorf("a partition value cannot be NULL")
	case string:
		return x, nil
	case bool:
		return strconv.FormatBool(x), nil
	case []byte:
		return hex.EncodeToString(x), nil
	case int8:
		return strconv.Itoa(int(x)), nil
	case int16:
		return strconv.Itoa(int(x)), nil
	case int32:
		return strconv.Itoa(int(x)), nil
	case int64:
		return strconv.FormatInt(x, 10), nil
	case fluss.Date:
		return x.String(), nil
	case fluss.Time:
		ms := int(x)
		return fmt.Sprintf("%02d-%02d-%02d_%03d", ms/3600000, ms/60000%60, ms/1000%60, ms%1000), nil
	case float32:
		return javaFloat(float64(x), 32), nil
	case float64:
		return javaFloat(x, 64), nil
	case fluss.TimestampNTZ:
		return timestampPartition(x.Time()), nil
	case fluss.TimestampLTZ:
		return timestampPartition(x.Time()), nil
	}
	return "", fmt.Errorf("%s cannot be a partition key type", typeName(t))
}

func timestampPartition(t time.Time) string {
	frac := ""
	if ns := t.Nanosecond(); ns != 0 {
		frac = strings.TrimRight(fmt.Sprintf("%09d", ns), "0")
	}
	return t.Format("2006-01-02-15-04-05") + "_" + frac
}

// javaFloat renders f like Java's Float/Double.toString with '.' replaced
// by '_' (NaN, Inf, -Inf for the special values).
func javaFloat(f float64, bits int) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Inf"
	case math.IsInf(f, -1):
		return "-Inf"
	case f == 0:
		if math.Signbit(f) {
			return "-0_0"
		}
		return "0_0"
	}
	s := strconv.FormatFloat(f, 'e', -1, bits) // d.ddde±x, shortest round trip
	sign := ""
	if s[0] == '-' {
		sign, s = "-", s[1:]
	}
	mant, expText, _ := strings.Cut(s, "e")
	exp, _ := strconv.Atoi(expText)
	digits := strings.Replace(mant, ".", "", 1)
	var out string
	switch {
	case exp >= 0 && exp < 7:
		for len(digits) <= exp+1 {
			digits += "0"
		}
		out = digits[:exp+1] + "." + digits[exp+1:]
	case exp < 0 && exp >= -3:
		out = "0." + strings.Repeat("0", -exp-1) + digits
	default:
		if len(digits) == 1 {
			digits += "0"
		}
		out = digits[:1] + "." + digits[1:] + "E" + strconv.Itoa(exp)
	}
	return strings.ReplaceAll(sign+out, ".", "_")
}

// checkPartitionValue reports why the server would refuse a partition
// value (TablePath.detectInvalidName; creating also refuses the reserved
// "__" prefix).
func checkPartitionValue(key, value string, create bool) error {
	bad := func(why string) error {
		return fmt.Errorf("partition value %s for %q %s", FormatValue(value), key, why)
	}
	switch {
	case value == "":
		return bad("is empty")
	case value == "." || value == "..":
		return bad("is not allowed")
	case len(value) > 200:
		return bad("is longer than 200 characters")
	case create && strings.HasPrefix(value, "__"):
		return bad("starts with the reserved prefix __")
	}
	for i := 0; i < len(value); i++ {
		c := value[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return bad("may hold only ASCII letters, digits, '_' and '-'")
		}
	}
	return nil
}

// partitionKeyTypes are the types Fluss allows as partition keys.
var partitionKeyTypes = map[types.Kind]bool{
	types.Char: true, types.String: true, types.Boolean: true, types.Binary: true, types.Bytes: true,
	types.TinyInt: true, types.SmallInt: true, types.Int: true, types.BigInt: true, types.Date: true,
	types.Time: true, types.Float: true, types.Double: true, types.Timestamp: true, types.TimestampLTZ: true,
}
