package parser

import (
	"strings"

	"github.com/xwb1989/sqlparser"
)

// Value constructors, as in Flink SQL: ARRAY[1, 2], MAP['k', 1, 'j', 2] (keys and
// values alternate), ROW(1, 'x'). sqlparser reads neither brackets nor these
// forms, so before it sees the text, `ARRAY [` and `MAP [` become calls of
// reserved functions (`__flussql_array(`, with the matching `]` a `)`), and
// `ROW (` becomes `__flussql_row(`; the converter turns those calls back into
// Constructor nodes.

// ConstructorKind tells the value constructors apart.
type ConstructorKind int

// Constructor kinds.
const (
	// ArrayOf is ARRAY[e, …].
	ArrayOf ConstructorKind = iota
	// MapOf is MAP[k, v, …].
	MapOf
	// RowOf is ROW(e, …).
	RowOf
)

var constructorNames = [...]string{ArrayOf: "array", MapOf: "map", RowOf: "row"}

// String names the kind: "array", "map" or "row".
func (k ConstructorKind) String() string {
	if k >= 0 && int(k) < len(constructorNames) {
		return constructorNames[k]
	}
	return "invalid"
}

// Constructor is an ARRAY, MAP or ROW value: built from literals,
// placeholders and nested constructors in a value to insert, from any
// expressions in a query. For MAP, Elems alternate key, value, key, value.
type Constructor struct {
	Kind  ConstructorKind
	Elems []Expr
}

func (*Constructor) expr() {}

// String renders the constructor as SQL.
func (c *Constructor) String() string {
	parts := make([]string, len(c.Elems))
	for i, e := range c.Elems {
		parts[i] = e.String()
	}
	list := strings.Join(parts, ", ")
	switch c.Kind {
	case ArrayOf:
		return "ARRAY[" + list + "]"
	case MapOf:
		return "MAP[" + list + "]"
	}
	return "ROW(" + list + ")"
}

// constructorFunc names the stand-in function of each constructor.
func constructorFunc(k ConstructorKind) string { return reservedPrefix + constructorNames[k] }

// rewriteConstructors adds to rw the edits that hide the constructors of
// toks[s:] from sqlparser. A '[' that does not follow ARRAY or MAP, and an
// unbalanced bracket, are errors at the bracket.
func (l *lexed) rewriteConstructors(s int, rw *rewrite) error {
	var open []token   // the '[' of the constructors and subscripts being read
	var elemEdit []int // per open bracket: the index in rw.edits of a subscript's elem( insertion, -1 for a constructor
	// wraps holds, per offset, the edit inserting the stand-in calls that
	// wrap the operand starting there: x[1][2].f wraps x three times, and
	// each wrapper goes outside (before) those already inserted.
	wraps := map[int]int{}
	for k := s; k < len(l.toks); k++ {
		t := l.toks[k]
		switch {
		case t.typ == '[' && (k == s || !(l.isWord(l.toks[k-1], "array") || l.isWord(l.toks[k-1], "map"))):
			// x[i]: element i of an ARRAY or key i of a MAP, __flussql_elem(x, i).
			b := l.subscriptBase(s, k)
			if b < 0 {
				return newError(l.src, t.start, "[", "", "brackets are only supported in ARRAY[…], MAP[…] and after an ARRAY or MAP value: arr[1], m['k']")
			}
			start := l.toks[b].start
			if e, ok := wraps[start]; ok {
				rw.edits[e].repl = elemFunc + "(" + rw.edits[e].repl
			} else {
				wraps[start] = len(rw.edits)
				rw.add(start, start, elemFunc+"(")
			}
			elemEdit = append(elemEdit, wraps[start])
			rw.add(t.start, t.end, ", ")
			open = append(open, t)
		case t.typ == '[':
			w := l.toks[k-1]
			kind := ArrayOf
			if l.isWord(w, "map") {
				kind = MapOf
			}
			rw.add(w.start, t.end, constructorFunc(kind)+"(")
			open = append(open, t)
			elemEdit = append(elemEdit, -1)
		case t.typ == ']':
			if len(open) == 0 {
				return newError(l.src, t.start, "]", "", "this ] closes no ARRAY[ or MAP[")
			}
			e := elemEdit[len(elemEdit)-1]
			open, elemEdit = open[:len(open)-1], elemEdit[:len(elemEdit)-1]
			rw.add(t.start, t.end, ")")
			if e >= 0 {
				k = l.rewriteSubscriptFields(k, rw, e)
			}
		case t.typ == '(' && k > s && l.isWord(l.toks[k-1], "row") && !l.toks[k-1].quoted:
			w := l.toks[k-1]
			rw.add(w.start, t.end, constructorFunc(RowOf)+"(")
		}
	}
	if len(open) > 0 {
		t := open[len(open)-1]
		return newError(l.src, t.start, "[", "", "this [ is never closed; want ]")
	}
	return nil
}

