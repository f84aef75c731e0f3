package parser

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// endOfInput is what Error.Found holds when the statement ended too early.
const endOfInput = "end of input"

// Error is a parse error. It says where the problem is (1-based line and
// column, the column counted in characters), the token found there as it was
// written (or "end of input") and, for syntax errors, what was expected.
// Use errors.As to get at the fields.
type Error struct {
	// Line and Column locate the offending token, both 1-based.
	Line, Column int
	// Offset is the byte offset of the offending token in the parsed text.
	Offset int
	// Found is the offending token as written, or "end of input".
	Found string
	// Expected describes what the grammar allows at that point, e.g.
	// "FROM" or "one of WHERE, LIMIT, end of statement"; empty when the
	// problem is not a syntax error (an unsupported feature, a bad value).
	Expected string
	// Message is the complete description without the position.
	Message string

	unsupported bool // the error refuses a construct the dialect lacks
}

// ErrNotSupported is matched (errors.Is) by every error refusing a statement,
// clause or expression the dialect does not support; flussql.ErrNotSupported
// is this value.
var ErrNotSupported = errors.New("not supported")

// Is makes an *Error that refuses an unsupported construct match ErrNotSupported.
func (e *Error) Is(target error) bool { return e.unsupported && target == ErrNotSupported }

// Error renders "line L, column C: message".
func (e *Error) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Message)
}

// position converts a byte offset in src into a 1-based line and column.
func position(src string, off int) (line, col int) {
	if off > len(src) {
		off = len(src)
	}
	if off < 0 {
		off = 0
	}
	before := src[:off]
	line = 1 + strings.Count(before, "\n")
	lineStart := strings.LastIndexByte(before, '\n') + 1
	col = 1 + utf8.RuneCountInString(before[lineStart:])
	return line, col
}

// newError builds an Error at byte offset off of src.
func newError(src string, off int, found, expected, msg string) *Error {
	line, col := position(src, off)
	return &Error{Line: line, Column: col, Offset: off, Found: found, Expected: expected, Message: msg}
}

// unsupportedError builds an Error at byte offset off of src that refuses an
// unsupported construct: it matches ErrNotSupported.
func unsupportedError(src string, off int, found, msg string) *Error {
	e := newError(src, off, found, "", msg)
	e.unsupported = true
	return e
}

// syntaxError reports an unexpected token and what the grammar wanted.
func syntaxError(src string, off int, found, expected string) *Error {
	msg := "syntax error at " + quoteFound(found)
	if expected != "" {
		msg += ": expected " + expected
	}
	return newError(src, off, found, expected, msg)
}

// quoteFound renders a found token for a message.
func quoteFound(found string) string {
	if found == endOfInput {
		return found
	}
	return fmt.Sprintf("%q", found)
}

// shortText trims a token text to a readable length for Found.
func shortText(s string) string {
	const max = 40
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	r := []rune(s)
	return string(r[:max]) + "…"
}

// oneOf renders a list of alternatives: "A", "A or B", "one of A, B, C".
func oneOf(alts ...string) string {
	switch len(alts) {
	case 0:
		return ""
	case 1:
		return alts[0]
	case 2:
		return alts[0] + " or " + alts[1]
	}
	return "one of " + strings.Join(alts, ", ")
}
