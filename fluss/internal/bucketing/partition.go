package bucketing

import (
	"errors"
	"fmt"
	"strings"

	"github.com/flussql/flussql/fluss/internal/codec"
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
	c := codec.For(t.Kind)
	if c == nil || c.Partition == nil {
		return "", fmt.Errorf("bucketing: %s cannot be a partition key", t)
	}
	str, err := c.Partition(&t, v)
	if err != nil {
		return "", fmt.Errorf("bucketing: %w", err)
	}
	return str, nil
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
