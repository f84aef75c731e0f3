package parser

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/xwb1989/sqlparser"
)

// VALUES as a table in FROM (or JOIN), Flink's
//
//	SELECT * FROM (VALUES (1, 'a'), (2, 'b')) AS t (x, y)
//
// is rewritten on tokens into the UNION ALL of one SELECT per row,
//
//	SELECT * FROM (SELECT 1 AS x, 'a' AS y UNION ALL SELECT 2, 'b') AS t
//
// so each column has the common type of its values (UNION ALL's rule, Flink's for VALUES)
// and the names of the column list; without one the columns are EXPR$0, EXPR$1, … as in
// Flink. The values themselves are not moved, so every other rewrite still applies to them;
// a bare NULL becomes NULLIF(lit, lit) with the column's first plain literal, to be typed.

// rewriteFromValues rewrites the (VALUES …) [AS] t [(names)] whose '(' is token open.
func (l *lexed) rewriteFromValues(open int, rw *rewrite) error {
	end := l.closing(open)
	if end < 0 {
		return nil // sqlparser reports the unclosed parenthesis
	}
	errAt := func(k int, msg string) error {
		t := l.toks[k]
		return newError(l.src, t.start, t.text(l.src), "", msg)
	}
	var rows []valuesRow
	for j := open + 2; j < end; {
		if l.toks[j].typ != '(' {
			return errAt(j, "write VALUES (…), (…) with each row in parentheses")
		}
		r := valuesRow{open: j, close: l.closing(j)}
		depth := 0
		for k := j; k <= r.close; k++ {
			switch l.toks[k].typ {
			case '(', '[': // ARRAY[…] and MAP[…] hold commas too
				depth++
			case ')', ']':
				depth--
			case ',':
				if depth == 1 {
					r.commas = append(r.commas, k)
				}
			}
		}
		if r.close == j+1 {
			return unsupportedError(l.src, l.toks[j].start, "(", "an empty VALUES row is not supported")
		}
		if len(rows) > 0 && len(r.commas) != len(rows[0].commas) {
			return errAt(j, fmt.Sprintf("VALUES row %d has %d value(s), row 1 has %d", len(rows)+1, len(r.commas)+1, len(rows[0].commas)+1))
		}
		rows = append(rows, r)
		j = r.close + 1
		if j < end {
			if l.toks[j].typ != ',' {
				return errAt(j, "write VALUES (…), (…): a comma goes between rows")
			}
			j++
		}
	}
	if len(rows) == 0 {
		return errAt(end, "VALUES needs at least one row: (VALUES (1, 'a'))")
	}
	ncols := len(rows[0].commas) + 1
	// The alias and its column list.
	var names []string
	k := end + 1
	if k < len(l.toks) && l.isWord(l.toks[k], "as") {
		k++
	}
	hasAlias := false
	if k < len(l.toks) {
		if _, ok := l.identValue(l.toks[k]); ok && (l.toks[k].quoted || !isKeyword(l.src[l.toks[k].start:l.toks[k].end])) {
			hasAlias = true
		}
	}
	if hasAlias && k+1 < len(l.toks) && l.toks[k+1].typ == '(' {
		listEnd := l.closing(k + 1)
		if listEnd < 0 {
			return errAt(k+1, "this column list is never closed")
		}
		for j := k + 2; j < listEnd; j++ {
			name, ok := l.identValue(l.toks[j])
			if !ok {
				return errAt(j, "write the column names of VALUES as AS t (a, b)")
			}
			names = append(names, name)
			if j+1 < listEnd && l.toks[j+1].typ != ',' {
				return errAt(j+1, "write the column names of VALUES as AS t (a, b)")
			}
			j++
		}
		if len(names) != ncols {
			return errAt(k+1, fmt.Sprintf("the column list names %d column(s); the VALUES rows have %d", len(names), ncols))
		}
		rw.add(l.toks[k].end, l.toks[listEnd].end, "")
	}
	if names == nil {
		for i := range ncols {
			names = append(names, "EXPR$"+strconv.Itoa(i))
		}
	}
	l.typeNulls(rows, rw)
	rw.add(l.toks[open+1].start, l.toks[open+1].end, "SELECT")
	for i, r := range rows {
		if i > 0 {
			rw.add(l.toks[r.open-1].start, l.toks[r.open-1].end, " UNION ALL SELECT")
		}
		rw.add(l.toks[r.open].start, l.toks[r.open].end, "")
		if i > 0 {
			rw.add(l.toks[r.close].start, l.toks[r.close].end, "")
			continue
		}
		for c, comma := range r.commas {
			rw.add(l.toks[comma].start, l.toks[comma].start, " AS "+QuoteIdent(names[c]))
		}
		rw.add(l.toks[r.close].start, l.toks[r.close].end, " AS "+QuoteIdent(names[ncols-1]))
	}
	if !hasAlias {
		rw.add(l.toks[end].end, l.toks[end].end, " AS "+subqueryAlias+" ")
	}
	return nil
}

// valuesRow is one row of VALUES: the tokens of its parentheses and of the commas
// between its values.
type valuesRow struct {
	open, close int
	commas      []int
}

// value returns the token range [from, to) of the row's c-th value.
func (r valuesRow) value(c int) (from, to int) {
	from, to = r.open+1, r.close
	if c > 0 {
		from = r.commas[c-1] + 1
	}
	if c < len(r.commas) {
		to = r.commas[c]
	}
	return from, to
}

// typeNulls gives a bare NULL in a column of VALUES the type of the column's first plain
// literal (a number, a string or TRUE/FALSE), as NULLIF(lit, lit): the engine types a bare
// NULL as STRING, which has no common type with numbers.
func (l *lexed) typeNulls(rows []valuesRow, rw *rewrite) {
	for c := 0; c <= len(rows[0].commas); c++ {
		lit := ""
		var nulls []token
		for _, r := range rows {
			from, to := r.value(c)
			if to != from+1 {
				continue
			}
			t := l.toks[from]
			switch {
			case l.isWord(t, "null"):
				nulls = append(nulls, t)
			case lit != "":
			case t.typ == sqlparser.INTEGRAL || t.typ == sqlparser.FLOAT || l.isWord(t, "true") || l.isWord(t, "false"),
				t.typ == sqlparser.STRING && !strings.ContainsRune(l.src[t.start:t.end], '\\'):
				lit = l.src[t.start:t.end]
			}
		}
		if lit == "" {
			continue
		}
		for _, t := range nulls {
			rw.add(t.start, t.end, "NULLIF("+lit+", "+lit+")")
		}
	}
}
