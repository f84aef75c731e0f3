package parser

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/xwb1989/sqlparser"
)

// converter turns sqlparser's AST into this package's statements, rejecting
// every field the dialect does not support, so that nothing is dropped.
type converter struct {
	l          *lexed
	start      int // first token of the statement
	lits       []typedLit
	positional bool
	table      TableName
	scope      []string // the qualifiers of a FROM with joins or aliases
	nested     bool     // converting a subquery
	orders     int      // the ORDER BY clauses converted so far
	q          *queryRewrites
	hints      []map[string]string // by the number in a hinted table's stand-in name
	query      bool                // converting a SELECT (where x.y may be a ROW field)

	ctes  map[string]*cteQuery // the WITH names in scope (shapeconv.go)
	outer []string             // the qualifiers of the queries enclosing a subquery
}

// tableHints takes a table name of FROM or JOIN apart: the name as written
// and the OPTIONS hint written after it (nil without one).
func (c *converter) tableHints(x sqlparser.TableName) (TableName, map[string]string) {
	t := tableName(x)
	name, n := unhint(t.Name)
	if n < 0 || n >= len(c.hints) {
		return t, nil
	}
	t.Name = name
	return t, c.hints[n]
}

// unsupportedUse reports a feature the dialect lacks, with advice.
func (c *converter) unsupportedUse(what, advice string, words ...string) error {
	t := c.locate(words...)
	return unsupportedError(c.l.src, t.start, t.text(c.l.src), what+" is not supported; "+advice)
}

// unsupported reports a feature the dialect does not have, located at the
// first token (from the statement start) written as one of words.
func (c *converter) unsupported(what string, words ...string) error {
	t := c.locate(words...)
	return unsupportedError(c.l.src, t.start, t.text(c.l.src), what+" is not supported")
}

// locate finds the first token written as one of words (case-insensitive),
// or the statement's first token.
func (c *converter) locate(words ...string) token {
	for _, t := range c.l.toks[c.start+1:] {
		for _, w := range words {
			if strings.EqualFold(c.l.src[t.start:t.end], w) || (t.quoted && t.val == w) {
				return t
			}
		}
	}
	return c.l.toks[c.start]
}

// locateNode finds the token a node's text starts with: a string literal
// by its value, anything else by its leading word or character.
func (c *converter) locateNode(n sqlparser.SQLNode) token {
	if v, ok := n.(*sqlparser.SQLVal); ok && v.Type == sqlparser.StrVal {
		for _, t := range c.l.toks[c.start+1:] {
			if t.typ == sqlparser.STRING && t.val == string(v.Val) {
				return t
			}
		}
	}
	s := strings.TrimLeft(sqlparser.String(n), "`")
	k := 0
	for k < len(s) && isWordChar(s[k]) {
		k++
	}
	if k == 0 && s != "" {
		k = 1
	}
	return c.locate(s[:k])
}

// itemToken finds the first token of the k-th select item.
func (c *converter) itemToken(k int) token {
	depth, item := 0, 0
	toks := c.l.toks[c.start+1:]
	for i, t := range toks {
		if depth == 0 && item == k {
			return t
		}
		switch {
		case t.typ == '(':
			depth++
		case t.typ == ')':
			depth--
		case t.typ == ',' && depth == 0:
			item++
			if item == k && i+1 < len(toks) {
				return toks[i+1]
			}
		}
	}
	return c.l.toks[c.start]
}

// rowToken finds the '(' opening the k-th row after VALUES.
func (c *converter) rowToken(k int) token {
	depth, row, after := 0, 0, false
	for _, t := range c.l.toks[c.start:] {
		switch {
		case !after:
			after = c.l.isWord(t, "values")
		case t.typ == '(':
			if depth == 0 {
				if row == k {
					return t
				}
				row++
			}
			depth++
		case t.typ == ')':
			depth--
		}
	}
	return c.l.toks[c.start]
}

func (c *converter) nodeErr(n sqlparser.SQLNode, msg string) error {
	t := c.locateNode(n)
	return newError(c.l.src, t.start, t.text(c.l.src), "", msg)
}

