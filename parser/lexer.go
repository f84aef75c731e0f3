package parser

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/xwb1989/sqlparser"
)

// token is one lexical token of the statement text, produced by
// sqlparser's Tokenizer so that every path of the parser lexes alike.
type token struct {
	typ        int    // sqlparser token constant, or the ASCII code of punctuation; 0 at the end
	val        string // unquoted/unescaped value; keywords lower-cased; '?' becomes ":vN"
	start, end int    // byte offsets into the source
	quoted     bool   // a `backticked` identifier
	virtual    bool   // a bare name with a virtual-table suffix (orders$changelog), see virtualSuffix
}

// eofTok is the token past the last one.
func eofTok(src string) token { return token{typ: 0, start: len(src), end: len(src)} }

// text is the token as written in src.
func (t token) text(src string) string {
	if t.typ == 0 {
		return endOfInput
	}
	return shortText(src[t.start:t.end])
}

// lexed is a tokenized statement: significant tokens and comments apart.
type lexed struct {
	src      string
	toks     []token // no comments
	comments []token
}

// lex tokenizes src with sqlparser's Tokenizer and recovers byte offsets:
// after Scan the tokenizer holds exactly one byte of lookahead, so a token
// ends at Position-1, and starts at the first non-blank byte after the
// previous token. lexer_test.go pins this invariant.
func lex(src string) (l *lexed, err error) {
	defer recoverInto(src, &err)
	// A backslash in a '…' string is an ordinary character, as in Flink SQL
	// (sqlparser's tokenizer, MySQL's, reads it as an escape): the tokenizer
	// lexes a copy with those backslashes masked, and the values of such
	// strings are taken from the source.
	scan := maskStringBackslashes(src)
	tk := sqlparser.NewStringTokenizer(scan)
	out := &lexed{src: src}
	prev := 0
	base := 0 // offset of the tokenizer's input in src (it restarts after a bracket)
	for {
		// The tokenizer re-lexes the inside of /*! … */ and panics on some
		// of them; such comments are rejected before it sees them.
		next := prev
		for next < len(src) && isBlank(src[next]) {
			next++
		}
		if strings.HasPrefix(src[next:], "/*!") {
			end := strings.Index(src[next:], "*/")
			if end < 0 {
				end = len(src) - next
			} else {
				end += 2
			}
			return nil, unsupportedError(src, next, shortText(src[next:next+end]),
				"MySQL-specific comments /*! … */ are not supported")
		}
		typ, val := tk.Scan()
		end := base + tk.Position - 1
		if end > len(src) {
			end = len(src)
		}
		if end < prev {
			end = prev
		}
		start := prev
		for start < end && isBlank(src[start]) {
			start++
		}
		if typ == 0 {
			return out, nil
		}
		if typ == sqlparser.LEX_ERROR && start < len(src) && (src[start] == '[' || src[start] == ']') {
			// sqlparser has no brackets; ARRAY[…] and MAP[…] need them (see
			// constructor.go). Keep the bracket and lex on after it.
			out.toks = append(out.toks, token{typ: int(src[start]), val: src[start : start+1], start: start, end: start + 1})
			prev = start + 1
			tk = sqlparser.NewStringTokenizer(scan[prev:])
			base = prev
			continue
		}
		if typ == sqlparser.LEX_ERROR {
			if n := out.virtualSuffix(start); n > 0 {
				// name$changelog: one identifier (sqlparser has no '$' in names).
				// Merge it with the name before and lex on after it.
				last := &out.toks[len(out.toks)-1]
				last.val = src[last.start:last.end] + strings.ToLower(src[start:start+n])
				last.typ = sqlparser.ID
				last.end = start + n
				last.quoted, last.virtual = true, true
				prev = start + n
				tk = sqlparser.NewStringTokenizer(scan[prev:])
				base = prev
				continue
			}
			return nil, lexError(src, start, end)
		}
		if typ == sqlparser.STRING && start < len(src) && src[start] == '"' {
			return nil, doubleQuoteError(src, start, end, string(val))
		}
		t := token{typ: typ, val: string(val), start: start, end: end}
		if typ == sqlparser.STRING && strings.ContainsRune(src[start:end], '\\') {
			t.val = strings.ReplaceAll(src[start+1:end-1], "''", "'")
		}
		t.quoted = typ == sqlparser.ID && start < len(src) && src[start] == '`'
		if typ == sqlparser.COMMENT {
			out.comments = append(out.comments, t)
		} else {
			out.toks = append(out.toks, t)
		}
		prev = end
	}
}

// recoverInto turns a panic inside sqlparser (unmaintained code that the
// fuzz target has caught panicking before) into an *Error, so that no input
// can crash the caller.
func recoverInto(src string, err *error) {
	if r := recover(); r != nil {
		*err = newError(src, 0, shortText(src), "", fmt.Sprintf("internal error while parsing: %v", r))
	}
}

func isBlank(c byte) bool { return c == ' ' || c == '\n' || c == '\r' || c == '\t' }

