package planner

import (
	"strings"

	"github.com/flussql/flussql/parser"
)

// The nodes of a compiled Filter. Each evaluates to TRUE, FALSE or
// UNKNOWN; bind returns a copy with placeholders replaced by constants.

type constNode tri

func (n constNode) eval([]any) tri                 { return tri(n) }
func (n constNode) bind(*binder) (fnode, error)    { return n, nil }
func (n constNode) String() string                 { return [...]string{"FALSE", "TRUE", "NULL"}[n] }
func (n *boolNode) bind(bd *binder) (fnode, error) { return n, nil }

type boolNode struct{ x operand }

func (n *boolNode) eval(row []any) tri {
	v := n.x.get(row)
	if v == nil {
		return tUnknown
	}
	b, _ := v.(bool)
	return triOf(b)
}

func (n *boolNode) String() string { return n.x.String() }

type andNode struct{ l, r fnode }

func (n *andNode) eval(row []any) tri {
	l := n.l.eval(row)
	if l == tFalse {
		return tFalse
	}
	r := n.r.eval(row)
	switch {
	case r == tFalse:
		return tFalse
	case l == tTrue && r == tTrue:
		return tTrue
	}
	return tUnknown
}

func (n *andNode) bind(bd *binder) (fnode, error) {
	l, r, err := bindPair(bd, n.l, n.r)
	return &andNode{l, r}, err
}

func (n *andNode) String() string { return parenOr(n.l) + " AND " + parenOr(n.r) }

type orNode struct{ l, r fnode }

func (n *orNode) eval(row []any) tri {
	l := n.l.eval(row)
	if l == tTrue {
		return tTrue
	}
	r := n.r.eval(row)
	switch {
	case r == tTrue:
		return tTrue
	case l == tFalse && r == tFalse:
		return tFalse
	}
	return tUnknown
}

func (n *orNode) bind(bd *binder) (fnode, error) {
	l, r, err := bindPair(bd, n.l, n.r)
	return &orNode{l, r}, err
}

func (n *orNode) String() string { return n.l.String() + " OR " + n.r.String() }

func parenOr(n fnode) string {
	if _, ok := n.(*orNode); ok {
		return "(" + n.String() + ")"
	}
	return n.String()
}

func bindPair(bd *binder, a, b fnode) (fnode, fnode, error) {
	x, err := a.bind(bd)
	if err != nil {
		return nil, nil, err
	}
	y, err := b.bind(bd)
	return x, y, err
}

type notNode struct{ x fnode }

func (n *notNode) eval(row []any) tri {
	switch n.x.eval(row) {
	case tTrue:
		return tFalse
	case tFalse:
		return tTrue
	}
	return tUnknown
}

func (n *notNode) bind(bd *binder) (fnode, error) {
	x, err := n.x.bind(bd)
	return &notNode{x}, err
}

func (n *notNode) String() string {
	switch n.x.(type) {
	case *andNode, *orNode:
		return "NOT (" + n.x.String() + ")"
	}
	return "NOT " + n.x.String()
}

type cmpNode struct {
	op   parser.CompareOp
	l, r operand
}

func (n *cmpNode) eval(row []any) tri { return compareTri(n.op, n.l.get(row), n.r.get(row)) }

// compareTri applies op to two values: UNKNOWN when either is NULL or
// they cannot be ordered.
func compareTri(op parser.CompareOp, a, b any) tri {
	if a == nil || b == nil {
		return tUnknown
	}
	c, ok := compareValues(a, b)
	if !ok {
		return tUnknown
	}
	switch op {
	case parser.OpEq:
		return triOf(c == 0)
	case parser.OpNe:
		return triOf(c != 0)
	case parser.OpLt:
		return triOf(c < 0)
	case parser.OpLe:
		return triOf(c <= 0)
	case parser.OpGt:
		return triOf(c > 0)
	case parser.OpGe:
		return triOf(c >= 0)
	}
	return tUnknown
}

func (n *cmpNode) bind(bd *binder) (fnode, error) {
	ops, err := bindAll(bd, []operand{n.l, n.r})
	if err != nil {
		return nil, err
	}
	return &cmpNode{op: n.op, l: ops[0], r: ops[1]}, nil
}

func (n *cmpNode) String() string { return n.l.String() + " " + string(n.op) + " " + n.r.String() }

type inNode struct {
	x    operand
	list []operand
	not  bool
}

func (n *inNode) eval(row []any) tri {
	x := n.x.get(row)
	if x == nil {
		return tUnknown
	}
	res := tFalse
	for _, o := range n.list {
		switch compareTri(parser.OpEq, x, o.get(row)) {
		case tTrue:
			res = tTrue
		case tUnknown:
			if res == tFalse {
				res = tUnknown
			}
		}
		if res == tTrue {
			break
		}
	}
	if n.not {
		return (&notNode{constNode(res)}).eval(nil)
	}
	return res
}

func (n *inNode) bind(bd *binder) (fnode, error) {
	ops, err := bindAll(bd, append([]operand{n.x}, n.list...))
	if err != nil {
		return nil, err
	}
	return &inNode{x: ops[0], list: ops[1:], not: n.not}, nil
}

func (n *inNode) String() string {
	parts := make([]string, len(n.list))
	for i, o := range n.list {
		parts[i] = o.String()
	}
	return n.x.String() + notText(n.not) + " IN (" + strings.Join(parts, ", ") + ")"
}

func notText(not bool) string {
	if not {
		return " NOT"
	}
	return ""
}

type betweenNode struct {
	x, lo, hi operand
	not       bool
}

func (n *betweenNode) eval(row []any) tri {
	x := n.x.get(row)
	in := (&andNode{
		constNode(compareTri(parser.OpGe, x, n.lo.get(row))),
		constNode(compareTri(parser.OpLe, x, n.hi.get(row))),
	}).eval(nil)
	if n.not {
		return (&notNode{constNode(in)}).eval(nil)
	}
	return in
}

func (n *betweenNode) bind(bd *binder) (fnode, error) {
	ops, err := bindAll(bd, []operand{n.x, n.lo, n.hi})
	if err != nil {
		return nil, err
	}
	return &betweenNode{x: ops[0], lo: ops[1], hi: ops[2], not: n.not}, nil
}

func (n *betweenNode) String() string {
	return n.x.String() + notText(n.not) + " BETWEEN " + n.lo.String() + " AND " + n.hi.String()
}

type isNullNode struct {
	x   operand
	not bool
}

func (n *isNullNode) eval(row []any) tri { return triOf((n.x.get(row) == nil) != n.not) }

func (n *isNullNode) bind(bd *binder) (fnode, error) {
	x, err := n.x.bind(bd)
	return &isNullNode{x: x, not: n.not}, err
}

func (n *isNullNode) String() string { return n.x.String() + " IS" + notText(n.not) + " NULL" }

type likeNode struct {
	x, pattern operand
	not        bool
}

func (n *likeNode) eval(row []any) tri {
	s, _ := n.x.get(row).(string)
	p, _ := n.pattern.get(row).(string)
	if n.x.get(row) == nil || n.pattern.get(row) == nil {
		return tUnknown
	}
	return triOf(matchLike(s, p) != n.not)
}

func (n *likeNode) bind(bd *binder) (fnode, error) {
	ops, err := bindAll(bd, []operand{n.x, n.pattern})
	if err != nil {
		return nil, err
	}
	return &likeNode{x: ops[0], pattern: ops[1], not: n.not}, nil
}

func (n *likeNode) String() string {
	return n.x.String() + notText(n.not) + " LIKE " + n.pattern.String()
}
