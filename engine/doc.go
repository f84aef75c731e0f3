// Package engine runs the client-side part of a query over Arrow record
// batches: filter, projection, hash aggregation, sort and top-N, DISTINCT,
// LIMIT/OFFSET. It knows neither the network nor database/sql: the planner
// builds a tree of Nodes (plain, printable data), the driver feeds the
// batches its scans and lookups produce into Build's operators and reads the
// result batches out.
//
// # Values and types
//
// Types are Fluss types (package fluss/types) and batches carry them as
// Fluss's Arrow mapping does (types.ArrowType). Constants and the values
// operators keep in their state use this model: BOOLEAN bool, TINYINT…BIGINT
// int64, FLOAT and DOUBLE float64, DECIMAL decimal128.Num (unscaled, the
// scale is the type's), CHAR and STRING string, BINARY and BYTES []byte,
// DATE int32 days, TIME and TIMESTAMP int64 in the Arrow unit of their
// precision; nil is NULL.
//
// # Semantics
//
// Expressions follow SQL's three-valued logic (a comparison with NULL is
// UNKNOWN; AND/OR are Kleene's; a filter keeps rows whose condition is
// TRUE) and Flink SQL's result types (see ArithType and CommonType).
// Integer overflow and division by zero are errors, never wrapped or NULL.
// Aggregation, sort and DISTINCT keep their state under a Budget; exceeding
// it fails the query with a *MemoryError.
package engine
