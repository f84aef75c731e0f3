package fluss

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/flussql/flussql/fluss/types"
)

// ArrowValueReader returns a function that reads row i (not null) of an Arrow
// array holding a column of Fluss type t — as a LogScanner returns it — as a
// value of the Go value model (see package datum); strings and bytes are
// copied. It is RowValues for one column, built once.
func ArrowValueReader(t types.DataType) (func(a arrow.Array, i int) any, error) {
	cc, err := newColumnCodec(t)
	if err != nil {
		return nil, err
	}
	return cc.get, nil
}