// nodeUnsupported refuses the construct node n starts, matching ErrNotSupported.
func (c *converter) nodeUnsupported(n sqlparser.SQLNode, msg string) error {
	t := c.locateNode(n)
	return unsupportedError(c.l.src, t.start, t.text(c.l.src), msg)
}

func (c *converter) statement(tree sqlparser.Statement, upsert bool) (Statement, error) {
	if sel, ok := tree.(*sqlparser.Select); ok {
		if bodies, ids, main, g, ok := c.withParts(sel); ok {
			return c.withQuery(bodies, ids, main, g, true)
		}
	}
	switch n := tree.(type) {
	case *sqlparser.Select:
		return c.selectStmt(n)
	case *sqlparser.Insert:
		return c.insert(n, upsert)
	case *sqlparser.Update:
		return c.update(n)
	case *sqlparser.Delete:
		return c.delete(n)
	case *sqlparser.Union:
		return c.topUnion(n)
	case *sqlparser.ParenSelect:
		return nil, c.unsupported("a parenthesized SELECT", "(")
	}
	return nil, c.unsupported("this statement")
}

func tableName(t sqlparser.TableName) TableName {
	return TableName{Database: t.Qualifier.String(), Name: t.Name.String()}
}

// singleTable extracts the one plain table of a FROM or UPDATE list.
func (c *converter) singleTable(exprs sqlparser.TableExprs) (TableName, error) {
	if len(exprs) != 1 {
		return TableName{}, c.unsupported("more than one table", ",")
	}
	switch te := exprs[0].(type) {
	case *sqlparser.AliasedTableExpr:
		name, ok := te.Expr.(sqlparser.TableName)
		if !ok {
			return TableName{}, c.unsupported("a subquery", "select")
		}
		if len(te.Partitions) > 0 {
			return TableName{}, c.unsupportedUse("PARTITION (…) after a table name", "filter on the partition columns instead", "partition")
		}
		if !te.As.IsEmpty() {
			return TableName{}, c.unsupported("a table alias", "as", te.As.String())
		}
		if te.Hints != nil {
			return TableName{}, c.unsupported("an index hint", "use", "ignore", "force")
		}
		t, _ := c.tableHints(name)
		return t, nil
	case *sqlparser.JoinTableExpr:
		return TableName{}, c.unsupported("JOIN", "join", "straight_join", "left", "right", "natural")
	}
	return TableName{}, c.unsupported("a parenthesized table list", "(")
}

func (c *converter) selectStmt(n *sqlparser.Select) (Statement, error) {
	switch {
	case n.Cache != "":
		return nil, c.unsupported(strings.ToUpper(strings.TrimSpace(n.Cache)), strings.TrimSpace(n.Cache))
	case n.Hints != "":
		return nil, c.unsupported("STRAIGHT_JOIN", "straight_join")
	case n.Lock != "":
		return nil, c.unsupported("a locking clause", "for", "lock")
	}
	hasFrom := c.hasFrom(n)
	c.query = true
	s := &Select{Distinct: n.Distinct != ""}
	var err error
	if hasFrom {
		if s.Table, s.Hints, s.From, err = c.fromClause(n.From); err != nil {
			return nil, err
		}
	}
	c.scope = nil
	if s.From != nil {
		c.scope = fromNames(s.From)
	}
	c.table = s.Table
	for k, se := range n.SelectExprs {
		itemErr := func(msg string) error {
			t := c.itemToken(k)
			return newError(c.l.src, t.start, t.text(c.l.src), "", msg)
		}
		var it SelectItem
		switch x := se.(type) {
		case *sqlparser.StarExpr:
			if !hasFrom {
				return nil, itemErr("* needs a FROM clause")
			}
			star := &Star{}
			if !x.TableName.IsEmpty() {
				q := tableName(x.TableName)
				if ok, names := c.qualifierOK(q); !ok {
					return nil, itemErr(q.String() + ".* names none of the statement's tables (" + names + ")")
				}
				star.Table = q.Name
			}
			it.Expr = star
		case *sqlparser.AliasedExpr:
			it.Alias = x.As.String()
			if it.Expr, err = c.expr(x.Expr); err != nil {
				return nil, err
			}
		default:
			t := c.itemToken(k)
			return nil, unsupportedError(c.l.src, t.start, t.text(c.l.src), "this select item is not supported")
		}
		s.Items = append(s.Items, it)
	}
	if n.Where != nil {
		if s.Where, err = c.condition(n.Where.Expr); err != nil {
			return nil, err
		}
	}
	for _, g := range n.GroupBy {
		x, err := c.expr(g)
		if err != nil {
			return nil, err
		}
		s.GroupBy = append(s.GroupBy, x)
	}
	if n.Having != nil {
		if s.Having, err = c.condition(n.Having.Expr); err != nil {
			return nil, err
		}
	}
	if err := c.orderLimit(s, n.OrderBy, n.Limit); err != nil {
		return nil, err
	}
	return s, nil
}

