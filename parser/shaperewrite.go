package parser

import (
	"fmt"
	"strings"

	"github.com/xwb1989/sqlparser"
)

// The statement shapes of analytical SQL that sqlparser cannot read are
// rewritten on tokens before it sees the text, keeping what they say aside
// (shapeRewrites):
//
//   - WITH r [(x, y)] AS (q), … main becomes SELECT * FROM (q) AS
//     __flussql_cte_0, … , (main) AS __flussql_with; the converter takes the
//     CTEs apart again and makes every FROM reference to r a subquery;
//   - a derived column list (SELECT …) AS t (x, y) becomes (SELECT …) AS
//     __flussql_cols_N, N indexing the alias and its column names;
//   - INTERSECT [ALL] and EXCEPT [ALL] become UNION ALL, the first SELECT of
//     their right operand marked with a comment naming the real operator.

const (
	ctePrefix  = reservedPrefix + "cte_"
	withMain   = reservedPrefix + "with"
	colsPrefix = reservedPrefix + "cols_"
	setPrefix  = reservedPrefix + "setop_"
)

// cteDef is one common table expression of WITH: its name, its column list
// (nil without one) and the token its body starts at.
type cteDef struct {
	name  string
	cols  []string
	start int
}

// derivedCols is a subquery alias with its column list.
type derivedCols struct {
	alias string
	cols  []string
}

// shapeRewrites holds what rewriteShapes took out of the text.
type shapeRewrites struct {
	ctes    []cteDef // of every WITH, by the N of __flussql_cte_N
	mains   []int    // per WITH, the token its statement starts at (__flussql_withN)
	derived []derivedCols
}

// rewriteShapes rewrites WITH, derived column lists and INTERSECT/EXCEPT
// of the query starting at token s.
func (l *lexed) rewriteShapes(s int, rw *rewrite, q *queryRewrites) error {
	sh := &shapeRewrites{}
	q.shapes = sh
	for k := s; k < len(l.toks); k++ {
		t := l.toks[k]
		switch {
		case t.typ == '(' && k > s && k+1 < len(l.toks) && (l.isWord(l.toks[k+1], "select") || l.isWord(l.toks[k+1], "with") || l.toks[k+1].typ == '(') &&
			l.opensFromItem(k):
			if err := l.rewriteDerived(k, rw, sh); err != nil {
				return err
			}
		case l.isWord(t, "with") && (k == s || l.toks[k-1].typ == '('):
			if err := l.rewriteWith(k, rw, sh); err != nil {
				return err
			}
		case l.isWord(t, "with") && l.jsonWrapperAt(k):
			// JSON_QUERY's WITH … WRAPPER, rewritten by rewriteJSONClauses
		case l.isWord(t, "with"):
			return newError(l.src, t.start, t.text(l.src), "", "WITH starts a statement or a query in parentheses: WITH r AS (SELECT …) SELECT … FROM r")
		case l.isWord(t, "intersect") || l.isWord(t, "except"):
			if err := l.rewriteSetOp(k, rw); err != nil {
				return err
			}
		}
	}
	return nil
}

// identList reads ( name, … ) starting at the '(' at k: the names and the
// index of the closing ')'.
func (l *lexed) identList(k int, what string) ([]string, int, error) {
	var names []string
	j := k + 1
	for {
		if j >= len(l.toks) {
			return nil, 0, syntaxError(l.src, len(l.src), endOfInput, "a column name of "+what)
		}
		name, ok := l.identValue(l.toks[j])
		if !ok {
			t := l.toks[j]
			return nil, 0, newError(l.src, t.start, t.text(l.src), "a column name", "the column list of "+what+" takes names: (a, b)")
		}
		for _, n := range names {
			if strings.EqualFold(n, name) {
				t := l.toks[j]
				return nil, 0, newError(l.src, t.start, t.text(l.src), "", "column "+QuoteIdent(name)+" is listed twice in the column list of "+what)
			}
		}
		names = append(names, name)
		j++
		if j < len(l.toks) && l.toks[j].typ == ')' {
			return names, j, nil
		}
		if j >= len(l.toks) || l.toks[j].typ != ',' {
			t := eofTok(l.src)
			if j < len(l.toks) {
				t = l.toks[j]
			}
			return nil, 0, newError(l.src, t.start, t.text(l.src), "',' or ')'", "the column list of "+what+" is a list of names in parentheses: (a, b)")
		}
		j++
	}
}

