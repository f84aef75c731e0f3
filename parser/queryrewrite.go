package parser

import (
	"fmt"

	"github.com/flussql/flussql/fluss/types"
	"github.com/xwb1989/sqlparser"
)

// Query syntax sqlparser (a MySQL grammar) cannot read is rewritten before
// it sees the text, as typed literals are:
//
//   - a || b (Flink's string concatenation; MySQL's OR) becomes a ^ b, and a
//     ^ the user wrote is refused;
//   - CAST(x AS type) and TRY_CAST(x AS type) with a Flink type become
//     __flussql_cast_N(x), the type parsed by the DDL type parser;
//   - SUBSTRING(…) and SUBSTR(…) become __flussql_substring(…), a plain call;
//   - NULLS FIRST / NULLS LAST after an ORDER BY key are removed and recorded
//     per key;
//   - EXTRACT(unit FROM x) becomes __flussql_extract_unit(x), and FLOOR(x TO unit)
//     and CEIL(x TO unit) become __flussql_floor_unit(x) and __flussql_ceil_unit(x).

// subqueryAlias is the alias given to a subquery in FROM written without one.
const subqueryAlias = reservedPrefix + "subquery"

// castFunc and substringFunc name the stand-in functions.
const (
	castFunc      = reservedPrefix + "cast_"
	substringFunc = reservedPrefix + "substring"
	timeUnitFunc  = reservedPrefix + "time_"
)

// queryRewrites holds what the rewrite took out of the text.
type queryRewrites struct {
	casts []types.DataType
	tries map[int]bool          // the indexes in casts of TRY_CASTs
	nulls map[[2]int]NullsOrder // (ORDER BY number in the text, key index) → NULLS
	asOf  map[string]*ColumnRef // table name → FOR SYSTEM_TIME AS OF attribute
	windowRewrites

	shapes *shapeRewrites // WITH, derived column lists, INTERSECT/EXCEPT (shaperewrite.go)
}

func (l *lexed) rewriteQuerySyntax(s int, rw *rewrite) (*queryRewrites, error) {
	q := &queryRewrites{nulls: map[[2]int]NullsOrder{}, asOf: map[string]*ColumnRef{}}
	// orders holds, per parenthesis depth, the ORDER BY being read there: its
	// number in the text and the index of its key being read.
	orders := map[int]*[2]int{}
	nOrders := 0
	depth := 0
	var subs []bool // per open parenthesis: whether it opens a subquery in FROM
	for k := s; k < len(l.toks); k++ {
		if q.windowSkip[k] {
			continue // a keyword of an OVER (…) specification, rewritten by rewriteOver
		}
		t := l.toks[k]
		next := eofTok(l.src)
		if k+1 < len(l.toks) {
			next = l.toks[k+1]
		}
		if err := l.refuseFromItem(k); err != nil {
			return nil, err
		}
		switch {
		case t.typ == '(':
			depth++
			delete(orders, depth)
			subs = append(subs, (l.isWord(next, "select") || l.isWord(next, "with")) && l.opensFromItem(k))
		case t.typ == ')':
			delete(orders, depth)
			depth--
			if n := len(subs); n > 0 {
				if subs[n-1] && !l.isWord(next, "as") && (next.typ == 0 || !next.quoted && isKeyword(l.src[next.start:next.end]) || !l.isWordTok(next) && !next.quoted) {
					// Flink takes a subquery in FROM without alias; sqlparser needs one.
					rw.add(t.start, t.end, ") AS "+subqueryAlias+" ")
				}
				subs = subs[:n-1]
			}
		case t.typ == '^':
			return nil, unsupportedError(l.src, t.start, "^", "the operator ^ is not supported")
		case t.typ == sqlparser.OR && l.src[t.start:t.end] == "||":
			rw.add(t.start, t.end, "^")
		case (l.isWord(t, "cast") || l.isWord(t, "try_cast")) && !t.quoted && next.typ == '(':
			if err := l.rewriteCast(k, rw, q); err != nil {
				return nil, err
			}
		case l.isWord(t, "extract") && !t.quoted && next.typ == '(':
			// EXTRACT ( unit FROM
			if k+3 >= len(l.toks) || !l.isWordTok(l.toks[k+2]) || !l.isWord(l.toks[k+3], "from") {
				return nil, newError(l.src, t.start, t.text(l.src), "", "write EXTRACT(unit FROM x), e.g. EXTRACT(YEAR FROM ts)")
			}
			unit := l.src[l.toks[k+2].start:l.toks[k+2].end]
			rw.add(t.start, l.toks[k+3].end, timeUnitFunc+"extract_"+unit+"(")
			k += 3
			depth++
		case (l.isWord(t, "floor") || l.isWord(t, "ceil") || l.isWord(t, "ceiling")) && !t.quoted && next.typ == '(':
			if to, ok := l.unitTo(k + 1); ok {
				fn := "floor"
				if !l.isWord(t, "floor") {
					fn = "ceil"
				}
				unit := l.toks[to+1]
				rw.add(t.start, t.end, timeUnitFunc+fn+"_"+l.src[unit.start:unit.end])
				rw.add(l.toks[to].start, unit.end, "")
			}
		case l.isWord(t, "over") && !t.quoted && (next.typ == '(' || k > 0 && l.toks[k-1].typ == ')' && l.isWordTok(next) && !isKeyword(next.text(l.src))):
			if err := l.rewriteOver(k, rw, q); err != nil {
				return nil, err
			}
		case l.isWord(t, "full") && (l.isWord(next, "join") || l.isWord(next, "outer")):
			return nil, unsupportedError(l.src, t.start, t.text(l.src), "FULL JOIN is not supported; write [INNER] JOIN or LEFT JOIN")
		case l.isWord(t, "for") && l.isWord(next, "system_time"):
			n, err := l.rewriteAsOf(k, rw, q)
			if err != nil {
				return nil, err
			}
			k = n
		case (l.isWord(t, "substring") || l.isWord(t, "substr")) && !t.quoted && next.typ == '(':
			rw.add(t.start, t.end, substringFunc)
		case l.isWord(t, "order") && l.isWord(next, "by"):
			orders[depth] = &[2]int{nOrders, 0}
			nOrders++
			k++
		case orders[depth] != nil && t.typ == ',':
			orders[depth][1]++
		case orders[depth] != nil && (l.isWord(t, "limit") || l.isWord(t, "offset") || l.isWord(t, "union")):
			delete(orders, depth)
		case orders[depth] != nil && l.isWord(t, "nulls") && !t.quoted &&
			(l.isWord(next, "first") || l.isWord(next, "last")):
			order := NullsFirst
			if l.isWord(next, "last") {
				order = NullsLast
			}
			q.nulls[*orders[depth]] = order
			rw.add(t.start, next.end, "")
			k++
		}
	}
	if err := l.rewriteShapes(s, rw, q); err != nil {
		return nil, err
	}
	return q, nil
}

