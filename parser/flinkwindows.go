package parser

import (
	"strings"

	"github.com/xwb1989/sqlparser"
)

// FlinkWindowQuery is a query — or INSERT … SELECT — that uses Flink SQL's windowing
// table-valued functions: FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL …)), HOP,
// CUMULATE or SESSION. flussql's engine has no event-time windows, so the parser does not
// take such a statement apart: it keeps its text for Flink, which runs it when the DSN
// names a Flink SQL gateway (the planner refuses it otherwise).
type FlinkWindowQuery struct {
	// Text is the statement as written (without a trailing ';').
	Text string
	// Insert is true for INSERT INTO … SELECT: a Flink job rather than rows.
	Insert bool
	// Function is the first windowing function named (TUMBLE, HOP, CUMULATE or SESSION).
	Function string
}

func (*FlinkWindowQuery) statement() {}

// String returns the statement's text.
func (s *FlinkWindowQuery) String() string { return s.Text }

// windowTVFs are Flink's windowing table-valued functions.
var windowTVFs = []string{"tumble", "hop", "cumulate", "session"}

// flinkWindowQuery recognises a statement from token i (SELECT, WITH, INSERT or UPSERT)
// that calls a windowing table-valued function: TABLE ( TUMBLE ( ….
func (l *lexed) flinkWindowQuery(i int) (Statement, bool, error) {
	fn := ""
	for k := i; k+3 < len(l.toks) && fn == ""; k++ {
		if !l.isWord(l.toks[k], "table") || l.toks[k+1].typ != '(' || l.toks[k+3].typ != '(' {
			continue
		}
		for _, f := range windowTVFs {
			if l.isWord(l.toks[k+2], f) {
				fn = strings.ToUpper(f)
			}
		}
	}
	if fn == "" {
		return nil, false, nil
	}
	for _, t := range l.toks[i:] {
		if t.typ == sqlparser.VALUE_ARG {
			return nil, true, unsupportedError(l.src, t.start, t.text(l.src),
				"a query with "+fn+"(…) runs on Flink, whose SQL gateway takes no placeholders: write the values into the statement")
		}
	}
	first, last := l.toks[i], l.toks[len(l.toks)-1]
	return &FlinkWindowQuery{
		Text:     l.src[first.start:last.end],
		Insert:   l.isWord(first, "insert") || l.isWord(first, "upsert"),
		Function: fn,
	}, true, nil
}
