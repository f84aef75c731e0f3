package sqlkind

import (
	"cmp"
	"reflect"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/flussql/flussql/fluss/datum"
	"github.com/flussql/flussql/fluss/types"
	"github.com/flussql/flussql/parser"
)

// DATE, TIME(p), TIMESTAMP(p) and TIMESTAMP_LTZ(p): values are datum.Date, datum.Time,
// datum.TimestampNTZ and datum.TimestampLTZ. Timestamps are truncated to the column's
// precision as a CAST would; a TIMESTAMP is wall-clock time, a TIMESTAMP_LTZ an instant
// (text without a zone is read in the session's time zone).
func init() {
	register(types.Date, &Kind{Family: Temporal, Dated: true, Partition: true, Literals: literals(parser.LitDate),
		Text: func(_ string, _ types.DataType, s string, _ *time.Location) (any, error) {
			if d, err := time.Parse("2006-01-02", s); err == nil {
				return datum.DateOf(d), nil
			}
			return nil, ErrNoFit
		},
		Time:    func(_ types.DataType, v time.Time) any { return datum.DateOf(v) },
		Datum:   same[datum.Date],
		Model:   reflect.TypeFor[datum.Date](),
		Format:  func(v any) string { return "DATE '" + v.(datum.Date).String() + "'" },
		Plain:   func(v any) string { return v.(datum.Date).String() },
		Compare: compareOrdered[datum.Date],
		Engine:  func(_ types.DataType, v any) (any, error) { return int32(v.(datum.Date)), nil },
		// Next returns UTC midnight.
		Driver: Driver{Scan: typeTime, NullScan: typeNullTime, Value: typeTime,
			Cell: cellOf(func(_ types.DataType, a *array.Date32) Cell { return func(i int) any { return a.Value(i).ToTime() } }),
			FromValue: func(_ types.DataType, v any) (any, bool) {
				d, ok := v.(datum.Date)
				return d.Time(), ok
			}}})
	register(types.Time, &Kind{Family: Temporal, Precision: true, Partition: true, Literals: literals(parser.LitTime),
		Text: func(_ string, _ types.DataType, s string, _ *time.Location) (any, error) {
			for _, layout := range []string{"15:04:05.999999999", "15:04"} {
				if d, err := time.Parse(layout, s); err == nil {
					return datum.TimeOfDay(d), nil
				}
			}
			return nil, ErrNoFit
		},
		Time:    func(_ types.DataType, v time.Time) any { return datum.TimeOfDay(v) },
		Datum:   same[datum.Time],
		Model:   reflect.TypeFor[datum.Time](),
		Format:  func(v any) string { return "TIME '" + v.(datum.Time).String() + "'" },
		Plain:   func(v any) string { return v.(datum.Time).String() },
		Compare: compareOrdered[datum.Time],
		Engine: func(t types.DataType, v any) (any, error) {
			return scaleMillis(int64(v.(datum.Time)), 0, t.Precision), nil
		},
		// Next returns "15:04:05[.fff]".
		Driver: Driver{Scan: typeString, NullScan: typeNullString, Value: typeString, Precision: PrecisionOnly,
			Cell: timeCell,
			FromValue: func(t types.DataType, v any) (any, bool) {
				d, ok := v.(datum.Time)
				if !ok {
					return nil, false
				}
				return FormatTimeOfDay(time.UnixMilli(int64(d)), t.Precision), true
			}}})
	timestamps := literals(parser.LitDate, parser.LitTimestamp)
	register(types.Timestamp, &Kind{Family: Temporal, Precision: true, Dated: true, Partition: true, Literals: timestamps,
		Wide: func(types.DataType) types.DataType { return types.NewTimestamp(9) },
		Text: func(_ string, t types.DataType, s string, _ *time.Location) (any, error) {
			if ts, ok := ParseTimestamp(s, time.UTC, false); ok {
				return datum.TimestampNTZOf(Truncate(ts, t.Precision)), nil
			}
			return nil, ErrNoFit
		},
		Time:   func(t types.DataType, v time.Time) any { return datum.TimestampNTZOf(Truncate(v, t.Precision)) },
		Datum:  same[datum.TimestampNTZ],
		Model:  reflect.TypeFor[datum.TimestampNTZ](),
		Format: func(v any) string { return "TIMESTAMP '" + v.(datum.TimestampNTZ).String() + "'" },
		Plain:  func(v any) string { return v.(datum.TimestampNTZ).String() },
		Compare: func(a, b any) (int, bool) {
			x := a.(datum.TimestampNTZ)
			y, ok := b.(datum.TimestampNTZ)
			return cmp.Or(cmp.Compare(x.Millis, y.Millis), cmp.Compare(x.NanoOfMilli, y.NanoOfMilli)), ok
		},
		Engine: func(t types.DataType, v any) (any, error) {
			x := v.(datum.TimestampNTZ)
			return scaleMillis(x.Millis, int64(x.NanoOfMilli), t.Precision), nil
		},
		// Next returns the wall-clock time as UTC.
		Driver: timestampDriver(func(v any) (time.Time, bool) {
			ts, ok := v.(datum.TimestampNTZ)
			return ts.Time(), ok
		})})
	register(types.TimestampLTZ, &Kind{Family: Temporal, Precision: true, Dated: true, Partition: true, Literals: timestamps,
		Wide: func(types.DataType) types.DataType { return types.NewTimestampLTZ(9) },
		Text: func(_ string, t types.DataType, s string, loc *time.Location) (any, error) {
			if ts, ok := ParseTimestamp(s, loc, true); ok {
				return datum.TimestampLTZOf(Truncate(ts, t.Precision)), nil
			}
			return nil, ErrNoFit
		},
		Time:   func(t types.DataType, v time.Time) any { return datum.TimestampLTZOf(Truncate(v, t.Precision)) },
		Datum:  same[datum.TimestampLTZ],
		Model:  reflect.TypeFor[datum.TimestampLTZ](),
		Format: func(v any) string { return "TIMESTAMP_LTZ '" + v.(datum.TimestampLTZ).String() + "'" },
		Plain:  func(v any) string { return v.(datum.TimestampLTZ).Time().Format(time.RFC3339Nano) },
		Compare: func(a, b any) (int, bool) {
			x := a.(datum.TimestampLTZ)
			y, ok := b.(datum.TimestampLTZ)
			return cmp.Or(cmp.Compare(x.EpochMillis, y.EpochMillis), cmp.Compare(x.NanoOfMilli, y.NanoOfMilli)), ok
		},
		Engine: func(t types.DataType, v any) (any, error) {
			x := v.(datum.TimestampLTZ)
			return scaleMillis(x.EpochMillis, int64(x.NanoOfMilli), t.Precision), nil
		},
		// Next returns the instant in UTC.
		Driver: timestampDriver(func(v any) (time.Time, bool) {
			ts, ok := v.(datum.TimestampLTZ)
			return ts.Time(), ok
		})})
}

