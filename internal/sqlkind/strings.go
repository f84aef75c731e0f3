package sqlkind

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/flussql/flussql/fluss/types"
	"github.com/flussql/flussql/parser"
)

// CHAR(n) and STRING: values are Go strings; a CHAR value has at most n characters
// (it is not padded).
func init() {
	register(types.Char, &Kind{Family: String, Partition: true, Model: typeString, Text: stringText, Bytes: stringBytes,
		Wide:   func(types.DataType) types.DataType { return types.NewString() },
		Driver: stringDriver(DeclaredLength)})
	register(types.String, &Kind{Family: String, Partition: true, Model: typeString, Text: stringText, Bytes: stringBytes,
		Driver: stringDriver(UnboundedLength)})
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

// stringDriver is the Driver of CHAR and STRING: Next returns a copy of the string.
func stringDriver(l Length) Driver {
	return Driver{Scan: typeString, NullScan: typeNullString, Value: typeString, Length: l,
		Cell: cellOf(func(_ types.DataType, a *array.String) Cell {
			return func(i int) any { return strings.Clone(a.Value(i)) }
		}),
		Slab: slabOf(stringSlab),
		FromValue: func(_ types.DataType, v any) (any, bool) {
			if s, ok := v.(string); ok {
				return strings.Clone(s), true
			}
			return nil, false
		}}
}
