package planner

import (
	"github.com/flussql/flussql/engine"
	"github.com/flussql/flussql/parser"
)

// constructor converts a value constructor in a query expression:
// ARRAY[e, …] over any expressions (engine.ArrayValue).
func (c *exprConv) constructor(n *parser.Constructor) (engine.Expr, error) {
	if n.Kind != parser.ArrayOf {
		return nil, notSupported("%s: only ARRAY[…] builds a value in a query expression; %s only in a value to insert", n, map[parser.ConstructorKind]string{parser.MapOf: "MAP[…]", parser.RowOf: "ROW(…)"}[n.Kind])
	}
	elems, err := c.list(n.Elems)
	if err != nil {
		return nil, err
	}
	return engine.NewArrayValue(elems)
}