// elemFunc names the stand-in function of x[i].
const elemFunc = reservedPrefix + "elem"

// notOperand are the words that end no operand: a '[' after them is no
// subscript.
var notOperand = map[string]bool{
	"select": true, "where": true, "and": true, "or": true, "not": true, "on": true, "by": true, "having": true,
	"when": true, "then": true, "else": true, "in": true, "exists": true, "from": true, "join": true, "as": true,
	"like": true, "between": true, "is": true, "case": true, "values": true, "set": true, "limit": true,
	"offset": true, "distinct": true, "all": true, "union": true, "interval": true, "escape": true, "with": true,
}

// subscriptBase returns the index of the first token of the operand that
// the '[' at k subscripts: a column (a, t.a, t.a.f), a call or
// parenthesised expression, a constructor or another subscript (grid[1][2]);
// -1 when there is none.
func (l *lexed) subscriptBase(s, k int) int {
	j := k - 1
	if j < s {
		return -1
	}
	operandWord := func(t token) bool {
		if t.quoted || t.typ == sqlparser.ID {
			return true
		}
		return l.isWordTok(t) && !notOperand[strings.ToLower(l.src[t.start:t.end])]
	}
	switch t := l.toks[j]; {
	case t.typ == ']' || t.typ == ')':
		open := byte('[')
		if t.typ == ')' {
			open = '('
		}
		depth := 0
		for m := j; m >= s; m-- {
			switch l.toks[m].typ {
			case int(t.typ):
				depth++
			case int(open):
				depth--
			}
			if depth != 0 {
				continue
			}
			if m > s && operandWord(l.toks[m-1]) && (open == '(' || l.isWord(l.toks[m-1], "array") || l.isWord(l.toks[m-1], "map")) {
				return m - 1 // f(…)[i], ARRAY[…][i]
			}
			if open == '[' {
				return l.subscriptBase(s, m) // x[i][j]
			}
			return m // (…)[i]
		}
		return -1
	case operandWord(t):
		for j-2 >= s && l.toks[j-1].typ == '.' && operandWord(l.toks[j-2]) {
			j -= 2
		}
		if j-2 >= s && l.toks[j-1].typ == '.' && l.toks[j-2].typ == ']' {
			return l.subscriptBase(s, j-1) // x[i].f[j]
		}
		return j
	}
	return -1
}

// constructor converts a call of a constructor's stand-in function, or
// returns nil when fn is not one; elem converts its elements (literals and
// placeholders in a value to insert, any expression in a query).
func (c *converter) constructor(fn *sqlparser.FuncExpr, elem func(sqlparser.Expr) (Expr, error)) (Expr, error) {
	name := strings.ToLower(fn.Name.String())
	kind := -1
	for k := range constructorNames {
		if name == constructorFunc(ConstructorKind(k)) {
			kind = k
		}
	}
	if kind < 0 {
		return nil, nil
	}
	out := &Constructor{Kind: ConstructorKind(kind)}
	word := strings.ToUpper(out.Kind.String())
	fail := func(msg string) error {
		t := c.locate(word)
		return newError(c.l.src, t.start, t.text(c.l.src), "", msg)
	}
	if fn.Distinct {
		return nil, fail("DISTINCT is not allowed in " + word)
	}
	for _, se := range fn.Exprs {
		ae, ok := se.(*sqlparser.AliasedExpr)
		if !ok || !ae.As.IsEmpty() {
			return nil, fail("want values in " + word)
		}
		e, err := elem(ae.Expr)
		if err != nil {
			return nil, err
		}
		out.Elems = append(out.Elems, e)
	}
	if out.Kind == MapOf && len(out.Elems)%2 != 0 {
		return nil, fail("MAP[…] wants keys and values in pairs; it has an odd number of elements")
	}
	if out.Kind == RowOf && len(out.Elems) == 0 {
		return nil, fail("ROW(…) wants at least one field")
	}
	return out, nil
}
