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
// (or RANK / DENSE_RANK … AS rk … WHERE rk <= N) and records the bound for
// the subquery, whose window then keeps only the first N rows (ranks) of
// every partition (see windowPlan.attach). The outer filter stays: it
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
		fn := rankingAlias(inner, name)
		if !ok || n < 1 || fn == "" {
			continue
		}
		if best == nil || n < best.n {
			best = &topNLimit{alias: name, n: n, fn: fn}
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

// rankingAlias returns the function (ROW_NUMBER, RANK or DENSE_RANK) of
// the item of s named name, "" when it is not one of them.
func rankingAlias(s *parser.Select, name string) string {
	for _, it := range s.Items {
		if w, ok := it.Expr.(*parser.WindowCall); ok && strings.EqualFold(it.Alias, name) {
			if f, ok := w.Func.(*parser.FuncCall); ok && (f.Name == "ROW_NUMBER" || f.Name == "RANK" || f.Name == "DENSE_RANK") {
				return f.Name
			}
		}
	}
	return ""
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
