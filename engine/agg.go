package engine

import (
	"fmt"
	"math/big"

	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/flussql/flussql/fluss/types"
)

// Agg is an aggregate function call: COUNT(*) (Arg nil), COUNT, SUM, AVG,
// MIN or MAX of Arg, over distinct values of Arg when Distinct. NULL
// arguments are skipped; over no rows COUNT is 0 and the others NULL.
//
// Result types (Flink's, except that SUM of an integer is BIGINT, not the
// argument's type, so that sums of INT columns do not overflow early):
// COUNT BIGINT NOT NULL; SUM of an integer BIGINT, of FLOAT/DOUBLE DOUBLE,
// of DECIMAL(p,s) DECIMAL(38,s); AVG of an integer type that type
// (truncated toward zero, as Flink does), of FLOAT/DOUBLE DOUBLE, of
// DECIMAL(p,s) DECIMAL(38, max(6,s)); MIN and MAX the argument's type.
type Agg struct {
	Func     string
	Arg      Expr
	Distinct bool
	T        types.DataType
	// Extra are the constant arguments after Arg (LISTAGG's separator).
	Extra []Expr
	def   *FuncDef
	user  *AggregateUDF // a user-defined aggregate (aggudf.go)
}

// AggregateFunctions lists the aggregate functions of the registry.
func AggregateFunctions() []string {
	var out []string
	for _, d := range Functions() {
		if d.Kind == AggregateFunc {
			out = append(out, d.Name)
		}
	}
	return out
}

// NewAgg types an aggregate call by its registry entry (LISTAGG's separator:
// NewAggArgs).
func NewAgg(fn string, arg Expr, distinct bool) (*Agg, error) {
	var args []Expr
	if arg != nil {
		args = []Expr{arg}
	}
	return NewAggArgs(fn, args, distinct)
}

// NewAggArgs types an aggregate call of several arguments: the first is
// aggregated, the others are constants (LISTAGG(x, sep)).
func NewAggArgs(fn string, args []Expr, distinct bool) (*Agg, error) {
	d := LookupFunction(fn)
	if d == nil || d.Kind != AggregateFunc {
		return nil, fmt.Errorf("aggregate function %s is not supported", fn)
	}
	fn = d.Name
	a := &Agg{Func: fn, Distinct: distinct, def: d}
	if len(args) == 0 {
		if fn != "COUNT" {
			return nil, fmt.Errorf("%s needs an argument", fn)
		}
		a.T = types.NewBigInt().AsNotNull()
		return a, nil
	}
	a.Arg = args[0]
	at := a.Arg.Type()
	if at.Kind.Nested() {
		return nil, fmt.Errorf("%s of %s (%s) is not supported", fn, a.Arg, TypeName(at))
	}
	out, t, _, err := d.Type(fn, args)
	if err != nil {
		return nil, err
	}
	a.Arg, a.Extra, a.T = out[0], out[1:], t
	return a, nil
}

// builtinAggType types COUNT, SUM, AVG, MIN and MAX.
func builtinAggType(fn string, args []Expr) ([]Expr, types.DataType, any, error) {
	if len(args) != 1 {
		return nil, types.DataType{}, nil, fmt.Errorf("%s takes one argument", fn)
	}
	arg := args[0]
	at := arg.Type()
	var t types.DataType
	switch fn {
	case "COUNT":
		t = types.NewBigInt().AsNotNull()
	case "SUM", "AVG":
		switch {
		case isInt(at.Kind) && fn == "SUM":
			t = types.NewBigInt()
		case isInt(at.Kind):
			t = types.DataType{Kind: at.Kind}
		case isFloat(at.Kind):
			t = types.NewDouble()
		case at.Kind == types.Decimal && fn == "SUM":
			t = types.NewDecimal(38, at.Scale)
		case at.Kind == types.Decimal:
			t = types.NewDecimal(38, max(6, at.Scale))
		default:
			return nil, t, nil, fmt.Errorf("%s needs a number, not %s (%s)", fn, arg, TypeName(at))
		}
	case "MIN", "MAX":
		t = at.AsNullable()
	}
	return args, t, nil, nil
}

// String renders the call.
func (a *Agg) String() string {
	if a.Arg == nil && a.user != nil {
		return a.Func + "()"
	}
	if a.Arg == nil {
		return "COUNT(*)"
	}
	d := ""
	if a.Distinct {
		d = "DISTINCT "
	}
	s := a.Func + "(" + d + a.Arg.String()
	for _, x := range a.Extra {
		s += ", " + x.String()
	}
	return s + ")"
}