// timeCell converts TIME columns: Time32 for precisions up to 3, Time64 above.
func timeCell(t types.DataType, arr arrow.Array) Cell {
	switch a := arr.(type) {
	case *array.Time32:
		unit := a.DataType().(*arrow.Time32Type).Unit
		return func(i int) any { return FormatTimeOfDay(a.Value(i).ToTime(unit), t.Precision) }
	case *array.Time64:
		unit := a.DataType().(*arrow.Time64Type).Unit
		return func(i int) any { return FormatTimeOfDay(a.Value(i).ToTime(unit), t.Precision) }
	}
	return nil
}

// FormatTimeOfDay renders a TIME value with as many fractional digits as its precision
// (at most 3: Fluss stores milliseconds).
func FormatTimeOfDay(t time.Time, precision int) string {
	layout := "15:04:05"
	if p := min(precision, 3); p > 0 {
		layout += "." + strings.Repeat("0", p)
	}
	return t.UTC().Format(layout)
}

// timestampDriver is the Driver of TIMESTAMP and TIMESTAMP_LTZ; of converts a value of
// the kind's value type.
func timestampDriver(of func(v any) (time.Time, bool)) Driver {
	return Driver{Scan: typeTime, NullScan: typeNullTime, Value: typeTime, Precision: PrecisionOnly,
		Cell: cellOf(func(_ types.DataType, a *array.Timestamp) Cell {
			toTime, err := a.DataType().(*arrow.TimestampType).GetToTimeFunc()
			if err != nil {
				return nil // not a unit of ours: reported as not supported
			}
			return func(i int) any { return toTime(a.Value(i)).UTC() }
		}),
		FromValue: func(_ types.DataType, v any) (any, bool) {
			ts, ok := of(v)
			return ts, ok
		}}
}

// same takes a value of the kind's own value type V as it is.
func same[V any](_ string, _ types.DataType, v any) (any, error) {
	if _, ok := v.(V); ok {
		return v, nil
	}
	return nil, ErrNoFit
}

var zonelessLayouts = []string{
	"2006-01-02 15:04:05.999999999", "2006-01-02T15:04:05.999999999",
	"2006-01-02 15:04", "2006-01-02T15:04", "2006-01-02",
}

var zonedLayouts = []string{time.RFC3339Nano, "2006-01-02 15:04:05.999999999Z07:00"}

// ParseTimestamp parses a date-time without a zone in loc (UTC when nil) and, when
// zoned is set, also one with a zone offset (RFC 3339).
func ParseTimestamp(s string, loc *time.Location, zoned bool) (time.Time, bool) {
	if loc == nil {
		loc = time.UTC
	}
	for _, layout := range zonelessLayouts {
		if ts, err := time.ParseInLocation(layout, s, loc); err == nil {
			return ts, true
		}
	}
	if zoned {
		for _, layout := range zonedLayouts {
			if ts, err := time.Parse(layout, s); err == nil {
				return ts, true
			}
		}
	}
	return time.Time{}, false
}

// Truncate drops the digits of ts beyond the fractional precision p.
func Truncate(ts time.Time, p int) time.Time {
	if p >= 9 || p < 0 {
		return ts
	}
	d := time.Duration(1)
	for range 9 - p {
		d *= 10
	}
	return ts.Truncate(d)
}

// scaleMillis expresses millis+nanos in the Arrow unit of precision p.
func scaleMillis(ms, nanos int64, p int) int64 {
	switch {
	case p == 0:
		return floorDiv(ms, 1000)
	case p <= 3:
		return ms
	case p <= 6:
		return ms*1000 + nanos/1000
	}
	return ms*1_000_000 + nanos
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// compareOrdered orders two values of an ordered value type; false when b is of another.
func compareOrdered[T cmp.Ordered](a, b any) (int, bool) {
	y, ok := b.(T)
	return cmp.Compare(a.(T), y), ok
}
