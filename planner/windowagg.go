package planner

import (
	"fmt"
	"strings"

	"github.com/flussql/flussql/engine"
	"github.com/flussql/flussql/parser"
)

// windowAggregate types an aggregate of the registry other than COUNT, SUM,
// AVG, MIN and MAX as a window function (ARRAY_AGG, LISTAGG, COLLECT, …).
// User-defined aggregates are refused: their states run inside GROUP BY only.
func windowAggregate(w *parser.WindowCall, f *parser.FuncCall, conv *exprConv, frame engine.WindowFrame) (*engine.WindowFunc, error) {
	if conv.sess.Functions.LookupAggregate(f.Name) != nil {
		return nil, notSupported("%s: a user-defined aggregate is not supported as a window function (OVER); aggregate it with GROUP BY and join the result back", w)
	}
	if d := engine.LookupFunction(f.Name); d == nil || d.Kind != engine.AggregateFunc {
		return nil, notSupported("%s is not a window function; OVER takes %s and the aggregate functions (SHOW FUNCTIONS lists them)", w.Func, strings.Join(engine.WindowFunctions, ", "))
	}
	if len(f.Args) != 1 && (f.Name != "LISTAGG" && f.Name != "ARRAY_AGG" || len(f.Args) != 2) { // ARRAY_AGG's: IGNORE NULLS
		return nil, fmt.Errorf("%s takes one argument", f.Name)
	}
	args := make([]engine.Expr, len(f.Args))
	for i, a := range f.Args {
		e, err := conv.conv(a)
		if err != nil {
			return nil, err
		}
		args[i] = e
	}
	fn, err := engine.NewWindowAggregate(f.Name, args, frame)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", w, err)
	}
	return fn, nil
}
