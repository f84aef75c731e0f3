package main

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Variables in psql's style: \set name value sets one, \unset name drops it, \set alone
// lists them, and in what is typed afterwards — statements and backslash commands alike —
// :name becomes the value as it is, :'name' the value as a quoted string literal and
// :"name" the value as a quoted identifier (backticks, as flussql quotes names). A
// reference to a variable that is not set, one inside quotes or a comment, and :: are
// left as written. \echo prints its arguments.

// setCommand is \set [name [value …]]: the values are joined without spaces, as psql
// does; quoted values ('a b') keep their spaces.
func (s *shell) setCommand(raw string) error {
	args, err := commandArgs(raw, s.reference)
	if err != nil {
		return err
	}
	if len(args) == 0 {
		names := make([]string, 0, len(s.vars))
		for n := range s.vars {
			names = append(names, n)
		}
		slices.Sort(names)
		for _, n := range names {
			fmt.Fprintf(s.out, "%s = '%s'\n", n, s.vars[n])
		}
		return nil
	}
	if !validVarName(args[0]) {
		return fmt.Errorf(`\set: invalid variable name %q (letters, digits and _)`, args[0])
	}
	if s.vars == nil {
		s.vars = map[string]string{}
	}
	s.vars[args[0]] = strings.Join(args[1:], "")
	return nil
}

// unsetCommand is \unset name.
func (s *shell) unsetCommand(raw string) error {
	args, err := commandArgs(raw, s.reference)
	if err != nil {
		return err
	}
	if len(args) != 1 {
		return errors.New(`\unset wants one argument: a variable's name`)
	}
	delete(s.vars, args[0])
	return nil
}

// echoCommand is \echo [-n] text…: the arguments, separated by a space, then a newline
// (none with -n).
func (s *shell) echoCommand(raw string) error {
	args, err := commandArgs(raw, s.reference)
	if err != nil {
		return err
	}
	newline := "\n"
	if len(args) > 0 && args[0] == "-n" {
		args, newline = args[1:], ""
	}
	fmt.Fprint(s.out, strings.Join(args, " ")+newline)
	return nil
}

// readsOwnArgs reports whether a command line is one whose variable references are
// replaced argument by argument (commandArgs) rather than in the line's text: \set,
// \unset and \echo, whose arguments a value with spaces must not split.
func readsOwnArgs(line string) bool {
	name, _, _ := strings.Cut(strings.TrimSpace(line), " ")
	switch name {
	case `\set`, `\unset`, `\echo`:
		return true
	}
	return false
}

func validVarName(n string) bool {
	if n == "" {
		return false
	}
	for _, r := range n {
		if !isVarRune(r) {
			return false
		}
	}
	return true
}

func isVarRune(r rune) bool {
	return r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
}

// commandArgs splits a backslash command's arguments as psql does: at spaces, except
// inside 'single quotes' (where ” is a quote and the quotes are dropped) and "double
// quotes" (kept as written). A variable reference outside quotes is replaced by ref
// (nil: none) with its value, which is not split again.
func commandArgs(raw string, ref func(string) (string, int, bool)) ([]string, error) {
	var out []string
	var b strings.Builder
	in := false // inside an argument
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c == ':' && ref != nil && i+1 < len(raw) {
			if text, n, ok := ref(raw[i+1:]); ok {
				b.WriteString(text)
				in = true
				i += n
				continue
			}
		}
		switch {
		case c == ' ' || c == '\t':
			if in {
				out = append(out, b.String())
				b.Reset()
				in = false
			}
		case c == '\'':
			in = true
			closed := false
			for i++; i < len(raw); i++ {
				if raw[i] == '\'' {
					if i+1 < len(raw) && raw[i+1] == '\'' {
						b.WriteByte('\'')
						i++
						continue
					}
					closed = true
					break
				}
				b.WriteByte(raw[i])
			}
			if !closed {
				return nil, errors.New("a quote ' is not closed")
			}
		case c == '"':
			in = true
			j := strings.IndexByte(raw[i+1:], '"')
			if j < 0 {
				return nil, errors.New(`a quote " is not closed`)
			}
			b.WriteString(raw[i : i+j+2])
			i += j + 1
		default:
			in = true
			b.WriteByte(c)
		}
	}
	if in {
		out = append(out, b.String())
	}
	return out, nil
}

// interpolation remembers, across the lines of one statement, whether the text so far
// ends inside a quote or a block comment.
type interpolation struct {
	quote   byte // ', ", ` or 0
	comment bool // inside /* … */
}

// interpolate replaces the variable references of one line (see the file's comment).
func (s *shell) interpolate(line string, st *interpolation) string {
	if len(s.vars) == 0 && st.quote == 0 && !st.comment && !strings.Contains(line, "'") &&
		!strings.Contains(line, "/*") && !strings.Contains(line, "*/") && !strings.Contains(line, "`") &&
		!strings.Contains(line, `"`) {
		return line // the common case: nothing to track, nothing to replace
	}
	var b strings.Builder
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case st.comment:
			if c == '*' && i+1 < len(line) && line[i+1] == '/' {
				st.comment = false
				b.WriteString("*/")
				i++
				continue
			}
		case st.quote != 0:
			if c == st.quote {
				st.quote = 0
			}
		case c == '\'' || c == '"' || c == '`':
			st.quote = c
		case c == '/' && i+1 < len(line) && line[i+1] == '*':
			st.comment = true
			b.WriteString("/*")
			i++
			continue
		case c == '-' && i+1 < len(line) && line[i+1] == '-':
			b.WriteString(line[i:])
			return b.String()
		case c == ':' && i+1 < len(line) && line[i+1] == ':':
			b.WriteString("::")
			i++
			continue
		case c == ':':
			if text, n, ok := s.reference(line[i+1:]); ok {
				b.WriteString(text)
				i += n
				continue
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

// reference reads a variable reference after a ':' — name, 'name' or "name" — and
// returns its replacement and length, or ok false when it is none or not set.
func (s *shell) reference(rest string) (string, int, bool) {
	quote := byte(0)
	if rest != "" && (rest[0] == '\'' || rest[0] == '"') {
		quote = rest[0]
		rest = rest[1:]
	}
	n := 0
	for n < len(rest) && isVarRune(rune(rest[n])) {
		n++
	}
	if n == 0 {
		return "", 0, false
	}
	v, ok := s.vars[rest[:n]]
	if !ok {
		return "", 0, false
	}
	switch quote {
	case '\'':
		if n >= len(rest) || rest[n] != '\'' {
			return "", 0, false
		}
		return "'" + strings.ReplaceAll(v, "'", "''") + "'", n + 2, true
	case '"':
		if n >= len(rest) || rest[n] != '"' {
			return "", 0, false
		}
		return quoteIdent(v), n + 2, true
	}
	return v, n, true
}
