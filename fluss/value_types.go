package fluss

import (
	"time"

	"github.com/flussql/flussql/fluss/internal/row"
)

// The Go value model of Fluss rows. A row is a []any with one element per column, nil
// meaning NULL, and each Fluss type has exactly one Go representation:
//
//	BOOLEAN bool · TINYINT int8 · SMALLINT int16 · INT int32 · BIGINT int64 ·
//	FLOAT float32 · DOUBLE float64 · DECIMAL(p,s) Decimal · CHAR/STRING string ·
//	BINARY/BYTES []byte · DATE Date · TIME(p) Time · TIMESTAMP(p) TimestampNTZ ·
//	TIMESTAMP_LTZ(p) TimestampLTZ · ROW<…> []any (the fields in order) ·
//	ARRAY<T> []any (the elements, nil meaning a NULL element) ·
//	MAP<K, V> []MapEntry (the entries in stored order)
//
// Writers accept exactly these types; scanners and lookups return them.
type (
	// Decimal is an exact decimal: an unscaled integer and a scale (never a float).
	Decimal = row.Decimal
	// Date is a DATE: days since 1970-01-01.
	Date = row.Date
	// Time is a TIME: milliseconds of the day (Fluss stores no finer unit).
	Time = row.Time
	// TimestampNTZ is a TIMESTAMP(p): wall-clock milliseconds since 1970-01-01 00:00 plus
	// the nanoseconds within the millisecond, with no zone.
	TimestampNTZ = row.TimestampNTZ
	// TimestampLTZ is a TIMESTAMP_LTZ(p): an instant as epoch milliseconds plus the
	// nanoseconds within the millisecond.
	TimestampLTZ = row.TimestampLTZ
	// MapEntry is one key/value pair of a MAP value; a MAP value is a []MapEntry.
	MapEntry = row.MapEntry
)

// NewDecimal returns unscaled × 10^-scale.
func NewDecimal(unscaled int64, scale int) Decimal { return row.NewDecimal(unscaled, scale) }

// ParseDecimal parses a plain decimal literal such as "123.45"; the scale is the number
// of digits after the point.
func ParseDecimal(s string) (Decimal, error) { return row.ParseDecimal(s) }

// DateOf returns the DATE of t's calendar day (in t's location).
func DateOf(t time.Time) Date { return row.DateOf(t) }

// TimeOfDay returns the TIME of t's wall clock (in t's location), to the millisecond.
func TimeOfDay(t time.Time) Time { return row.TimeOfDay(t) }

// TimestampNTZOf returns the TIMESTAMP of t's wall clock (in t's location).
func TimestampNTZOf(t time.Time) TimestampNTZ { return row.TimestampNTZOf(t) }

// TimestampLTZOf returns the TIMESTAMP_LTZ of the instant t.
func TimestampLTZOf(t time.Time) TimestampLTZ { return row.TimestampLTZOf(t) }
