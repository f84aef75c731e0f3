package flussql

import "github.com/flussql/flussql/engine"

// ScalarFunction is a user-defined scalar function for RegisterFunction: Name, the types of
// its arguments (each argument is converted to its type, as by CAST), the result type, and
// Fn, which maps one row's arguments — never NULL, in the engine's value model: int64 for
// the integer types, float64 for FLOAT and DOUBLE, string, bool, []byte, decimal128.Num for
// DECIMAL, int32 days for DATE, int64 units of the precision for TIMESTAMP — to a value of the
// result type (nil: NULL). A row with a NULL argument is NULL without calling Fn.
type ScalarFunction = engine.ScalarUDF

// RegisterFunction makes f callable in every statement run through the connector, from
// then on (connections already open included); SHOW FUNCTIONS lists it as a "user"
// function. A built-in's name, or one registered already, is an error. Fn runs on the
// connection's goroutine and must be safe for concurrent use.
func (c *Connector) RegisterFunction(f ScalarFunction) error {
	return c.funcs.RegisterScalar(f)
}
