package engine

import "fmt"

// Aggregates of the registry as window functions: besides COUNT, SUM, AVG,
// MIN and MAX (NewWindowFunc), any aggregate function of the registry —
// ARRAY_AGG, LISTAGG, COLLECT, STDDEV_POP, BOOL_AND, … — computes over each
// row's frame with the same states a GROUP BY uses.

// NewWindowAggregate types aggregate fn of the registry over a window frame:
// args are its arguments as NewAggArgs takes them (the aggregated value,
// then constants such as LISTAGG's separator).
func NewWindowAggregate(fn string, args []Expr, frame WindowFrame) (*WindowFunc, error) {
	d := LookupFunction(fn)
	if d == nil || d.Kind != AggregateFunc {
		return nil, fmt.Errorf("%s is not an aggregate function", fn)
	}
	if len(args) == 0 {
		return nil, fmt.Errorf("%s needs an argument", fn)
	}
	a, err := NewAggArgs(fn, args, false)
	if err != nil {
		return nil, err
	}
	return &WindowFunc{Func: a.Func, Arg: a.Arg, Frame: frame, T: a.T, agg: a}, nil
}

// commutativeAgg reports whether the aggregate's value does not depend on
// the order its rows are added in, so that a frame may be accumulated
// backwards (from the partition's last row toward its first).
func (w *WindowFunc) commutativeAgg() bool {
	switch w.agg.Func {
	case "COUNT", "SUM", "AVG", "MIN", "MAX":
		return true
	}
	return false
}

// addWindowRow adds the argument of row (at index arg, -1 for COUNT(*)) to
// st; a NULL is skipped unless the state keeps NULLs (ARRAY_AGG).
func addWindowRow(st aggState, row []any, arg int) error {
	if arg < 0 {
		return st.add(true)
	}
	if v := row[arg]; v != nil {
		return st.add(v)
	}
	if n, ok := st.(nullAdder); ok {
		return n.addNull()
	}
	return nil
}
