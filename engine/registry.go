package engine

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/flussql/flussql/fluss/types"
)

// The function registry: every function of the dialect is one FuncDef,
// registered by the file of its family (funcs_string.go, funcs_math.go, …).
// Typing (NewCall, NewAgg), execution (Call.eval), constant folding, EXPLAIN
// (Call.String), SHOW FUNCTIONS, the shell's completion and \h, and the
// README's function table all read it.

// FuncKind tells how a function is called.
type FuncKind uint8

// Function kinds.
const (
	// Scalar functions map a row's arguments to one value: a Type rule
	// and a Kernel over Arrow arrays.
	ScalarFunc FuncKind = iota
	// Aggregate functions fold a group's rows into one value: a Type rule
	// (AggType) and a state (AggState).
	AggregateFunc
	// Syntax functions have a form of their own (CAST(x AS t), EXTRACT(u
	// FROM x), TIMESTAMPADD(unit, n, x), …) or need the session
	// (CURRENT_DATABASE): the parser or the planner builds their node, Build
	// when it takes plain arguments.
	SyntaxFunc
	// Window functions only exist with OVER (…).
	WindowOnly
)

func (k FuncKind) String() string {
	return [...]string{"scalar", "aggregate", "syntax", "window"}[k]
}

// Kernel computes a scalar function over its arguments' arrays (typed as
// the Type rule left them) for n rows; the caller releases ins and the
// result. Unless the entry says NullArgs, a row with a NULL argument is NULL
// whatever the kernel puts there (Call.eval masks it).
type Kernel func(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error)

// TypeRule checks and converts a call's arguments (implicit casts: retype a
// literal, wrap a column in a cast) and returns them with the result type;
// state is kept on the Call for the kernel (a compiled pattern, say).
type TypeRule func(name string, args []Expr) (out []Expr, t types.DataType, state any, err error)

// FuncDef is one function of the registry.
type FuncDef struct {
	// Name is the canonical upper-case name; Aliases other spellings
	// (CEILING for CEIL), rendered as Name.
	Name    string
	Aliases []string
	Kind    FuncKind
	// Family groups the README's table: string, regex, json, temporal,
	// math, conditional, collection, hash, aggregate, window, system.
	Family string
	// Signature is Flink's signature in words, e.g.
	// "REPLACE(s STRING, from STRING, to STRING) → STRING".
	Signature string
	// Desc is a one-line description, Example a call and its value.
	Desc, Example string
	// Type types a scalar or aggregate call.
	Type TypeRule
	// Kernel runs a scalar call.
	Kernel Kernel
	// NullArgs: the kernel sees rows with NULL arguments and decides
	// (COALESCE, CONCAT_WS); otherwise such a row is NULL.
	NullArgs bool
	// Volatile functions (RAND, UUID) are never folded into a constant.
	Volatile bool
	// Build makes a Syntax function's node from plain arguments (IF, MOD).
	Build func(args []Expr) (Expr, error)
	// AggState makes one group's state of an aggregate (nil for the five
	// the hash aggregation has typed accumulators for, kept in agg.go).
	AggState func(a *Agg) aggState
	// Builtin marks COUNT, SUM, AVG, MIN and MAX, whose states are agg.go's.
	Builtin bool
}

var registry = struct {
	sync.RWMutex
	byName map[string]*FuncDef
	all    []*FuncDef
}{byName: map[string]*FuncDef{}}

// register adds the entries of a family; a name or alias registered twice
// panics (a programming error caught by any test).
func register(defs ...*FuncDef) {
	registry.Lock()
	defer registry.Unlock()
	for _, d := range defs {
		for _, n := range append([]string{d.Name}, d.Aliases...) {
			if _, dup := registry.byName[n]; dup {
				panic("engine: function " + n + " registered twice")
			}
			registry.byName[n] = d
		}
		registry.all = append(registry.all, d)
	}
}

// LookupFunction finds a function by name or alias (any case); nil when the
// dialect has none.
func LookupFunction(name string) *FuncDef {
	registry.RLock()
	defer registry.RUnlock()
	return registry.byName[strings.ToUpper(name)]
}

// Functions lists every registered function, sorted by name.
func Functions() []*FuncDef {
	registry.RLock()
	out := slices.Clone(registry.all)
	registry.RUnlock()
	slices.SortFunc(out, func(a, b *FuncDef) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// FunctionNames lists every name and alias, sorted (SHOW FUNCTIONS, the
// shell's completion).
func FunctionNames() []string {
	registry.RLock()
	out := make([]string, 0, len(registry.byName))
	for n := range registry.byName {
		out = append(out, n)
	}
	registry.RUnlock()
	slices.Sort(out)
	return out
}

// IsAggregateFunction reports whether name is an aggregate function.
func IsAggregateFunction(name string) bool {
	d := LookupFunction(name)
	return d != nil && d.Kind == AggregateFunc || d == nil && IsUserAggregate(name)
}

// NewCall types a call of a Scalar function (or of a Syntax one with a
// Build) by the registry's entry.
func NewCall(name string, args []Expr) (Expr, error) {
	name = strings.ToUpper(name)
	d := LookupFunction(name)
	if d == nil {
		return nil, fmt.Errorf("function %s is not supported; SHOW FUNCTIONS lists the functions flussql has", name)
	}
	switch {
	case d.Kind == ScalarFunc:
	case d.Build != nil:
		return d.Build(args)
	case d.Kind == AggregateFunc:
		return nil, fmt.Errorf("aggregate function %s is not allowed here (only in the select list, HAVING and ORDER BY)", name)
	case d.Kind == WindowOnly:
		return nil, fmt.Errorf("%s is a window function: it needs OVER (…)", name)
	default:
		return nil, fmt.Errorf("%s is written %s", name, d.Signature)
	}
	args, t, state, err := d.Type(d.Name, args)
	if err != nil {
		return nil, err
	}
	return &Call{Name: d.Name, Args: args, T: t, def: d, state: state}, nil
}

// FuncHelp is the text \h NAME prints: signature, description, example.
func FuncHelp(name string) (string, bool) {
	d := LookupFunction(name)
	if d == nil {
		return "", false
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s function", d.Name, d.Kind)
	if len(d.Aliases) > 0 {
		fmt.Fprintf(&b, "; also %s", strings.Join(d.Aliases, ", "))
	}
	fmt.Fprintf(&b, ")\n  %s\n  %s\n  Example: %s\n", d.Signature, d.Desc, d.Example)
	return b.String(), true
}
