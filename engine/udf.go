package engine

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/flussql/flussql/fluss/types"
)

// FunctionSet holds user-defined functions: registered by a program on its
// connector, found before the built-ins by the statements of that connector.
// The zero value is empty and ready; it is safe for concurrent use.
type FunctionSet struct {
	mu     sync.RWMutex
	byName map[string]*FuncDef
	aggs   map[string]*AggregateUDF // the aggregates of byName (aggudf.go)
}

// Lookup finds a user-defined function by name (any case); nil when there
// is none (or s is nil).
func (s *FunctionSet) Lookup(name string) *FuncDef {
	if s == nil {
		return nil
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.byName[strings.ToUpper(name)]
}

// Names lists the functions, sorted.
func (s *FunctionSet) Names() []string {
	if s == nil {
		return nil
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]string, 0, len(s.byName))
	for n := range s.byName {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// ScalarUDF is a user-defined scalar function: Fn maps one row's arguments,
// never NULL, converted to Args (the value model of the package
// documentation: int64, float64, string, bool, decimal128.Num, …), to a
// value of Result (nil: NULL); a row with a NULL argument is NULL.
type ScalarUDF struct {
	Name        string
	Args        []types.DataType
	Result      types.DataType
	Fn          func(args []any) (any, error)
	Description string
}

// RegisterScalar adds f; a name the dialect has (a built-in) or the set has
// already is an error.
func (s *FunctionSet) RegisterScalar(f ScalarUDF) error {
	name := strings.ToUpper(f.Name)
	switch {
	case name == "" || !isWordName(name):
		return fmt.Errorf("a function name is a word of letters, digits and _, not %q", f.Name)
	case f.Fn == nil:
		return fmt.Errorf("function %s has no Fn", name)
	case LookupFunction(name) != nil:
		return fmt.Errorf("function %s is built in; give yours another name", name)
	}
	if _, err := arrowType(f.Result); err != nil {
		return fmt.Errorf("function %s: result type %s: %w", name, TypeName(f.Result), err)
	}
	sig := make([]string, len(f.Args))
	for i, t := range f.Args {
		sig[i] = TypeName(t)
	}
	desc := f.Description
	if desc == "" {
		desc = "a user-defined function"
	}
	d := &FuncDef{Name: name, Family: "user", Signature: fmt.Sprintf("%s(%s) → %s", name, strings.Join(sig, ", "), TypeName(f.Result)),
		Desc: desc, Example: name + "(…)", Volatile: true, Type: udfType(f), Kernel: udfKernel(f)}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, dup := s.byName[name]; dup {
		return fmt.Errorf("function %s is registered already", name)
	}
	if IsUserAggregate(name) {
		return fmt.Errorf("function %s is a user-defined aggregate (of another connector of this program); give yours another name", name)
	}
	if s.byName == nil {
		s.byName = map[string]*FuncDef{}
		s.aggs = map[string]*AggregateUDF{}
	}
	s.byName[name] = d
	noteUserScalar(name)
	return nil
}

func isWordName(s string) bool {
	for i, r := range s {
		if !(r == '_' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// udfType checks the argument count and converts each argument to its
// declared type (an untyped NULL takes it; another type is CAST).
func udfType(f ScalarUDF) TypeRule {
	return func(name string, args []Expr) ([]Expr, types.DataType, any, error) {
		args, err := castArgs(name, args, f.Args)
		if err != nil {
			return nil, f.Result, nil, err
		}
		return args, nullable(f.Result, false), nil, nil
	}
}

func udfKernel(f ScalarUDF) Kernel {
	return func(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
		return mapRows(ec, c.T, ins, n, false, func(v []any) (any, error) {
			out, err := f.Fn(v)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", c.Name, err)
			}
			return out, nil
		})
	}
}

// NewCallOf types a call of d (a user-defined function of a FunctionSet).
func NewCallOf(d *FuncDef, args []Expr) (Expr, error) {
	if d.Kind == AggregateFunc {
		return nil, fmt.Errorf("aggregate function %s is not allowed here (only in the select list, HAVING and ORDER BY)", d.Name)
	}
	args, t, state, err := d.Type(d.Name, args)
	if err != nil {
		return nil, err
	}
	return &Call{Name: d.Name, Args: args, T: t, def: d, state: state}, nil
}
