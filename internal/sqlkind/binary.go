package sqlkind

import (
	"bytes"
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/flussql/flussql/fluss/types"
	"github.com/flussql/flussql/parser"
)

// BINARY(n) and BYTES: values are []byte; a BINARY value has at most n bytes. A
// string is taken as its UTF-8 bytes.
func init() {
	lits := literals(parser.LitBytes)
	register(types.Binary, &Kind{Family: Binary, Partition: true, Model: typeBytes, Literals: lits, Text: binaryText, Bytes: binaryBytes,
		Wide: func(types.DataType) types.DataType { return types.NewBytes() },
		Driver: binaryDriver(DeclaredLength, cellOf(func(_ types.DataType, a *array.FixedSizeBinary) Cell {
			return func(i int) any { return bytes.Clone(a.Value(i)) }
		}))})
	register(types.Bytes, &Kind{Family: Binary, Partition: true, Model: typeBytes, Literals: lits, Text: binaryText, Bytes: binaryBytes,
		Driver: binaryDriver(UnboundedLength, cellOf(func(_ types.DataType, a *array.Binary) Cell {
			return func(i int) any { return bytes.Clone(a.Value(i)) }
		}))})
}

func binaryText(col string, t types.DataType, s string, _ *time.Location) (any, error) {
	return checkBinary(col, t, []byte(s))
}

func binaryBytes(col string, t types.DataType, b []byte, _ *time.Location) (any, error) {
	return checkBinary(col, t, append([]byte(nil), b...))
}

func checkBinary(col string, t types.DataType, b []byte) (any, error) {
	if t.Kind == types.Binary && len(b) > t.Length {
		return nil, fmt.Errorf("column %q is %s; a value of %d bytes is too long", col, TypeName(t), len(b))
	}
	return b, nil
}

// binaryDriver is the Driver of BINARY and BYTES: Next returns a copy of the bytes.
func binaryDriver(l Length, cell func(types.DataType, arrow.Array) Cell) Driver {
	return Driver{Scan: typeBytes, NullScan: typeBytes, Value: typeBytes, Length: l, Cell: cell,
		FromValue: func(_ types.DataType, v any) (any, bool) {
			if b, ok := v.([]byte); ok {
				return bytes.Clone(b), true
			}
			return nil, false
		}}
}
