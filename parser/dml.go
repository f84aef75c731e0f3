package parser

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/xwb1989/sqlparser"
)

// typedLit is a DATE/TIME/TIMESTAMP '…' literal taken out of the text
// before sqlparser (which cannot parse them) sees it; in the rewritten text
// it is the call __flussql_lit_N('…').
type typedLit struct {
	kind  LiteralKind
	value string
}

// dml parses SELECT, INSERT, UPSERT, UPDATE and DELETE (starting at token
// s) with sqlparser, after rewriting what it cannot read, and converts the
// result into this package's types.
func (l *lexed) dml(s int) (Statement, error) {
	hints, err := l.selectHints(s)
	if err != nil {
		return nil, err
	}
	rw := &rewrite{src: l.src}
	first := l.toks[s]
	rw.add(0, first.start, "") // EXPLAIN and leading comments
	last := l.toks[len(l.toks)-1]
	rw.add(last.end, len(l.src), "") // a trailing ';' and comments
	start := s                       // of the statement inside the parentheses of (SELECT …)
	for hi := len(l.toks) - 1; l.toks[start].typ == '(' && l.closing(start) == hi; start, hi = start+1, hi-1 {
		rw.add(l.toks[start].start, l.toks[start].end, "") // sqlparser wants no parentheses around a statement
		rw.add(l.toks[hi].start, l.toks[hi].end, "")
	}
	upsert := l.isWord(first, "upsert")
	if upsert {
		rw.add(first.start, first.end, "INSERT")
	}
	var hintList []map[string]string
	for k, t := range l.toks[s:] {
		if h := hints[s+k]; h != nil {
			name, _ := l.identValue(t)
			rw.add(t.start, t.end, hintedName(len(hintList), name))
			hintList = append(hintList, h)
			continue
		}
		if t.virtual {
			rw.add(t.start, t.end, "`"+t.val+"`") // orders$changelog: sqlparser needs the backticks
		}
	}
	var lits []typedLit
	inLit := map[int]bool{} // string tokens of typed literals
	for k := s; k+1 < len(l.toks); k++ {
		t, next := l.toks[k], l.toks[k+1]
		kind, ok := typedLiteralKind(l, t)
		if !ok || next.typ != sqlparser.STRING {
			continue
		}
		if err := checkTypedLiteral(kind, next.val); err != nil {
			return nil, newError(l.src, next.start, next.text(l.src), "", err.Error())
		}
		rw.add(t.start, next.end, fmt.Sprintf("%s%d(%s)", litFunc, len(lits), l.mysqlString(next)))
		lits = append(lits, typedLit{kind: kind, value: next.val})
		inLit[k+1] = true
		k++
	}
	for k := s; k < len(l.toks); k++ {
		// A backslash in a string is an ordinary character (Flink SQL); sqlparser reads
		// it as an escape, so such strings are handed to it with backslashes doubled.
		if t := l.toks[k]; t.typ == sqlparser.STRING && !inLit[k] && strings.ContainsRune(l.src[t.start:t.end], '\\') {
			rw.add(t.start, t.end, l.mysqlString(t))
		}
	}
	if err := l.rewriteConstructors(s, rw); err != nil {
		return nil, err
	}
	l.rewriteNullTreatment(s, rw)
	if err := l.rewriteSQLForms(s, rw); err != nil {
		return nil, err
	}
	q, err := l.rewriteQuerySyntax(s, rw)
	if err != nil {
		return nil, err
	}
	// Two trailing blanks make an error at the end of the text distinguishable
	// from one at its last token (see translate).
	text := rw.text() + "  "
	tree, err := parseStrict(text)
	if err != nil {
		return nil, l.translate(err, rw, text)
	}
	c := &converter{l: l, start: start, lits: lits, positional: l.usesPositional(), q: q, hints: hintList}
	return c.statement(tree, upsert)
}

