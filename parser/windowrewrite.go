package parser

import (
	"strconv"
	"strings"

	"github.com/xwb1989/sqlparser"
)

// sqlparser cannot read OVER (…). Before it sees the text,
//
//	fn(args) OVER (PARTITION BY p1, p2 ORDER BY o1 DESC, o2 ROWS BETWEEN …)
//
// becomes
//
//	__flussql_over_N(fn(args), __flussql_wpart(p1, p2), __flussql_word(o1, o2))
//
// the expressions staying where they are (so that the other rewrites apply
// to them), the keywords, directions, NULLS orders and the frame removed and
// kept in windowSpec N. The converter puts the call back together.

const (
	overFunc      = reservedPrefix + "over_"
	partitionFunc = reservedPrefix + "wpart"
	orderFunc     = reservedPrefix + "word"
)

// windowSpec is what the rewrite took out of one OVER (…).
type windowSpec struct {
	desc  []bool
	nulls []NullsOrder
	frame *Frame
}

// windowRewrites is the window part of queryRewrites.
type windowRewrites struct {
	windows    []windowSpec
	windowSkip map[int]bool // keyword tokens of the specifications
}

// rewriteOver rewrites the OVER at token k.
func (l *lexed) rewriteOver(k int, rw *rewrite, q *queryRewrites) error {
	over := l.toks[k]
	bad := func(at token, msg string) error {
		return newError(l.src, at.start, at.text(l.src), "", msg)
	}
	if next := l.toks[k+1]; next.typ != '(' {
		return bad(next, "OVER "+next.text(l.src)+" names no window of a WINDOW clause: add WINDOW "+next.text(l.src)+" AS (PARTITION BY … ORDER BY …) after HAVING, or write OVER (…)")
	}
	if k < 3 || l.toks[k-1].typ != ')' {
		return bad(over, "OVER follows a function call: ROW_NUMBER() OVER (PARTITION BY k ORDER BY t)")
	}
	open := l.opening(k - 1)
	if open < 1 || !l.isWordTok(l.toks[open-1]) {
		return bad(over, "OVER follows a function call: ROW_NUMBER() OVER (PARTITION BY k ORDER BY t)")
	}
	closing := l.closing(k + 1)
	if closing < 0 {
		return bad(over, "this OVER ( is never closed")
	}
	if q.windowSkip == nil {
		q.windowSkip = map[int]bool{}
	}
	skip := func(from, to int) { // tokens from..to, inclusive
		for j := from; j <= to; j++ {
			q.windowSkip[j] = true
		}
		rw.add(l.toks[from].start, l.toks[to].end, "")
	}
	spec := windowSpec{}
	n := len(q.windows)
	rw.add(l.toks[open-1].start, l.toks[open-1].start, overFunc+strconv.Itoa(n)+"(")
	rw.add(over.start, over.end, ", "+partitionFunc)
	j := k + 2
	if j < closing && l.isWord(l.toks[j], "partition") {
		if !l.isWord(l.toks[j+1], "by") {
			return bad(l.toks[j+1], "write PARTITION BY")
		}
		skip(j, j+1)
		j += 2
		if j >= closing || l.windowKeyword(l.toks[j]) {
			return bad(l.toks[j], "PARTITION BY needs at least one expression")
		}
	}
	ordered := false
	depth := 0
	for ; j < closing; j++ {
		t := l.toks[j]
		switch {
		case t.typ == '(':
			depth++
		case t.typ == ')':
			depth--
		case depth > 0:
		case l.isWord(t, "order") && l.isWord(l.toks[j+1], "by"):
			if ordered {
				return bad(t, "one ORDER BY per window")
			}
			ordered = true
			q.windowSkip[j], q.windowSkip[j+1] = true, true
			rw.add(t.start, l.toks[j+1].end, "), "+orderFunc+"(")
			spec.desc = append(spec.desc, false)
			spec.nulls = append(spec.nulls, NullsDefault)
			j++
		case ordered && t.typ == ',':
			spec.desc = append(spec.desc, false)
			spec.nulls = append(spec.nulls, NullsDefault)
		case ordered && (l.isWord(t, "asc") || l.isWord(t, "desc")) && !t.quoted:
			spec.desc[len(spec.desc)-1] = l.isWord(t, "desc")
			skip(j, j)
		case ordered && l.isWord(t, "nulls") && !t.quoted && (l.isWord(l.toks[j+1], "first") || l.isWord(l.toks[j+1], "last")):
			spec.nulls[len(spec.nulls)-1] = NullsFirst
			if l.isWord(l.toks[j+1], "last") {
				spec.nulls[len(spec.nulls)-1] = NullsLast
			}
			skip(j, j+1)
			j++
		case (l.isWord(t, "rows") || l.isWord(t, "range")) && !t.quoted:
			f, err := l.frame(j, closing)
			if err != nil {
				return err
			}
			spec.frame = f
			skip(j, closing-1)
			j = closing
		case l.isWord(t, "partition") && !t.quoted:
			return bad(t, "PARTITION BY comes first in OVER (PARTITION BY … ORDER BY … frame)")
		}
	}
	end := l.toks[closing]
	if ordered {
		rw.add(end.start, end.end, "))")
	} else {
		rw.add(end.start, end.end, "), "+orderFunc+"())")
	}
	q.windows = append(q.windows, spec)
	return nil
}

