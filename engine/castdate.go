package engine

import (
	"fmt"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
)

// stringToDate is CAST(string AS DATE): 'yyyy-mm-dd' (month and day may
// have one digit, surrounding spaces are ignored), as Flink reads it.
func (e *Cast) stringToDate(ec *evalCtx, b arrow.RecordBatch) (arrow.Array, error) {
	x, err := e.X.eval(ec, b)
	if err != nil {
		return nil, err
	}
	defer x.Release()
	return mapRows(ec, e.T, []arrow.Array{x}, int(b.NumRows()), false, func(v []any) (any, error) {
		s := strings.TrimSpace(v[0].(string))
		d, err := time.Parse("2006-1-2", s)
		if err != nil {
			return nil, fmt.Errorf("%s: '%s' is not a DATE; write it as yyyy-mm-dd", e, s)
		}
		return int32(d.Unix() / 86400), nil
	})
}
