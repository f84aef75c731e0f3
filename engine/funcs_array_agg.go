package engine

import (
	"fmt"

	"github.com/flussql/flussql/fluss/types"
)

// ARRAY_AGG, Flink 1.20's aggregate: the group's x in an ARRAY, in the
// order rows arrive, NULLs kept (RESPECT NULLS, the default) or skipped
// (IGNORE NULLS, the constant second argument the parser makes of it);
// with DISTINCT each value once. NULL over no rows.

// ignoreNullsArg is the constant the parser passes for IGNORE NULLS.
const ignoreNullsArg = "IGNORE NULLS"

func init() {
	register(&FuncDef{Name: "ARRAY_AGG", Kind: AggregateFunc, Family: "aggregate",
		Signature: "ARRAY_AGG([DISTINCT] x [RESPECT NULLS | IGNORE NULLS]) → ARRAY<type of x>",
		Desc:      "the x of the group's rows in an array, in the order rows arrive (NULL x kept unless IGNORE NULLS)",
		Example:   "ARRAY_AGG(x) = [1, 2, 3]",
		Type:      arrayAggType,
		AggState: func(a *Agg) aggState {
			return &arrayAggState{ignore: len(a.Extra) > 0}
		}})
}

func arrayAggType(fn string, args []Expr) ([]Expr, types.DataType, any, error) {
	if err := argc(fn, args, 1, 2); err != nil {
		return nil, types.DataType{}, nil, err
	}
	if len(args) == 2 {
		if s, ok := constString(args[1]); !ok || s != ignoreNullsArg {
			return nil, types.DataType{}, nil, fmt.Errorf("%s takes one argument (and RESPECT NULLS or IGNORE NULLS), not %s", fn, args[1])
		}
	}
	args[0] = retype(args[0], types.NewString())
	et := args[0].Type()
	if len(args) == 1 {
		et = et.AsNullable()
	}
	return args, types.NewArray(et), nil, nil
}

type arrayAggState struct {
	ignore bool
	vals   []any
	any    bool
}

func (s *arrayAggState) add(v any) error {
	s.vals = append(s.vals, v)
	s.any = true
	return nil
}

func (s *arrayAggState) addNull() error {
	if !s.ignore {
		s.vals = append(s.vals, nil)
	}
	s.any = true
	return nil
}

func (s *arrayAggState) result() (any, error) {
	if !s.any || s.ignore && len(s.vals) == 0 {
		return nil, nil
	}
	return s.vals, nil
}