// lexError describes a LEX_ERROR token spanning src[start:end].
func lexError(src string, start, end int) *Error {
	if start >= len(src) {
		return syntaxError(src, len(src), endOfInput, "")
	}
	text := shortText(src[start:end])
	var msg string
	switch c := src[start]; {
	case c == '\'' || c == '"':
		msg = "unterminated string literal"
	case c == '`':
		msg = "unterminated or empty quoted identifier"
	case strings.HasPrefix(src[start:], "/*"):
		msg = "unterminated comment"
	case c >= '0' && c <= '9' || c == '.':
		for end < len(src) && isWordChar(src[end]) {
			end++
		}
		text = shortText(src[start:end])
		msg = "malformed number " + quoteFound(text)
	case c == ':':
		msg = "malformed named placeholder " + quoteFound(text) + " (write :name)"
	case (c == 'x' || c == 'X' || c == 'b' || c == 'B') && start+1 < len(src) && src[start+1] == '\'':
		msg = "malformed hex or bit literal " + quoteFound(text)
	default:
		r, _ := utf8.DecodeRuneInString(src[start:])
		text = string(r)
		msg = "unexpected character " + quoteFound(text)
		if r == '$' && start+1 < len(src) && src[start+1] >= '0' && src[start+1] <= '9' {
			end := start + 1
			for end < len(src) && src[end] >= '0' && src[end] <= '9' {
				end++
			}
			text = src[start:end]
			msg = "unexpected " + quoteFound(text) + ": flussql has no $n placeholders; write ? (bound by position) or :name (bound by name, e.g. with sql.Named)"
		} else if r >= utf8.RuneSelf || r == '$' {
			msg += " (identifiers with such characters must be quoted in backticks)"
		}
	}
	return newError(src, start, text, "", msg)
}

// doubleQuoteError refuses a double-quoted token: MySQL reads "x" as a
// string and PostgreSQL as an identifier, so either reading would silently
// be wrong for half of the users. Flink SQL has neither: identifiers are
// quoted in backticks and strings in single quotes.
func doubleQuoteError(src string, start, end int, inner string) *Error {
	text := shortText(src[start:end])
	return newError(src, start, text, "", fmt.Sprintf(
		"double quotes are not SQL quotes here: write `%s` (backticks) for an identifier or '%s' (single quotes) for a string",
		strings.ReplaceAll(inner, "`", "``"), strings.ReplaceAll(inner, "'", "''")))
}

// VirtualSuffixes are the suffixes of Fluss's virtual tables: t$changelog
// (every change of t, with its change type, log offset and commit time) and
// t$binlog (the changes of a primary-key table as before/after images).
var VirtualSuffixes = []string{"$changelog", "$binlog"}

// virtualSuffix returns the length of the virtual-table suffix at src[at:]
// when it directly follows a bare identifier (orders$changelog), else 0.
func (l *lexed) virtualSuffix(at int) int {
	if len(l.toks) == 0 {
		return 0
	}
	last := l.toks[len(l.toks)-1]
	if last.end != at || last.quoted || !isIdentWord(l.src[last.start:last.end]) {
		return 0
	}
	for _, suf := range VirtualSuffixes {
		n := len(suf)
		if at+n <= len(l.src) && strings.EqualFold(l.src[at:at+n], suf) && (at+n == len(l.src) || !isWordChar(l.src[at+n])) {
			return n
		}
	}
	return 0
}

// isIdentWord reports whether s is a bare word: a letter or '_' / '@'
// followed by letters, digits, '_' or '@' (what the tokenizer reads as an
// identifier or keyword).
func isIdentWord(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '@'
		if !letter && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// isWordChar reports whether c may appear inside a bare word.
func isWordChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '@'
}

// isWordTok reports whether t is an unquoted word (identifier or keyword).
func (l *lexed) isWordTok(t token) bool {
	return t.typ != 0 && !t.quoted && isIdentWord(l.src[t.start:t.end])
}

// isWord reports whether t is the unquoted word w (case-insensitive).
func (l *lexed) isWord(t token, w string) bool {
	return l.isWordTok(t) && strings.EqualFold(l.src[t.start:t.end], w)
}

// identValue returns the identifier t names, keeping its case: backticked
// names unescaped, bare words as written. ok is false for non-identifiers.
func (l *lexed) identValue(t token) (string, bool) {
	if t.quoted {
		return t.val, true
	}
	if l.isWordTok(t) {
		return l.src[t.start:t.end], true
	}
	return "", false
}

// isPositional reports whether a VALUE_ARG token was written as '?'.
func (l *lexed) isPositional(t token) bool {
	return t.typ == sqlparser.VALUE_ARG && l.src[t.start] == '?'
}

// maskStringBackslashes returns src with every backslash inside a '…'
// string replaced by another character (src itself when there is none),
// so that sqlparser's tokenizer, which reads a backslash as an escape, finds
// the strings' ends where Flink SQL does: there a backslash is an ordinary
// character and only a doubled quote stands for a quote. Comments, `identifiers` and
// "…" (which the parser refuses) are skipped as the tokenizer skips them.
func maskStringBackslashes(src string) string {
	if !strings.ContainsRune(src, '\\') {
		return src
	}
	var out []byte
	n := len(src)
	for i := 0; i < n; {
		c := src[i]
		switch {
		case c == '#', c == '-' && i+1 < n && src[i+1] == '-', c == '/' && i+1 < n && src[i+1] == '/':
			for i < n && src[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < n && src[i+1] == '*':
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				return stringOr(out, src)
			}
			i += end + 4
		case c == '`' || c == '"':
			for i++; i < n; i++ {
				if c == '"' && src[i] == '\\' {
					i++
				} else if src[i] == c {
					if i+1 < n && src[i+1] == c {
						i++
						continue
					}
					break
				}
			}
			i++
		case c == '\'':
			for i++; i < n; i++ {
				if src[i] == '\\' {
					if out == nil {
						out = []byte(src)
					}
					out[i] = '.'
				} else if src[i] == '\'' {
					if i+1 < n && src[i+1] == '\'' {
						i++
						continue
					}
					break
				}
			}
			i++
		default:
			i++
		}
	}
	return stringOr(out, src)
}

func stringOr(b []byte, s string) string {
	if b == nil {
		return s
	}
	return string(b)
}
