package planner

import (
	"strconv"
	"strings"

	"github.com/flussql/flussql/parser"
)

// noteTopN recognises Flink's Top-N and deduplication patterns,
//
//	SELECT … FROM (SELECT …, ROW_NUMBER() OVER (PARTITION BY k ORDER BY t DESC) AS rn FROM t) [AS x]
//	WHERE rn <= N            (also rn < N, rn = 1, rn BETWEEN 1 AND N, N >= rn)
//
// and records the bound for the subquery, whose window then keeps only N
// rows per partition (see windowPlan.attach). The outer filter stays: it
// still drops the rows the bound lets through (rn BETWEEN 2 AND N, rn = 2).
func (b *builder) noteTopN(s *parser.Select) {
	sq, ok := s.From.(*parser.SubqueryRef)
	if !ok || s.Where == nil {
		return
	}
	inner, ok := sq.Query.(*parser.Select)
	if !ok {
		return
	}
	var best *topNLimit
	for _, c := range conjuncts(s.Where) {
		name, n, ok := rowBound(c)
		if !ok || n < 1 || !rowNumberAlias(inner, name) {
			continue
		}
		if best == nil || n < best.n {
			best = &topNLimit{alias: name, n: n}
		}
	}
	if best == nil {
		return
	}
	if b.topN == nil {
		b.topN = map[*parser.Select]*topNLimit{}
	}
	b.topN[inner] = best
}

// rowNumberAlias reports whether name is the alias of a ROW_NUMBER() item of s.
func rowNumberAlias(s *parser.Select, name string) bool {
	for _, it := range s.Items {
		if w, ok := it.Expr.(*parser.WindowCall); ok && strings.EqualFold(it.Alias, name) {
			f, ok := w.Func.(*parser.FuncCall)
			return ok && f.Name == "ROW_NUMBER"
		}
	}
	return false
}

// rowBound reads a condition that bounds a column from above by an integer
// literal: the column's name and the largest value it lets through.
func rowBound(c parser.Expr) (string, int64, bool) {
	colName := func(e parser.Expr) (string, bool) {
		ref, ok := e.(*parser.ColumnRef)
		if !ok {
			return "", false
		}
		return ref.Name, true
	}
	intLit := func(e parser.Expr) (int64, bool) {
		l, ok := e.(*parser.Literal)
		if !ok || l.Kind != parser.LitInt {
			return 0, false
		}
		n, err := strconv.ParseInt(l.Value, 10, 64)
		return n, err == nil
	}
	switch n := c.(type) {
	case *parser.Comparison:
		op := n.Op
		name, okL := colName(n.Left)
		v, okR := intLit(n.Right)
		if !okL || !okR {
			// N >= rn is rn <= N.
			if name, okL = colName(n.Right); !okL {
				return "", 0, false
			}
			if v, okR = intLit(n.Left); !okR {
				return "", 0, false
			}
			op = map[parser.CompareOp]parser.CompareOp{parser.OpGe: parser.OpLe, parser.OpGt: parser.OpLt, parser.OpEq: parser.OpEq}[op]
		}
		switch op {
		case parser.OpLe, parser.OpEq:
			return name, v, true
		case parser.OpLt:
			return name, v - 1, true
		}
	case *parser.Between:
		name, ok := colName(n.Expr)
		high, okH := intLit(n.High)
		if ok && okH && !n.Not {
			return name, high, true
		}
	}
	return "", 0, false
}
