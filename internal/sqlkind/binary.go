package sqlkind

import (
	"fmt"
	"time"

	"github.com/flussql/flussql/fluss/types"
	"github.com/flussql/flussql/parser"
)

// BINARY(n) and BYTES: values are []byte; a BINARY value has at most n bytes. A
// string is taken as its UTF-8 bytes.
func init() {
	lits := literals(parser.LitBytes)
	register(types.Binary, &Kind{Family: Binary, Partition: true, Literals: lits, Text: binaryText, Bytes: binaryBytes,
		Wide: func(types.DataType) types.DataType { return types.NewBytes() }})
	register(types.Bytes, &Kind{Family: Binary, Partition: true, Literals: lits, Text: binaryText, Bytes: binaryBytes})
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
