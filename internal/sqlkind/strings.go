package sqlkind

import (
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/flussql/flussql/fluss/types"
	"github.com/flussql/flussql/parser"
)

// CHAR(n) and STRING: values are Go strings; a CHAR value has at most n characters
// (it is not padded).
func init() {
	register(types.Char, &Kind{Family: String, Partition: true, Text: stringText, Bytes: stringBytes,
		Wide: func(types.DataType) types.DataType { return types.NewString() }})
	register(types.String, &Kind{Family: String, Partition: true, Text: stringText, Bytes: stringBytes})
}

func stringText(col string, t types.DataType, s string, _ *time.Location) (any, error) {
	if t.Kind == types.Char && utf8.RuneCountInString(s) > t.Length {
		return nil, fmt.Errorf("column %q is %s; %s is longer than %d characters", col, TypeName(t), parser.QuoteString(s), t.Length)
	}
	return s, nil
}

func stringBytes(col string, t types.DataType, b []byte, loc *time.Location) (any, error) {
	return stringText(col, t, string(b), loc)
}
