package parser

import (
	"strings"

	"github.com/xwb1989/sqlparser"
)

// jsonClauseFunc names the stand-in of a clause of JSON_VALUE, JSON_QUERY or
// JSON_EXISTS: __flussql_json_clause('NULL ON EMPTY'), or with the default
// of DEFAULT x ON EMPTY: __flussql_json_clause('DEFAULT ON EMPTY', x).
const jsonClauseFunc = reservedPrefix + "json_clause"

// jsonClauseStarts are the words that start a clause after the path.
var jsonClauseStarts = []string{"returning", "without", "with", "null", "error", "default", "empty", "true", "false", "unknown"}

// rewriteJSONClauses rewrites the clauses after the path of the JSON function whose
// parentheses open at token open. Each clause's words become one stand-in argument;
// a DEFAULT's expression stays in place, as the stand-in's second argument.
func (l *lexed) rewriteJSONClauses(open int, rw *rewrite) error {
	end := l.closing(open)
	if end < 0 {
		return nil
	}
	depth, comma, start := 0, -1, -1
	for j := open; j < end && start < 0; j++ {
		t := l.toks[j]
		switch {
		case t.typ == '(':
			depth++
		case t.typ == ')':
			depth--
		case depth != 1 || t.quoted:
		case t.typ == ',' && comma < 0:
			comma = j
		case comma >= 0 && j > comma+1 && l.isClauseStart(j):
			start = j
		}
	}
	if start < 0 {
		return nil
	}
	j := start
	for j < end {
		w := strings.ToLower(l.toks[j].text(l.src))
		if w == "default" {
			// DEFAULT x ON EMPTY|ERROR: x runs to the ON at the top level.
			on, d := -1, 0
			for k := j + 1; k < end && on < 0; k++ {
				switch t := l.toks[k]; {
				case t.typ == '(':
					d++
				case t.typ == ')':
					d--
				case d == 0 && l.isWord(t, "on") && k+1 < end:
					on = k
				}
			}
			if on < 0 || on == j+1 {
				return newError(l.src, l.toks[j].start, l.toks[j].text(l.src), "", "write DEFAULT value ON EMPTY or DEFAULT value ON ERROR")
			}
			what := strings.ToUpper(l.toks[on+1].text(l.src))
			rw.add(l.toks[j].start, l.toks[j].end, ", "+jsonClauseFunc+"('DEFAULT ON "+what+"', ")
			rw.add(l.toks[on].start, l.toks[on+1].end, ")")
			j = on + 2
			continue
		}
		// Words up to the clause's last one: ON EMPTY, ON ERROR, WRAPPER, or RETURNING's type.
		k := j
		var words []string
		for k < end {
			t := l.toks[k]
			if t.typ == '(' { // RETURNING DECIMAL(5, 2), ARRAY<STRING>: taken whole
				c := l.closing(k)
				if c < 0 || c > end {
					break
				}
				words = append(words, l.src[t.start:l.toks[c].end])
				k = c + 1
				continue
			}
			words = append(words, l.src[t.start:t.end])
			k++
			last := strings.ToLower(words[len(words)-1])
			if last == "wrapper" || (last == "empty" || last == "error") && len(words) > 1 && strings.EqualFold(words[len(words)-2], "on") {
				break
			}
			if strings.EqualFold(words[0], "returning") && len(words) > 1 && k < end && l.isClauseStart(k) && !l.isWord(l.toks[k], "with") {
				break
			}
		}
		text := strings.ToUpper(strings.Join(words, " "))
		text = strings.ReplaceAll(text, "'", "''")
		rw.add(l.toks[j].start, l.toks[k-1].end, ", "+jsonClauseFunc+"('"+text+"')")
		j = k
	}
	return nil
}

// isClauseStart reports whether token j is a word that starts a JSON clause.
func (l *lexed) isClauseStart(j int) bool {
	t := l.toks[j]
	if t.quoted || !l.isWordTok(t) && t.typ != sqlparser.NULL && t.typ != sqlparser.DEFAULT {
		return false
	}
	for _, w := range jsonClauseStarts {
		if l.isWord(t, w) {
			return true
		}
	}
	return false
}

// JSONClause is a clause of JSON_VALUE, JSON_QUERY or JSON_EXISTS after the path, kept as
// a trailing argument: Text in upper case (RETURNING INT, NULL ON EMPTY, DEFAULT ON
// ERROR, WITH CONDITIONAL ARRAY WRAPPER, …), Default the value of a DEFAULT clause.
type JSONClause struct {
	Text    string
	Default Expr
}

func (*JSONClause) expr() {}

// String renders the clause as written.
func (c *JSONClause) String() string {
	if c.Default != nil {
		return "DEFAULT " + c.Default.String() + strings.TrimPrefix(c.Text, "DEFAULT")
	}
	return c.Text
}

// jsonClause converts the stand-in of a JSON clause; ok is false for other calls.
func (c *converter) jsonClause(name string, n *sqlparser.FuncExpr) (Expr, bool, error) {
	if name != jsonClauseFunc {
		return nil, false, nil
	}
	var args []Expr
	for _, se := range n.Exprs {
		ae, ok := se.(*sqlparser.AliasedExpr)
		if !ok {
			return nil, true, c.nodeErr(n, "a JSON clause takes a value")
		}
		x, err := c.expr(ae.Expr)
		if err != nil {
			return nil, true, err
		}
		args = append(args, x)
	}
	lit, ok := args[0].(*Literal)
	if !ok || len(args) > 2 {
		return nil, true, c.nodeErr(n, "a JSON clause takes a value")
	}
	out := &JSONClause{Text: lit.Value}
	if len(args) == 2 {
		out.Default = args[1]
	}
	return out, true, nil
}

// jsonWrapperAt reports whether token k (a WITH) starts JSON_QUERY's WITH [CONDITIONAL |
// UNCONDITIONAL] [ARRAY] WRAPPER.
func (l *lexed) jsonWrapperAt(k int) bool {
	if k+1 >= len(l.toks) {
		return false
	}
	n := l.toks[k+1]
	return l.isWord(n, "conditional") || l.isWord(n, "unconditional") || l.isWord(n, "array") || l.isWord(n, "wrapper")
}
