package engine

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/compute"

	"github.com/flussql/flussql/fluss/types"
)

// Compare is L Op R for = <> < <= > >=: UNKNOWN (NULL) when either side
// is NULL.
type Compare struct {
	Op   string
	L, R Expr
	// T is the type both sides are compared as.
	T types.DataType
}

var compareKernels = map[string]string{
	"=": "equal", "<>": "not_equal", "<": "less", "<=": "less_equal", ">": "greater", ">=": "greater_equal",
}

// NewCompare types l op r: both sides are brought to their CommonType.
func NewCompare(op string, l, r Expr) (Expr, error) {
	if _, ok := compareKernels[op]; !ok {
		return nil, fmt.Errorf("engine: unknown comparison %q", op)
	}
	l, r, t, err := coerce("compare", l, r)
	if err != nil {
		return nil, err
	}
	return &Compare{Op: op, L: constAs(l, t), R: constAs(r, t), T: t}, nil
}

// Type implements Expr.
func (e *Compare) Type() types.DataType {
	return nullable(types.NewBoolean(), bothNotNull(e.L.Type(), e.R.Type()))
}

// String renders the comparison.
func (e *Compare) String() string { return e.L.String() + " " + e.Op + " " + e.R.String() }

func (e *Compare) children() []Expr { return []Expr{e.L, e.R} }
func (e *Compare) rebuild(c []Expr) Expr {
	n, err := NewCompare(e.Op, c[0], c[1])
	if err != nil {
		return &Compare{Op: e.Op, L: c[0], R: c[1], T: e.T}
	}
	return n
}

func (e *Compare) eval(ec *evalCtx, b arrow.RecordBatch) (arrow.Array, error) {
	l, err := evalAs(ec, e.L, e.T, b)
	if err != nil {
		return nil, err
	}
	defer l.Release()
	r, err := evalAs(ec, e.R, e.T, b)
	if err != nil {
		return nil, err
	}
	defer r.Release()
	return compareArrays(ec, e.Op, l, r)
}

func compareArrays(ec *evalCtx, op string, l, r arrow.Array) (arrow.Array, error) {
	out, err := compute.CallFunction(ec.ctx, compareKernels[op], nil, compute.NewDatumWithoutOwning(l), compute.NewDatumWithoutOwning(r))
	if err != nil {
		return nil, err
	}
	return out.(*compute.ArrayDatum).MakeArray(), nil
}

// In is X [NOT] IN (List…): x = a OR x = b …, with three-valued logic
// (x NOT IN (1, NULL) is never TRUE).
type In struct {
	X    Expr
	List []Expr
	Not  bool
	T    types.DataType
}

// NewIn types the predicate: X and every list entry are brought to one
// common type.
func NewIn(x Expr, list []Expr, not bool) (Expr, error) {
	t, typed := x.Type(), !isUntyped(x)
	for _, v := range list {
		if isUntyped(v) {
			continue
		}
		if !typed {
			t, typed = v.Type(), true
			continue
		}
		var err error
		if _, _, t, err = coerce("compare", &Col{T: t}, v); err != nil {
			return nil, fmt.Errorf("%s IN (…): %w", x, err)
		}
	}
	out := &In{X: retype(x, t), Not: not, T: t}
	for _, v := range list {
		out.List = append(out.List, constAs(retype(v, t), t))
	}
	return out, nil
}

// Type implements Expr.
func (e *In) Type() types.DataType { return types.NewBoolean() }

// String renders the predicate.
func (e *In) String() string {
	parts := make([]string, len(e.List))
	for i, v := range e.List {
		parts[i] = v.String()
	}
	not := ""
	if e.Not {
		not = " NOT"
	}
	return e.X.String() + not + " IN (" + strings.Join(parts, ", ") + ")"
}

func (e *In) children() []Expr { return append([]Expr{e.X}, e.List...) }
func (e *In) rebuild(c []Expr) Expr {
	n, err := NewIn(c[0], c[1:], e.Not)
	if err != nil {
		return &In{X: c[0], List: c[1:], Not: e.Not, T: e.T}
	}
	return n
}

// eval ORs equality tests with or_kleene, which is SQL's OR.
func (e *In) eval(ec *evalCtx, b arrow.RecordBatch) (arrow.Array, error) {
	x, err := evalAs(ec, e.X, e.T, b)
	if err != nil {
		return nil, err
	}
	defer x.Release()
	if out, ok, err := e.evalConsts(ec, x, b); ok || err != nil {
		return out, err
	}
	var acc arrow.Array
	for _, v := range e.List {
		a, err := evalAs(ec, v, e.T, b)
		if err != nil {
			releaseAll([]arrow.Array{acc})
			return nil, err
		}
		eq, err := compareArrays(ec, "=", x, a)
		a.Release()
		if err != nil {
			releaseAll([]arrow.Array{acc})
			return nil, err
		}
		if acc == nil {
			acc = eq
			continue
		}
		next, err := boolKernel(ec, "or_kleene", acc, eq)
		acc.Release()
		eq.Release()
		if err != nil {
			return nil, err
		}
		acc = next
	}
	if e.Not {
		defer acc.Release()
		return boolKernel(ec, "invert", acc)
	}
	return acc, nil
}

