package planner

import (
	"fmt"

	"github.com/flussql/flussql/engine"
	"github.com/flussql/flussql/parser"
)

// userAggregate types a call of a user-defined aggregate of the session's
// connector: its arguments are converted before grouping, as a built-in
// aggregate's.
func (a *aggConv) userAggregate(f *engine.AggregateUDF, n *parser.FuncCall) (*engine.Agg, error) {
	args := make([]engine.Expr, 0, len(n.Args))
	for _, x := range n.Args {
		if hasAggregate(x) {
			return nil, fmt.Errorf("aggregate functions cannot be nested: %s", n)
		}
		arg, err := a.inner.conv(x)
		if err != nil {
			return nil, err
		}
		args = append(args, arg)
	}
	return engine.NewUserAgg(f, args, n.Distinct)
}
