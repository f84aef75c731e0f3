package engine

import (
	"fmt"
	"strings"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/flussql/flussql/fluss/types"
)

// AggregateState is one group's running state of a user-defined aggregate:
// Add folds one row's arguments (never NULL: a row with a NULL argument is
// skipped, as the built-in aggregates skip NULLs; converted to the declared
// types, in the value model of the package documentation), Result is the
// group's value (nil: NULL), called once, after the last Add.
type AggregateState interface {
	Add(args []any) error
	Result() (any, error)
}

// AggregateStateSize is implemented by an AggregateState whose memory grows
// with the rows it sees (a list, a set, a sketch): Size is the bytes it
// holds, counted in the query's memory budget (Options' memory limit) after
// each Add. A state without it counts as a small fixed header.
type AggregateStateSize interface {
	Size() int64
}

// AggregateUDF is a user-defined aggregate function: New makes the state of
// one group (called once per group, also for the single group of an
// aggregate over no rows). flussql aggregates in one phase on the client,
// so states are never merged and need no Merge; DISTINCT feeds each
// distinct tuple of arguments once per group.
type AggregateUDF struct {
	Name        string
	Args        []types.DataType
	Result      types.DataType
	New         func() AggregateState
	Description string
}

// userAggNames counts the user aggregates registered under each name in the
// process: the planner tells an aggregate call from a scalar one before it
// knows the connector's functions (IsAggregateFunction).
var userAggNames = struct {
	sync.RWMutex
	n      map[string]int
	scalar map[string]int // the user scalar functions, whose names an aggregate may not take
}{n: map[string]int{}, scalar: map[string]int{}}

// noteUserScalar records a user scalar function's name (RegisterScalar).
func noteUserScalar(name string) {
	userAggNames.Lock()
	userAggNames.scalar[name]++
	userAggNames.Unlock()
}

// IsUserAggregate reports whether some FunctionSet of the process has an
// aggregate named name.
func IsUserAggregate(name string) bool {
	userAggNames.RLock()
	defer userAggNames.RUnlock()
	return userAggNames.n[strings.ToUpper(name)] > 0
}

// RegisterAggregate adds f; a built-in's name, one the set has already, or
// one another set of the process has as a scalar function is an error.
func (s *FunctionSet) RegisterAggregate(f AggregateUDF) error {
	name := strings.ToUpper(f.Name)
	switch {
	case name == "" || !isWordName(name):
		return fmt.Errorf("a function name is a word of letters, digits and _, not %q", f.Name)
	case f.New == nil:
		return fmt.Errorf("aggregate function %s has no New (the constructor of a group's state)", name)
	case LookupFunction(name) != nil:
		return fmt.Errorf("function %s is built in; give yours another name", name)
	}
	if _, err := arrowType(f.Result); err != nil {
		return fmt.Errorf("aggregate function %s: result type %s: %w", name, TypeName(f.Result), err)
	}
	for i, t := range f.Args {
		if _, err := arrowType(t); err != nil || t.Kind.Nested() {
			return fmt.Errorf("aggregate function %s: argument %d: type %s is not supported (a scalar type is)", name, i+1, TypeName(t))
		}
	}
	sig := make([]string, len(f.Args))
	for i, t := range f.Args {
		sig[i] = TypeName(t)
	}
	desc := f.Description
	if desc == "" {
		desc = "a user-defined aggregate function"
	}
	fc := f
	fc.Name = name
	d := &FuncDef{Name: name, Kind: AggregateFunc, Family: "user",
		Signature: fmt.Sprintf("%s([DISTINCT] %s) → %s", name, strings.Join(sig, ", "), TypeName(f.Result)),
		Desc:      desc, Example: name + "(…)", Volatile: true,
		Type: func(fn string, args []Expr) ([]Expr, types.DataType, any, error) {
			args, err := castArgs(fn, args, fc.Args)
			return args, fc.Result.AsNullable(), nil, err
		}}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, dup := s.byName[name]; dup {
		return fmt.Errorf("function %s is registered already", name)
	}
	userAggNames.RLock()
	scalar := userAggNames.scalar[name] > 0
	userAggNames.RUnlock()
	if scalar {
		return fmt.Errorf("function %s is a user-defined scalar function (of another connector of this program); give your aggregate another name", name)
	}
	if s.byName == nil {
		s.byName = map[string]*FuncDef{}
		s.aggs = map[string]*AggregateUDF{}
	}
	s.byName[name] = d
	s.aggs[name] = &fc
	userAggNames.Lock()
	userAggNames.n[name]++
	userAggNames.Unlock()
	return nil
}

