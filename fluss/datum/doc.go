// Package datum holds the Go values of Fluss column types that Go has no type for:
// Decimal, Date, Time, TimestampNTZ, TimestampLTZ and MapEntry, with their constructors,
// conversions to and from time.Time, and decimal parsing and printing. It depends on
// nothing but the standard library.
//
// A Fluss row, as package fluss's writers take it and its scanners and lookups return
// it, is a []any with one element per column, nil meaning NULL. Each Fluss type has exactly one Go
// representation; writers accept only that type (no implicit conversions), scanners
// and lookups always return it:
//
//	BOOLEAN              bool
//	TINYINT              int8
//	SMALLINT             int16
//	INT                  int32
//	BIGINT               int64
//	FLOAT                float32
//	DOUBLE               float64
//	DECIMAL(p,s)         Decimal (exact: an unscaled integer and a scale; never a float)
//	CHAR(n), STRING      string
//	BINARY(n), BYTES     []byte
//	DATE                 Date (days since 1970-01-01)
//	TIME(p)              Time (milliseconds of the day; Fluss stores no finer unit)
//	TIMESTAMP(p)         TimestampNTZ (wall-clock milliseconds since 1970-01-01 00:00, + nanos)
//	TIMESTAMP_LTZ(p)     TimestampLTZ (epoch milliseconds of the instant, + nanos)
//	ROW<…>               []any (the nested row's fields in order)
//	ARRAY<T>             []any (one element each, nil meaning a NULL element)
//	MAP<K, V>            []MapEntry in stored order (Key never nil, Value nil meaning NULL)
//
// As in Fluss's Java client, TIMESTAMP(p) and TIMESTAMP_LTZ(p) with p <= 3 store
// milliseconds only (the nanoseconds of the millisecond are dropped on write), and a
// Decimal is stored at its column's scale: a writer rescales it, and refuses a value
// that would lose digits or exceed the column's precision.
package datum