// rewriteAsOf removes t FOR SYSTEM_TIME AS OF [a.]b starting at token k
// (the FOR), recording the attribute for table t; it returns the index of
// the attribute's last token.
func (l *lexed) rewriteAsOf(k int, rw *rewrite, q *queryRewrites) (int, error) {
	t := l.toks[k]
	bad := func() (int, error) {
		return 0, newError(l.src, t.start, t.text(l.src), "", "write t FOR SYSTEM_TIME AS OF x.proc_time, right after the table name of a lookup join")
	}
	if k < 1 || k+4 >= len(l.toks) || !l.isWord(l.toks[k+2], "as") || !l.isWord(l.toks[k+3], "of") {
		return bad()
	}
	table, ok := l.identValue(l.toks[k-1])
	if !ok {
		return bad()
	}
	ref := &ColumnRef{}
	j := k + 4
	name, ok := l.identValue(l.toks[j])
	if !ok {
		return bad()
	}
	if j+2 < len(l.toks) && l.toks[j+1].typ == '.' {
		col, ok := l.identValue(l.toks[j+2])
		if !ok {
			return bad()
		}
		ref.Table, name = TableName{Name: name}, col
		j += 2
	}
	ref.Name = name
	q.asOf[table] = ref
	rw.add(t.start, l.toks[j].end, "")
	return j, nil
}

// rewriteCast rewrites CAST( x AS type ) starting at token k (the CAST).
func (l *lexed) rewriteCast(k int, rw *rewrite, q *queryRewrites) error {
	depth, as := 0, -1
	for j := k + 1; j < len(l.toks); j++ {
		t := l.toks[j]
		switch {
		case t.typ == '(':
			depth++
		case t.typ == ')':
			depth--
			if depth == 0 {
				if as < 0 {
					return newError(l.src, t.start, ")", "AS", "CAST needs AS and a type: CAST(x AS INT)")
				}
				p := &ddlParser{l: l, i: as + 1}
				typ, err := p.dataType()
				if err != nil {
					return err
				}
				if p.i != j {
					bad := l.toks[p.i]
					return newError(l.src, bad.start, bad.text(l.src), ")", fmt.Sprintf("unexpected %s after the type of CAST", quoteFound(bad.text(l.src))))
				}
				cast := l.toks[k]
				if l.isWord(cast, "try_cast") {
					if q.tries == nil {
						q.tries = map[int]bool{}
					}
					q.tries[len(q.casts)] = true
				}
				rw.add(cast.start, cast.end, fmt.Sprintf("%s%d", castFunc, len(q.casts)))
				rw.add(l.toks[as].start, t.start, "")
				q.casts = append(q.casts, typ)
				return nil
			}
		case depth == 1 && l.isWord(t, "as") && !t.quoted:
			as = j
		}
	}
	t := l.toks[k]
	return newError(l.src, t.start, t.text(l.src), "", "this CAST( is never closed")
}

// unitTo finds, in the parentheses opening at token k, a trailing "TO unit"
// at their top level: the index of the TO token.
func (l *lexed) unitTo(k int) (int, bool) {
	depth := 0
	for j := k; j < len(l.toks); j++ {
		switch t := l.toks[j]; {
		case t.typ == '(':
			depth++
		case t.typ == ')':
			depth--
			if depth == 0 {
				if j >= k+3 && l.isWord(l.toks[j-2], "to") && l.isWordTok(l.toks[j-1]) {
					return j - 2, true
				}
				return 0, false
			}
		}
	}
	return 0, false
}
