package parser

import (
	"strconv"
	"strings"

	"github.com/xwb1989/sqlparser"
)

// reservedPrefix starts the names the parser uses internally when it hands
// typed literals to sqlparser; user identifiers may not start with it.
const reservedPrefix = "__flussql_"

// statementStarts lists the words a statement may begin with.
var statementStarts = []string{"SELECT", "INSERT", "UPSERT", "UPDATE", "DELETE", "CREATE", "DROP", "ALTER",
	"SHOW", "DESCRIBE", "USE", "EXPLAIN", "CALL"}

// Parse parses exactly one statement of the flussql dialect (a trailing ';'
// is allowed). Errors are *Error values with the line and column of the
// offending token. Anything the dialect does not support is an error; no
// clause is ever ignored.
func Parse(sql string) (Statement, error) {
	l, err := lex(sql)
	if err != nil {
		return nil, err
	}
	for i, t := range l.toks {
		if t.typ != ';' {
			continue
		}
		if i != len(l.toks)-1 {
			n := l.toks[i+1]
			msg := "one statement at a time: a second one follows the ';' (run each on its own; Go code can split a script with parser.Split)"
			if n.typ == ';' {
				msg = "an empty statement: ';' follows ';' (remove one)"
			}
			return nil, newError(sql, n.start, n.text(sql), "end of statement", msg)
		}
		l.toks = l.toks[:i]
	}
	if len(l.toks) == 0 {
		return nil, syntaxError(sql, len(sql), endOfInput, "a statement")
	}
	if err := l.checkNames(); err != nil {
		return nil, err
	}
	if err := l.checkPlaceholders(); err != nil {
		return nil, err
	}
	if src, ok, err := l.inlineWindows(); err != nil {
		return nil, err
	} else if ok {
		if l, err = lex(src); err != nil {
			return nil, err
		}
	}
	return l.statement(0)
}

// statement parses the statement starting at token index i.
func (l *lexed) statement(i int) (Statement, error) {
	t := l.toks[i]
	if err := l.refusedForm(i); err != nil {
		return nil, err
	}
	switch {
	case l.isWord(t, "explain"):
		if i+1 >= len(l.toks) {
			return nil, syntaxError(l.src, len(l.src), endOfInput, "a statement after EXPLAIN")
		}
		if l.isWord(l.toks[i+1], "explain") {
			n := l.toks[i+1]
			return nil, newError(l.src, n.start, n.text(l.src), "", "EXPLAIN cannot be nested")
		}
		inner, err := l.statement(i + 1)
		if err != nil {
			return nil, err
		}
		return &Explain{Statement: inner}, nil
	case l.isWord(t, "select"), l.isWord(t, "with"), l.isWord(t, "insert"), l.isWord(t, "upsert"),
		l.isWord(t, "update"), l.isWord(t, "delete"):
		if st, ok, err := l.flinkWindowQuery(i); ok {
			return st, err
		}
		return l.dml(i)
	case t.typ == '(' && l.parenQuery(i):
		return l.dml(i) // (SELECT …) UNION ALL …
	case l.isWord(t, "replace"):
		return nil, unsupportedError(l.src, t.start, t.text(l.src), "REPLACE INTO is not supported; use UPSERT INTO")
	}
	if err := l.rejectHints(); err != nil {
		return nil, err
	}
	p := &ddlParser{l: l, i: i}
	return p.statement()
}

// parenQuery reports whether the tokens from i are '(' … SELECT: a query
// whose first SELECT is parenthesised.
func (l *lexed) parenQuery(i int) bool {
	for ; i < len(l.toks) && l.toks[i].typ == '('; i++ {
	}
	return i < len(l.toks) && l.isWord(l.toks[i], "select")
}

// checkNames rejects identifiers with the parser's reserved prefix.
func (l *lexed) checkNames() error {
	for _, t := range l.toks {
		if t.typ == sqlparser.ID && strings.HasPrefix(strings.ToLower(t.val), reservedPrefix) {
			return newError(l.src, t.start, t.text(l.src), "",
				"identifiers starting with "+reservedPrefix+" are reserved")
		}
	}
	return nil
}

// checkPlaceholders rejects list placeholders and statements that mix '?'
// with ':name'.
func (l *lexed) checkPlaceholders() error {
	mode := 0 // 1 positional, 2 named
	for _, t := range l.toks {
		switch t.typ {
		case sqlparser.LIST_ARG:
			return unsupportedError(l.src, t.start, t.text(l.src), "list placeholders (::name) are not supported")
		case sqlparser.VALUE_ARG:
			m := 2
			if l.isPositional(t) {
				m = 1
			}
			if mode != 0 && m != mode {
				return newError(l.src, t.start, t.text(l.src), "",
					"cannot mix ? and :name placeholders in one statement")
			}
			mode = m
		}
	}
	return nil
}

// placeholder converts a VALUE_ARG token.
func (l *lexed) placeholder(t token) *Placeholder {
	if l.isPositional(t) {
		n, _ := strconv.Atoi(strings.TrimPrefix(t.val, ":v"))
		return &Placeholder{Ordinal: n}
	}
	return &Placeholder{Name: strings.TrimPrefix(t.val, ":")}
}

// rejectHints fails on any /*+ … */ hint in a statement that takes none.
func (l *lexed) rejectHints() error {
	for _, c := range l.comments {
		if strings.HasPrefix(c.val, "/*+") {
			return newError(l.src, c.start, c.text(l.src), "",
				"hints are only supported after the table name of a SELECT")
		}
	}
	return nil
}