// mysqlString is string token t quoted for sqlparser (MySQL's rules: a
// backslash escapes).
func (l *lexed) mysqlString(t token) string {
	if !strings.ContainsRune(l.src[t.start:t.end], '\\') {
		return l.src[t.start:t.end]
	}
	return "'" + strings.ReplaceAll(strings.ReplaceAll(t.val, `\`, `\\`), "'", "''") + "'"
}

// closing returns the index of the token closing the '(' at i, -1 if none.
func (l *lexed) closing(i int) int {
	depth := 0
	for k := i; k < len(l.toks); k++ {
		switch l.toks[k].typ {
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				return k
			}
		}
	}
	return -1
}

// parseStrict calls sqlparser.ParseStrictDDL, turning a panic into an error.
func parseStrict(text string) (st sqlparser.Statement, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error at position 1: %v", r)
		}
	}()
	return sqlparser.ParseStrictDDL(text)
}

// litFunc names the stand-in function of typed literals.
const litFunc = reservedPrefix + "lit_"

func typedLiteralKind(l *lexed, t token) (LiteralKind, bool) {
	switch {
	case l.isWord(t, "date"):
		return LitDate, true
	case l.isWord(t, "time"):
		return LitTime, true
	case l.isWord(t, "timestamp"):
		return LitTimestamp, true
	}
	return 0, false
}

var (
	dateRe = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
	timeRe = regexp.MustCompile(`^\d{2}:\d{2}:\d{2}(\.\d{1,9})?$`)
)

// checkTypedLiteral validates the text of a DATE, TIME or TIMESTAMP literal.
func checkTypedLiteral(kind LiteralKind, v string) error {
	var date, clock string
	switch kind {
	case LitDate:
		date = v
	case LitTime:
		clock = v
	case LitTimestamp:
		var ok bool
		if date, clock, ok = strings.Cut(v, " "); !ok {
			date, clock, ok = strings.Cut(v, "T")
		}
		if !ok {
			return fmt.Errorf("invalid TIMESTAMP literal %q: want 'yyyy-mm-dd hh:mm:ss[.fraction]'", v)
		}
	}
	if date != "" || kind == LitDate {
		if _, err := time.Parse("2006-01-02", date); err != nil || !dateRe.MatchString(date) {
			return fmt.Errorf("invalid %s literal %q: want 'yyyy-mm-dd'", strings.ToUpper(kind.String()), v)
		}
	}
	if kind != LitDate {
		ok := timeRe.MatchString(clock)
		if ok {
			_, err := time.Parse("15:04:05", clock[:8])
			ok = err == nil
		}
		if !ok {
			return fmt.Errorf("invalid %s literal %q: want the time as 'hh:mm:ss[.fraction]'", strings.ToUpper(kind.String()), v)
		}
	}
	return nil
}

// usesPositional reports whether the statement's placeholders are '?'.
func (l *lexed) usesPositional() bool {
	for _, t := range l.toks {
		if t.typ == sqlparser.VALUE_ARG {
			return l.isPositional(t)
		}
	}
	return false
}

// dialectWords are keywords the DML grammar uses itself; finding one where
// a name was expected is not a quoting problem.
var dialectWords = map[string]bool{
	"select": true, "insert": true, "update": true, "delete": true, "from": true, "where": true, "limit": true,
	"into": true, "values": true, "set": true, "and": true, "or": true, "not": true, "in": true, "between": true,
	"is": true, "like": true, "null": true, "order": true, "group": true, "having": true, "as": true,
}

var posRe = regexp.MustCompile(`^(.*) at position (\d+)`)

// translate turns a sqlparser error into an *Error located in the original
// text, with the tokens the grammar would have accepted there.
func (l *lexed) translate(err error, rw *rewrite, text string) error {
	m := posRe.FindStringSubmatch(err.Error())
	if m == nil {
		return newError(l.src, 0, l.toks[0].text(l.src), "", err.Error())
	}
	pos, _ := strconv.Atoi(m[2])
	errEnd := pos - 1 // the tokenizer's Position is one past the offending token
	rl, lerr := lex(text)
	if lerr != nil { // cannot happen: the rewritten text lexes like the original
		return newError(l.src, 0, l.toks[0].text(l.src), "", err.Error())
	}
	var bad *token // nil: the error is at the end of the text
	for k := range rl.toks {
		if rl.toks[k].end >= errEnd {
			bad = &rl.toks[k]
			break
		}
	}
	var off int
	var found, expected string
	if bad == nil {
		off, found = l.toks[len(l.toks)-1].end, endOfInput
		expected = expectedAt(rl, len(text))
	} else {
		off = rw.toOrig(bad.start)
		found = endOfInput
		for _, t := range l.toks {
			if t.start == off {
				found = t.text(l.src)
				break
			}
		}
		expected = expectedAt(rl, bad.start)
	}
	if m[1] != "syntax error" {
		return newError(l.src, off, found, expected, m[1]+" at "+quoteFound(found))
	}
	e := syntaxError(l.src, off, found, expected)
	if bad != nil && bad.typ != sqlparser.ID && isIdentWord(found) && !dialectWords[strings.ToLower(found)] &&
		strings.HasPrefix(expected, "one of an identifier") {
		e.Message += " (a keyword used as a name must be quoted in backticks)"
	}
	return e
}