// rewriteWith reads WITH name [(cols)] AS (query), … at token s: the start
// of the statement or of a parenthesised query.
func (l *lexed) rewriteWith(s int, rw *rewrite, sh *shapeRewrites) error {
	bad := func(k int, msg string) error {
		t := eofTok(l.src)
		if k < len(l.toks) {
			t = l.toks[k]
		}
		return newError(l.src, t.start, t.text(l.src), "", msg)
	}
	const form = "write WITH name [(col, …)] AS (SELECT …) [, …] SELECT …"
	k := s + 1
	for {
		if k >= len(l.toks) {
			return bad(k, "a name after WITH: "+form)
		}
		nameTok := l.toks[k]
		name, ok := l.identValue(nameTok)
		if !ok || !nameTok.quoted && isKeyword(strings.ToLower(name)) && !l.isWordTok(nameTok) {
			return bad(k, "a common table expression needs a name: "+form)
		}
		if l.isWord(nameTok, "recursive") {
			return bad(k, "WITH RECURSIVE is not supported")
		}
		for _, c := range sh.ctes {
			if strings.EqualFold(c.name, name) {
				return bad(k, "WITH names "+QuoteIdent(name)+" twice")
			}
		}
		def := cteDef{name: name}
		k++
		if k < len(l.toks) && l.toks[k].typ == '(' {
			cols, end, err := l.identList(k, "WITH "+name)
			if err != nil {
				return err
			}
			def.cols, k = cols, end+1
		}
		if k >= len(l.toks) || !l.isWord(l.toks[k], "as") {
			return bad(k, "AS (SELECT …) after the name of a common table expression: "+form)
		}
		k++
		if k >= len(l.toks) || l.toks[k].typ != '(' || !l.parenQuery(k+1) && !(k+1 < len(l.toks) && l.isWord(l.toks[k+1], "with")) {
			return bad(k, "a common table expression is a query in parentheses: "+form)
		}
		closeAt := l.closing(k)
		if closeAt < 0 {
			return bad(k, "this ( is never closed")
		}
		def.start = k + 1
		repl := "("
		if nameTok.start == l.toks[s+1].start {
			repl = "SELECT * FROM ("
			nameTok = l.toks[s] // the WITH goes too
		}
		rw.add(nameTok.start, l.toks[k].end, repl)
		rw.add(l.toks[closeAt].end, l.toks[closeAt].end, fmt.Sprintf(" AS %s%d", ctePrefix, len(sh.ctes)))
		sh.ctes = append(sh.ctes, def)
		k = closeAt + 1
		if k < len(l.toks) && l.toks[k].typ == ',' {
			k++
			continue
		}
		break
	}
	if k >= len(l.toks) || !l.isWord(l.toks[k], "select") && !l.parenQuery(k) {
		return bad(k, "a SELECT after the common table expressions: "+form)
	}
	end := l.toks[len(l.toks)-1].end // of the statement, or before the ')' closing the query
	if s > 0 && l.toks[s-1].typ == '(' {
		if c := l.closing(s - 1); c > 0 {
			end = l.toks[c].start
		}
	}
	rw.add(l.toks[k].start, l.toks[k].start, ", (")
	rw.add(end, end, fmt.Sprintf(") AS %s%d ", withMain, len(sh.mains)))
	sh.mains = append(sh.mains, k)
	return nil
}