// hasFrom reports whether a SELECT has a FROM clause: at the top level
// from the tokens (sqlparser reads no FROM as FROM dual), in a subquery
// from the tree.
func (c *converter) hasFrom(n *sqlparser.Select) bool {
	if c.nested {
		if len(n.From) == 1 {
			if te, ok := n.From[0].(*sqlparser.AliasedTableExpr); ok {
				if name, ok := te.Expr.(sqlparser.TableName); ok && name.Qualifier.IsEmpty() && strings.EqualFold(name.Name.String(), "dual") {
					return false
				}
			}
		}
		return true
	}
	depth := 0
	for _, t := range c.l.toks[c.start:] {
		switch {
		case t.typ == '(':
			depth++
		case t.typ == ')':
			depth--
		case depth == 0 && c.l.isWord(t, "from"):
			return true
		}
	}
	return false
}

// orderLimit converts ORDER BY and LIMIT into s.
func (c *converter) orderLimit(s *Select, order sqlparser.OrderBy, limit *sqlparser.Limit) error {
	var err error
	// ORDER BYs are converted in the order they are written (a subquery in FROM
	// before its statement's ORDER BY, UNION ALL members before the union's).
	n := c.orders
	if len(order) > 0 {
		c.orders++
	}
	for k, o := range order {
		x, err := c.expr(o.Expr)
		if err != nil {
			return err
		}
		nulls := c.q.nulls[[2]int{n, k}]
		s.OrderBy = append(s.OrderBy, OrderItem{Expr: x, Desc: o.Direction == sqlparser.DescScr, Nulls: nulls})
	}
	if limit != nil {
		if limit.Offset != nil {
			if s.Offset, err = c.limit(limit.Offset, "OFFSET"); err != nil {
				return err
			}
		}
		if s.Limit, err = c.limit(limit.Rowcount, "LIMIT"); err != nil {
			return err
		}
	}
	return nil
}

func (c *converter) limit(e sqlparser.Expr, what string) (Expr, error) {
	v, err := c.value(e)
	if err != nil {
		return nil, err
	}
	switch lit := v.(type) {
	case *Placeholder:
		return v, nil
	case *Literal:
		if lit.Kind == LitInt && !strings.HasPrefix(lit.Value, "-") {
			if _, err := strconv.ParseInt(lit.Value, 10, 64); err == nil {
				return v, nil
			}
		}
	}
	return nil, c.nodeErr(e, what+" takes a non-negative integer or a placeholder")
}

