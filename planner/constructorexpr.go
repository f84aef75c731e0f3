package planner

import (
	"github.com/flussql/flussql/engine"
	"github.com/flussql/flussql/parser"
)

// constructor converts a value constructor in a query expression: ARRAY[e, …]
// (engine.ArrayValue) and MAP[k, v, …] (engine.MapValue) over any expressions.
func (c *exprConv) constructor(n *parser.Constructor) (engine.Expr, error) {
	if n.Kind != parser.ArrayOf && n.Kind != parser.MapOf {
		return nil, notSupported("%s: only ARRAY[…] and MAP[…] build a value in a query expression; ROW(…) only in a value to insert", n)
	}
	elems, err := c.list(n.Elems)
	if err != nil {
		return nil, err
	}
	if n.Kind == parser.MapOf {
		return engine.NewMapValue(elems)
	}
	return engine.NewArrayValue(elems)
}
