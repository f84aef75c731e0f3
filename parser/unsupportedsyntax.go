package parser

import "errors"

// unsupportedSyntax turns the syntax error of a construct flussql does not read (yet) into
// a refusal that names it and matches ErrNotSupported: a statement starting with
// WITH. Other errors are returned as they are.
func (l *lexed) unsupportedSyntax(err error) error {
	var pe *Error
	if !errors.As(err, &pe) || pe.unsupported || pe.Expected == "" {
		return err
	}
	for i, t := range l.toks {
		if t.start != pe.Offset {
			continue
		}
		switch {
		case l.isWord(t, "with") && (i == 0 || i == 1 && l.isWord(l.toks[0], "explain")):
			return unsupportedError(l.src, t.start, pe.Found, "WITH (a common table expression) is not supported; write the query as a subquery in FROM: SELECT … FROM (SELECT …) AS name")
		}
		break
	}
	return err
}