// rewriteDerived renames the alias of the subquery in FROM whose '(' is at
// k when a column list follows it.
func (l *lexed) rewriteDerived(k int, rw *rewrite, sh *shapeRewrites) error {
	closeAt := l.closing(k)
	if closeAt < 0 {
		return nil // sqlparser reports it
	}
	j := closeAt + 1
	if j < len(l.toks) && l.isWord(l.toks[j], "as") {
		j++
	}
	if j+1 >= len(l.toks) || l.toks[j+1].typ != '(' {
		return nil
	}
	aliasTok := l.toks[j]
	alias, ok := l.identValue(aliasTok)
	if !ok || !aliasTok.quoted && isKeyword(strings.ToLower(alias)) {
		return nil
	}
	cols, end, err := l.identList(j+1, "the subquery "+alias)
	if err != nil {
		return err
	}
	rw.add(aliasTok.start, l.toks[end].end, fmt.Sprintf("%s%d", colsPrefix, len(sh.derived)))
	sh.derived = append(sh.derived, derivedCols{alias: alias, cols: cols})
	return nil
}

// rewriteSetOp turns INTERSECT/EXCEPT [ALL|DISTINCT] at k into UNION ALL
// and marks the first SELECT after it.
func (l *lexed) rewriteSetOp(k int, rw *rewrite) error {
	t := l.toks[k]
	op := strings.ToLower(l.src[t.start:t.end])
	end := t.end
	j := k + 1
	if j < len(l.toks) && l.isWord(l.toks[j], "all") {
		op += "_all"
		end = l.toks[j].end
		j++
	} else if j < len(l.toks) && l.isWord(l.toks[j], "distinct") {
		end = l.toks[j].end
		j++
	}
	for j < len(l.toks) && l.toks[j].typ == '(' {
		j++
	}
	if j >= len(l.toks) || !l.isWord(l.toks[j], "select") {
		return newError(l.src, t.start, t.text(l.src), "", strings.ToUpper(l.src[t.start:t.end])+" needs a SELECT after it")
	}
	rw.add(t.start, end, "UNION ALL")
	rw.add(l.toks[j].end, l.toks[j].end, " /*"+setPrefix+op+"*/")
	return nil
}

// setOpMark reads the operator rewriteSetOp marked on the leftmost SELECT
// of st ("" when none), removing the mark.
func setOpMark(st sqlparser.SelectStatement) SetKind {
	for {
		switch n := st.(type) {
		case *sqlparser.ParenSelect:
			st = n.Select
			continue
		case *sqlparser.Union:
			st = n.Left
			continue
		case *sqlparser.Select:
			for i, c := range n.Comments {
				s := strings.TrimSuffix(strings.TrimPrefix(string(c), "/*"), "*/")
				if op, ok := strings.CutPrefix(s, setPrefix); ok {
					n.Comments = append(n.Comments[:i:i], n.Comments[i+1:]...)
					return SetKind(strings.ToUpper(strings.ReplaceAll(op, "_", " ")))
				}
			}
		}
		return ""
	}
}

// fromComma reports whether the ',' at token k separates the items of a
// FROM list (FROM a, b): going back at its parenthesis depth, FROM comes
// before any other clause's keyword.
func (l *lexed) fromComma(k int) bool {
	if l.toks[k].typ != ',' {
		return false
	}
	depth := 0
	for j := k - 1; j >= 0; j-- {
		t := l.toks[j]
		switch {
		case t.typ == ')':
			depth++
		case t.typ == '(':
			if depth--; depth < 0 {
				return false
			}
		case depth > 0:
		case l.isWord(t, "from"):
			return true
		case l.isWord(t, "select"), l.isWord(t, "where"), l.isWord(t, "by"), l.isWord(t, "having"), l.isWord(t, "limit"),
			l.isWord(t, "set"), l.isWord(t, "values"), l.isWord(t, "into"):
			return false
		}
	}
	return false
}
