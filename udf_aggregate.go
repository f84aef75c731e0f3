package flussql

import "github.com/flussql/flussql/engine"

// AggregateFunction is a user-defined aggregate function for RegisterAggregate: Name, the
// types of its arguments (each converted to its type, as by CAST), the result type, and New,
// which makes the running state of one group. Each row of the group whose arguments are all
// non-NULL is passed to the state's Add (in the value model of ScalarFunction: int64, float64,
// string, bool, []byte, decimal128.Num, int32 days, int64 time units); the group's value is
// its Result (nil: NULL). A group, or an aggregate over no rows, whose rows all have a NULL
// argument gets a state that saw no Add. With DISTINCT, each distinct tuple of arguments is
// added once per group.
type AggregateFunction = engine.AggregateUDF

// AggregateState is one group's running state of an AggregateFunction: Add folds in one row's
// arguments, Result is called once, after the last Add. flussql aggregates in one phase, so
// states are never merged (no Merge) and one state is used by one goroutine at a time.
type AggregateState = engine.AggregateState

// AggregateStateSize is implemented by an AggregateState whose memory grows with its rows (a
// list, a set, a sketch): Size, its bytes, is counted in the query's memory budget after each
// Add, so that a query over too many groups fails with a memory error instead of exhausting
// the process. A state without it counts as a small fixed header.
type AggregateStateSize = engine.AggregateStateSize

// RegisterAggregate makes f callable as an aggregate — in the select list, HAVING and ORDER
// BY of a grouped query, with or without DISTINCT — in every statement run through the
// connector, from then on (connections already open included); SHOW FUNCTIONS lists it as a
// "user" function. A built-in's name, one registered already, or the name of a scalar
// function registered on another connector of the program is an error. New is called once
// per group and may be called from several connections at once.
func (c *Connector) RegisterAggregate(f AggregateFunction) error {
	return c.funcs.RegisterAggregate(f)
}
