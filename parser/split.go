package parser

import "errors"

// Piece is one statement of a script, as cut by Split.
type Piece struct {
	// Text is the statement without its terminating ';' and without
	// surrounding blanks (comments inside or before it are kept).
	Text string
	// Offset is the byte offset of Text in the script; Line and Column
	// (1-based, the column in characters) its position.
	Offset       int
	Line, Column int
	// Terminated reports whether a ';' ended the statement. It is false for
	// a last statement without ';' and for one that ends inside a string,
	// quoted identifier or comment — a shell then reads more input.
	Terminated bool
}

// Split cuts a script into statements at each ';' that is outside string
// literals, quoted identifiers and comments, following the tokenizer's
// rules: '…' with doubled quotes (a backslash is an ordinary character, as
// in Flink SQL), "…" with doubled quotes and backslash escapes, `…` with
// doubled backticks, comments -- …, # …, // … to the end of the line and
// /* … */. Pieces holding only blanks and comments are left out.
func Split(script string) []Piece {
	var out []Piece
	start := 0    // start of the current piece
	code := false // the current piece has something besides comments
	emit := func(end int, terminated bool) {
		if code {
			lo, hi := start, end
			for lo < hi && isBlank(script[lo]) {
				lo++
			}
			for hi > lo && isBlank(script[hi-1]) {
				hi--
			}
			line, col := position(script, lo)
			out = append(out, Piece{Text: script[lo:hi], Offset: lo, Line: line, Column: col, Terminated: terminated})
		}
		code = false
	}
	n := len(script)
	for i := 0; i < n; {
		c := script[i]
		switch {
		case c == ';':
			emit(i, true)
			i++
			start = i
			continue
		case c == '\'' || c == '"' || c == '`':
			code = true
			i = skipQuoted(script, i)
			continue
		case c == '#', c == '-' && i+1 < n && script[i+1] == '-', c == '/' && i+1 < n && script[i+1] == '/':
			for i < n && script[i] != '\n' {
				i++
			}
			continue
		case c == '/' && i+1 < n && script[i+1] == '*':
			i += 2
			for i < n && !(script[i] == '*' && i+1 < n && script[i+1] == '/') {
				i++
			}
			if i >= n { // unterminated comment: the rest is one open piece
				emit(n, false)
				return out
			}
			i += 2
			continue
		case !isBlank(c):
			code = true
		}
		i++
	}
	emit(n, false)
	return out
}

// skipQuoted returns the offset after the quoted text starting at i, or
// len(s) when it is not closed.
func skipQuoted(s string, i int) int {
	q := s[i]
	for i++; i < len(s); i++ {
		switch {
		case s[i] == '\\' && q == '"': // in '…' a backslash is an ordinary character (Flink SQL)
			i++
		case s[i] == q:
			if i+1 < len(s) && s[i+1] == q {
				i++
				continue
			}
			return i + 1
		}
	}
	return len(s)
}

// Parse parses the piece; an *Error's Line, Column and Offset are made
// relative to the whole script.
func (p Piece) Parse() (Statement, error) {
	st, err := Parse(p.Text)
	var pe *Error
	if errors.As(err, &pe) {
		shifted := *pe
		if shifted.Line == 1 {
			shifted.Column += p.Column - 1
		}
		shifted.Line += p.Line - 1
		shifted.Offset += p.Offset
		return nil, &shifted
	}
	return st, err
}
