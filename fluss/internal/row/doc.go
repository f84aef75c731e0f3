// Package row encodes and decodes Fluss binary rows — CompactedRow (the default KV
// value format and the COMPACTED log format), IndexedRow (the INDEXED formats) — and
// primary/bucket keys (Fluss's CompactedKeyEncoder, and PaimonKeyEncoder and
// IcebergKeyEncoder for tables of those datalake formats), byte for byte as the Java
// classes of Fluss 0.9.1 do. It has no network code.
//
// # Value model
//
// A row is a []any with one element per column, nil meaning NULL. Every Fluss type
// has exactly one Go representation; encoders accept only that type (no implicit
// conversions), decoders always return it:
//
//	BOOLEAN              bool
//	TINYINT              int8
//	SMALLINT             int16
//	INT                  int32
//	BIGINT               int64
//	FLOAT                float32
//	DOUBLE               float64
//	DECIMAL(p,s)         Decimal (exact: unscaled integer and scale; never a float)
//	CHAR(n), STRING      string (UTF-8 bytes, kept as they are)
//	BINARY(n), BYTES     []byte
//	DATE                 Date (days since 1970-01-01)
//	TIME(p)              Time (milliseconds of the day; Fluss stores no finer unit)
//	TIMESTAMP(p)         TimestampNTZ (wall-clock millis since 1970-01-01 00:00 + nano of milli)
//	TIMESTAMP_LTZ(p)     TimestampLTZ (epoch millis of the instant + nano of milli)
//	ROW<...>             []any (the nested row's fields)
//	ARRAY<T>             []any (one element each, nil = NULL element)
//	MAP<K, V>            []MapEntry in stored order (Key never nil, Value nil = NULL)
//
// The value types are package datum's (this package names them by aliases), as are the
// helpers that convert them to and from time.Time (datum.DateOf, …) and parse or print
// decimals (datum.ParseDecimal, Decimal.String).
//
// As in Java, TIMESTAMP(p)/TIMESTAMP_LTZ(p) with p <= 3 store milliseconds only (a
// nano-of-milli is dropped on write), and DECIMAL(p,s) with p <= 18 stores the
// unscaled value as a 64-bit integer, larger precisions as two's-complement bytes.
//
// # Layouts
//
// CompactedRow: null bitset (ceil(n/8) bytes, bit i of byte i/8, LSB first) then the
// non-null fields in order: BOOLEAN/TINYINT 1 byte, SMALLINT 2 bytes LE, INT/DATE/
// TIME unsigned LEB128 of the 32-bit value, BIGINT unsigned LEB128 of the 64-bit
// value, FLOAT/DOUBLE IEEE LE, strings/bytes varint length + bytes, compact DECIMAL
// varint64, big DECIMAL varint length + big-endian two's complement, timestamps
// varint64 millis (+ varint32 nano-of-milli when p > 3), ROW varint length + nested
// CompactedRow, ARRAY/MAP varint length + BinaryArray/BinaryMap. A key is the same
// field encoding without the null bitset; ARRAY, MAP and ROW cannot be key columns
// (the server refuses them in primary and bucket keys).
//
// IndexedRow: null bitset, one int32 LE length slot per variable-length column
// (STRING, BYTES, DECIMAL p > 18, ROW, ARRAY, MAP), then the non-null values with
// fixed widths (CHAR(n)/BINARY(n) zero-padded to n bytes, all integers LE).
//
// BinaryArray (both formats; see array.go): int32 LE count, null bits in 4-byte
// words, fixed-width little-endian slots (1 byte BOOLEAN/TINYINT, 2 SMALLINT, 4 INT/
// FLOAT/DATE/TIME, 8 everything else) padded to 8 bytes, then the variable-length
// regions, each padded to 8 bytes; an 8-byte slot holds offset<<32 | size, or a
// string/bytes value of at most 7 bytes inline with 0x80|length in its last byte.
// CHAR/BINARY elements are not padded. ROW elements are CompactedRows inside a
// CompactedRow and IndexedRows inside an IndexedRow. BinaryMap (binarymap.go): int32
// LE size of the key array, the key BinaryArray, the value BinaryArray.
package row
