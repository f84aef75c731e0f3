package parser

import (
	"regexp"
	"strconv"
	"strings"
)

// sqlparser's generated parser only says "syntax error". To tell the user
// what would have been accepted, expectedAt re-parses the text before the
// offending token followed by each candidate token of the dialect and keeps
// the candidates the grammar accepts. Only the dialect's own tokens are
// tried, so the list names nothing the dialect rejects later on; it costs a
// few dozen parses, on the error path only.

type candidate struct {
	label, text string
}

var candidates = []candidate{
	{"an identifier", "x"}, {"a value", "1"},
	{"FROM", "from"}, {"WHERE", "where"}, {"LIMIT", "limit"}, {"INTO", "into"}, {"VALUES", "values"},
	{"SET", "set"}, {"AND", "and"}, {"OR", "or"}, {"NOT", "not"}, {"IN", "in"}, {"BETWEEN", "between"},
	{"IS", "is"}, {"LIKE", "like"}, {"NULL", "null"},
	{"'='", "="}, {"'('", "("}, {"')'", ")"}, {"','", ","},
}

var clauseOf = map[string]bool{"from": true, "where": true, "limit": true, "into": true, "values": true, "set": true}

var positionRe = regexp.MustCompile(`at position (\d+)`)

// accepts reports whether the grammar accepts tok right after prefix.
func accepts(prefix, tok string) bool {
	text := prefix + " " + tok + "  "
	_, err := parseStrict(text)
	if err == nil {
		return true
	}
	m := positionRe.FindStringSubmatch(err.Error())
	if m == nil {
		return false
	}
	pos, _ := strconv.Atoi(m[1])
	// A rejected candidate fails at its own end (Position = end + 1); an
	// accepted one fails later, at the latest at the end of the text.
	return pos-1 > len(prefix)+1+len(tok)
}

// clauseWords are the clause keywords of each statement, in order. A clause
// keyword is offered only by the statement that has it and only until it
// has appeared (sqlparser would also accept VALUES(col) in expressions).
var clauseWords = map[string][]string{
	"select": {"from", "where", "limit"},
	"insert": {"into", "values"},
	"update": {"set", "where"},
	"delete": {"from", "where"},
}

// expectedAt lists what the grammar accepts at byte off of the lexed
// (rewritten) text. sqlparser lets a SELECT go without FROM; the dialect
// does not, so before FROM only the select list and FROM are offered.
func expectedAt(rl *lexed, off int) string {
	prefix := strings.TrimRight(rl.src[:off], " ")
	kind := strings.ToLower(rl.src[rl.toks[0].start:rl.toks[0].end])
	offer := map[string]bool{}
	for _, w := range clauseWords[kind] {
		offer[w] = true
	}
	for _, t := range rl.toks {
		if t.start < off && rl.isWordTok(t) {
			delete(offer, strings.ToLower(rl.src[t.start:t.end]))
		}
	}
	needFrom := kind == "select" && offer["from"]
	var alts []string
	for _, c := range candidates {
		if _, clause := clauseOf[c.text]; clause && !offer[c.text] {
			continue
		}
		if needFrom && (c.text == "where" || c.text == "limit") {
			continue
		}
		if accepts(prefix, c.text) {
			alts = append(alts, c.label)
		}
	}
	if _, err := parseStrict(prefix); err == nil && !needFrom {
		alts = append(alts, "end of statement")
	}
	return oneOf(alts...)
}
