package planner

import (
	"github.com/flussql/flussql/engine"
	"github.com/flussql/flussql/parser"
)

// constructor converts a value constructor in a query expression: MAP[k, v,
// …] over any expressions (engine.MapValue).
func (c *exprConv) constructor(n *parser.Constructor) (engine.Expr, error) {
	if n.Kind != parser.MapOf {
		return nil, notSupported("%s in a query expression is not supported; ARRAY[…] and ROW(…) values are literals of INSERT … VALUES", n)
	}
	elems, err := c.list(n.Elems)
	if err != nil {
		return nil, err
	}
	return engine.NewMapValue(elems)
}
