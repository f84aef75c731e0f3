package engine

import (
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/flussql/flussql/fluss/types"
)

// Typed reading and building of DATE and TIMESTAMP columns for the temporal
// kernels: no value boxed per row.

// timeValues reads a DATE or TIMESTAMP array of type t as times (UTC wall
// clocks), as toTime.
func timeValues(t types.DataType, a arrow.Array) (func(i int) time.Time, error) {
	switch x := a.(type) {
	case *array.Timestamp:
		u := time.Duration(unitNanos(t.Precision))
		epoch := time.Unix(0, 0).UTC()
		return func(i int) time.Time { return epoch.Add(time.Duration(x.Value(i)) * u) }, nil
	case *array.Date32:
		return func(i int) time.Time { return time.Unix(int64(x.Value(i))*86400, 0).UTC() }, nil
	}
	get, err := getter(a)
	if err != nil {
		return nil, err
	}
	return func(i int) time.Time { return toTime(t, get(i)) }, nil
}

// timeRows builds a DATE or TIMESTAMP array of type t of n rows from f's
// times, as fillRows (NULL where an input is NULL or f says so).
func timeRows(ec *evalCtx, t types.DataType, n int, ins []arrow.Array, f func(i int) (time.Time, bool, error)) (arrow.Array, error) {
	if t.Kind == types.Date {
		return fillRows[arrow.Date32](array.NewDate32Builder(ec.mem), n, ins, false, func(i int) (arrow.Date32, bool, error) {
			tm, ok, err := f(i)
			return arrow.Date32(floorDiv(tm.Unix(), 86400)), ok, err
		})
	}
	at, err := types.ArrowType(t)
	if err != nil {
		return nil, err
	}
	tt, ok := at.(*arrow.TimestampType)
	if !ok {
		return nil, fmt.Errorf("engine: %s is no timestamp type", TypeName(t))
	}
	u := unitNanos(t.Precision)
	return fillRows[arrow.Timestamp](array.NewTimestampBuilder(ec.mem, tt), n, ins, false, func(i int) (arrow.Timestamp, bool, error) {
		tm, ok, err := f(i)
		if u == int64(time.Second) {
			return arrow.Timestamp(tm.Unix()), ok, err
		}
		return arrow.Timestamp(tm.Unix()*(int64(time.Second)/u) + int64(tm.Nanosecond())/u), ok, err
	})
}
