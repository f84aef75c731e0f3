package main

import (
	"errors"
	"fmt"
	"strings"
	"syscall"
	"unicode/utf8"

	"github.com/flussql/flussql/parser"
	"github.com/mattn/go-runewidth"
)

// reportError prints a failed statement's error on stderr with its position in the input.
// A *parser.Error (positions relative to buf) points at the offending token and is shown
// with the source line and a caret under the token; any other error is reported at the
// statement's start (stmtLine, stmtCol, relative to buf). Scripts get the compiler-style
//
//	demo.sql:12:15: syntax error at "FORM": expected …
//	  SELECT * FORM t
//	           ^
//
// and the interactive shell "ERROR at line 1, column 10: …" with the same two lines.
func (s *shell) reportError(err error, buf string, bufLine, stmtLine, stmtCol int, src source) {
	if errors.Is(err, syscall.EPIPE) {
		// The reader of the output went away (`flussql -e … | head`): nothing to say, and
		// nobody to say it to on stdout; the script stops as at any error.
		return
	}
	var pe *parser.Error
	if !errors.As(err, &pe) {
		if src.interactive {
			s.errorf("ERROR: %v", err)
		} else {
			s.errorf("%s%v", prefix(src, bufLine+stmtLine-1, stmtCol), err)
		}
		return
	}
	msg := pe.Message
	if msg == "" {
		msg = pe.Error()
	}
	var b strings.Builder
	if src.interactive {
		fmt.Fprintf(&b, "ERROR at line %d, column %d: %s", pe.Line, pe.Column, msg)
	} else {
		b.WriteString(prefix(src, bufLine+pe.Line-1, pe.Column) + msg)
	}
	lines := strings.Split(buf, "\n")
	if pe.Line >= 1 && pe.Line <= len(lines) {
		text := lines[pe.Line-1]
		b.WriteString("\n  " + text + "\n  " + caretLine(text, pe.Column))
	}
	s.errorf("%s", b.String())
}

// caretLine returns blanks (tabs kept) up to the 1-based character column col of text,
// then "^".
func caretLine(text string, col int) string {
	var b strings.Builder
	i := 1
	for _, r := range text {
		if i >= col {
			break
		}
		if r == '\t' {
			b.WriteByte('\t')
		} else {
			b.WriteString(strings.Repeat(" ", runewidth.RuneWidth(r)))
		}
		i++
	}
	b.WriteString("^")
	return b.String()
}

// prefix is "name:line:col: " (col 0 leaves the column out).
func prefix(src source, line, col int) string {
	name := src.name
	if name == "" {
		return ""
	}
	if col > 0 {
		return fmt.Sprintf("%s:%d:%d: ", name, line, col)
	}
	return fmt.Sprintf("%s:%d: ", name, line)
}

// errorf prints a message on stderr after what is pending on stdout.
func (s *shell) errorf(format string, args ...any) {
	_ = s.out.Flush()
	fmt.Fprintf(s.errw, format+"\n", args...)
}

// codeStart returns the 1-based line and column, within text, of its first character that
// is neither blank nor part of a comment (a statement's text keeps the comments before it).
func codeStart(text string) (line, col int) {
	line, col = 1, 1
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == '\n':
			line, col = line+1, 1
			i++
			continue
		case c == ' ' || c == '\t' || c == '\r':
		case c == '#' || strings.HasPrefix(text[i:], "--") || strings.HasPrefix(text[i:], "//"):
			for i < len(text) && text[i] != '\n' {
				i++
			}
			continue
		case strings.HasPrefix(text[i:], "/*") && !strings.HasPrefix(text[i:], "/*+"):
			end := strings.Index(text[i+2:], "*/")
			if end < 0 {
				return line, col
			}
			comment := text[i : i+2+end+2]
			if n := strings.Count(comment, "\n"); n > 0 {
				line += n
				col = 1 + utf8.RuneCountInString(comment[strings.LastIndexByte(comment, '\n')+1:])
			} else {
				col += utf8.RuneCountInString(comment)
			}
			i += len(comment)
			continue
		default:
			return line, col
		}
		i++
		col++
	}
	return line, col
}