// windowKeyword reports whether t starts a later part of a window spec.
func (l *lexed) windowKeyword(t token) bool {
	return !t.quoted && (l.isWord(t, "order") || l.isWord(t, "rows") || l.isWord(t, "range")) || t.typ == ')'
}

// opening returns the index of the token opening the ')' at i, -1 if none.
func (l *lexed) opening(i int) int {
	depth := 0
	for k := i; k >= 0; k-- {
		switch l.toks[k].typ {
		case ')':
			depth++
		case '(':
			if depth--; depth == 0 {
				return k
			}
		}
	}
	return -1
}

// frame parses ROWS|RANGE [BETWEEN] bound [AND bound] from token j up to
// the closing parenthesis at token end.
func (l *lexed) frame(j, end int) (*Frame, error) {
	unit := l.toks[j]
	f := &Frame{Range: l.isWord(unit, "range")}
	i := j + 1
	bound := func() (FrameBound, error) {
		if i >= end {
			return FrameBound{}, newError(l.src, l.toks[end].start, ")", "a frame bound",
				"a frame bound is UNBOUNDED PRECEDING, n PRECEDING, CURRENT ROW, n FOLLOWING or UNBOUNDED FOLLOWING")
		}
		t := l.toks[i]
		var b FrameBound
		switch {
		case l.isWord(t, "unbounded") && i+1 < end && l.isWord(l.toks[i+1], "preceding"):
			b.Kind = UnboundedPreceding
		case l.isWord(t, "unbounded") && i+1 < end && l.isWord(l.toks[i+1], "following"):
			b.Kind = UnboundedFollowing
		case l.isWord(t, "current") && i+1 < end && l.isWord(l.toks[i+1], "row"):
			b.Kind = CurrentRow
		case t.typ == sqlparser.INTEGRAL && i+1 < end && (l.isWord(l.toks[i+1], "preceding") || l.isWord(l.toks[i+1], "following")):
			n, err := strconv.ParseInt(t.val, 10, 64)
			if err != nil {
				return b, newError(l.src, t.start, t.text(l.src), "", "the frame offset "+t.val+" is too large")
			}
			b.Kind, b.Offset = Preceding, n
			if l.isWord(l.toks[i+1], "following") {
				b.Kind = Following
			}
			if f.Range {
				return b, unsupportedError(l.src, t.start, t.text(l.src),
					"a RANGE frame of n PRECEDING or FOLLOWING is not supported; a RANGE frame takes UNBOUNDED PRECEDING, CURRENT ROW or UNBOUNDED FOLLOWING; write ROWS BETWEEN "+t.val+" "+strings.ToUpper(l.toks[i+1].val)+" AND … for a frame of rows")
			}
		default:
			return b, newError(l.src, t.start, t.text(l.src), "a frame bound",
				"a frame bound is UNBOUNDED PRECEDING, n PRECEDING, CURRENT ROW, n FOLLOWING or UNBOUNDED FOLLOWING")
		}
		i += 2
		return b, nil
	}
	var err error
	if i < end && l.isWord(l.toks[i], "between") {
		i++
		if f.Start, err = bound(); err != nil {
			return nil, err
		}
		if i >= end || !l.isWord(l.toks[i], "and") {
			t := l.toks[min(i, end)]
			return nil, newError(l.src, t.start, t.text(l.src), "AND", "write "+strings.ToUpper(unit.val)+" BETWEEN start AND end")
		}
		i++
		if f.End, err = bound(); err != nil {
			return nil, err
		}
	} else {
		if f.Start, err = bound(); err != nil {
			return nil, err
		}
		f.End = FrameBound{Kind: CurrentRow}
	}
	if i < end {
		t := l.toks[i]
		return nil, newError(l.src, t.start, t.text(l.src), ")", "unexpected "+quoteFound(t.text(l.src))+" after the window frame")
	}
	if f.Start.Kind == UnboundedFollowing || f.End.Kind == UnboundedPreceding || f.Start.Kind > f.End.Kind ||
		f.Start.Kind == f.End.Kind && (f.Start.Kind == Preceding && f.Start.Offset < f.End.Offset || f.Start.Kind == Following && f.Start.Offset > f.End.Offset) {
		return nil, newError(l.src, unit.start, unit.text(l.src), "", "the frame "+f.String()+" ends before it starts")
	}
	return f, nil
}

