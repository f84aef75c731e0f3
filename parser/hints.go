package parser

import (
	"errors"
	"strings"

	"github.com/xwb1989/sqlparser"
)

// Flink-style table hints: SELECT … FROM t /*+ OPTIONS('k' = 'v', …) */.
// sqlparser discards comments after a table name, so the hint is taken from
// the token stream before sqlparser sees the statement.

// selectHints finds the hint of the SELECT starting at token s, checks that
// it directly follows the table name, and parses its options. It returns nil
// when there is no hint.
func (l *lexed) selectHints(s int) (map[string]string, error) {
	var found map[string]string
	for _, c := range l.comments {
		if !strings.HasPrefix(c.val, "/*+") {
			continue
		}
		if !l.isWord(l.toks[s], "select") || !l.followsTableName(c.start) {
			return nil, newError(l.src, c.start, c.text(l.src), "",
				"a hint must directly follow the table name: SELECT … FROM t /*+ OPTIONS('k' = 'v') */")
		}
		if found != nil {
			return nil, newError(l.src, c.start, c.text(l.src), "", "only one hint is allowed")
		}
		opts, err := l.parseHint(c)
		if err != nil {
			return nil, err
		}
		found = opts
	}
	return found, nil
}

// followsTableName reports whether the tokens just before offset off are
// FROM name or FROM db.name.
func (l *lexed) followsTableName(off int) bool {
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
	if !isName(j) {
		return false
	}
	if j >= 1 && l.isWord(l.toks[j-1], "from") {
		return true
	}
	return j >= 3 && l.toks[j-1].typ == '.' && isName(j-2) && l.isWord(l.toks[j-3], "from")
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
	return opts, nil
}

// rebase recomputes an *Error's line and column against src.
func rebase(err error, src string) error {
	var pe *Error
	if errors.As(err, &pe) {
		return newError(src, pe.Offset, pe.Found, pe.Expected, pe.Message)
	}
	return err
}
