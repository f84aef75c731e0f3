package flussql

import (
	"fmt"
	"strings"
)

// An error may quote what the user sent — an identifier, a value, a statement — and the
// server may echo it back: a 1 MB identifier once came back inside a 4 MB error text. Every
// error the driver returns to database/sql is bounded here: a quoted run ("…", '…' or `…`)
// longer than maxQuotedInError keeps its start and end around a note of how much was left
// out, and a text still longer than maxErrorText keeps its start and end likewise. The
// bounded error wraps the original, so errors.Is and errors.As see everything they saw.

const (
	maxQuotedInError = 256
	maxErrorText     = 4096
)

// boundedError is an error whose text was shortened; Unwrap gives the original.
type boundedError struct {
	err  error
	text string
}

func (e *boundedError) Error() string { return e.text }
func (e *boundedError) Unwrap() error { return e.err }

// boundErr returns err, or an error wrapping it whose text is bounded (see above).
func boundErr(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	if len(msg) <= maxQuotedInError {
		return err
	}
	text := boundText(msg)
	if text == msg {
		return err
	}
	return &boundedError{err: err, text: text}
}

// boundText shortens long quoted runs of msg, then msg itself.
func boundText(msg string) string {
	var b strings.Builder
	for i := 0; i < len(msg); {
		c := msg[i]
		if c != '"' && c != '\'' && c != '`' {
			b.WriteByte(c)
			i++
			continue
		}
		end := closingQuote(msg, i)
		if end < 0 {
			b.WriteString(msg[i:])
			break
		}
		b.WriteString(elide(msg[i:end+1], maxQuotedInError))
		i = end + 1
	}
	return elide(b.String(), maxErrorText)
}

// closingQuote is the index of the quote closing the one at msg[open], -1 without one. A
// backslash escapes the next byte (as in Go's %q) and a doubled quote stands for one (as
// in SQL).
func closingQuote(msg string, open int) int {
	q := msg[open]
	for i := open + 1; i < len(msg); i++ {
		switch msg[i] {
		case '\\':
			if q == '"' {
				i++
			}
		case q:
			if i+1 < len(msg) && msg[i+1] == q {
				i++
				continue
			}
			return i
		}
	}
	return -1
}

// elide keeps s when it is at most limit bytes long, else its start and end (on UTF-8
// boundaries) with the number of bytes left out between them.
func elide(s string, limit int) string {
	if len(s) <= limit {
		return s
	}
	head, tail := limit*3/4, limit/8
	for head > 0 && !startsRune(s[head]) {
		head--
	}
	start := len(s) - tail
	for start < len(s) && !startsRune(s[start]) {
		start++
	}
	return fmt.Sprintf("%s…(%d bytes left out)…%s", s[:head], start-head, s[start:])
}

func startsRune(b byte) bool { return b&0xC0 != 0x80 }