func (c *converter) insert(n *sqlparser.Insert, upsert bool) (Statement, error) {
	switch {
	case n.Ignore != "":
		return nil, c.unsupported("INSERT IGNORE", "ignore")
	case len(n.Partitions) > 0:
		return nil, c.unsupported("PARTITION (…) in INSERT", "partition")
	case n.OnDup != nil:
		return nil, c.unsupportedUse("ON DUPLICATE KEY UPDATE", "use UPSERT INTO", "on")
	}
	s := &Insert{Table: tableName(n.Table), Upsert: upsert}
	c.table = s.Table
	if n.Columns != nil {
		if len(n.Columns) == 0 {
			return nil, c.unsupported("an empty column list", "(")
		}
		seen := map[string]bool{}
		s.Columns = []string{}
		for _, col := range n.Columns {
			name := col.String()
			if seen[name] {
				t := c.locate(name)
				return nil, newError(c.l.src, t.start, t.text(c.l.src), "", "column "+QuoteIdent(name)+" is listed twice")
			}
			seen[name] = true
			s.Columns = append(s.Columns, name)
		}
	}
	rows, ok := n.Rows.(sqlparser.Values)
	if !ok {
		return c.insertSelect(s, n.Rows)
	}
	for k, tuple := range rows {
		rowErr := func(msg string) error {
			t := c.rowToken(k)
			return newError(c.l.src, t.start, t.text(c.l.src), "", msg)
		}
		switch {
		case len(tuple) == 0:
			t := c.rowToken(k)
			return nil, unsupportedError(c.l.src, t.start, t.text(c.l.src), "an empty VALUES row is not supported")
		case s.Columns != nil && len(tuple) != len(s.Columns):
			return nil, rowErr(fmt.Sprintf("VALUES row %d has %d value(s) for %d column(s)", k+1, len(tuple), len(s.Columns)))
		case len(s.Rows) > 0 && len(tuple) != len(s.Rows[0]):
			return nil, rowErr(fmt.Sprintf("VALUES row %d has %d value(s), row 1 has %d", k+1, len(tuple), len(s.Rows[0])))
		}
		row := make([]Expr, len(tuple))
		for k, e := range tuple {
			v, err := c.value(e)
			if err != nil {
				return nil, err
			}
			row[k] = v
		}
		s.Rows = append(s.Rows, row)
	}
	return s, nil
}

func (c *converter) update(n *sqlparser.Update) (Statement, error) {
	switch {
	case n.OrderBy != nil:
		return nil, c.unsupported("ORDER BY in UPDATE", "order")
	case n.Limit != nil:
		return nil, c.unsupported("LIMIT in UPDATE", "limit")
	}
	s := &Update{}
	var err error
	if s.Table, err = c.singleTable(n.TableExprs); err != nil {
		return nil, err
	}
	c.table = s.Table
	seen := map[string]bool{}
	for _, ue := range n.Exprs {
		col, err := c.column(ue.Name)
		if err != nil {
			return nil, err
		}
		name := col.(*ColumnRef).Name
		if seen[name] {
			return nil, c.nodeErr(ue.Name, "column "+QuoteIdent(name)+" is set twice")
		}
		seen[name] = true
		v, err := c.value(ue.Expr)
		if err != nil {
			return nil, err
		}
		s.Set = append(s.Set, Assignment{Column: name, Value: v})
	}
	if n.Where == nil {
		last := c.l.toks[len(c.l.toks)-1]
		return nil, syntaxError(c.l.src, last.end, endOfInput, "WHERE (UPDATE needs a WHERE clause)")
	}
	if s.Where, err = c.condition(n.Where.Expr); err != nil {
		return nil, err
	}
	return s, nil
}

func (c *converter) delete(n *sqlparser.Delete) (Statement, error) {
	switch {
	case len(n.Targets) > 0:
		return nil, c.unsupported("multi-table DELETE", "delete")
	case len(n.Partitions) > 0:
		return nil, c.unsupported("PARTITION (…) in DELETE", "partition")
	case n.OrderBy != nil:
		return nil, c.unsupported("ORDER BY in DELETE", "order")
	case n.Limit != nil:
		return nil, c.unsupported("LIMIT in DELETE", "limit")
	}
	s := &Delete{}
	var err error
	if s.Table, err = c.singleTable(n.TableExprs); err != nil {
		return nil, err
	}
	c.table = s.Table
	if n.Where == nil {
		last := c.l.toks[len(c.l.toks)-1]
		return nil, syntaxError(c.l.src, last.end, endOfInput, "WHERE (DELETE needs a WHERE clause)")
	}
	if s.Where, err = c.condition(n.Where.Expr); err != nil {
		return nil, err
	}
	return s, nil
}