// LookupAggregate finds a user-defined aggregate by name (any case); nil
// when there is none (or s is nil).
func (s *FunctionSet) LookupAggregate(name string) *AggregateUDF {
	if s == nil {
		return nil
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.aggs[strings.ToUpper(name)]
}

// NewUserAgg types a call of the user aggregate f over args, each converted
// to its declared type (as by CAST).
func NewUserAgg(f *AggregateUDF, args []Expr, distinct bool) (*Agg, error) {
	args, err := castArgs(f.Name, args, f.Args)
	if err != nil {
		return nil, err
	}
	a := &Agg{Func: f.Name, Distinct: distinct, T: f.Result.AsNullable(), user: f}
	switch len(args) {
	case 0:
	case 1:
		a.Arg = args[0]
	default:
		a.Arg = &argPack{Args: args}
	}
	return a, nil
}

// castArgs checks the argument count and converts each argument to its
// declared type (an untyped NULL takes it; another type is CAST).
func castArgs(name string, args []Expr, want []types.DataType) ([]Expr, error) {
	if len(args) != len(want) {
		return nil, fmt.Errorf("%s takes %d argument(s) (%s), not %d", name, len(want), typeNames(want), len(args))
	}
	for i, w := range want {
		args[i] = retype(args[i], w)
		if got := args[i].Type(); !got.AsNullable().Equal(w.AsNullable()) {
			c, err := NewCast(args[i], w)
			if err != nil {
				return nil, fmt.Errorf("%s: argument %d: %w", name, i+1, err)
			}
			args[i] = c
		}
	}
	return args, nil
}

func typeNames(ts []types.DataType) string {
	s := make([]string, len(ts))
	for i, t := range ts {
		s[i] = TypeName(t)
	}
	return strings.Join(s, ", ")
}

// argPack is the several arguments of a user aggregate as one expression,
// a struct column of them, which the aggregation evaluates as the Arg of
// an Agg.
type argPack struct{ Args []Expr }

func (p *argPack) Type() types.DataType {
	fs := make([]types.Field, len(p.Args))
	for i, a := range p.Args {
		fs[i] = types.Field{Name: fmt.Sprintf("a%d", i), Type: a.Type().AsNullable()}
	}
	return types.NewRow(fs...).AsNotNull()
}

func (p *argPack) String() string {
	s := make([]string, len(p.Args))
	for i, a := range p.Args {
		s[i] = a.String()
	}
	return strings.Join(s, ", ")
}

func (p *argPack) eval(ec *evalCtx, b arrow.RecordBatch) (arrow.Array, error) {
	cols, err := evalAll(ec, p.Args, b)
	if err != nil {
		return nil, err
	}
	defer releaseAll(cols)
	names := make([]string, len(cols))
	for i := range names {
		names[i] = fmt.Sprintf("a%d", i)
	}
	return array.NewStructArray(cols, names)
}

func (p *argPack) children() []Expr { return p.Args }
func (p *argPack) rebuild(c []Expr) Expr {
	return &argPack{Args: c}
}

// udafAcc is the accumulator of a user aggregate: one AggregateState per
// group.
type udafAcc struct {
	agg    *Agg
	grow   func(int64) error
	states []AggregateState
	seen   []map[string]struct{}
	extra  int64 // what the states implementing AggregateStateSize hold
}

func (u *udafAcc) resize(n int) {
	for len(u.states) < n {
		st := u.agg.user.New()
		if sz, ok := st.(AggregateStateSize); ok {
			u.extra += sz.Size()
		}
		u.states = append(u.states, st)
		if u.agg.Distinct {
			u.seen = append(u.seen, map[string]struct{}{})
		}
	}
}

func (u *udafAcc) bytes() int64 {
	return int64(cap(u.states))*stateBytes + int64(cap(u.seen))*56 + u.extra
}

func (u *udafAcc) update(gids []int32, arg arrow.Array) error {
	var cols []arrow.Array
	switch a := arg.(type) {
	case nil:
	case *array.Struct:
		if _, ok := u.agg.Arg.(*argPack); ok {
			for i := range a.NumField() {
				cols = append(cols, a.Field(i))
			}
			break
		}
		cols = []arrow.Array{a}
	default:
		cols = []arrow.Array{a}
	}
	gets := make([]func(int) any, len(cols))
	for i, c := range cols {
		g, err := getter(c)
		if err != nil {
			return fmt.Errorf("%s: argument %d: %w", u.agg.Func, i+1, err)
		}
		gets[i] = g
	}
	var key []byte
rows:
	for r, g := range gids {
		for _, c := range cols {
			if c.IsNull(r) {
				continue rows
			}
		}
		st := u.states[g]
		if st == nil {
			return fmt.Errorf("%s: New returned a nil AggregateState", u.agg.Func)
		}
		vals := make([]any, len(cols))
		for i, get := range gets {
			vals[i] = get(r)
		}
		if u.agg.Distinct {
			key = key[:0]
			for _, v := range vals {
				key = appendKey(key, v)
			}
			if _, dup := u.seen[g][string(key)]; dup {
				continue
			}
			if err := u.grow(int64(len(key) + 48)); err != nil {
				return err
			}
			u.seen[g][string(key)] = struct{}{}
		}
		sz, sized := st.(AggregateStateSize)
		var before int64
		if sized {
			before = sz.Size()
		}
		if err := st.Add(vals); err != nil {
			return fmt.Errorf("%s: %w", u.agg.Func, err)
		}
		if sized {
			u.extra += sz.Size() - before
		}
	}
	return nil
}

func (u *udafAcc) build(mem memory.Allocator) (arrow.Array, error) {
	vals := make([]any, len(u.states))
	for g, st := range u.states {
		if st == nil {
			return nil, fmt.Errorf("%s: New returned a nil AggregateState", u.agg.Func)
		}
		v, err := st.Result()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", u.agg.Func, err)
		}
		if err := checkModelValue(u.agg.T, v); err != nil {
			return nil, fmt.Errorf("%s: Result: %w", u.agg.Func, err)
		}
		vals[g] = v
	}
	return buildArray(mem, u.agg.T, vals)
}

