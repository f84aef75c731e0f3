package datum

import (
	"fmt"
	"time"
)

const nanosPerMilli = 1_000_000

// Date is a Fluss DATE: days since 1970-01-01 (negative before).
type Date int32

// DateOf returns the calendar date of t in t's own location.
func DateOf(t time.Time) Date {
	y, m, d := t.Date()
	u := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	return Date(floorDiv(u.Unix(), 86400))
}

// Time returns midnight UTC of the date.
func (d Date) Time() time.Time { return time.Unix(int64(d)*86400, 0).UTC() }

// String renders the date as yyyy-mm-dd.
func (d Date) String() string { return d.Time().Format("2006-01-02") }

// Time is a Fluss TIME(p) value: milliseconds since midnight (0..86399999).
// Fluss keeps no sub-millisecond part, whatever the precision.
type Time int32

// TimeOfDay returns the time of day of t (in t's location), truncated to milliseconds.
func TimeOfDay(t time.Time) Time {
	h, m, s := t.Clock()
	return Time(((h*60+m)*60+s)*1000 + t.Nanosecond()/nanosPerMilli)
}

// Duration returns the time as an offset from midnight.
func (t Time) Duration() time.Duration { return time.Duration(t) * time.Millisecond }

// String renders the time as hh:mm:ss.SSS.
func (t Time) String() string {
	ms := int(t)
	return fmt.Sprintf("%02d:%02d:%02d.%03d", ms/3600000, ms/60000%60, ms/1000%60, ms%1000)
}

// TimestampNTZ is a Fluss TIMESTAMP(p): a wall-clock date-time without a zone, held
// as milliseconds since 1970-01-01 00:00:00 of that wall clock plus the nanoseconds
// within the millisecond (0..999999).
type TimestampNTZ struct {
	// Millis is the wall-clock reading in milliseconds since 1970-01-01 00:00:00.
	Millis int64
	// NanoOfMilli is the nanoseconds within the millisecond, 0..999999.
	NanoOfMilli int32
}

// TimestampNTZOf returns the wall-clock reading of t in t's own location.
func TimestampNTZOf(t time.Time) TimestampNTZ {
	y, mo, d := t.Date()
	h, mi, s := t.Clock()
	u := time.Date(y, mo, d, h, mi, s, t.Nanosecond(), time.UTC)
	return TimestampNTZ{Millis: u.UnixMilli(), NanoOfMilli: int32(u.Nanosecond() % nanosPerMilli)}
}

// Time returns the wall-clock reading as a time.Time in UTC.
func (ts TimestampNTZ) Time() time.Time {
	return time.UnixMilli(ts.Millis).Add(time.Duration(ts.NanoOfMilli)).UTC()
}

// String renders the timestamp as yyyy-mm-dd hh:mm:ss.fffffffff (trailing zeros trimmed).
func (ts TimestampNTZ) String() string {
	return ts.Time().Format("2006-01-02 15:04:05.999999999")
}

// TimestampLTZ is a Fluss TIMESTAMP_LTZ(p): an instant, held as milliseconds since
// the Unix epoch plus the nanoseconds within the millisecond (0..999999).
type TimestampLTZ struct {
	// EpochMillis is the instant in milliseconds since the Unix epoch.
	EpochMillis int64
	// NanoOfMilli is the nanoseconds within the millisecond, 0..999999.
	NanoOfMilli int32
}

// TimestampLTZOf returns the instant of t.
func TimestampLTZOf(t time.Time) TimestampLTZ {
	return TimestampLTZ{EpochMillis: t.UnixMilli(), NanoOfMilli: int32(t.Nanosecond() % nanosPerMilli)}
}

// Time returns the instant as a time.Time in UTC.
func (ts TimestampLTZ) Time() time.Time {
	return time.UnixMilli(ts.EpochMillis).Add(time.Duration(ts.NanoOfMilli)).UTC()
}

// String renders the instant in UTC as yyyy-mm-dd hh:mm:ss.fffffffffZ.
func (ts TimestampLTZ) String() string {
	return ts.Time().Format("2006-01-02 15:04:05.999999999Z")
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}