// Like is X [NOT] LIKE Pattern [ESCAPE Escape]: % matches any run of
// characters, _ one character, and (with an ESCAPE character c) c%, c_ and
// cc match %, _ and c themselves; case-sensitive, as in Flink. Without
// ESCAPE there is no escape character (Flink's default).
type Like struct {
	X, Pattern Expr
	Escape     Expr // nil without ESCAPE
	Not        bool
}

// NewLike types the predicate; both sides must be strings.
func NewLike(x, pattern Expr, not bool) (Expr, error) { return NewLikeEscape(x, pattern, nil, not) }

// NewLikeEscape types X [NOT] LIKE Pattern ESCAPE Escape (escape nil:
// none); all three must be strings, a constant escape one character.
func NewLikeEscape(x, pattern, escape Expr, not bool) (Expr, error) {
	x, pattern = retype(x, types.NewString()), retype(pattern, types.NewString())
	if !isString(x.Type().Kind) || !isString(pattern.Type().Kind) {
		return nil, fmt.Errorf("LIKE needs strings, not %s and %s", TypeName(x.Type()), TypeName(pattern.Type()))
	}
	if escape != nil {
		escape = retype(escape, types.NewString())
		if !isString(escape.Type().Kind) {
			return nil, fmt.Errorf("the ESCAPE of LIKE is a one-character string, not %s (%s)", escape, TypeName(escape.Type()))
		}
		if c, ok := escape.(*Const); ok && c.Value != nil {
			if _, err := likeEscape(c.Value.(string)); err != nil {
				return nil, err
			}
			if p, ok := pattern.(*Const); ok && p.Value != nil {
				if _, err := MatchLikeEscape("", p.Value.(string), c.Value.(string)); err != nil {
					return nil, err
				}
			}
		}
	}
	return &Like{X: x, Pattern: pattern, Escape: escape, Not: not}, nil
}

// Type implements Expr.
func (e *Like) Type() types.DataType { return types.NewBoolean() }

// String renders the predicate.
func (e *Like) String() string {
	not := ""
	if e.Not {
		not = " NOT"
	}
	s := e.X.String() + not + " LIKE " + e.Pattern.String()
	if e.Escape != nil {
		s += " ESCAPE " + e.Escape.String()
	}
	return s
}

func (e *Like) children() []Expr {
	if e.Escape != nil {
		return []Expr{e.X, e.Pattern, e.Escape}
	}
	return []Expr{e.X, e.Pattern}
}

func (e *Like) rebuild(c []Expr) Expr {
	out := &Like{X: c[0], Pattern: c[1], Not: e.Not}
	if len(c) > 2 {
		out.Escape = c[2]
	}
	return out
}

// eval matches row by row (Arrow has no LIKE kernel); a constant pattern
// is compiled once per batch.
func (e *Like) eval(ec *evalCtx, b arrow.RecordBatch) (arrow.Array, error) {
	if out, done, err := e.evalConst(ec, b); done || err != nil {
		return out, err
	}
	ins, err := evalAll(ec, e.children(), b)
	if err != nil {
		return nil, err
	}
	defer releaseAll(ins)
	return mapRows(ec, types.NewBoolean(), ins, int(b.NumRows()), false, func(v []any) (any, error) {
		if len(v) > 2 {
			ok, err := MatchLikeEscape(v[0].(string), v[1].(string), v[2].(string))
			return ok != e.Not, err
		}
		return MatchLike(v[0].(string), v[1].(string)) != e.Not, nil
	})
}

// likeEscape checks an ESCAPE string: one character, as in Flink.
func likeEscape(esc string) (rune, error) {
	r := []rune(esc)
	if len(r) != 1 {
		return 0, fmt.Errorf("the ESCAPE of LIKE must be one character, not '%s'", esc)
	}
	return r[0], nil
}

// MatchLikeEscape reports whether s matches the LIKE pattern p with escape
// character esc: esc followed by %, _ or esc matches that character; esc
// followed by anything else, or ending the pattern, is an error (Flink's
// "invalid escape sequence").
func MatchLikeEscape(s, p, esc string) (bool, error) {
	c, err := likeEscape(esc)
	if err != nil {
		return false, err
	}
	m, err := compileLike(p, c, true)
	if err != nil {
		return false, err
	}
	return m.match(s), nil
}

// MatchLike reports whether s matches the LIKE pattern p (% and _, no
// escape character), character by character.
func MatchLike(s, p string) bool {
	m, _ := compileLike(p, 0, false) // no escape character: no error
	return m.match(s)
}

// matchRunes matches sr against pattern pr, where pr[i] is an ordinary
// character when lit[i] (lit may be nil: no escaped characters).
func matchRunes(sr, pr []rune, lit []bool) bool {
	wild := func(i int, w rune) bool { return pr[i] == w && (lit == nil || !lit[i]) }
	// Iterative matcher with backtracking to the last %.
	si, pi, star, mark := 0, 0, -1, 0
	for si < len(sr) {
		switch {
		case pi < len(pr) && (wild(pi, '_') || pr[pi] == sr[si] && !wild(pi, '%')):
			si++
			pi++
		case pi < len(pr) && wild(pi, '%'):
			star, mark = pi, si
			pi++
		case star >= 0:
			pi = star + 1
			mark++
			si = mark
		default:
			return false
		}
	}
	for pi < len(pr) && wild(pi, '%') {
		pi++
	}
	return pi == len(pr)
}