// checkModelValue tells whether v is a value of t in the engine's value
// model (nil is NULL), so that a user function's wrong Go type is an error,
// not a panic of the column builder.
func checkModelValue(t types.DataType, v any) error {
	if v == nil {
		return nil
	}
	var ok bool
	want := ""
	switch {
	case isInt(t.Kind), t.Kind == types.Timestamp, t.Kind == types.TimestampLTZ, t.Kind == types.Time:
		ok, want = isType[int64](v), "int64"
	case isFloat(t.Kind):
		ok, want = isType[float64](v), "float64"
	case t.Kind == types.Boolean:
		ok, want = isType[bool](v), "bool"
	case t.Kind == types.String || t.Kind == types.Char:
		ok, want = isType[string](v), "string"
	case t.Kind == types.Bytes || t.Kind == types.Binary:
		ok, want = isType[[]byte](v), "[]byte"
	case t.Kind == types.Decimal:
		ok, want = isType[decimal128.Num](v), "decimal128.Num"
	case t.Kind == types.Date:
		ok, want = isType[int32](v), "int32 (days since 1970-01-01)"
	default:
		return nil
	}
	if !ok {
		return fmt.Errorf("a %T is not a %s value; return %s", v, TypeName(t), want)
	}
	return nil
}

func isType[T any](v any) bool {
	_, ok := v.(T)
	return ok
}
