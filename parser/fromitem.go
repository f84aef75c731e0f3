package parser

// opensFromItem reports whether the '(' at token k opens an item of a FROM
// list (a derived table or VALUES): it follows FROM, JOIN or a comma of a
// FROM list. A comma elsewhere — between the arguments of a call, the
// elements of a constructor, the items of a select list or of an IN list —
// is followed by a value: (SELECT …) there is a scalar subquery.
func (l *lexed) opensFromItem(k int) bool {
	if k <= 0 {
		return false
	}
	prev := l.toks[k-1]
	switch {
	case l.isWord(prev, "from") || l.isWord(prev, "join"):
		return true
	case prev.typ == ',':
		return l.inFromList(k - 1)
	}
	return false
}

// fromListEnds holds the words that end a FROM list, or that start a clause
// a FROM list cannot precede at the same depth: reading backwards from a
// comma, meeting one of them before FROM means the comma is not in a FROM list.
var fromListEnds = []string{
	"select", "where", "group", "having", "order", "limit", "offset", "fetch",
	"union", "intersect", "except", "minus", "window", "qualify", "values", "set", "by", "into",
}

// inFromList reports whether the comma at token c separates the items of a
// FROM list: reading backwards at its parenthesis depth (skipping what is in
// parentheses), FROM comes before the start of the enclosing parentheses or
// any word of fromListEnds.
func (l *lexed) inFromList(c int) bool {
	depth := 0
	for k := c - 1; k >= 0; k-- {
		t := l.toks[k]
		switch {
		case t.typ == ')':
			depth++
		case t.typ == '(':
			if depth == 0 {
				return false
			}
			depth--
		case depth > 0 || t.quoted:
		case l.isWord(t, "from"):
			return true
		default:
			for _, w := range fromListEnds {
				if l.isWord(t, w) {
					return false
				}
			}
		}
	}
	return false
}

// refuseFromItem returns the ErrNotSupported error for a FROM item flussql
// does not read, starting at token k: UNNEST(…) and LATERAL (a subquery or
// TABLE(f(…))); nil for any other token.
func (l *lexed) refuseFromItem(k int) error {
	t := l.toks[k]
	if t.quoted || k+1 >= len(l.toks) || !l.opensFromItem(k) {
		return nil
	}
	next := l.toks[k+1]
	switch {
	case l.isWord(t, "unnest") && next.typ == '(':
		return unsupportedError(l.src, t.start, t.text(l.src),
			"UNNEST in FROM (CROSS JOIN UNNEST(arr) AS u(x)) is not supported; read the ARRAY column whole, or its elements with arr[i], CARDINALITY(arr) and the array functions")
	case l.isWord(t, "lateral") && (next.typ == '(' || l.isWord(next, "table")):
		return unsupportedError(l.src, t.start, t.text(l.src),
			"LATERAL subqueries and table functions (LATERAL TABLE(f(x))) are not supported; write the correlated subquery in WHERE or the select list, which flussql decorrelates")
	}
	return nil
}