// windowCall converts a __flussql_over_N(fn(…), wpart(…), word(…)) call.
func (c *converter) windowCall(n *sqlparser.FuncExpr, name string) (Expr, error) {
	k, err := strconv.Atoi(strings.TrimPrefix(name, overFunc))
	if err != nil || k < 0 || k >= len(c.q.windows) || len(n.Exprs) != 3 {
		return nil, c.nodeErr(n, "function "+n.Name.String()+" is not supported")
	}
	spec := c.q.windows[k]
	args := make([]*sqlparser.FuncExpr, 0, 3)
	for _, se := range n.Exprs {
		ae, ok := se.(*sqlparser.AliasedExpr)
		if !ok {
			return nil, c.nodeErr(n, "OVER follows a function call")
		}
		f, ok := ae.Expr.(*sqlparser.FuncExpr)
		if !ok {
			return nil, c.nodeErr(ae.Expr, "OVER follows a function call: ROW_NUMBER() OVER (PARTITION BY k ORDER BY t)")
		}
		args = append(args, f)
	}
	fn, err := c.expr(args[0])
	if err != nil {
		return nil, err
	}
	if HasWindow(fn) {
		return nil, c.nodeErr(args[0], "window functions cannot be nested")
	}
	w := &WindowCall{Func: fn, Frame: spec.frame}
	list := func(f *sqlparser.FuncExpr) ([]Expr, error) {
		var out []Expr
		for _, se := range f.Exprs {
			ae, ok := se.(*sqlparser.AliasedExpr)
			if !ok || !ae.As.IsEmpty() {
				return nil, c.nodeErr(f, "PARTITION BY and ORDER BY of a window take expressions")
			}
			x, err := c.expr(ae.Expr)
			if err != nil {
				return nil, err
			}
			out = append(out, x)
		}
		return out, nil
	}
	if w.PartitionBy, err = list(args[1]); err != nil {
		return nil, err
	}
	order, err := list(args[2])
	if err != nil {
		return nil, err
	}
	if len(order) != len(spec.desc) {
		return nil, c.nodeErr(n, "the window's ORDER BY keys could not be read")
	}
	for i, o := range order {
		w.OrderBy = append(w.OrderBy, OrderItem{Expr: o, Desc: spec.desc[i], Nulls: spec.nulls[i]})
	}
	return w, nil
}
