package parser

import (
	"errors"
	"strconv"
	"strings"

	"github.com/xwb1989/sqlparser"
)

// Flink-style table hints: SELECT … FROM t /*+ OPTIONS('k' = 'v', …) */.
// sqlparser discards comments after a table name, so the hint is taken from
// the token stream before sqlparser sees the statement.

// selectHints finds the hints of the query starting at token s (SELECT, or
// the '(' of a parenthesised first query of a UNION ALL), checks that each
// directly follows a table name of a FROM or JOIN, and parses their
// options. It returns them by the index of that table name's token (nil
// when there is none); dml marks those names for the converter (see
// hintedName).
func (l *lexed) selectHints(s int) (map[int]map[string]string, error) {
	var found map[int]map[string]string
	for _, c := range l.comments {
		if !strings.HasPrefix(c.val, "/*+") {
			continue
		}
		j := l.hintedTable(c.start)
		if !l.isWord(l.toks[s], "select") && !l.isWord(l.toks[s], "with") && !l.isWord(l.toks[s], "insert") && !l.isWord(l.toks[s], "upsert") && l.toks[s].typ != '(' || j < 0 {
			return nil, newError(l.src, c.start, c.text(l.src), "",
				"a hint must directly follow the table name: SELECT … FROM t /*+ OPTIONS('k' = 'v') */")
		}
		if found[j] != nil {
			return nil, newError(l.src, c.start, c.text(l.src), "", "only one hint per table is allowed")
		}
		opts, err := l.parseHint(c)
		if err != nil {
			return nil, err
		}
		if found == nil {
			found = map[int]map[string]string{}
		}
		found[j] = opts
	}
	return found, nil
}

// hintedTable returns the index of the table name token just before offset
// off — FROM or JOIN name, or db.name — or -1 if the tokens before off are
// not one.
func (l *lexed) hintedTable(off int) int {
	j := -1
	for k, t := range l.toks {
		if t.end <= off {
			j = k
		}
	}
	isName := func(k int) bool {
		if k < 0 {
			return false
		}
		_, ok := l.identValue(l.toks[k])
		return ok
	}
	tableWord := func(k int) bool {
		return k >= 0 && (l.isWord(l.toks[k], "from") || l.isWord(l.toks[k], "join") || l.fromComma(k))
	}
	switch {
	case !isName(j), j+1 < len(l.toks) && l.toks[j+1].typ == '.': // not a name, or only its database
		return -1
	case tableWord(j - 1):
		return j
	case j >= 3 && l.toks[j-1].typ == '.' && isName(j-2) && tableWord(j-3):
		return j
	}
	return -1
}

// hintPrefix starts the stand-in name of a table with a hint: the name
// token of table N's is rewritten to `__flussql_hint_N_name` for
// sqlparser, which drops comments, and the converter takes it apart again.
const hintPrefix = reservedPrefix + "hint_"

// hintedName is the stand-in for name with hint n.
func hintedName(n int, name string) string {
	return "`" + hintPrefix + strconv.Itoa(n) + "_" + strings.ReplaceAll(name, "`", "``") + "`"
}

// unhint takes a stand-in name apart: the table's name and the hint's
// number, -1 for a name without one.
func unhint(name string) (string, int) {
	rest, ok := strings.CutPrefix(name, hintPrefix)
	if !ok {
		return name, -1
	}
	num, orig, ok := strings.Cut(rest, "_")
	n, err := strconv.Atoi(num)
	if !ok || err != nil {
		return name, -1
	}
	return orig, n
}

// parseHint parses the body of one hint comment: OPTIONS('k' = 'v', …).
func (l *lexed) parseHint(c token) (map[string]string, error) {
	bodyStart := c.start + len("/*+")
	bodyEnd := c.end - len("*/")
	// Lex a copy of the source in which everything but the hint body is
	// blanked out (newlines kept), so offsets stay those of the original.
	masked := []byte(l.src)
	for k := range masked {
		if (k < bodyStart || k >= bodyEnd) && masked[k] != '\n' {
			masked[k] = ' '
		}
	}
	hl, err := lex(string(masked[:bodyEnd]))
	if err != nil {
		return nil, rebase(err, l.src)
	}
	opts, err := hl.hintOptions()
	if err != nil {
		return nil, rebase(err, l.src)
	}
	return opts, nil
}

// hintOptions parses OPTIONS('k' = 'v', …) from a lexed hint body.
func (hl *lexed) hintOptions() (map[string]string, error) {
	for _, t := range hl.toks {
		if t.typ == sqlparser.VALUE_ARG || t.typ == sqlparser.LIST_ARG {
			return nil, newError(hl.src, t.start, t.text(hl.src), "", "placeholders are not allowed in hints")
		}
	}
	p := &ddlParser{l: hl}
	if !p.word("options") {
		return nil, p.fail("OPTIONS")
	}
	opts, err := p.properties()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.typ != 0 {
		return nil, syntaxError(hl.src, t.start, t.text(hl.src), "the end of the hint (only OPTIONS is supported)")
	}
	// *\/ in a hint's string stands for */, which would end the comment (see hintString).
	out := make(map[string]string, len(opts))
	for k, v := range opts {
		out[strings.ReplaceAll(k, `*\/`, "*/")] = strings.ReplaceAll(v, `*\/`, "*/")
	}
	return out, nil
}

// rebase recomputes an *Error's line and column against src.
func rebase(err error, src string) error {
	var pe *Error
	if errors.As(err, &pe) {
		return newError(src, pe.Offset, pe.Found, pe.Expected, pe.Message)
	}
	return err
}
