package parser

import (
	"strings"

	"github.com/xwb1989/sqlparser"
)

// CALL runs one of Fluss's Flink procedures as the Fluss docs write them:
//
//	CALL [catalog.]sys.procedure(argument, …)
//
// An argument is a string literal or NULL, positional ('db.t') or named (resource => 'db.t');
// once an argument is named the following positional ones continue its list (the variadic
// form config_keys => 'k1', 'k2'). Which procedures exist and what their arguments mean is
// the planner's business; the parser checks the shape only.

// Call is CALL [catalog.]sys.procedure(args).
type Call struct {
	// Catalog is the catalog named before sys ("" when none); a connection has one catalog,
	// so any name is accepted.
	Catalog string
	// Procedure is the procedure's name in lower case, without "sys.", e.g. "add_acl".
	Procedure string
	Args      []CallArg
}

// CallArg is one argument of CALL.
type CallArg struct {
	// Name is the argument's name in lower case for name => value, "" for a positional one.
	Name string
	// Value is the string literal; nil for NULL.
	Value *string
}

func (*Call) statement() {}

// String renders the statement canonically.
func (s *Call) String() string {
	var b strings.Builder
	b.WriteString("CALL ")
	if s.Catalog != "" {
		b.WriteString(quoteIdentIfNeeded(s.Catalog) + ".")
	}
	b.WriteString("sys." + quoteIdentIfNeeded(s.Procedure) + "(")
	for i, a := range s.Args {
		if i > 0 {
			b.WriteString(", ")
		}
		if a.Name != "" {
			b.WriteString(quoteIdentIfNeeded(a.Name) + " => ")
		}
		if a.Value == nil {
			b.WriteString("NULL")
		} else {
			b.WriteString(QuoteString(*a.Value))
		}
	}
	b.WriteString(")")
	return b.String()
}

// quoteIdentIfNeeded backticks a name that is not a plain lower-case word.
func quoteIdentIfNeeded(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return (r < 'a' || r > 'z') && (r < '0' || r > '9') && r != '_'
	}) < 0 && (s[0] < '0' || s[0] > '9') {
		return s
	}
	return "`" + strings.ReplaceAll(s, "`", "``") + "`"
}

// call parses the rest of CALL.
func (p *ddlParser) call() (Statement, error) {
	first, ft, err := p.ident("a procedure name (sys.name or catalog.sys.name)")
	if err != nil {
		return nil, err
	}
	names, toks := []string{first}, []token{ft}
	for p.punct('.') {
		n, t, err := p.ident("a name")
		if err != nil {
			return nil, err
		}
		names, toks = append(names, n), append(toks, t)
	}
	s := &Call{}
	switch len(names) {
	case 2:
	case 3:
		s.Catalog = names[0]
	default:
		return nil, p.errAt(ft, "a procedure is called as sys.name or catalog.sys.name (e.g. CALL sys.list_acl(resource => 'ANY'))")
	}
	if ns := len(names) - 2; !strings.EqualFold(names[ns], "sys") {
		return nil, p.errAt(toks[ns], "Fluss's procedures live in the sys namespace: write sys."+names[len(names)-1])
	}
	s.Procedure = strings.ToLower(names[len(names)-1])
	if err := p.expectPunct('('); err != nil {
		return nil, err
	}
	if !p.punct(')') {
		for {
			a, err := p.callArg()
			if err != nil {
				return nil, err
			}
			s.Args = append(s.Args, a)
			if !p.punct(',') {
				break
			}
		}
		if err := p.expectPunct(')'); err != nil {
			return nil, err
		}
	}
	return s, p.end()
}

// callArg parses [name =>] ('string' | NULL).
func (p *ddlParser) callArg() (CallArg, error) {
	var a CallArg
	if p.peekAt(1).typ == '=' && p.peekAt(2).typ != '>' {
		return a, p.errAt(p.peekAt(1), "a named argument is written name => 'value'")
	}
	if p.peekAt(1).typ == '=' && p.peekAt(2).typ == '>' {
		name, _, err := p.ident("an argument name")
		if err != nil {
			return a, err
		}
		p.i += 2 // "=>" lexes as '=' '>'
		a.Name = strings.ToLower(name)
	}
	t := p.peek()
	switch {
	case t.typ == sqlparser.STRING:
		p.i++
		v := t.val
		a.Value = &v
	case p.word("null"):
	case t.typ == sqlparser.VALUE_ARG:
		return a, p.unsupportedAt(t, "CALL takes its arguments as string literals, not placeholders")
	default:
		return a, p.fail("a string literal", "NULL")
	}
	return a, nil
}
