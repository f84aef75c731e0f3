package sqlkind

import (
	"strings"
	"time"

	"github.com/flussql/flussql/fluss/types"
	"github.com/flussql/flussql/parser"
)

// BOOLEAN: values are Go bools; text is true or false in any case.
func init() {
	register(types.Boolean, &Kind{Family: Boolean, Partition: true, Literals: literals(parser.LitBool),
		Bool: func(b bool) any { return b },
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