// aggState accumulates one aggregate of one group.
type aggState interface {
	add(v any) error // v is never nil
	result() (any, error)
}

func (a *Agg) newState() aggState { return a.newStateIn(nil) }

// newStateIn is newState with the COUNT, integer and float states taken from
// ar's chunks (ar may be nil).
func (a *Agg) newStateIn(ar *stateArena) aggState {
	if a.def != nil && a.def.AggState != nil {
		return a.def.AggState(a)
	}
	switch a.Func {
	case "COUNT":
		if ar == nil {
			return &countState{}
		}
		return ar.count()
	case "MIN", "MAX":
		return &minMaxState{max: a.Func == "MAX"}
	}
	at := a.Arg.Type()
	switch {
	case isFloat(at.Kind):
		s := ar.float()
		s.avg = a.Func == "AVG"
		return s
	case isInt(at.Kind):
		s := ar.int()
		s.avg, s.agg = a.Func == "AVG", a
		return s
	}
	return &decState{avg: a.Func == "AVG", in: at.Scale, out: a.T.Scale}
}

// stateArena hands out aggregate states from chunks, so that a million
// groups cost a few thousand allocations instead of one per state. States
// live as long as the arena's owner (the aggregation) keeps them.
type stateArena struct {
	counts []countState
	ints   []intState
	floats []floatState
}

const arenaChunk = 1024

func (ar *stateArena) count() *countState {
	if len(ar.counts) == 0 {
		ar.counts = make([]countState, arenaChunk)
	}
	s := &ar.counts[0]
	ar.counts = ar.counts[1:]
	return s
}

func (ar *stateArena) int() *intState {
	if ar == nil {
		return &intState{}
	}
	if len(ar.ints) == 0 {
		ar.ints = make([]intState, arenaChunk)
	}
	s := &ar.ints[0]
	ar.ints = ar.ints[1:]
	return s
}

func (ar *stateArena) float() *floatState {
	if ar == nil {
		return &floatState{}
	}
	if len(ar.floats) == 0 {
		ar.floats = make([]floatState, arenaChunk)
	}
	s := &ar.floats[0]
	ar.floats = ar.floats[1:]
	return s
}

type countState struct{ n int64 }

func (s *countState) add(any) error        { s.n++; return nil }
func (s *countState) result() (any, error) { return s.n, nil }

type minMaxState struct {
	v   any
	max bool
}

func (s *minMaxState) add(v any) error {
	if s.v == nil || (compareValues(v, s.v) > 0) == s.max && compareValues(v, s.v) != 0 {
		s.v = v
	}
	return nil
}

func (s *minMaxState) result() (any, error) { return s.v, nil }

type floatState struct {
	sum float64
	n   int64
	avg bool
}

func (s *floatState) add(v any) error { s.sum += v.(float64); s.n++; return nil }
func (s *floatState) result() (any, error) {
	switch {
	case s.n == 0:
		return nil, nil
	case s.avg:
		return s.sum / float64(s.n), nil
	}
	return s.sum, nil
}

type intState struct {
	sum int64
	n   int64
	avg bool
	agg *Agg
}

func (s *intState) add(v any) error { return s.addInt(v.(int64)) }

func (s *intState) result() (any, error) {
	switch {
	case s.n == 0:
		return nil, nil
	case s.avg:
		return s.sum / s.n, nil // Go's / truncates toward zero, as Java's
	}
	return s.sum, nil
}

type decState struct {
	sum     big.Int
	n       int64
	avg     bool
	in, out int
}

var maxDecimal38 = new(big.Int).Sub(pow10(38), big.NewInt(1))

func (s *decState) add(v any) error {
	s.sum.Add(&s.sum, v.(decimal128.Num).BigInt())
	s.n++
	if new(big.Int).Abs(&s.sum).Cmp(maxDecimal38) > 0 {
		return fmt.Errorf("%w: SUM overflows DECIMAL(38, %d)", ErrArithmetic, s.in)
	}
	return nil
}

func (s *decState) result() (any, error) {
	if s.n == 0 {
		return nil, nil
	}
	q := rescaleBig(&s.sum, s.in, s.out)
	if s.avg {
		q = divHalfUp(q, big.NewInt(s.n))
	}
	return decimal128.FromBigInt(q), nil
}

func (s *intState) addInt(x int64) error {
	r := s.sum + x
	if (x > 0 && r < s.sum) || (x < 0 && r > s.sum) {
		return fmt.Errorf("%w: %s overflows BIGINT", ErrArithmetic, s.agg)
	}
	s.sum, s.n = r, s.n+1
	return nil
}
