package sqlkind

import (
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/flussql/flussql/fluss/types"
	"github.com/flussql/flussql/parser"
)

// BOOLEAN: values are Go bools; text is true or false in any case.
func init() {
	register(types.Boolean, &Kind{Family: Boolean, Partition: true, Model: typeBool, Literals: literals(parser.LitBool),
		Bool: func(b bool) any { return b },
		Driver: Driver{Scan: typeBool, NullScan: typeNullBool, Value: typeBool,
			Cell: cellOf(func(_ types.DataType, a *array.Boolean) Cell { return func(i int) any { return a.Value(i) } }),
			FromValue: func(_ types.DataType, v any) (any, bool) {
				b, ok := v.(bool)
				return b, ok
			}},
		Text: func(_ string, _ types.DataType, s string, _ *time.Location) (any, error) {
			switch {
			case strings.EqualFold(s, "true"):
				return true, nil
			case strings.EqualFold(s, "false"):
				return false, nil
			}
			return nil, ErrNoFit
		}})
}
