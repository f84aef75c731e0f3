// Package sqlkind is what the SQL layer decides per scalar Fluss kind, one entry per
// kind in one table: the kind's family (what the engine's type rules and the
// planner's comparisons go by), how Go arguments, SQL literals and text become a
// value of the kind's value model (package fluss: int32 for INT, datum.Date for
// DATE, …), the wider type a value compared with a column gets, and whether the
// kind can be a partition key.
//
// Each family's file (integers.go, floats.go, decimal.go, strings.go, binary.go,
// boolean.go, temporal.go) registers its kinds. Adding a scalar kind on the SQL side
// is one entry in its family's file; kind_test.go fails for a scalar kind of
// types.Kinds without one, naming the kind and the missing field. ARRAY, MAP and ROW
// have no entry: the planner converts them itself.
package sqlkind
