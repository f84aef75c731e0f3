package planner

import (
	"fmt"
	"strings"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/types"
	"github.com/flussql/flussql/internal/sqlkind"
)

// partitionString renders a partition value the way Fluss names partitions; it is the
// wire client's rule (fluss.PartitionValueString, checked against the Java client), so
// plans name exactly the partitions writers route rows to.
func partitionString(t types.DataType, v any) (string, error) {
	if v == nil {
		return "", fmt.Errorf("a partition value cannot be NULL")
	}
	if !sqlkind.PartitionKey(t.Kind) {
		return "", fmt.Errorf("%s cannot be a partition key type", typeName(t))
	}
	return fluss.PartitionValueString(t, v)
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
