package bucketing

import (
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/flussql/flussql/fluss/datum"
	"github.com/flussql/flussql/fluss/types"
)

// PartitionSeparator joins the values of a multi-key partition name.
const PartitionSeparator = "$"

// maxPartitionValueLen is TablePath's MAX_NAME_LENGTH.
const maxPartitionValueLen = 200

// PartitionName returns the partition name of a row: the string form of each
// partition value (in the table's partition-key order) joined by "$", as Java's
// PartitionGetter does. partTypes are the partition columns' types and values their
// values in the row model of package row. NULL partition values are an error.
func PartitionName(partTypes []types.DataType, values []any) (string, error) {
	if len(partTypes) != len(values) {
		return "", fmt.Errorf("bucketing: got %d partition values for %d partition keys", len(values), len(partTypes))
	}
	if len(values) == 0 {
		return "", errors.New("bucketing: a partition name needs at least one partition key")
	}
	parts := make([]string, len(values))
	for i := range values {
		s, err := PartitionValueString(partTypes[i], values[i])
		if err != nil {
			return "", fmt.Errorf("partition key %d: %w", i, err)
		}
		parts[i] = s
	}
	return strings.Join(parts, PartitionSeparator), nil
}

// PartitionValueString renders one partition value as Java's
// PartitionUtils.convertValueOfType does: strings as they are, booleans true/false,
// integers in decimal, BINARY/BYTES lower-case hex, DATE yyyy-MM-dd, TIME
// HH-mm-ss_SSS, FLOAT/DOUBLE Java's toString with '.' replaced by '_' (NaN, Inf,
// -Inf), TIMESTAMP/TIMESTAMP_LTZ yyyy-MM-dd-HH-mm-ss_ plus the nanos of the second
// without trailing zeros, in UTC.
func PartitionValueString(t types.DataType, v any) (string, error) {
	if v == nil {
		return "", errors.New("bucketing: partition value must not be NULL")
	}
	bad := func(want string) error {
		return fmt.Errorf("bucketing: %s partition value must be %s, got %T", t, want, v)
	}
	switch t.Kind {
	case types.Char, types.String:
		s, ok := v.(string)
		if !ok {
			return "", bad("string")
		}
		return s, nil
	case types.Boolean:
		b, ok := v.(bool)
		if !ok {
			return "", bad("bool")
		}
		return strconv.FormatBool(b), nil
	case types.Binary, types.Bytes:
		b, ok := v.([]byte)
		if !ok {
			return "", bad("[]byte")
		}
		return hex.EncodeToString(b), nil
	case types.TinyInt:
		x, ok := v.(int8)
		if !ok {
			return "", bad("int8")
		}
		return strconv.Itoa(int(x)), nil
	case types.SmallInt:
		x, ok := v.(int16)
		if !ok {
			return "", bad("int16")
		}
		return strconv.Itoa(int(x)), nil
	case types.Int:
		x, ok := v.(int32)
		if !ok {
			return "", bad("int32")
		}
		return strconv.Itoa(int(x)), nil
	case types.BigInt:
		x, ok := v.(int64)
		if !ok {
			return "", bad("int64")
		}
		return strconv.FormatInt(x, 10), nil
	case types.Date:
		d, ok := v.(datum.Date)
		if !ok {
			return "", bad("datum.Date")
		}
		y, m, day := d.Time().Date()
		return fmt.Sprintf("%04d-%02d-%02d", y, int(m), day), nil
	case types.Time:
		x, ok := v.(datum.Time)
		if !ok {
			return "", bad("datum.Time")
		}
		return timeString(int64(x)), nil
	case types.Float:
		x, ok := v.(float32)
		if !ok {
			return "", bad("float32")
		}
		return floatString(float64(x), 32), nil
	case types.Double:
		x, ok := v.(float64)
		if !ok {
			return "", bad("float64")
		}
		return floatString(x, 64), nil
	case types.Timestamp:
		x, ok := v.(datum.TimestampNTZ)
		if !ok {
			return "", bad("datum.TimestampNTZ")
		}
		return timestampString(x.Millis, x.NanoOfMilli), nil
	case types.TimestampLTZ:
		x, ok := v.(datum.TimestampLTZ)
		if !ok {
			return "", bad("datum.TimestampLTZ")
		}
		return timestampString(x.EpochMillis, x.NanoOfMilli), nil
	}
	return "", fmt.Errorf("bucketing: %s cannot be a partition key", t)
}

