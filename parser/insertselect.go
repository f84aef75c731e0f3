package parser

import "github.com/xwb1989/sqlparser"

// insertSelect converts the query of INSERT / UPSERT INTO t [(cols)] SELECT …
// (a SELECT, a UNION ALL, either in parentheses) into s.Query.
func (c *converter) insertSelect(s *Insert, rows sqlparser.InsertRows) (Statement, error) {
	// Locate errors (and find FROM) from the query's first token on, not the INSERT's.
	c.start = c.queryStart()
	for {
		p, ok := rows.(*sqlparser.ParenSelect)
		if !ok {
			break
		}
		rows = p.Select
	}
	var q Statement
	var err error
	switch n := rows.(type) {
	case *sqlparser.Select:
		q, err = c.selectStmt(n)
	case *sqlparser.Union:
		q, err = c.topUnion(n)
	default:
		return nil, c.unsupported("this INSERT source", "select")
	}
	if err != nil {
		return nil, err
	}
	s.Query = q
	return s, nil
}

// queryStart returns the index of the query's first SELECT in an INSERT:
// the first one outside parentheses, or inside those around the query.
func (c *converter) queryStart() int {
	depth := 0
	for i := c.start; i < len(c.l.toks); i++ {
		t := c.l.toks[i]
		switch {
		case t.typ == '(' && depth == 0 && c.l.parenQuery(i):
			for c.l.toks[i].typ == '(' {
				i++
			}
			return i
		case t.typ == '(':
			depth++
		case t.typ == ')':
			depth--
		case depth == 0 && c.l.isWord(t, "select"):
			return i
		}
	}
	return c.start
}
