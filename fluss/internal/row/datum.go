package row

import "github.com/flussql/flussql/fluss/datum"

// The value types of the row model (see the package doc) are package datum's; these
// names keep the encoders short.
type (
	// Decimal is datum.Decimal.
	Decimal = datum.Decimal
	// Date is datum.Date.
	Date = datum.Date
	// Time is datum.Time.
	Time = datum.Time
	// TimestampNTZ is datum.TimestampNTZ.
	TimestampNTZ = datum.TimestampNTZ
	// TimestampLTZ is datum.TimestampLTZ.
	TimestampLTZ = datum.TimestampLTZ
	// MapEntry is datum.MapEntry.
	MapEntry = datum.MapEntry
)