// CheckPartitionValue reports why a partition value would be rejected by the server
// (TablePath.detectInvalidName; with forCreate also the reserved "__" prefix).
func CheckPartitionValue(value string, forCreate bool) error {
	switch {
	case value == "":
		return errors.New("bucketing: empty partition value")
	case value == "." || value == "..":
		return fmt.Errorf("bucketing: partition value %q is not allowed", value)
	case len(value) > maxPartitionValueLen:
		return fmt.Errorf("bucketing: partition value is longer than %d characters", maxPartitionValueLen)
	}
	for i := 0; i < len(value); i++ {
		c := value[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return fmt.Errorf("bucketing: partition value %q contains characters other than ASCII letters, digits, '_' and '-'", value)
		}
	}
	if forCreate && strings.HasPrefix(value, "__") {
		return fmt.Errorf("bucketing: partition value %q starts with the reserved prefix \"__\"", value)
	}
	return nil
}

// timeString is PartitionNameConverters.milliToString.
func timeString(ms int64) string {
	const hour, minute, second = 3600000, 60000, 1000
	h := floorDiv(ms, hour)
	m := floorDiv(floorMod(ms, hour), minute)
	s := floorDiv(floorMod(floorMod(ms, hour), minute), second)
	return fmt.Sprintf("%02d-%02d-%02d_%03d", h, m, s, floorMod(ms, second))
}

// timestampString is PartitionNameConverters.timestampToString: pattern
// yyyy-MM-dd-HH-mm-ss_ plus the nano-of-second fraction with trailing zeros removed.
func timestampString(millis int64, nanoOfMilli int32) string {
	t := time.UnixMilli(millis).Add(time.Duration(nanoOfMilli)).UTC()
	y := t.Year()
	yoe := y // "yyyy" is the year of era: 1 BC is 1, 2 BC is 2, …
	if y <= 0 {
		yoe = 1 - y
	}
	year := fmt.Sprintf("%04d", yoe)
	if yoe > 9999 {
		year = "+" + year // EXCEEDS_PAD sign style
	}
	frac := ""
	if ns := t.Nanosecond(); ns != 0 {
		frac = strings.TrimRight(fmt.Sprintf("%09d", ns), "0")
	}
	return fmt.Sprintf("%s-%02d-%02d-%02d-%02d-%02d_%s", year, int(t.Month()), t.Day(),
		t.Hour(), t.Minute(), t.Second(), frac)
}

// floatString renders v like Java's Float.toString/Double.toString as specified
// since JDK 19 (shortest digits that round-trip; plain notation for 1e-3 <= |v| <
// 1e7, else d.dddE±n) with '.' replaced by '_', and NaN, Inf, -Inf. JDK 17 and
// older print a few values with more digits (Float.MIN_NORMAL: 1.17549435E-38
// instead of 1.1754944E-38); Fluss clients on those JDKs name such partitions
// differently.
func floatString(v float64, bitSize int) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	}
	return strings.ReplaceAll(javaFloatToString(v, bitSize), ".", "_")
}

func javaFloatToString(v float64, bitSize int) string {
	if v == 0 {
		if math.Signbit(v) {
			return "-0.0"
		}
		return "0.0"
	}
	s := strconv.FormatFloat(v, 'e', -1, bitSize) // shortest, e.g. -1.2345e+07
	if m, _, _ := strings.Cut(s, "e"); len(strings.TrimPrefix(m, "-")) == 1 {
		// Java (JDK 19+ spec) picks the closest decimal of length 1 or 2 when the
		// shortest has one digit: Double.MIN_VALUE is 4.9E-324, not 5.0E-324.
		s = strconv.FormatFloat(v, 'e', 1, bitSize)
	}
	sign := ""
	if s[0] == '-' {
		sign, s = "-", s[1:]
	}
	mant, expStr, _ := strings.Cut(s, "e")
	exp, _ := strconv.Atoi(expStr)
	digits := strings.TrimRight(strings.Replace(mant, ".", "", 1), "0")
	if digits == "" {
		digits = "0"
	}
	if exp >= -3 && exp <= 6 {
		if exp < 0 {
			return sign + "0." + strings.Repeat("0", -exp-1) + digits
		}
		for len(digits) < exp+1 {
			digits += "0"
		}
		frac := digits[exp+1:]
		if frac == "" {
			frac = "0"
		}
		return sign + digits[:exp+1] + "." + frac
	}
	frac := digits[1:]
	if frac == "" {
		frac = "0"
	}
	return sign + digits[:1] + "." + frac + "E" + strconv.Itoa(exp)
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

func floorMod(a, b int64) int64 { return a - floorDiv(a, b)*b }
